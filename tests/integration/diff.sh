#!/usr/bin/env bash
# abiwatch diff on real snapshots of this kernel: two runs are the same;
# hand edits come out exactly, each with its meaning; a skip the machine
# causes is the environment's; and every kind of broken file is refused
# with its line, exit 2.
set -u
export LC_ALL=C
abiwatch=${ABIWATCH:-./abiwatch}
selftest=${ABIWATCH_SELFTEST:-build/abiwatch-selftest}
work=$(mktemp -d "${TMPDIR:-/tmp}/abiwatch-diff.XXXXXX")
trap 'rm -rf "$work"' EXIT
status=0
ok() { echo "ok   $*"; }
bad() { echo "FAIL $*"; status=1; }
# Like sort(1) but the header stays first: a hand-edited snapshot.
resort() { { head -n 1 "$1"; tail -n +2 "$1" | sort; } >"$1.tmp" && mv "$1.tmp" "$1"; }
run_diff() { # want-status description args...
	local want=$1 what=$2
	shift 2
	"$abiwatch" diff "$@" >"$work/out" 2>"$work/err"
	local got=$?
	[[ $got == "$want" ]] && ok "$what" || { bad "$what: exit $got, want $want"; cat "$work/err"; }
}

# ---- two real runs of every probe are the same ----
"$abiwatch" run -o "$work/a.snap" >/dev/null 2>&1
"$abiwatch" run -o "$work/b.snap" >/dev/null 2>&1
[[ -s $work/a.snap && -s $work/b.snap ]] || { echo "runs wrote no snapshot"; exit 1; }
run_diff 0 "two runs of this kernel: exit 0" "$work/a.snap" "$work/b.snap"
[[ ! -s $work/out && ! -s $work/err ]] && ok "two runs: no output" ||
	{ bad "two runs differ:"; head -n 20 "$work/out"; }
"$abiwatch" diff -f ktap "$work/a.snap" "$work/b.snap" >"$work/same.ktap"
tests/lib/ktap-check "$work/same.ktap" && grep -qx '1..0' "$work/same.ktap" &&
	ok "same: KTAP with an empty plan" || bad "same: KTAP"
"$abiwatch" diff -f json "$work/a.snap" "$work/b.snap" | jq -e '.different == false and (.changes | length) == 0' \
	>/dev/null && ok "same: JSON" || bad "same: JSON"

# ---- hand edits to a real snapshot: exactly those, with meanings ----
# Chosen from what this kernel reported: a numeric observation, a passing
# check, another observation to remove, a key to add.
# Not a compat32 item: those declare their probe as their object (dirent's
# describe the directory its native items do), which a key added by hand
# beside them, known to no catalogue, does not share; where the machine
# runs i386 programs they come first.
num_key=$(grep -E '^obs\.[^ ]+ = [0-9]+$' "$work/b.snap" | grep -v '\.compat32\.' | head -n 1 | cut -d' ' -f1)
num_val=$(grep -m1 -E "^${num_key//./\\.} = " "$work/b.snap" | cut -d' ' -f3)
pass_key=$(grep -m1 -E '^check\.[^ ]+ = pass$' "$work/b.snap" | cut -d' ' -f1)
gone_line=$(grep -E '^obs\.' "$work/b.snap" | grep -v "^$num_key " | tail -n 1)
gone_key=${gone_line%% = *}
gone_val=${gone_line#* = }
new_key=${num_key%.*}.added_by_hand
sed -e "s/^$num_key = .*/$num_key = $((num_val + 1))/" \
    -e "s/^$pass_key = pass/$pass_key = fail: expected EINVAL, got success/" \
    -e "/^${gone_key//./\\.} = /d" "$work/b.snap" >"$work/e.snap"
echo "$new_key = 7" >>"$work/e.snap"
resort "$work/e.snap"
run_diff 1 "edited: exit 1" "$work/a.snap" "$work/e.snap"
cp "$work/out" "$work/edited.txt"
# Changes of one object share a line; --verbose lists each below it
# (a change alone in its object is that line itself).
"$abiwatch" diff --verbose "$work/a.snap" "$work/e.snap" >"$work/edited-v.txt"
"$abiwatch" diff -f json "$work/a.snap" "$work/e.snap" >"$work/e.json"
expect_line() { # prefix of the line, including name and values
	local n
	n=$(grep -cE -- "^  (  )?$(sed 's/[][\.*^$+?(){}|/]/\\&/g' <<<"$1")" "$work/edited-v.txt")
	[[ $n == 1 ]] && ok "shows: $1" || bad "want one line starting '  $1', have $n"
}
expect_line "regressed $pass_key: pass -> fail: expected EINVAL, got success -- "
expect_line "changed   $num_key: $num_val -> $((num_val + 1)) -- "
expect_line "removed   $gone_key (was $gone_val) -- "
expect_line "added     $new_key = 7"
objects=$(jq '.objects | length' "$work/e.json")
[[ $(jq '.summary.kernel_change_items' "$work/e.json") == 4 && $(sed -n 2p "$work/edited.txt") == "kernel changes:" &&
   $(head -n 1 "$work/edited.txt") =~ ^$objects\ kernel\ changes?,\ 1\ new\ failure\ \(.*\)\;\ 0\ items\ not\ comparable$ &&
   $(grep -c '^  ' "$work/edited.txt") == "$objects" ]] &&
	ok "edited: exactly four changes, in $objects objects, and no environment" ||
	{ bad "edited: more than the edits"; cat "$work/edited.txt"; }
[[ $(jq -r --arg k "$num_key" '.objects[] | select(.changes | index($k)) | .changes | index("'"$new_key"'") != null' "$work/e.json") == true ]] &&
	ok "the key added beside $num_key is of its object" || bad "$new_key not in $num_key's object"
grep -q -- "added     $new_key = 7$" "$work/edited-v.txt" && ok "an unknown key has no meaning" ||
	bad "an unknown key got a meaning"
# The meanings of known items are the catalogue's (from list when the item
# has no .change line of its own).
for key in "$pass_key" "$num_key" "$gone_key"; do
	name=${key#*.}
	summary=$("$abiwatch" list "$name" | awk -v n="$name" '$2 == n { $1 = $2 = ""; sub(/^ +/, ""); print }')
	meaning=$("$abiwatch" diff -f json "$work/a.snap" "$work/e.snap" |
		jq -r --arg k "$key" '.changes[] | select(.name == $k) | .meaning')
	[[ -n $meaning && $meaning != null ]] && ok "$key has a meaning: $meaning" || bad "$key: no meaning"
	[[ $meaning == "$summary" ]] || echo "note $key: meaning is the item's .change, not its summary"
done
"$abiwatch" diff -f ktap "$work/a.snap" "$work/e.snap" >"$work/e.ktap"
tests/lib/ktap-check "$work/e.ktap" && grep -qx "1..$objects" "$work/e.ktap" &&
	[[ $(grep -c '^not ok ' "$work/e.ktap") == "$objects" ]] && ok "edited: KTAP, a not ok per object ($objects)" ||
	bad "edited: KTAP"
jq -e '.different == true and ([.changes[].change] | sort) == ["added", "changed", "regressed", "removed"] and
	([.objects[].rank] | index("named") != null)' \
	"$work/e.json" >/dev/null && ok "edited: JSON" || bad "edited: JSON"
run_diff 0 "--ignore every edit: exit 0" --ignore "${pass_key#check.}" --ignore "$num_key" \
	-I "${gone_key#obs.}" --ignore "${new_key%.*}.added_*" "$work/a.snap" "$work/e.snap"
run_diff 1 "--ignore one edit: still different" --ignore "$num_key" "$work/a.snap" "$work/e.snap"
[[ $("$abiwatch" diff -f json --ignore "$num_key" "$work/a.snap" "$work/e.snap" | jq .summary.kernel_change_items) == 3 ]] &&
	ok "--ignore left three" || bad "--ignore: $(cat "$work/out")"

# Exact lines, meanings included, where the items cannot change: the
# selftest family of the test binary.
"$selftest" run selftest.good -o "$work/s1.snap" >/dev/null 2>&1
sed -e 's/^obs.selftest.good.value = .*/obs.selftest.good.value = 43/' \
    -e 's/^check.selftest.good.holds = pass/check.selftest.good.holds = fail: edited/' \
    "$work/s1.snap" >"$work/s2.snap"
"$selftest" diff "$work/s1.snap" "$work/s2.snap" >"$work/s.out"
old_value=$(sed -n 's/^obs.selftest.good.value = //p' "$work/s1.snap")
printf '%s\n' "1 kernel change, 1 new failure (selftest 1); 0 items not comparable" "kernel changes:" \
	"  changed   selftest.good: holds: pass -> fail: edited; value: $old_value -> 43 -- the check each selftest probe reports on" |
	diff -u - "$work/s.out" && ok "selftest edits: exact text, one object" || bad "selftest edits: text differs"
"$selftest" diff --verbose "$work/s1.snap" "$work/s2.snap" >"$work/s.out"
printf '%s\n' "1 kernel change, 1 new failure (selftest 1); 0 items not comparable" "kernel changes:" \
	"  changed   selftest.good: holds: pass -> fail: edited; value: $old_value -> 43 -- the check each selftest probe reports on" \
	"    regressed check.selftest.good.holds: pass -> fail: edited -- the check each selftest probe reports on" \
	"    changed   obs.selftest.good.value: $old_value -> 43 -- the observation the good probe makes" |
	diff -u - "$work/s.out" && ok "selftest edits, --verbose: each change below its object" || bad "selftest --verbose differs"

# ---- a skip caused by the machine is the environment's ----
if grep -q '^probe.mqueue.privileged = skip: needs cap_sys_resource: ' "$work/b.snap"; then
	# As if the old snapshot came from a machine with the capability.
	sed -e 's/^env.caps = \(.*\)/env.caps = \1,cap_sys_resource/' -e 's/^env.caps = none,/env.caps = /' \
	    -e 's/^probe.mqueue.privileged = .*/probe.mqueue.privileged = ran/' \
	    -e 's/^check.mqueue.privileged.\([a-z_]*\) = .*/check.mqueue.privileged.\1 = pass/' \
	    -e 's/^unobserved.mqueue.privileged.queues_ceiling = .*/obs.mqueue.privileged.queues_ceiling = none/' \
	    -e 's/^unobserved.mqueue.privileged.hard_msgmax = .*/obs.mqueue.privileged.hard_msgmax = 65536/' \
	    -e 's/^env.kernel.release = .*/env.kernel.release = 6.1.0-99-cloud-amd64/' \
	    "$work/b.snap" >"$work/root.snap"
	resort "$work/root.snap"
	run_diff 0 "skips for want of a capability: exit 0" "$work/root.snap" "$work/b.snap"
	grep -qx 'environment (not a kernel change):' "$work/out" &&
		grep -qx '  env.caps: lost cap_sys_resource' "$work/out" &&
		grep -q '^  env.kernel.release: 6.1.0-99-cloud-amd64 -> ' "$work/out" &&
		ok "environment shown apart" || { bad "environment section"; cat "$work/out"; }
	want=$(diff <(grep mqueue.privileged "$work/root.snap") <(grep mqueue.privileged "$work/b.snap") | grep -c '^>')
	line="  cap_sys_resource: $want need CAP_SYS_RESOURCE (not on the new side): probe.mqueue.privileged, "
	[[ $(head -n 1 "$work/out") == "0 kernel changes, 0 new failures; $want items not comparable: $want need CAP_SYS_RESOURCE (not on the new side)" ]] &&
		grep -qF -- "$line" "$work/out" && ! grep -qx 'kernel changes:' "$work/out" &&
		ok "all $want privileged skips folded under cap_sys_resource" ||
		{ bad "privileged skips, want $want"; cat "$work/out"; }
	"$abiwatch" diff -f ktap "$work/root.snap" "$work/b.snap" >"$work/env.ktap"
	tests/lib/ktap-check "$work/env.ktap" && ! grep -q '^not ok' "$work/env.ktap" &&
		grep -q '^ok 1 probe.mqueue.privileged # SKIP needs cap_sys_resource: explained by the environment: ' "$work/env.ktap" &&
		ok "KTAP: SKIP for what the environment explains" || bad "KTAP of environment skips"
	# A skip that names its cause is the machine's even where the other
	# side's env.caps does not say it had the capability.
	sed -i 's/,cap_sys_resource$//' "$work/root.snap"
	run_diff 0 "the same skips, no capability difference recorded: still the machine's" "$work/root.snap" "$work/b.snap"
	# Snapshots before causes ("skip: needs CAP_SYS_RESOURCE, ..."): explained
	# by env.caps when it differs, kernel changes when it does not.
	sed 's/= skip: needs cap_sys_resource: CAP_SYS_RESOURCE is not held by this process$/= skip: needs CAP_SYS_RESOURCE, which this process does not hold/' \
		"$work/b.snap" >"$work/old-style.snap"
	run_diff 1 "reasons without a cause and no capability difference: kernel changes" "$work/root.snap" "$work/old-style.snap"
	sed -i 's/^env.caps = \(.*\)/env.caps = \1,cap_sys_resource/' "$work/root.snap"
	run_diff 0 "reasons without a cause, the capability lost: the machine's" "$work/root.snap" "$work/old-style.snap"
else
	echo "skip the environment part: this machine holds CAP_SYS_RESOURCE, the privileged probe runs"
fi

# ---- format versions ----
sed '1s/.*/abiwatch-snapshot 1.7/' "$work/b.snap" >"$work/minor.snap"
run_diff 0 "another minor version: compared" "$work/a.snap" "$work/minor.snap"
format=$(head -n 1 "$work/a.snap" | cut -d' ' -f2)
grep -q "^formats differ: $work/a.snap is format $format, $work/minor.snap is 1.7; both are format 1" \
	"$work/out" && ok "says the formats differ" || { bad "no word on formats"; cat "$work/out"; }

# A snapshot without keys (a run of nothing) is a snapshot too.
printf 'abiwatch-snapshot 1.0\n' >"$work/nokeys.snap"
run_diff 0 "two snapshots without keys" "$work/nokeys.snap" "$work/nokeys.snap"
run_diff 0 "no keys against a real run: nothing was run, no kernel change" "$work/nokeys.snap" "$work/b.snap"
grep -qx '  env.probes: gained .*' "$work/out" && ok "no keys: the probes run are the environment's" ||
	{ bad "no keys: no env.probes"; head -n 3 "$work/out"; }

# ---- probes (filesystems) that only one side tried are the environment's ----
# As a run with --fs limited to fewer filesystems: every key of the others
# goes, and that is the user's choice, not the kernel's.
gone_probe=$(grep -m1 -E '^probe\.dirent\.' "$work/b.snap" | sed 's/^probe\.\([^ ]*\) = .*/\1/')
if [[ -n $gone_probe ]]; then
	grep -v -E "^[a-z]+\.${gone_probe//./\\.}( |\.)" "$work/b.snap" >"$work/fewer.snap"
	gone=$(( $(wc -l <"$work/b.snap") - $(wc -l <"$work/fewer.snap") ))
	run_diff 0 "$gone_probe not tried on one side: exit 0" "$work/b.snap" "$work/fewer.snap"
	grep -qx "  env.probes: lost $gone_probe" "$work/out" &&
		[[ $(head -n 1 "$work/out") == "0 kernel changes, 0 new failures; $gone items not comparable: $gone belong to probes not run on the new side" ]] &&
		! grep -qx 'kernel changes:' "$work/out" && ok "all $gone keys of $gone_probe explained by what was run" ||
		{ bad "untried $gone_probe"; head -n 5 "$work/out"; }
	sed 's/^obs\.\([^ ]*\) = [0-9]\+$/obs.\1 = 99999/' "$work/fewer.snap" >"$work/fewer-edit.snap"
	resort "$work/fewer-edit.snap"
	run_diff 1 "fewer probes and an edited value: still a change" "$work/b.snap" "$work/fewer-edit.snap"
fi

# ---- broken files: exit 2, one line naming file and line, no output ----
refused() { # description file line-fragment message-fragment [which side]
	local what=$1 file=$2 where=$3 msg=$4
	"$abiwatch" diff "$work/a.snap" "$file" >"$work/out" 2>"$work/err"
	local got=$?
	if [[ $got == 2 && ! -s $work/out && $(wc -l <"$work/err") == 1 ]] &&
		grep -qF -- "abiwatch diff: $file$where $msg" "$work/err"; then
		ok "$what: $(cat "$work/err")"
	else
		bad "$what: exit $got"; cat "$work/err"; head -c 300 "$work/out"
	fi
}
line10=$(head -n 10 "$work/b.snap" | wc -c)
head -c $((line10 + 5)) "$work/b.snap" >"$work/trunc.snap"
refused "truncated mid-line" "$work/trunc.snap" ":11:" "expected a newline at the end of the last line"
awk 'NR == 5 { held = $0; next } { print } NR == 6 { print held }' "$work/b.snap" >"$work/reorder.snap"
refused "reordered" "$work/reorder.snap" ":6:" "key '$(sed -n 5p "$work/b.snap" | cut -d' ' -f1)' is out of order"
awk '{ print } NR == 7 { print }' "$work/b.snap" >"$work/dup.snap"
refused "duplicated key" "$work/dup.snap" ":8:" "key '$(sed -n 7p "$work/b.snap" | cut -d' ' -f1)' appears twice"
{ head -n 3 "$work/b.snap"; printf 'obs.x.y.z = \x7fELF\x02\x01\x00\x00\n'; } >"$work/binary.snap"
refused "binary" "$work/binary.snap" ":4:" "a NUL byte: not a text snapshot"
refused "an executable" /bin/true ":1:" "a NUL byte: not a text snapshot"
{ cat "$work/b.snap"; printf 'zzz.huge = '; head -c $((17 << 20)) /dev/zero | tr '\0' x; echo; } >"$work/huge.snap"
refused "huge" "$work/huge.snap" ":$(($(wc -l <"$work/b.snap") + 1)):" "larger than 16 MiB: too large for a snapshot"
: >"$work/empty.snap"
refused "empty" "$work/empty.snap" ":1:" "expected the header 'abiwatch-snapshot MAJOR.MINOR', got an empty file"
sed '1s/.*/abiwatch-snapshot 2.0/' "$work/b.snap" >"$work/major.snap"
refused "another major version" "$work/major.snap" ":1:" "snapshot format 2.0 is not readable by this abiwatch, which reads format 1.x"
sed 's/^\(probe\.[^ ]*\) = ran$/\1 = finished/' "$work/b.snap" >"$work/probe.snap"
l=$(grep -n ' = finished$' "$work/probe.snap" | head -n 1 | cut -d: -f1)
refused "a probe value without a status" "$work/probe.snap" ":$l:" \
	"the value of $(sed -n "${l}p" "$work/probe.snap" | cut -d' ' -f1) must be ran, or skip"
refused "a missing file" "$work/nonexistent.snap" ":" "No such file or directory"
refused "a directory" "$work" ":" "Is a directory"
"$abiwatch" diff "$work/trunc.snap" "$work/b.snap" 2>&1 >/dev/null | grep -qF "$work/trunc.snap:11:" &&
	ok "the OLD side is named too" || bad "OLD side error"

# ---- usage ----
for args in "" "$work/a.snap" "$work/a.snap $work/b.snap $work/b.snap" "--format xml $work/a.snap $work/b.snap" \
	"--frobnicate $work/a.snap $work/b.snap" "--ignore"; do
	# shellcheck disable=SC2086
	"$abiwatch" diff $args >"$work/out" 2>"$work/err"
	got=$?
	[[ $got == 2 && $(wc -l <"$work/err") == 1 && ! -s $work/out ]] && ok "usage '$args': $(cat "$work/err")" ||
		bad "usage '$args': exit $got"
done
"$abiwatch" diff --help | grep -q -- '--ignore GLOB' && ok "diff --help" || bad "diff --help"
exit $status

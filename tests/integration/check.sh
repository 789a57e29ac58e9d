#!/usr/bin/env bash
# abiwatch check: each example of examples/assumptions gives the answer
# this kernel's real behaviour implies, worked out here independently from
# the values its probes reported; only the probes the rules need run;
# exit statuses; bad input named with file, line and column.
set -u
export LC_ALL=C
abiwatch=${ABIWATCH:-./abiwatch}
selftest=${ABIWATCH_SELFTEST:-build/abiwatch-selftest}
examples=examples/assumptions
work=$(mktemp -d "${TMPDIR:-/tmp}/abiwatch-check.XXXXXX")
trap 'rm -rf "$work"' EXIT
status=0
ok() { echo "ok   $*"; }
bad() { echo "FAIL $*"; status=1; }

# The verdict of a quantified "KEY <= LIMIT" over the keys matching the
# extended regex, from a snapshot: what the rule must say.
expected_le() { # snapshot name-regex limit
	awk -v re="^(obs|unobserved)\\.($2) = " -v limit="$3" '
		$0 ~ re { n++
			if ($1 ~ /^unobserved/ || $3 !~ /^[0-9]+$/) unknown++
			else if ($3 + 0 > limit) broken++ }
		END { print broken ? "broken" : (unknown || !n) ? "unknown" : "held" }' "$1"
}
verdict_of() { awk 'NR == 1 { print $1 }' "$1"; }
kernel_at_least() { # major minor
	local r major minor
	r=$(uname -r)
	major=${r%%.*} r=${r#*.} minor=${r%%[!0-9]*}
	((major > $1 || (major == $1 && minor >= $2)))
}
# CAP_SYS_RESOURCE (24) in the effective set, in the initial user namespace.
has_sys_resource() {
	local eff
	eff=$(awk '/^CapEff:/ { print $2 }' /proc/self/status)
	(((0x$eff >> 24) & 1)) && [[ $(awk '{ print $1, $2, $3 }' /proc/self/uid_map) == "0 0 4294967295" ]]
}

# Each example twice: running the probes it needs (-o keeps what they
# saw), then against that snapshot, which must give the same answer.
check_example() { # name
	local f=$examples/$1.assume
	"$abiwatch" check "$f" -o "$work/$1.snap" >"$work/$1.out" 2>"$work/$1.err"
	echo $? >"$work/$1.rc"
	"$abiwatch" check "$f" "$work/$1.snap" >"$work/$1.again" 2>&1
	local again=$?
	cmp -s "$work/$1.out" "$work/$1.again" && [[ $again == $(cat "$work/$1.rc") ]] &&
		ok "$1: the same against its snapshot" || bad "$1: differs against its snapshot"
	echo "     $(verdict_of "$work/$1.out"): $(sed -n 3p "$work/$1.out" | cut -c 10- | cut -c 1-150)"
}
expect_verdict() { # name verdict [detail fragment]
	local got rc want_rc
	got=$(verdict_of "$work/$1.out")
	rc=$(cat "$work/$1.rc")
	want_rc=$(case $2 in held) echo 0 ;; broken) echo 1 ;; *) echo 4 ;; esac)
	if [[ $got == "$2" && $rc == "$want_rc" ]] && { [[ -z ${3:-} ]] || grep -qF -- "$3" "$work/$1.out"; }; then
		ok "$1: $2${3:+ ($3)}"
	else
		bad "$1: $got (exit $rc), want $2${3:+ with '$3'}"
		cat "$work/$1.out" "$work/$1.err"
	fi
}

for name in glusterfs-3.3-dht non-lfs-32bit mqueue-sized-by-msg_max mqueue-over-1024-queues-as-root \
	lsof-pidfd; do
	check_example "$name"
done

# A dual-stack server's bind() rules: held on every kernel since the bhash2
# fixes (the net family's probes, each in a network namespace of its own).
check_example dual-stack-server
expect_verdict dual-stack-server held "12 rules: 12 held"

# GlusterFS 3.3 DHT, 64 bricks: every 64-bit backend cookie + 6 bits <= 64.
if "$abiwatch" list dirent >/dev/null 2>&1; then
	want=$(expected_le "$work/glusterfs-3.3-dht.snap" 'dirent\.[^.]+\.cookie_bits' 58)
	expect_verdict glusterfs-3.3-dht "$want"
	# ext4 hands 64-bit callers 63-bit hash cookies (since 3.4): broken
	# wherever ext4 was observed.
	if grep -q '^obs.dirent.ext4.cookie_bits = ' "$work/glusterfs-3.3-dht.snap"; then
		expect_verdict glusterfs-3.3-dht broken "broken: dirent.ext4.cookie_bits = 63"
	else
		echo "note: ext4 not observed here: $(grep '^unobserved.dirent.ext4.cookie_bits' \
			"$work/glusterfs-3.3-dht.snap" | cut -c 1-160)"
	fi
	want=$(expected_le "$work/non-lfs-32bit.snap" 'dirent\.[^.]+\.compat32\.cookie_bits' 31)
	expect_verdict non-lfs-32bit "$want"
else
	expect_verdict glusterfs-3.3-dht unknown "no probe of this abiwatch"
	expect_verdict non-lfs-32bit unknown "no probe of this abiwatch"
fi

# attr NULL follows msg_max only from 2.6.28 to 3.4.
source=$(sed -n 's/^obs.mqueue.noattr.source = //p' "$work/mqueue-sized-by-msg_max.snap")
if kernel_at_least 3 5; then
	expect_verdict mqueue-sized-by-msg_max broken "mqueue.noattr.source = $source"
	[[ $source == default_knobs ]] && ok "3.5 and later: attr NULL follows the default knobs" ||
		bad "source '$source' on $(uname -r)"
elif kernel_at_least 2 6; then
	expect_verdict mqueue-sized-by-msg_max "$([[ $source == maxima ]] && echo held || echo broken)"
fi

# More than 1024 queues as root: the 3.5 - 3.13 ceiling.
if has_sys_resource; then
	ceiling=$(sed -n 's/^obs.mqueue.privileged.queues_ceiling = //p' "$work/mqueue-over-1024-queues-as-root.snap")
	want=$([[ $ceiling == none || ( -n $ceiling && $ceiling -gt 1024 ) ]] && echo held || echo broken)
	expect_verdict mqueue-over-1024-queues-as-root "$want" "mqueue.privileged.queues_ceiling = $ceiling"
	kernel_at_least 3 14 && [[ $want == held ]] && ok "3.14 and later: no ceiling"
else
	expect_verdict mqueue-over-1024-queues-as-root unknown \
		"mqueue.privileged.queues_ceiling: skip: needs cap_sys_resource: CAP_SYS_RESOURCE"
fi

# Its answer where the probe does run, on what it would observe: a ceiling
# of 1024 (3.5 - 3.13, HARD_QUEUESMAX) breaks it, none (3.14 and later, or
# before 3.5) holds it.
root_snap() { # ceiling file
	{ head -n 1 "$work/mqueue-over-1024-queues-as-root.snap"
	  tail -n +2 "$work/mqueue-over-1024-queues-as-root.snap" |
		sed -e "s/^unobserved.mqueue.privileged.queues_ceiling = .*/obs.mqueue.privileged.queues_ceiling = $1/" \
		    -e 's/^obs.mqueue.privileged.queues_ceiling = .*/obs.mqueue.privileged.queues_ceiling = '"$1/" | sort
	} >"$2"
}
for case in 1024:broken:1 none:held:0 1025:held:0; do
	IFS=: read -r ceiling want want_rc <<<"$case"
	root_snap "$ceiling" "$work/root-$ceiling.snap"
	"$abiwatch" check "$examples/mqueue-over-1024-queues-as-root.assume" "$work/root-$ceiling.snap" \
		>"$work/out" 2>&1
	rc=$?
	[[ $(verdict_of "$work/out") == "$want" && $rc == "$want_rc" ]] &&
		ok "over 1024 queues with a ceiling of $ceiling: $want" ||
		{ bad "ceiling $ceiling: exit $rc, want $want"; cat "$work/out"; }
done

# lsof's pidfd: held on every kernel but 6.9 (pidfs without db3d841ac9ed),
# which the snapshot tells by the pidfd's link and mode.
link=$(sed -n 's/^obs.vfs.anon.pidfd.link = //p' "$work/lsof-pidfd.snap")
mode=$(sed -n 's/^obs.vfs.anon.pidfd.mode = //p' "$work/lsof-pidfd.snap")
[[ $link == 'anon_inode:[pidfd]' && $mode =~ ^0[0-7]{3}$ ]] && want=held || want=broken
expect_verdict lsof-pidfd "$want" "vfs.anon.pidfd.link = $link"
if kernel_at_least 6 10; then
	[[ $want == held ]] && ok "6.10 and later: lsof's pidfd is what it parses" || bad "lsof-pidfd broken on $(uname -r)"
fi
# What 6.9.0 showed lsof: a regular file's mode and pidfs's own link.
sed -e 's/^obs.vfs.anon.pidfd.mode = .*/obs.vfs.anon.pidfd.mode = 0100700/' \
	-e 's/^obs.vfs.anon.pidfd.link = .*/obs.vfs.anon.pidfd.link = pidfd:[1234]/' \
	"$work/lsof-pidfd.snap" >"$work/pidfs-6.9.snap"
"$abiwatch" check "$examples/lsof-pidfd.assume" "$work/pidfs-6.9.snap" >"$work/out" 2>&1
rc=$?
[[ $(verdict_of "$work/out") == broken && $rc == 1 ]] && grep -qF 'vfs.anon.pidfd.mode = 0100700' "$work/out" &&
	ok "lsof-pidfd on 6.9's pidfd: broken, by its mode and link" || { bad "lsof-pidfd on 6.9: exit $rc"; cat "$work/out"; }

# ---- only the probes the rules need ----
printf '%s\n' 'mqueue.noattr.maxmsg >= 1 : "queues have room"' >"$work/one.assume"
"$abiwatch" check "$work/one.assume" -o "$work/one.snap" >/dev/null 2>&1
[[ $(grep -c '^probe\.' "$work/one.snap") == 1 ]] && grep -q '^probe.mqueue.noattr = ' "$work/one.snap" &&
	ok "one rule, one probe run" || bad "ran: $(grep '^probe\.' "$work/one.snap" | tr '\n' ' ')"
if "$abiwatch" check --help | grep -q -- '--fs '; then
	"$abiwatch" check "$examples/glusterfs-3.3-dht.assume" --fs tmpfs -o "$work/fs.snap" >"$work/fs.out" 2>&1
	[[ $(grep '^probe\.' "$work/fs.snap" | cut -d' ' -f1 | tr '\n' ' ') == "probe.dirent.tmpfs " ]] &&
		grep -q '^ *held: dirent.tmpfs.cookie_bits = ' "$work/fs.out" &&
		ok "family options narrow what check runs (--fs tmpfs)" || { bad "--fs tmpfs"; cat "$work/fs.out"; }
fi

# ---- exit statuses and formats, on the selftest family's fixed values ----
printf '%s\n' '# fixed values of the test fixture' \
	'selftest.good.holds is pass : "held"' \
	'selftest.good.value == "forty\ntwo" or selftest.good.value != "" : "held, text"' >"$work/held.assume"
printf '%s\n' 'selftest.good.holds is fail : "broken"' >"$work/broken.assume"
printf '%s\n' 'selftest.needs_file.holds is pass : "unknown"' >"$work/unknown.assume"
cat "$work/held.assume" "$work/broken.assume" "$work/unknown.assume" >"$work/mixed.assume"
for case in held:0 broken:1 unknown:4 mixed:1; do
	name=${case%:*} want=${case#*:}
	"$selftest" check "$work/$name.assume" >"$work/out" 2>"$work/err"
	got=$?
	[[ $got == "$want" ]] && ok "$name rules: exit $want" || { bad "$name rules: exit $got, want $want"; cat "$work/out" "$work/err"; }
done
grep -qF 'selftest.needs_file.holds: skip: needs /nonexistent/abiwatch-test' "$work/out" &&
	ok "unknown says why" || bad "no reason for unknown"
tail -n 1 "$work/out" | grep -qx '4 rules: 2 held, 1 broken, 1 unknown' && ok "totals" || bad "totals: $(tail -n 1 "$work/out")"
"$selftest" check -f ktap "$work/mixed.assume" >"$work/k"
tests/lib/ktap-check "$work/k" && grep -q '^not ok 3 mixed.assume:4$' "$work/k" &&
	grep -q '^ok 4 mixed.assume:5 # SKIP unknown: selftest.needs_file.holds: skip: ' "$work/k" &&
	ok "KTAP: held ok, broken not ok, unknown SKIP" || { bad "KTAP"; cat "$work/k"; }
"$selftest" check -f json "$work/mixed.assume" |
	jq -e '.totals == {held: 2, broken: 1, unknown: 1} and .rules[2].verdict == "broken" and .exit_status == 1' \
	>/dev/null && ok "JSON" || bad "JSON"

# ---- bad input: exit 2, one line, named with file, line and column ----
refused() { # description expected-stderr-fragment args...
	local what=$1 want=$2
	shift 2
	"$abiwatch" check "$@" >"$work/out" 2>"$work/err"
	local got=$?
	if [[ $got == 2 && ! -s $work/out && $(wc -l <"$work/err") == 1 ]] && grep -qF -- "$want" "$work/err"; then
		ok "$what: $(cat "$work/err")"
	else
		bad "$what: exit $got"; cat "$work/err" "$work/out"
	fi
}
snap=$work/mqueue-sized-by-msg_max.snap
printf '# ok\nmqueue.noattr.maxmsg >= 1 : "fine"\nmqueue.noattr.maxmsg = 1 : "x"\n' >"$work/bad1.assume"
refused "a single '='" "$work/bad1.assume:3:22: expected an operator, got '=' (equality is '==')" "$work/bad1.assume" "$snap"
printf 'mqueue.noattr.source <= maxima : "x"\n' >"$work/bad2.assume"
refused "text ordered" "$work/bad2.assume:1:25: '<=' orders numbers" "$work/bad2.assume" "$snap"
printf 'mqueue.noattr.maxmsg >= 1\n' >"$work/bad3.assume"
refused "no message" "$work/bad3.assume:1:26: expected ':' and the rule's message" "$work/bad3.assume" "$snap"
printf 'mqueue.noattr.maxmsg >= 1 : "a"\n\0\n' >"$work/binary.assume"
refused "binary" "$work/binary.assume:2: a NUL byte: not a text assumptions file" "$work/binary.assume" "$snap"
refused "an executable" "/bin/true:1: a NUL byte" /bin/true "$snap"
{ printf '# huge\n'; head -c $((17 << 20)) /dev/zero | tr '\0' '#'; } >"$work/huge.assume"
refused "huge" "$work/huge.assume:2: larger than 16 MiB: too large for an assumptions file" "$work/huge.assume" "$snap"
printf 'mqueue.noattr.source == maxima : "trunc' >"$work/trunc.assume"
refused "truncated" "$work/trunc.assume:1:34: a string without its closing '\"'" "$work/trunc.assume" "$snap"
printf 'mqueue.noattr.maxmsg >= 1 : "a"\n# again\n  mqueue.noattr.maxmsg >= 1 : "b"\n' >"$work/dup.assume"
refused "a rule twice" "$work/dup.assume:3:3: the rule of line 1 again: each condition once" "$work/dup.assume" "$snap"
printf 'mqueue.noattr.source in {maxima, default_knobs, maxima} : "x"\n' >"$work/twice.assume"
refused "a set member twice" "$work/twice.assume:1:49: this value is already in the set" "$work/twice.assume" "$snap"
printf 'mqueue.noattr.maxmsg not in {-1, 10, 3, -1} : "x"\n' >"$work/twice2.assume"
refused "a number twice" "$work/twice2.assume:1:41: this value is already in the set" "$work/twice2.assume" "$snap"
printf '"queues have room" : mqueue.noattr.maxmsg >= 1\n' >"$work/reorder.assume"
refused "message before condition" "$work/reorder.assume:1:1: expected a condition: KEY OP VALUE" \
	"$work/reorder.assume" "$snap"
# A long chain is a tree as deep as it is long (it crashed the evaluator).
{ printf 'mqueue.noattr.maxmsg == 0'; for ((i = 0; i < 100000; i++)); do printf ' + 1'; done
  printf ' : "deep"\n'; } >"$work/chain.assume"
refused "100000 operators in a row" "$work/chain.assume:1:" "$work/chain.assume" "$snap"
refused "missing file" "$work/none.assume: No such file or directory" "$work/none.assume" "$snap"
head -c 100 "$snap" >"$work/trunc.snap"
refused "a truncated snapshot" "$work/trunc.snap:" "$examples/mqueue-sized-by-msg_max.assume" "$work/trunc.snap"
: >"$work/empty.assume"
"$abiwatch" check "$work/empty.assume" "$snap" >"$work/out" 2>&1
[[ $? == 0 && $(cat "$work/out") == "0 rules: 0 held, 0 broken, 0 unknown" ]] && ok "no rules: exit 0" ||
	bad "no rules: $(cat "$work/out")"

# ---- usage ----
refused "no arguments" "expected ASSUMPTIONS and at most one SNAPSHOT, got 0 arguments"
refused "three arguments" "got 3 arguments" "$work/one.assume" "$snap" "$snap"
refused "--output with a snapshot" "are for running probes" -o "$work/x.snap" "$work/one.assume" "$snap"
refused "--timeout with a snapshot" "are for running probes" --timeout 5 "$work/one.assume" "$snap"
refused "bad format" "--format takes text, ktap or json, not 'xml'" --format xml "$work/one.assume"
refused "unknown option" "unknown option '--frobnicate'" --frobnicate "$work/one.assume"
refused "bad timeout" "--timeout takes seconds" --timeout 0 "$work/one.assume"
"$abiwatch" check --help | grep -q -- '--output FILE' && ok "check --help" || bad "check --help"
exit $status

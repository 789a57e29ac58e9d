#!/usr/bin/env bash
# tests/run: sealed
# The command line: exit statuses, bad input, and outputs that agree
# with each other (KTAP, JSON, text and the snapshot).
set -u
abiwatch=${ABIWATCH:-./abiwatch}
selftest=${ABIWATCH_SELFTEST:-build/abiwatch-selftest}
work=$(mktemp -d "${TMPDIR:-/tmp}/abiwatch-cli.XXXXXX")
trap 'chmod -R u+w "$work"; rm -rf "$work"' EXIT
status=0
ok() { echo "ok   $*"; }
bad() { echo "FAIL $*"; status=1; }
expect_exit() { # status description command...
	local want=$1 what=$2
	shift 2
	"$@" >"$work/out" 2>"$work/err"
	local got=$?
	if [[ $got == "$want" ]]; then ok "$what"; else bad "$what: exit $got, want $want"; cat "$work/err"; fi
}
one_line_error() { # description command...
	local what=$1
	shift
	"$@" >"$work/out" 2>"$work/err"
	local got=$?
	if [[ $got == 2 && $(wc -l <"$work/err") == 1 && ! -s $work/out ]]; then ok "$what: $(cat "$work/err")"
	else bad "$what: exit $got, stderr:"; cat "$work/err"; fi
}

expect_exit 0 "--help" "$abiwatch" --help
expect_exit 0 "--version" "$abiwatch" --version
expect_exit 0 "run --help" "$abiwatch" run --help
expect_exit 0 "help run" "$abiwatch" help run
expect_exit 0 "list --help" "$abiwatch" list --help
expect_exit 0 "list --verify" "$abiwatch" list --verify
one_line_error "no command" "$abiwatch"
one_line_error "unknown command" "$abiwatch" frobnicate
one_line_error "unknown option" "$abiwatch" run --frobnicate
one_line_error "missing value" "$abiwatch" run --timeout
one_line_error "bad timeout" "$abiwatch" run --timeout abc
one_line_error "zero timeout" "$abiwatch" run --timeout 0
one_line_error "zero jobs" "$abiwatch" run --jobs 0
one_line_error "jobs not a number" "$abiwatch" run -j two
one_line_error "zero vCPUs" "$abiwatch" vm --cpus 0 --deb /nonexistent.deb
one_line_error "bad format" "$abiwatch" run --format xml
one_line_error "unknown glob" "$abiwatch" run mqueue no_such_probe
one_line_error "list unknown glob" "$abiwatch" list no_such_probe
one_line_error "unwritable output dir" "$abiwatch" run mqueue -o /nonexistent/dir/x.snapshot

# An output that cannot be replaced is refused before anything runs, and
# the file is left as it was.
echo "precious" >"$work/keep.snapshot"
chmod a-w "$work/keep.snapshot" "$work"
# As root, drop CAP_DAC_OVERRIDE so that the mode bits apply.
nodac=()
[[ $(id -u) == 0 ]] && nodac=(setpriv --bounding-set=-dac_override --inh-caps=-dac_override)
one_line_error "read-only output" "${nodac[@]}" "$abiwatch" run mqueue -o "$work/keep.snapshot"
[[ $(cat "$work/keep.snapshot") == precious ]] && ok "read-only output kept" || bad "output clobbered"
chmod u+w "$work"

# Every glob form selects what the manual says.
"$abiwatch" list mqueue.noattr >"$work/l1" && grep -q 'mqueue.noattr.maxmsg' "$work/l1" &&
	! grep -q 'mqueue.attr\.' "$work/l1" && ok "list by probe" || bad "list by probe"
"$abiwatch" list 'mqueue.*.clamp' >"$work/l2" && grep -q 'mqueue.noattr.clamp' "$work/l2" &&
	ok "list by check glob" || bad "list by check glob"

# One run, all three formats: they must agree item by item.
# (How long it takes is tests/bench.d/run_mqueue.sh's business.)
"$abiwatch" run mqueue -o "$work/k.snap" >"$work/k.ktap"
rc=$?
[[ $rc == 0 ]] && ok "run mqueue exits 0" || bad "run mqueue exits $rc"
tests/lib/ktap-check "$work/k.ktap" && ok "KTAP parses" || bad "KTAP does not parse"
"$abiwatch" run mqueue -f json -o "$work/j.snap" >"$work/j.json"
jq -e '.format == "abiwatch-run-1" and (.probes | length) > 0' "$work/j.json" >/dev/null &&
	ok "JSON parses" || bad "JSON does not parse"
"$abiwatch" run mqueue -f text -o "$work/t.snap" >"$work/t.txt" && grep -q 'checks passed' "$work/t.txt" &&
	ok "text report" || bad "text report"

# Snapshot and KTAP agree: each check's status, each observation present.
while IFS= read -r line; do
	key=${line%% = *} value=${line#* = }
	case $key in
	check.*)
		name=${key#check.} st=${value%%:*}
		case $st in
		pass) pat="^ *ok [0-9]+ $name\$" ;;
		skip) pat="^ *ok [0-9]+ $name # SKIP" ;;
		*) pat="^ *not ok [0-9]+ $name( |\$)" ;;
		esac
		grep -Eq "$pat" "$work/k.ktap" || bad "KTAP disagrees with snapshot on $name ($st)" ;;
	obs.*)
		name=${key#obs.}
		grep -Fxq "    # $name = $value" "$work/k.ktap" || bad "KTAP lacks observation $name = $value" ;;
	esac
done < <(tail -n +2 "$work/k.snap")
ok "snapshot and KTAP compared"
jq -r '.probes[].items[] | select(.kind == "observation" and .status == "observed") |
	"obs.\(.name) = \(.value)"' "$work/j.json" | sort >"$work/j.obs"
grep '^obs\.' "$work/j.snap" | sort >"$work/s.obs"
diff -u "$work/s.obs" "$work/j.obs" && ok "JSON and snapshot agree" || bad "JSON and snapshot differ"

# Exit 4 when everything is skipped, 1 when a probe times out.
expect_exit 4 "all skipped exits 4" "$abiwatch" run mqueue.privileged -o "$work/p.snap"

# Misbehaving probes (tests/fixtures) through the whole command line.
expect_exit 1 "a hanging probe exits 1" "$selftest" run selftest.hangs -o "$work/x.snap"
grep -q '^  not ok 1 selftest.hangs # TIMEOUT' "$work/out" && ok "TIMEOUT directive" ||
	bad "no TIMEOUT directive"
grep -q '^probe.selftest.hangs = timeout: ' "$work/x.snap" && ok "snapshot records the timeout" ||
	bad "snapshot lacks the timeout"
expect_exit 1 "the whole selftest family exits 1" "$selftest" run selftest -o "$work/y.snap"
tests/lib/ktap-check "$work/out" && ok "KTAP of misbehaving probes parses" || bad "KTAP of misbehaving probes"
grep -q '^probe.selftest.crashes = error: crashed: killed by signal 11' "$work/y.snap" &&
	ok "crash recorded" || bad "crash not recorded"
grep -q '^check.selftest.needs_file.holds = skip: needs /nonexistent/abiwatch-test' "$work/y.snap" &&
	ok "skip reason in the snapshot" || bad "skip reason missing"
grep -q 'selftest.needs_file.holds # SKIP needs /nonexistent/abiwatch-test' "$work/out" &&
	ok "skip reason in KTAP" || bad "skip reason missing from KTAP"
"$selftest" run selftest.needs_file -f text -o "$work/z.snap" 2>&1 | grep -q 'needs /nonexistent' &&
	ok "skip reason in text" || bad "skip reason missing from text"
expect_exit 0 "the good probe exits 0" "$selftest" run selftest.good selftest.isolated -o "$work/g.snap"

# A glob may name a probe that an option makes (--path LABEL=DIR: dirent.LABEL).
mkdir "$work/pd"
probes_of() { sed -n 's/^probe\.\([^ ]*\) = .*/\1/p' "$1" | tr '\n' ' '; }
expect_exit 0 "run dirent.mine --path mine=DIR" "$abiwatch" run dirent.mine --path "mine=$work/pd" --entries 50 \
	-o "$work/p1.snap"
[[ $(probes_of "$work/p1.snap") == "dirent.mine " ]] && ok "only dirent.mine ran" || bad "ran: $(probes_of "$work/p1.snap")"
expect_exit 0 "a glob and an item of it" "$abiwatch" run 'dirent.m*' dirent.mine.unique mqueue.noattr \
	--path "mine=$work/pd" --entries 50 -o "$work/p2.snap"
[[ $(probes_of "$work/p2.snap") == "dirent.mine mqueue.noattr " ]] && ok "dirent.mine and mqueue.noattr ran" ||
	bad "ran: $(probes_of "$work/p2.snap")"
one_line_error "a glob no probe, made or not, matches" "$abiwatch" run dirent.other --path "mine=$work/pd" -o "$work/p3.snap"
[[ ! -e $work/p3.snap && -z $(ls -A "$work/pd") ]] && ok "nothing ran, nothing left in DIR" || bad "p3: something ran"

# Family options are --FAMILY-NAME; dirent's older spellings are aliases
# of the same options, and a family's bare name is no option.
expect_exit 0 "--dirent-path and --dirent-entries" "$abiwatch" run dirent.mine \
	--dirent-path "mine=$work/pd" --dirent-entries 50 -o "$work/p4.snap"
grep -v '^env\.\|^# ' "$work/p1.snap" | sed 's/ ([0-9.]* s)//' | sort >"$work/p1.items"
grep -v '^env\.\|^# ' "$work/p4.snap" | sed 's/ ([0-9.]* s)//' | sort >"$work/p4.items"
cmp -s "$work/p1.items" "$work/p4.items" && ok "old and new spellings give the same snapshot" ||
	bad "--path/--entries and --dirent-path/--dirent-entries differ"
one_line_error "a family option without its family" "$abiwatch" run dirent --timing yes
one_line_error "another family's option name" "$abiwatch" run vfs --vfs-entries 5
one_line_error "a family option for a family not run" "$abiwatch" run mqueue --vfs-fs anon
grep -q -- '--vfs-fs .* which nothing selected here runs' "$work/err" && ok "says which family" ||
	bad "the message does not name the family: $(cat "$work/err")"
"$abiwatch" run --help | grep -q -- '--dirent-entries N' && ok "help spells --dirent-entries" ||
	bad "help lacks --dirent-entries"
exit $status

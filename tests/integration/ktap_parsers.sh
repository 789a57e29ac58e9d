#!/usr/bin/env bash
# The KTAP abiwatch writes, read by the real consumers: the kernel's own
# parser (tools/testing/kunit/kunit.py parse) of Debian 12's 6.1 and of
# 6.12, extracted from Debian's linux-source packages (tests/lib/kunit-tool,
# cached in build/), and a TAP13 reader, tappy (python3-tap).  Of a run
# (mqueue and net, as the issue that asked for this tried), of the selftest
# probes that end every way a probe can, and of a 6.1 -> 6.12 diff of the
# fixture snapshots.  Each parser must read every block without an error,
# count as tests only the checks (and a probe without checks as one test:
# that it ran), never an observation, and agree with abiwatch's own exit
# status; tappy reads the top level (KTAP's nested results are lost to
# TAP, as ktap.rst says).  The parsers' outputs go to build/ktap-parsers/.
set -u
abiwatch=${ABIWATCH:-./abiwatch}
selftest=${ABIWATCH_SELFTEST:-build/abiwatch-selftest}
status=0
ok() { echo "ok   $*"; }
bad() { echo "FAIL $*"; status=1; }
work=$(mktemp -d "${TMPDIR:-/tmp}/abiwatch-ktap-parsers.XXXXXX")
trap 'rm -rf "$work"' EXIT
keep=build/ktap-parsers
mkdir -p "$keep"
py=/usr/bin/python3
[[ -x $py ]] || { echo "SKIP: no $py (Debian's python3, which python3-tap installs into)"; exit 4; }

# What abiwatch says it ran: a test per check, and one per probe that has
# no check; the passes among them.  From the snapshot, not from the KTAP.
expected_counts() { # snapshot -> "tests passes skips failures"
	awk -F' = ' '
		/^probe\./ { p = substr($1, 7); probe[p] = $2 }
		/^check\./ { c = substr($1, 7); check[c] = $2 }
		END {
			for (c in check) {
				tests++
				if (check[c] == "pass") passes++
				else if (check[c] ~ /^skip/) skips++
				else failures++
				# The probe a check belongs to: its longest probe prefix.
				best = ""
				for (p in probe) if (index(c, p ".") == 1 && length(p) > length(best)) best = p
				has[best] = 1
			}
			for (p in probe) {
				if (p in has) continue
				tests++
				if (probe[p] == "ran") passes++
				else if (probe[p] ~ /^skip/) skips++
				else failures++
			}
			printf "%d %d %d %d\n", tests, passes, skips, failures
		}' "$1"
}

# "Ran 139 tests: passed: 136, skipped: 3" -> "139 136 3 0"
kunit_counts() { # parser-output
	sed -n 's/.*Testing complete\. Ran \([0-9]*\) tests\?: \(.*\)$/\1 \2/p' "$1" | tail -n 1 |
		awk '{ t = $1; p = s = f = 0
		       for (i = 2; i <= NF; i++) { v = $(i + 1); sub(/,$/, "", v)
			   if ($i == "passed:") p = v; if ($i == "skipped:") s = v
			   if ($i == "failed:" || $i == "crashed:" || $i == "errors:") f += v }
		       printf "%d %d %d %d\n", t, p, s, f }'
}

kunit_parse() { # series ktap label want-exit "tests passes skips failures"
	local series=$1 ktap=$2 label=$3 want_rc=$4 want=$5 out rc got
	out=$keep/kunit-$series.$label.txt
	"$py" "${kunit[$series]}/kunit.py" parse "$(realpath "$ktap")" >"$out" 2>&1
	rc=$?
	got=$(kunit_counts "$out")
	# Its complaints: a parse error, a crashed or missing test, a test
	# number out of order, a line it could not read.
	if grep -qE '\[ERROR\]|CRASHED|missing|Expected test number|could not|Traceback|going past EOF' "$out"; then
		bad "kunit.py $series, $label: complains: $(grep -m 3 -E '\[ERROR\]|CRASHED|missing|Expected|could not|Traceback|EOF' "$out")"
	elif [[ $got != "$want" ]]; then
		bad "kunit.py $series, $label: counted (tests passes skips failures) '$got', abiwatch ran '$want' ($out)"
	elif [[ $rc != "$want_rc" ]]; then
		bad "kunit.py $series, $label: exit $rc, expected $want_rc"
	else
		ok "kunit.py $series, $label: $(grep -o 'Ran .*' "$out" | tail -n 1) (exit $rc)"
	fi
}

# tappy's verdict: unittest's closing lines ("Ran N tests", "OK" or
# "FAILED (failures=N)"), and no error of its own rules (a plan out of
# place, a count that differs from it).
tappy_parse() { # ktap label want-tests want-failures
	local out=$keep/tappy.$2.txt got
	"$py" -c 'import sys; from tap.main import main; sys.exit(main(["tappy", "-v"] + sys.argv[1:]))' \
		"$1" >"$out" 2>&1
	if grep -qE 'plan must appear|Expected [0-9]+ tests but|Missing a plan|Traceback|Bailed' "$out"; then
		bad "tappy, $2: $(grep -m 2 -E 'plan|Expected|Missing|Traceback|Bailed' "$out")"
		return
	fi
	got=$(sed -n 's/^Ran \([0-9]*\) tests\? in .*/\1/p' "$out")
	fails=$(sed -n 's/^FAILED (failures=\([0-9]*\).*/\1/p' "$out")
	[[ $got == "$3" && ${fails:-0} == "$4" ]] && ok "tappy, $2: $got tests, ${fails:-0} failures" ||
		bad "tappy, $2: ran '$got' failures '${fails:-0}', expected $3 and $4 ($out)"
}

"$py" -c 'import tap.main' 2>/dev/null || { echo "SKIP: python3-tap not installed (scripts/install-deps installs it)"; exit 4; }
declare -A kunit
for series in 6.1 6.12; do
	dir=$(tests/lib/kunit-tool "$series")
	rc=$?
	[[ $rc == 0 ]] || { echo "SKIP: kunit.py of $series: $dir"; exit 4; }
	kunit[$series]=$dir
done

# A run of two families, as the issue tried it.
"$abiwatch" run mqueue net -o "$work/run.snapshot" >"$work/run.ktap" 2>/dev/null
run_rc=$?
[[ -s $work/run.snapshot ]] || { echo "FAIL: abiwatch run wrote no snapshot (exit $run_rc)"; exit 1; }
cp "$work/run.ktap" "$keep/run.ktap"
grep -q '^  # Subtest: mqueue$' "$work/run.ktap" && grep -q '^    # Subtest: mqueue.noattr$' "$work/run.ktap" &&
	ok "Subtest lines name the families and probes" || bad "no Subtest lines"
read -r tests passes skips failures <<<"$(expected_counts "$work/run.snapshot")"
obs=$(grep -c '^obs\.' "$work/run.snapshot")
((obs > tests)) && ok "the run has $obs observations and $tests tests" || bad "too few observations ($obs) to tell"
for s in 6.1 6.12; do
	kunit_parse "$s" "$work/run.ktap" run "$((failures ? 1 : 0))" "$tests $passes $skips $failures"
done
families=$(sed -n 2p "$work/run.ktap" | sed 's/^1\.\.//')
tappy_parse "$work/run.ktap" run "$families" "$(grep -c '^not ok ' "$work/run.ktap")"

# Probes that pass, fail, crash, lie, stay silent and skip.
probes=(selftest.good selftest.fails_then_passes selftest.needs_file selftest.crashes
	selftest.lies selftest.silent)
"$selftest" run -o "$work/self.snapshot" "${probes[@]}" >"$work/self.ktap" 2>/dev/null
cp "$work/self.ktap" "$keep/selftest.ktap"
read -r tests passes skips failures <<<"$(expected_counts "$work/self.snapshot")"
# A probe that crashed or lied is not ok although its checks passed: the
# parsers count its checks, abiwatch the probe's end too.
((failures > 0)) || bad "the selftest probes should fail some checks"
for s in 6.1 6.12; do
	out=$keep/kunit-$s.selftest.txt
	"$py" "${kunit[$s]}/kunit.py" parse "$(realpath "$work/self.ktap")" >"$out" 2>&1
	rc=$?
	if grep -qE 'Expected test number|going past EOF|Traceback|missing subtest' "$out"; then
		bad "kunit.py $s, selftest: $(grep -m 2 -E 'Expected|EOF|Traceback|missing' "$out")"
	else
		got=$(kunit_counts "$out")
		[[ $rc == 1 && ${got%% *} == "$tests" ]] && ok "kunit.py $s, selftest: $(grep -o 'Ran .*' "$out" | tail -n 1) (exit 1)" ||
			bad "kunit.py $s, selftest: exit $rc, counts '$got', abiwatch ran $tests tests"
	fi
done

# A diff of the fixture snapshots of Debian's 6.1 and 6.12 kernels.
fx=tests/fixtures/matrix
gzip -dc "$fx/6.1.0-57-cloud-amd64.snapshot.gz" >"$work/61.snapshot"
gzip -dc "$fx/6.12.118+deb12-cloud-amd64.snapshot.gz" >"$work/612.snapshot"
for gate in breaking any; do
	"$abiwatch" diff -f ktap --fail-on "$gate" "$work/61.snapshot" "$work/612.snapshot" >"$work/diff.$gate.ktap"
	drc=$?
	cp "$work/diff.$gate.ktap" "$keep/diff-6.1-6.12.$gate.ktap"
	tests=$(sed -n 2p "$work/diff.$gate.ktap" | sed 's/^1\.\.//')
	[[ $drc == 1 && $tests -gt 0 ]] || bad "diff --fail-on $gate: exit $drc, $tests tests (6.1 -> 6.12 has breaking changes)"
	failures=$(grep -c '^not ok ' "$work/diff.$gate.ktap")
	skips=$(grep -c '^ok [0-9]* .* # SKIP' "$work/diff.$gate.ktap")
	want="$tests $((tests - failures - skips)) $skips $failures"
	for s in 6.1 6.12; do
		kunit_parse "$s" "$work/diff.$gate.ktap" "diff.$gate" "$drc" "$want"
	done
	tappy_parse "$work/diff.$gate.ktap" "diff.$gate" "$tests" "$failures"
	echo "# diff --fail-on $gate: $tests tests, $failures not ok, exit $drc"
done
exit $status

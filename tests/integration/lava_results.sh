#!/usr/bin/env bash
# tests/run: sealed
# lava/snapshot-to-lava: a real snapshot of this kernel becomes one
# lava-test-case call per check (with the result the snapshot says) and one
# measurement per numeric observation, and nothing else; failures, errors,
# timeouts, skips and odd key characters of a made-up snapshot map as
# documented; bad input is named with file and line, exit status 2.  Under
# every POSIX shell here (the guest runs it with busybox sh), and through
# LAVA's own lava-test-case script when lava-dispatcher is installed.
# The whole LAVA run is `make lava-check` (docs/lava.md).
set -u
export LC_ALL=C
abiwatch=${ABIWATCH:-./abiwatch}
export ABIWATCH=$abiwatch # the converter takes the units from its tables
convert=lava/snapshot-to-lava
work=$(mktemp -d "${TMPDIR:-/tmp}/abiwatch-lava.XXXXXX")
trap 'rm -rf "$work"' EXIT
status=0
ok() { echo "ok   $*"; }
bad() { echo "FAIL $*"; status=1; }

shells=(sh)
command -v busybox >/dev/null && shells+=("busybox sh")
command -v dash >/dev/null && shells+=(dash)

"$abiwatch" run mqueue.attr mqueue.noattr mqueue.sendrecv dirent.tmpfs -o "$work/real.snapshot" >/dev/null
case $? in 0 | 1 | 4) ;; *) echo "FAIL: abiwatch run"; exit 1 ;; esac

# What the calls must be, worked out with awk from the snapshot.
awk 'NR > 1 {
	key = $1; value = substr($0, index($0, " = ") + 3)
	if (key ~ /^check\./) {
		r = value == "pass" ? "pass" : value ~ /^skip/ ? "skip" : "fail"
		print "lava-test-case " substr(key, 7) " --result " r
	} else if (key ~ /^obs\./ && value ~ /^-?[0-9]+(\.[0-9]+)?$/) {
		print "lava-test-case " key " --result pass --measurement " value
	} else if (key ~ /^unobserved\./) {
		r = value ~ /^skip/ ? "skip" : "fail"
		print "lava-test-case obs." substr(key, 12) " --result " r
	}
}' "$work/real.snapshot" >"$work/expected"
checks=$(grep -c '^check\.' "$work/real.snapshot")
numbers=$(grep -c -- '--measurement' "$work/expected")
((checks > 20 && numbers > 5)) || bad "the snapshot has $checks checks, $numbers numbers"

for shell in "${shells[@]}"; do
	$shell "$convert" --print "$work/real.snapshot" >"$work/out" 2>"$work/err"
	rc=$?
	# Units come from the probe tables: compared apart, below.
	grep '^lava-test-case' "$work/out" | sed 's/ --units [A-Za-z]*$//' >"$work/calls"
	if ((rc == 0)) && cmp -s "$work/expected" "$work/calls"; then
		ok "$shell: $checks checks and $numbers measurements, as the snapshot says"
	else
		bad "$shell: exit $rc, calls differ: $(diff "$work/expected" "$work/calls" | head -n 5)"
	fi
done
# Each measurement has the unit the tables declare (abiwatch list -v), and
# only those have one.
"$abiwatch" list -v | awk '$1 == "obs" { name = $2 } $1 == "unit:" { print name, $2 }' >"$work/units"
grep -- '--measurement' "$work/out" | awk -v units="$work/units" '
	BEGIN { while ((getline line < units) > 0) { split(line, f, " "); unit[f[1]] = f[2] } }
	{ name = substr($2, 5); got = $(NF - 1) == "--units" ? $NF : ""
	  if (got != unit[name]) { print name ": " (got == "" ? "none" : got) ", declared " (unit[name] == "" ? "none" : unit[name]); bad++ }
	  else if (got != "") with++ }
	END { print with + 0 " with units"; exit bad > 0 }' >"$work/unitcheck"
rc=$?
[[ $rc == 0 ]] && ok "units as the tables declare: $(tail -n 1 "$work/unitcheck")" || bad "units: $(head -n 3 "$work/unitcheck")"
bits=$(sed -n 's/^obs\.dirent\.tmpfs\.cookie_bits = //p' "$work/real.snapshot")
grep -qx -- "lava-test-case obs.dirent.tmpfs.cookie_bits --result pass --measurement $bits --units bit" "$work/out" &&
	ok "dirent.tmpfs.cookie_bits: $bits bit" || bad "dirent.tmpfs.cookie_bits ($bits) not measured in bit"

# Every status of abiwatch-snapshot(5), and a key with a '+'.
cat >"$work/made.snapshot" <<'EOF'
abiwatch-snapshot 1.0
check.fam.p.broken = error: the helper crashed
check.fam.p.failed = fail: expected EINVAL, got success
check.fam.p.passed = pass
check.fam.p.plus+sign = pass
check.fam.p.skipped = skip: needs CAP_SYS_RESOURCE
check.fam.p.slow = timeout: no answer within 10 s
obs.fam.p.hex = 0x7fffffff
obs.fam.p.negative = -3
obs.fam.p.word = yes
unobserved.fam.p.gone = skip: not here
EOF
cat >"$work/made.expected" <<'EOF'
fam.p.broken: error: the helper crashed
lava-test-case fam.p.broken --result fail
fam.p.failed: fail: expected EINVAL, got success
lava-test-case fam.p.failed --result fail
lava-test-case fam.p.passed --result pass
lava-test-case fam.p.plus_sign --result pass
fam.p.skipped: skip: needs CAP_SYS_RESOURCE
lava-test-case fam.p.skipped --result skip
fam.p.slow: timeout: no answer within 10 s
lava-test-case fam.p.slow --result fail
lava-test-case obs.fam.p.negative --result pass --measurement -3
obs.fam.p.gone: skip: not here
lava-test-case obs.fam.p.gone --result skip
EOF
for shell in "${shells[@]}"; do
	if $shell "$convert" --print "$work/made.snapshot" >"$work/out" 2>&1 && cmp -s "$work/made.expected" "$work/out"; then
		ok "$shell: error, fail, skip, timeout, hex, words and '+' map as documented"
	else
		bad "$shell: $(diff "$work/made.expected" "$work/out" | head -n 6)"
	fi
done

# Bad input: exit status 2, file and line named.
printf 'not a snapshot\n' >"$work/bad1"
printf 'abiwatch-snapshot 1.0\ncheck.a.b.c = pass\ngarbage\n' >"$work/bad2"
sh "$convert" --print "$work/bad1" >/dev/null 2>"$work/err1"
rc1=$?
sh "$convert" --print "$work/bad2" >/dev/null 2>"$work/err2"
rc2=$?
sh "$convert" --print "$work/missing" >/dev/null 2>"$work/err3"
rc3=$?
grep -q "bad1:1: expected the header" "$work/err1" && ((rc1 == 2)) && ok "no header: $(cat "$work/err1")" ||
	bad "no header: exit $rc1: $(cat "$work/err1")"
grep -q "bad2:3: expected 'KEY = VALUE'" "$work/err2" && ((rc2 == 2)) && ok "bad line: $(cat "$work/err2")" ||
	bad "bad line: exit $rc2: $(cat "$work/err2")"
grep -q "missing: cannot read" "$work/err3" && ((rc3 == 2)) && ok "missing file: exit 2" ||
	bad "missing file: exit $rc3: $(cat "$work/err3")"

# LAVA's own lava-test-case (from lava-dispatcher), as the test shell runs it.
lts=/usr/lib/python3/dist-packages/lava_dispatcher/lava_test_shell
if [[ -f $lts/lava-test-case && -f $lts/lava-common-functions ]]; then
	mkdir -p "$work/bin" "$work/results"
	for f in lava-test-case lava-common-functions; do
		{ echo '#!/bin/sh'; cat "$lts/$f"; } >"$work/bin/$f"
		chmod +x "$work/bin/$f"
	done
	PATH=$work/bin:$PATH LAVA_RESULT_DIR=$work/results sh "$convert" "$work/made.snapshot" >"$work/signals" 2>&1
	signals=$(grep -c '<LAVA_SIGNAL_TESTCASE ' "$work/signals")
	if ((signals == 8)) && grep -q 'TEST_CASE_ID=obs.fam.p.negative RESULT=pass MEASUREMENT=-3>' "$work/signals" &&
		[[ $(cat "$work/results/results/fam.p.failed/result" 2>/dev/null) == fail ]]; then
		ok "through LAVA's lava-test-case: $signals test case signals"
	else
		bad "through LAVA's lava-test-case: $signals signals: $(head -n 5 "$work/signals")"
	fi
else
	echo "note: lava-dispatcher not installed; its lava-test-case not tried"
fi
exit $status

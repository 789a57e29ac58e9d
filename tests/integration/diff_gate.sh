#!/usr/bin/env bash
# tests/run: sealed
# diff as a CI gate (--fail-on), on the snapshots of tests/fixtures/gate:
# by default ("breaking") an interface that appeared or a check that now
# passes neither fails the exit status nor is "not ok" in the KTAP, a
# behaviour change and a new failure do; "any" fails on every kernel
# change, "none" on none; the JSON says which objects fail.  And on the
# 6.1 -> 6.12 fixtures: no appeared interface fails by default.
set -u
abiwatch=${ABIWATCH:-./abiwatch}
status=0
ok() { echo "ok   $*"; }
bad() { echo "FAIL $*"; status=1; }
work=$(mktemp -d "${TMPDIR:-/tmp}/abiwatch-gate.XXXXXX")
trap 'rm -rf "$work"' EXIT
fx=tests/fixtures/gate

expect() { # new-snapshot breaking-exit any-exit none-exit
	local new=$1 gate want rc
	shift
	for gate in breaking any none; do
		want=$1
		shift
		"$abiwatch" diff --fail-on "$gate" "$fx/old.snapshot" "$fx/$new.snapshot" >/dev/null 2>"$work/err"
		rc=$?
		[[ $rc == "$want" ]] && ok "$new, --fail-on $gate: exit $rc" || bad "$new, --fail-on $gate: exit $rc, expected $want"
	done
}
expect appeared 0 1 0
expect recovered 0 1 0
expect changed 1 1 0
expect regressed 1 1 0
expect old 0 0 0

# The default is breaking.
for new in appeared changed; do
	"$abiwatch" diff "$fx/old.snapshot" "$fx/$new.snapshot" >/dev/null 2>&1
	a=$?
	"$abiwatch" diff --fail-on breaking "$fx/old.snapshot" "$fx/$new.snapshot" >/dev/null 2>&1
	[[ $a == $? ]] && ok "$new: the default is --fail-on breaking" || bad "$new: default exit $a differs from breaking's"
done

# KTAP: the appeared interface is an ok result by default, not ok under any.
"$abiwatch" diff -f ktap "$fx/old.snapshot" "$fx/appeared.snapshot" >"$work/a.ktap"
tests/lib/ktap-check "$work/a.ktap" && grep -qx 'ok 1 obs.dirent.xfs.eof_cookie' "$work/a.ktap" &&
	grep -qx '# fail on: breaking' "$work/a.ktap" && ok "KTAP: the appeared interface is ok" ||
	bad "KTAP of an appeared interface: $(grep -E '^(not )?ok' "$work/a.ktap")"
"$abiwatch" diff -f ktap --fail-on any "$fx/old.snapshot" "$fx/appeared.snapshot" >"$work/any.ktap"
grep -qx 'not ok 1 obs.dirent.xfs.eof_cookie' "$work/any.ktap" && ok "KTAP, --fail-on any: not ok" ||
	bad "KTAP, --fail-on any: $(grep -E '^(not )?ok' "$work/any.ktap")"
"$abiwatch" diff -f ktap "$fx/old.snapshot" "$fx/changed.snapshot" | grep -qx 'not ok 1 obs.mqueue.noattr.maxmsg' &&
	ok "KTAP: a behaviour change is not ok" || bad "KTAP: the behaviour change is not 'not ok'"

# JSON says the gate and each object's verdict.
"$abiwatch" diff -f json "$fx/old.snapshot" "$fx/appeared.snapshot" >"$work/a.json"
jq -e '.fail_on == "breaking" and .fails == false and .different == true and .objects[0].fails == false' \
	"$work/a.json" >/dev/null && ok "JSON: fail_on, fails, per object" || bad "JSON: $(jq -c '{fail_on, fails, different}' "$work/a.json")"

# Bad values are refused as usage errors.
"$abiwatch" diff --fail-on sometimes "$fx/old.snapshot" "$fx/old.snapshot" >/dev/null 2>"$work/err"
rc=$?
[[ $rc == 2 ]] && grep -q "breaking, any or none" "$work/err" && ok "--fail-on sometimes: exit 2, the choices named" ||
	bad "--fail-on sometimes: exit $rc: $(cat "$work/err")"

# Debian's 6.1 -> 6.12: every appeared interface passes by default, and
# what fails is what the JSON says fails.
m=tests/fixtures/matrix
gzip -dc "$m/6.1.0-57-cloud-amd64.snapshot.gz" >"$work/61"
gzip -dc "$m/6.12.118+deb12-cloud-amd64.snapshot.gz" >"$work/612"
"$abiwatch" diff -f json "$work/61" "$work/612" >"$work/d.json"
"$abiwatch" diff -f ktap "$work/61" "$work/612" >"$work/d.ktap"
appeared_failing=$(jq '[.objects[] | select(.rank == "appeared" and .fails)] | length' "$work/d.json")
appeared=$(jq '[.objects[] | select(.rank == "appeared")] | length' "$work/d.json")
failing=$(jq '[.objects[] | select(.fails)] | length' "$work/d.json")
[[ $appeared -gt 0 && $appeared_failing == 0 ]] && ok "6.1 -> 6.12: none of $appeared appeared interfaces fails" ||
	bad "6.1 -> 6.12: $appeared_failing of $appeared appeared interfaces fail"
[[ $(grep -c '^not ok ' "$work/d.ktap") == "$failing" && $failing -gt 0 ]] &&
	ok "6.1 -> 6.12: $failing not ok in the KTAP, as the JSON's failing objects" ||
	bad "6.1 -> 6.12: $(grep -c '^not ok ' "$work/d.ktap") not ok, JSON $failing"
exit $status

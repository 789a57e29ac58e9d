#!/usr/bin/env bash
# time_check: examples/assumptions/criu-posix-timer-ids.assume with
# abiwatch check.  Only time.timers runs; on this kernel the verdict is
# the one the probe's own values imply (worked out here from the snapshot
# check wrote); against that snapshot edited into what a kernel that
# reused the lowest free id would report (ids 0,1,2, then 1 after a
# delete) the rule about deleted ids is broken and check exits 1.
set -u
cd "$(dirname "$0")/../.." || exit 1
. tests/lib/dirent-common.sh

rules=examples/assumptions/criu-posix-timer-ids.assume
tmp=$(mktemp -d "${TMPDIR:-/tmp}/abiwatch-timecheck.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT

"$abiwatch" check "$rules" -o "$tmp/s" >"$tmp/out" 2>"$tmp/err"
rc=$?
load_snapshot "$tmp/s"
ran=$(grep -c '^probe\.' "$tmp/s")
[[ $ran == 1 && ${snap[probe.time.timers]-} == ran ]] &&
	report ok "only time.timers ran" || report bad "$ran probes ran: $(grep '^probe\.' "$tmp/s")"
if [[ ${snap[obs.time.timers.ids.first]-} == 0,1,2 && ${snap[obs.time.timers.ids.after_delete]-} == 3 &&
	${snap[obs.time.timers.ids.child]-} == 0 ]]; then
	want=held want_rc=0
else
	want=broken want_rc=1
fi
verdict=$(tail -n 1 "$tmp/out")
[[ $rc == "$want_rc" && ($want == broken || $verdict == "3 rules: 3 held, 0 broken, 0 unknown") ]] &&
	report ok "this kernel: $want (exit $rc)" ||
	{ report bad "this kernel: exit $rc, '$verdict', want $want"; cat "$tmp/out" "$tmp/err"; }

sed -e 's/^\(obs\.time\.timers\.ids\.after_delete\) = .*/\1 = 1/' "$tmp/s" >"$tmp/reuse"
"$abiwatch" check "$rules" "$tmp/reuse" >"$tmp/reuse.out" 2>&1
rc=$?
[[ $rc == 1 && $(tail -n 1 "$tmp/reuse.out") == "3 rules: 2 held, 1 broken, 0 unknown" ]] &&
	report ok "a kernel reusing ids: the delete rule broken (exit 1)" ||
	{ report bad "a kernel reusing ids: exit $rc"; cat "$tmp/reuse.out"; }
finish

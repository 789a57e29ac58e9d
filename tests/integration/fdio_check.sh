#!/usr/bin/env bash
# fdio_check: examples/assumptions/gnu-make-jobserver-pipe.assume with
# abiwatch check.  On this kernel its verdict is the one the probe's own
# values imply (worked out here from the snapshot check wrote); against
# that snapshot edited into what a 4.5-5.13 kernel without 46c4c9d1beb7
# reports (4096-byte pipes, EAGAIN, the check failed) every rule is
# broken and check exits 1.
set -u
cd "$(dirname "$0")/../.." || exit 1
. tests/lib/dirent-common.sh

rules=examples/assumptions/gnu-make-jobserver-pipe.assume
tmp=$(mktemp -d "${TMPDIR:-/tmp}/abiwatch-fdiocheck.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT

"$abiwatch" check "$rules" -o "$tmp/s" >"$tmp/out" 2>"$tmp/err"
rc=$?
load_snapshot "$tmp/s"
ran=$(grep -c '^probe\.' "$tmp/s")
[[ $ran == 1 && ${snap[probe.fdio.pipe_soft_limit]-} == ran ]] &&
	report ok "only fdio.pipe_soft_limit ran" || report bad "$ran probes ran: $(grep '^probe\.' "$tmp/s")"
size=${snap[obs.fdio.pipe_soft_limit.size]-}
if [[ ${snap[check.fdio.pipe_soft_limit.partial_read_frees_room]-} == pass &&
	${snap[obs.fdio.pipe_soft_limit.write_after_partial_read]-} == 1 && $size =~ ^[0-9]+$ ]] &&
	((size >= 8192)); then
	want=held want_rc=0
else
	want=broken want_rc=1
fi
verdict=$(tail -n 1 "$tmp/out")
# Held: all three; broken: at least one rule (the exit status says so).
[[ $rc == "$want_rc" && ($want == broken || $verdict == "3 rules: 3 held, 0 broken, 0 unknown") ]] &&
	report ok "this kernel: $want (exit $rc)" ||
	{ report bad "this kernel: exit $rc, '$verdict', want $want"; cat "$tmp/out" "$tmp/err"; }

# What a kernel without 46c4c9d1beb7 reports.
sed -e 's/^\(check\.fdio\.pipe_soft_limit\.partial_read_frees_room\) = .*/\1 = fail: the 1-byte write gave EAGAIN/' \
	-e 's/^\(obs\.fdio\.pipe_soft_limit\.write_after_partial_read\) = .*/\1 = EAGAIN/' \
	-e 's/^\(obs\.fdio\.pipe_soft_limit\.size\) = .*/\1 = 4096/' "$tmp/s" >"$tmp/old"
"$abiwatch" check "$rules" "$tmp/old" >"$tmp/old.out" 2>&1
rc=$?
[[ $rc == 1 && $(tail -n 1 "$tmp/old.out") == "3 rules: 0 held, 3 broken, 0 unknown" ]] &&
	report ok "a 1-page kernel: all 3 rules broken (exit 1)" ||
	{ report bad "a 1-page kernel: exit $rc"; cat "$tmp/old.out"; }
finish

#!/usr/bin/env bash
# A matrix through a LAVA lab (lava/lab), with the faults a lab has:
#  1. lava/lab setup: a lab of its own (lava/instance in a directory of the
#     test's, its PostgreSQL, scheduler and worker; the QEMU device).
#  2. lava/lab matrix of Debian's 6.1 kernel: its snapshot comes back and
#     equals, kernel-wise, `abiwatch vm` of the same package here.
#  3. The device offline (health MAINTENANCE): a second kernel's job does
#     not start within --wait; it is cancelled and is "no result" with that
#     cause, never a kernel change, and the first kernel is reused.
#  4. A job cancelled in the lab: "no result: ... Canceled".
#  5. A job that fails in the lab (its kernel panics at once: the ramdisk's
#     init is not found): "no result: ... Incomplete" with LAVA's reason.
#  6. The device back: matrix again resubmits only what has no snapshot and
#     writes matrix.txt, the neighbours' diff and the report by `abiwatch
#     matrix` reusing the lab's snapshots; the series and the diff equal
#     those of `abiwatch matrix` booting the same kernels here.
# The long lane's (make check-long): three TCG boots under LAVA.  Needs root
# and Debian's lava-server, lava-dispatcher, lavacli and postgresql-15.
set -u
export LC_ALL=C
abiwatch=${ABIWATCH:-./abiwatch}
[[ ${ABIWATCH_TEST_LONG:-0} == 1 ]] || { echo "the long lane's (make check-long): three LAVA boots under TCG"; exit 4; }
[[ $abiwatch == ./abiwatch ]] || { echo "runs against ./abiwatch only: the guest's abiwatch is the static build"; exit 4; }
[[ $(id -u) == 0 ]] || { echo "needs root (PostgreSQL and LAVA's daemons)"; exit 4; }
for p in lava-server lava-dispatcher lavacli postgresql-15 busybox-static; do
	dpkg-query -W -f='${Status}' $p 2>/dev/null | grep -q 'ok installed' && continue
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends lava-server lava-dispatcher \
		lavacli postgresql-15 busybox-static >/dev/null 2>&1 || { echo "LAVA cannot be installed here (apt-get)"; exit 4; }
	break
done
old=$(tests/lib/debian-kernel 6.1) || { echo "$old"; exit 4; }
new=$(tests/lib/debian-kernel 6.12) || { echo "$new"; exit 4; }
work=$(mktemp -d "${TMPDIR:-/tmp}/abiwatch-lavalab.XXXXXX")
chmod 0755 "$work" # the cluster runs as user postgres
export LAVA_DIR=$work/instance LAVA_PORT=8490
trap 'lava/instance stop >/dev/null 2>&1; rm -rf "$work"' EXIT
status=0
ok() { echo "ok   $*"; }
bad() { echo "FAIL $*"; status=1; }
m=$work/matrix
rel_old=$(dpkg-deb -f "$old" Package | sed 's/^linux-image-//')
rel_new=$(dpkg-deb -f "$new" Package | sed 's/^linux-image-//')
lab() { lava/lab "$@" 2>>"$work/lab.log"; }
token() { cat "$LAVA_DIR/token"; }
uri() { echo "http://abiwatch:$(token)@127.0.0.1:$LAVA_PORT/RPC2"; }

lab setup && ok "lava/lab setup" || { bad "setup: $(tail -n 3 "$work/lab.log")"; exit 1; }

lab matrix -o "$m" --wait 600 "$old" -- mqueue
if [[ -s $m/$rel_old.snapshot ]]; then
	"$abiwatch" vm --deb "$old" -o "$work/vm.snapshot" -- mqueue >/dev/null 2>&1
	"$abiwatch" diff "$work/vm.snapshot" "$m/$rel_old.snapshot" >"$work/diff" &&
		ok "$rel_old in the lab, as here: $(head -n 1 "$work/diff")" || bad "lab against vm: $(head -n 3 "$work/diff")"
else
	bad "$rel_old: no snapshot from the lab: $(cat "$m/$rel_old.noresult" 2>/dev/null || echo "and no .noresult saying why;") $(tail -n 3 "$work/lab.log")"
fi

lava/instance manage devices update --health MAINTENANCE qemu01
lab matrix -o "$m" --wait 30 "$old" "$new" -- mqueue
grep -q "reusing $m/$rel_old.snapshot" "$work/lab.log" && ok "the kernel that came back is reused" || bad "not reused"
grep -q "did not start within 30 s" "$m/$rel_new.noresult" 2>/dev/null && [[ ! -e $m/$rel_new.snapshot ]] &&
	ok "device offline: $(cat "$m/$rel_new.noresult")" || bad "offline: $(cat "$m/$rel_new.noresult" 2>&1)"

# Cancelled in the lab while it waits for the device.
lab matrix -o "$m" --wait 600 "$new" -- mqueue &
matrix_pid=$!
first=$(cat "$m/lava/$rel_new.job")
for _ in $(seq 1 600); do
	[[ $(cat "$m/lava/$rel_new.job") != "$first" ]] && break
	sleep 0.2
done
lavacli --uri "$(uri)" jobs cancel "$(cat "$m/lava/$rel_new.job")" >/dev/null
wait $matrix_pid
grep -q "Canceled" "$m/$rel_new.noresult" 2>/dev/null && ok "cancelled: $(cat "$m/$rel_new.noresult")" ||
	bad "cancelled: $(cat "$m/$rel_new.noresult" 2>&1)"

# A job that fails in the lab: its kernel panics, finding no init.
lava/instance manage devices update --health GOOD qemu01
mkdir -p "$work/panic"
lava/render-job --job-minutes 10 "$m/lava/$rel_new" "$rel_new" mqueue | sed 's|rdinit=/lava-init|rdinit=/no-such-init|' >"$work/panic/job.yaml"
lavacli --uri "$(uri)" jobs submit "$work/panic/job.yaml" >"$m/lava/$rel_new.job"
lab matrix -o "$m" --wait 600 "$new" -- mqueue
grep -q "Incomplete" "$m/$rel_new.noresult" 2>/dev/null && [[ ! -e $m/$rel_new.snapshot ]] &&
	ok "failed in the lab: $(cat "$m/$rel_new.noresult")" || bad "incomplete: $(cat "$m/$rel_new.noresult" 2>&1)"

# The device good: only the missing kernel runs; the matrix's outputs.
lab matrix -o "$m" --wait 600 "$old" "$new" -- mqueue
[[ -s $m/$rel_new.snapshot && ! -e $m/$rel_new.noresult ]] && ok "resubmitted: $rel_new came back" || bad "resubmitted: $(cat "$m/$rel_new.noresult" 2>&1)"
[[ $(grep -c "submitted" "$work/lab.log") == 4 ]] && ok "four jobs submitted by lava/lab in all" || bad "jobs submitted: $(grep -c submitted "$work/lab.log")"
[[ -s $m/report.html && -s $m/$rel_old--$rel_new.diff ]] && ok "the neighbours' diff and the report" ||
	bad "matrix outputs: $(ls "$m")"
[[ $(grep -c -e "^$rel_old - reused " -e "^$rel_new - reused " "$m/matrix.txt" 2>/dev/null) == 2 ]] &&
	ok "matrix.txt: both kernels, their lab snapshots reused by abiwatch matrix (none booted here)" ||
	bad "matrix.txt: $(head -n 5 "$m/matrix.txt" 2>&1)"
# The same kernels on this machine: the same series and the same diff.
"$abiwatch" matrix -q -o "$work/here" "$old" "$new" -- mqueue >/dev/null 2>&1
series() { sed -n '/^# series/,$p' "$1"; }
[[ -n $(series "$m/matrix.txt") ]] && cmp -s <(series "$m/matrix.txt") <(series "$work/here/matrix.txt") &&
	ok "the lab's series is this machine's: $(series "$m/matrix.txt" | head -n 1)" ||
	bad "series differ: $(diff <(series "$work/here/matrix.txt") <(series "$m/matrix.txt") | head -n 5)"
# The kernel's part of the pair's diff is the same; its environment
# section ("not a kernel change") may not be: the lab's snapshots name
# their LAVA job (env.lava.job) and its guests are other machines (their
# memory, what the ramdisk started).
kernel_part() { sed '/^environment (not a kernel change):$/,/^[^ ]/{/^environment/d;/^  /d}' "$1"; }
cmp -s <(kernel_part "$m/$rel_old--$rel_new.diff") <(kernel_part "$work/here/$rel_old--$rel_new.diff") &&
	ok "the lab's diff of the pair is this machine's, the environment aside: $(head -n 1 "$m/$rel_old--$rel_new.diff")" ||
	bad "the pair's diffs differ: $(diff <(kernel_part "$work/here/$rel_old--$rel_new.diff") <(kernel_part "$m/$rel_old--$rel_new.diff") | head -n 5)"
grep -q '^  env.lava.job: ' "$m/$rel_old--$rel_new.diff" && ok "the lab's diff names the LAVA jobs in its environment" ||
	bad "no env.lava.job in the lab's diff"
lava/instance stop >/dev/null
lava/instance status | grep -qv stopped && bad "the lab still runs: $(lava/instance status)"
[[ -e /tmp/lava.events ]] && bad "lava-server's event socket left in /tmp"
exit $status

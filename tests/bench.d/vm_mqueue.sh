#!/usr/bin/env bash
# `abiwatch vm --deb DEB -- mqueue` (boot a Debian 6.12 cloud kernel in
# QEMU under the machine's accelerator, run the mqueue family there as
# root, collect the snapshot: what the integration test vm_mqueue does)
# against a baseline measured in the same run: the same command with the
# smallest selection instead of the family, `-- mqueue.noattr` (one probe
# that opens a queue without attributes and reads its knobs).  The
# baseline is then everything but the family's work: reading the package,
# building the initramfs, booting the kernel, starting the guest's run and
# collecting; the ratio says what running the whole family adds to a VM
# run, and does not move with the machine's speed the way seconds do.
#
# Each command runs BENCH_REPEAT times (default 3), alternating; the
# medians are compared.  Also the guest's own clock (abiwatch vm -v):
# when its init started (kernel boot) and how long the run took.  The
# kernel package comes from tests/lib/debian-kernel (VM_TEST_SERIES,
# default 6.12), downloaded into build/kernels/ the first time.  The old
# budget of the integration test, 15 s for boot, run and collect, is
# printed as the target.
set -u
cd "$(dirname "$0")/../.." || exit 1
export LC_ALL=C
abiwatch=${ABIWATCH:-./abiwatch}
repeat=${BENCH_REPEAT:-3}
[[ $repeat =~ ^[1-9][0-9]*$ ]] || { echo "BENCH_REPEAT takes a number > 0"; exit 1; }
command -v qemu-system-x86_64 >/dev/null || { echo "skip: no qemu-system-x86_64"; exit 0; }
[[ -x build/static/abiwatch && -x build/vm/abiwatch-init ]] ||
	{ echo "skip: build/static/abiwatch or build/vm/abiwatch-init missing (make vm)"; exit 0; }
deb=$(tests/lib/debian-kernel "${VM_TEST_SERIES:-6.12}") || { echo "skip: $deb"; exit 0; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/abiwatch-bench.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
status=0

# One VM run of the selection: seconds into $secs, the guest's init and
# run times into $init and $run, the status into $rc.
vm_one() { # selection
	local t0=$EPOCHREALTIME t1 clock
	"$abiwatch" vm -v --deb "$deb" --timeout 300 -o "$tmp/snap" -- "$1" >"$tmp/ktap" 2>"$tmp/err"
	rc=$?
	t1=$EPOCHREALTIME
	secs=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", b - a }')
	clock=$(grep -m1 -o "the guest's clock: init at [0-9.]* s, run for [0-9.]* s" "$tmp/err")
	init=$(sed -E 's/.*init at ([0-9.]+) s.*/\1/' <<<"$clock")
	run=$(sed -E 's/.*run for ([0-9.]+) s.*/\1/' <<<"$clock")
	accel=$(sed -n 's/^env\.vm\.accel = //p' "$tmp/snap" 2>/dev/null)
}
median() { printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END {
	printf "%.2f", NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

declare -A total guest_init guest_run
failed=
for ((i = 0; i < repeat; i++)); do
	for sel in mqueue.noattr mqueue; do
		vm_one "$sel"
		if [[ $rc != 0 ]]; then
			failed+=" $sel: exit $rc ($(tail -n 2 "$tmp/err" | tr '\n' ' '))"
			continue
		fi
		total[$sel]+=" $secs" guest_init[$sel]+=" ${init:-0}" guest_run[$sel]+=" ${run:-0}"
	done
done
echo "kernel: ${deb##*/}; accel ${accel:-?}; $(nproc) CPUs; median of $repeat runs each, alternating"
printf '%-30s %8s %8s %8s %7s %s\n' command total_s init_s run_s ratio target
for sel in mqueue.noattr mqueue; do
	[[ -n ${total[$sel]:-} ]] || { printf '%-30s %s\n' "vm -- $sel" "no run succeeded"; continue; }
	t=$(median ${total[$sel]})
	[[ $sel == mqueue.noattr ]] && base=$t
	ratio=$(awk -v t="$t" -v b="${base:-0}" 'BEGIN { if (b > 0) printf "%.2f", t / b; else print "-" }')
	label="vm -- $sel"; [[ $sel == mqueue.noattr ]] && label+=" (baseline)"
	target=-; [[ $sel == mqueue ]] && target="15 s (vm_mqueue)"
	printf '%-30s %8s %8s %8s %7s %s\n' "$label" "$t" "$(median ${guest_init[$sel]})" \
		"$(median ${guest_run[$sel]})" "$ratio" "$target"
done
[[ -z $failed ]] || { echo "failed:$failed"; status=1; }
exit $status

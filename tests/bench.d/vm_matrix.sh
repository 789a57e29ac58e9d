#!/usr/bin/env bash
# Seconds per kernel of a 3-kernel `abiwatch matrix` under the machine's
# accelerator (TCG on our CI): two Debian 6.12 cloud kernels and one 6.1,
# downloaded into build/kernels/ the first time, running the quick suite
# (every family, 1000 entries per directory; BENCH_VM_ARGS overrides it).
# Per kernel: the whole of it (reading the package, building the
# initramfs, booting, running, collecting), the guest's uptime when the run
# started (kernel boot and the boot modules), and the run itself.  The
# target is under 15 s per kernel.
set -u
cd "$(dirname "$0")/../.." || exit 1
abiwatch=${ABIWATCH:-./abiwatch}
read -r -a run_args <<<"${BENCH_VM_ARGS:---entries 1000}"
command -v qemu-system-x86_64 >/dev/null || { echo "skip: no qemu-system-x86_64"; exit 0; }
debs=()
for k in "6.1 1" "6.12 1" "6.12 2"; do
	deb=$(tests/lib/debian-kernel $k) || { echo "skip: $deb"; exit 0; }
	debs+=("$deb")
done
out=build/bench/matrix
rm -rf "$out"
start=$(date +%s.%N)
"$abiwatch" matrix -q -o "$out" "${debs[@]}" -- "${run_args[@]}"
rc=$?
wall=$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')
echo "quick suite: abiwatch run ${run_args[*]}; $(nproc) CPUs; matrix exit $rc; ${wall} s in all"
printf '%-32s %-5s %-8s %8s %8s %8s\n' kernel accel outcome total_s boot_s run_s
awk '!/^#/ { printf "%-32s %-5s %-8s %8.1f %8.1f %8.1f\n", $1, $2, $3, $5, $6, $7 }' "$out/matrix.txt"
awk '!/^#/ { if ($5 >= 15) slow = slow " " $1 } END { if (slow) print "over 15 s:" slow; else print "every kernel under 15 s" }' \
	"$out/matrix.txt"

#!/usr/bin/env bash
# Where a run's time goes, on this machine and in QEMU, with every family:
#
#   1. the host: `abiwatch run`, its wall time and each family's (the
#      "# time:" lines of its KTAP);
#   2. each Debian cloud kernel (6.1 and 6.12, from tests/lib/debian-
#      kernel) alone in `abiwatch vm`, with the vCPUs vm gives a guest
#      alone: the run's seconds after boot (the guest's own clock), each
#      family's, and the ratio to the host's run;
#   3. `abiwatch matrix --host` over both kernels: its wall time, each
#      guest's (two at a time on 2 CPUs), and from those a projection for
#      13 kernels and the host: ceil(13 / at-once) rounds of the mean
#      guest, the host's run beside them.
#
# The targets (issue 28): a guest's run 30 s or less after boot, at most 4
# times the host's; the matrix 60 s or less; 13 kernels and the host in
# 5 minutes.  One run of each: the figures are for a machine that is not
# otherwise busy.  BENCH_RUN_ARGS adds arguments to every run.
set -u
cd "$(dirname "$0")/../.." || exit 1
export LC_ALL=C
abiwatch=${ABIWATCH:-./abiwatch}
read -r -a run_args <<<"${BENCH_RUN_ARGS:-}"
command -v qemu-system-x86_64 >/dev/null || { echo "skip: no qemu-system-x86_64"; exit 0; }
debs=()
for k in 6.1 6.12; do
	deb=$(tests/lib/debian-kernel $k) || { echo "skip: $deb"; exit 0; }
	debs+=("$deb")
done
out=build/bench/speed
rm -rf "$out"
mkdir -p "$out"

now() { date +%s.%N; }
since() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }'; }
# "family seconds" pairs from a KTAP file, on one line
families() { awk '/^  # time:/ { t = $3 } /^(not )?ok [0-9]+ / { printf "%s %.1f  ", $3, t }' "$1"; }

echo "$(nproc) CPUs; load before: $(cut -d' ' -f1-3 /proc/loadavg)"
start=$(now)
"$abiwatch" run -o "$out/host.snapshot" "${run_args[@]}" >"$out/host.ktap" 2>/dev/null
host=$(since "$start")
echo "host: run ${host} s: $(families "$out/host.ktap")"

worst_run=0 worst_ratio=0
for deb in "${debs[@]}"; do
	name=$(basename "$deb" | cut -d_ -f1)
	"$abiwatch" vm -v --deb "$deb" -o "$out/$name.snapshot" -- "${run_args[@]}" \
		>"$out/$name.ktap" 2>"$out/$name.err"
	rc=$?
	# "the guest's clock: init at 2.60 s, run for 18.40 s"
	run=$(sed -n 's/.*the guest.s clock: init at [0-9.]* s, run for \([0-9.]*\) s.*/\1/p' "$out/$name.err" | tail -n 1)
	cpus=$(sed -n 's/^env\.cpus = //p' "$out/$name.snapshot" 2>/dev/null)
	[[ -n $run ]] || { echo "$name: no run time (vm exit $rc)"; tail -n 3 "$out/$name.err"; continue; }
	ratio=$(awk -v g="$run" -v h="$host" 'BEGIN { printf "%.1f", g / h }')
	echo "$name alone (${cpus:-?} vCPUs): run ${run} s after boot, ${ratio}x the host: $(families "$out/$name.ktap")"
	worst_run=$(awk -v a="$worst_run" -v b="$run" 'BEGIN { print (b > a ? b : a) }')
	worst_ratio=$(awk -v a="$worst_ratio" -v b="$ratio" 'BEGIN { print (b > a ? b : a) }')
done

start=$(now)
"$abiwatch" matrix -q --host -o "$out/matrix" "${debs[@]}" -- "${run_args[@]}"
rc=$?
wall=$(since "$start")
echo "matrix of both kernels and the host: ${wall} s (exit $rc)"
sed 's/ [^ ]*$//' "$out/matrix/matrix.txt"
at_once=$(nproc)
projection=$(awk -v j="$at_once" '
	!/^#/ && $2 != "host" { sum += $5; n++ } !/^#/ && $2 == "host" { host = $5 }
	END { if (!n) exit 1; rounds = int((13 + j - 1) / j); t = rounds * sum / n
	      printf "%.0f", (host > t ? host : t) }' "$out/matrix/matrix.txt")
echo "projected: 13 kernels and the host, $at_once at a time: ${projection:-?} s"

verdict() { # name value target
	awk -v v="$2" -v t="$3" 'BEGIN { exit !(v <= t) }' && echo "  ok   $1: $2 (target $3)" ||
		echo "  over $1: $2 (target $3)"
}
echo "targets:"
verdict "slowest guest's run after boot, s" "$worst_run" 30
verdict "slowest guest against the host, x" "$worst_ratio" 4
verdict "matrix of two kernels and the host, s" "$wall" 60
verdict "projected 13 kernels and the host, s" "${projection:-999999}" 300

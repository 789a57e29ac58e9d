#!/usr/bin/env bash
# How long `abiwatch run FAMILY` takes here, for the families whose tests
# once bounded it (they now assert only results, so that a loaded machine
# does not fail them): ten runs each, the fastest, the median and the
# slowest, beside the target the tests had (net, process 3 s; time, tty,
# surface 2 s, for the plain build on an idle machine).
set -u
cd "$(dirname "$0")/../.." || exit 1
export LC_ALL=C
abiwatch=${ABIWATCH:-./abiwatch}
out=build/bench/family_runs
rm -rf "$out"
mkdir -p "$out"
echo "$(nproc) CPUs; load before: $(cut -d' ' -f1-3 /proc/loadavg)"
for target in net:3000 process:3000 time:2000 tty:2000 surface:2000; do
	family=${target%%:*} limit=${target#*:}
	times=()
	for ((i = 1; i <= 10; i++)); do
		t0=$(date +%s%N)
		"$abiwatch" run "$family" -o "$out/$family.snapshot" >"$out/$family.ktap" 2>&1
		rc=$?
		times+=($((($(date +%s%N) - t0) / 1000000)))
		((rc == 0)) || echo "$family: run $i exits $rc"
	done
	read -r fast median slow < <(printf '%s\n' "${times[@]}" | sort -n | awk '{ t[NR] = $1 } END { print t[1], t[int((NR + 1) / 2)], t[NR] }')
	verdict="within the target"
	((slow < limit)) || verdict="OVER the target"
	echo "$family: fastest $fast ms, median $median ms, slowest $slow ms (target < $limit ms: $verdict)"
done

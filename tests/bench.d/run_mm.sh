#!/usr/bin/env bash
# `abiwatch run mm -o SNAPSHOT` (the whole mm family), for the plain and
# the ASan+UBSan build, and each of its probes alone with the plain build:
# the median of BENCH_REPEAT runs (default 5) after one to warm the
# caches.  Target (issue 17): the family in under 2 s on this machine.
# The costly parts are the vm probe's filling of the mapping table
# (vm.max_map_count + 1 mmaps in a child) and the forks of the guard-gap
# search; the 32-bit helper's half only runs where i386 programs do.
set -u
cd "$(dirname "$0")/../.." || exit 1
export LC_ALL=C
export ABIWATCH_HELPER_DIR=${ABIWATCH_HELPER_DIR:-$PWD/build/m32}
repeat=${BENCH_REPEAT:-5}
[[ $repeat =~ ^[1-9][0-9]*$ ]] || { echo "BENCH_REPEAT takes a number > 0"; exit 1; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/abiwatch-bench.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
status=0

median_of() { # command...: prints the median seconds; status 1 when a run failed
	# (exit 4, every item skipped, is init_rlimits outside a guest)
	local times=() t0 t1 i rc failed=0
	"$@" >/dev/null 2>&1
	for ((i = 0; i < repeat; i++)); do
		t0=$EPOCHREALTIME
		"$@" >/dev/null 2>&1
		rc=$?
		((rc == 0 || rc == 4)) || failed=1
		t1=$EPOCHREALTIME
		times+=("$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.4f", b - a }')")
	done
	printf '%s\n' "${times[@]}" | sort -g | awk '{ v[NR] = $1 } END {
		printf "%.3f", NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
	return $failed
}

echo "$(nproc) CPUs; median of $repeat runs"
printf '%-6s %-30s %8s %s\n' build command median_s target
for bin in ./abiwatch build/asan/abiwatch; do
	build=plain
	[[ $bin == *asan* ]] && build=asan
	[[ -x $bin ]] || { echo "$build: not built ($bin)"; continue; }
	s=$(median_of "$bin" run mm -o "$tmp/snap") || { s="$s (a run failed)"; status=1; }
	printf '%-6s %-30s %8s %s\n' "$build" "run mm" "$s" "$([[ $build == plain ]] && echo '2 s')"
done
for probe in $(./abiwatch list mm | awk '$1 ~ /^mm\.[a-z_]+$/ { print $1 }'); do
	s=$(median_of ./abiwatch run "$probe" -o "$tmp/snap") || s="$s (a run failed)"
	printf '%-6s %-30s %8s\n' plain "run $probe" "$s"
done
exit $status

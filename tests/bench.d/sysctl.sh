#!/usr/bin/env bash
# `abiwatch run sysctl -o SNAPSHOT`: the walk of the whole /proc/sys with
# the write-backs in the probe's own namespaces, BENCH_REPEAT times
# (default 5) after one warm-up run; the median, the slowest, and how many
# knobs were walked.  The target (issue 20): under 3 s on this machine.
set -u
cd "$(dirname "$0")/../.." || exit 1
export LC_ALL=C
abiwatch=${ABIWATCH:-./abiwatch}
repeat=${BENCH_REPEAT:-5}
[[ $repeat =~ ^[1-9][0-9]*$ ]] || { echo "BENCH_REPEAT takes a number > 0"; exit 1; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/abiwatch-bench.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT

"$abiwatch" run sysctl -o "$tmp/snap" >/dev/null 2>&1
times=()
for ((i = 0; i < repeat; i++)); do
	start=$(date +%s.%N)
	"$abiwatch" run sysctl -o "$tmp/snap" >/dev/null 2>&1
	rc=$?
	end=$(date +%s.%N)
	[[ $rc == 0 ]] || { echo "abiwatch run sysctl exited $rc"; exit 1; }
	times+=("$(echo "$end - $start" | bc)")
done
sorted=$(printf '%s\n' "${times[@]}" | sort -n)
median=$(sed -n "$(((repeat + 1) / 2))p" <<<"$sorted")
slowest=$(tail -n 1 <<<"$sorted")
knobs=$(sed -n 's/^obs.sysctl.knob.files = //p' "$tmp/snap")
printf 'sysctl: %s knobs, median %.2f s, slowest %.2f s of %d runs (target < 3 s)\n' \
	"$knobs" "$median" "$slowest" "$repeat"

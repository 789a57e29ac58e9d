#!/usr/bin/env bash
# `abiwatch run fdio -o SNAPSHOT` 20 times in a row (FDIO_RUNS): the
# median and the slowest run against the issue's target of 2 s, and
# whether all 20 snapshots are identical (the family's items must not
# depend on timing; tests/integration/fdio_repeat.sh asserts it over 5).
set -u
cd "$(dirname "$0")/../.." || exit 1
export LC_ALL=C
export ABIWATCH_HELPER_DIR=${ABIWATCH_HELPER_DIR:-$PWD/build/m32}
runs=${FDIO_RUNS:-20}
[[ $runs =~ ^[1-9][0-9]*$ ]] || { echo "FDIO_RUNS takes a number > 0"; exit 1; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/abiwatch-bench-fdio.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
status=0 secs=() differ=0

for ((i = 1; i <= runs; i++)); do
	t0=$EPOCHREALTIME
	./abiwatch run fdio -o "$tmp/$i" >"$tmp/out" 2>&1
	rc=$?
	secs+=("$(awk -v a="$t0" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.3f", b - a }')")
	[[ $rc == 0 ]] || { echo "run $i exits $rc"; status=1; }
	cmp -s "$tmp/1" "$tmp/$i" || { differ=$((differ + 1)); diff "$tmp/1" "$tmp/$i" | head -5; }
done
sorted=$(printf '%s\n' "${secs[@]}" | sort -g)
median=$(awk '{ v[NR] = $1 } END { printf "%.3f", NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }' <<<"$sorted")
echo "run fdio x$runs: median $median s, min $(head -n 1 <<<"$sorted") s, max $(tail -n 1 <<<"$sorted") s (target < 2 s)"
echo "snapshots differing from the first: $differ of $((runs - 1))"
((differ == 0)) || status=1
exit $status

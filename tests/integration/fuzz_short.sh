#!/usr/bin/env bash
# A short run of every fuzz target over its corpus (the long one is
# `make fuzz`).  Each target aborts on a crash or on a broken property.
set -u
seconds=${FUZZ_SHORT_SECONDS:-15}
shopt -s nullglob
targets=(build/fuzz/fuzz_*)
if ((${#targets[@]} == 0)); then
	echo "no fuzz targets built (make fuzz-build needs clang)"
	exit 4
fi
work=$(mktemp -d "${TMPDIR:-/tmp}/abiwatch-fuzz.XXXXXX")
trap 'rm -rf "$work"' EXIT
for t in "${targets[@]}"; do
	name=${t##*/fuzz_}
	mkdir -p "$work/$name"
	# New inputs go to the scratch corpus; the kept one is only read.
	if ! "$t" -max_total_time="$seconds" -artifact_prefix="$work/" \
		"$work/$name" "tests/fuzz/corpus/$name" >"$work/$name.log" 2>&1; then
		tail -n 30 "$work/$name.log"
		exit 1
	fi
	grep -E '^Done [0-9]+ runs' "$work/$name.log" | sed "s/^/$name: /"
done

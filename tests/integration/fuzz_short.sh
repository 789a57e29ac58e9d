#!/usr/bin/env bash
# tests/run: sealed
# A short run of every fuzz target over its corpus (the long one is
# `make fuzz`).  Each target aborts on a crash or on a broken property.
# Bounded by work, not time: the corpus, then a fixed number of new inputs
# (3000, some 1-5 s a target here; the command line's, whose every input
# parses a whole invocation, 200).
set -u
runs=${FUZZ_SHORT_RUNS:-3000}
shopt -s nullglob
# The targets are the sources' (a binary left by an older build is not one).
targets=()
for src in tests/fuzz/fuzz_*.c; do
	t=build/fuzz/$(basename "$src" .c)
	[[ -x $t ]] || { echo "$t not built (make fuzz-build needs clang)"; exit 4; }
	targets+=("$t")
done
work=$(mktemp -d "${TMPDIR:-/tmp}/abiwatch-fuzz.XXXXXX")
trap 'rm -rf "$work"' EXIT
for t in "${targets[@]}"; do
	name=${t##*/fuzz_}
	mkdir -p "$work/$name"
	# New inputs go to the scratch corpus; the kept one is only read.
	n=$runs
	[[ $name == cli ]] && n=$((runs / 15))
	if ! "$t" -runs="$n" -artifact_prefix="$work/" \
		"$work/$name" "tests/fuzz/corpus/$name" >"$work/$name.log" 2>&1; then
		tail -n 30 "$work/$name.log"
		exit 1
	fi
	grep -E '^Done [0-9]+ runs' "$work/$name.log" | sed "s/^/$name: /"
done

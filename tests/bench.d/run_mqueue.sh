#!/usr/bin/env bash
# `abiwatch run mqueue -o SNAPSHOT` (the whole mqueue family, as the
# integration tests cli and mqueue_family run it), for the plain build and
# the ASan+UBSan build, against a baseline measured in the same run with
# the same build: `abiwatch-selftest run selftest.good -o SNAPSHOT`.
#
# selftest.good is a probe that does nothing but report one pass and one
# observation, and abiwatch-selftest is abiwatch with the selftest family
# linked in.  So the baseline is the fixed cost of a run: starting the
# program, reading the environment (kernel, capabilities, whether i386
# programs run), one probe's namespaces and private tmpfs, collecting its
# report and writing the snapshot.  The ratio says how many such empty
# runs the 17 probes of the family cost; it moves when a probe gets slower
# (or a sanitizer does), not when the machine does.
#
# Each command runs BENCH_REPEAT times (default 5), the two alternating,
# after one run of each to warm the caches; the medians are compared.
# The budgets the tests used to enforce are printed as the targets: 1 s
# (cli) and 3 s (mqueue_family) for the plain build, 10 s for ASan.
set -u
cd "$(dirname "$0")/../.." || exit 1
export LC_ALL=C
export ABIWATCH_HELPER_DIR=${ABIWATCH_HELPER_DIR:-$PWD/build/m32}
repeat=${BENCH_REPEAT:-5}
[[ $repeat =~ ^[1-9][0-9]*$ ]] || { echo "BENCH_REPEAT takes a number > 0"; exit 1; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/abiwatch-bench.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
status=0

# Seconds of one run of the command, into $secs; its status into $rc.
time_one() { # command...
	local t0=$EPOCHREALTIME t1
	"$@" >"$tmp/out" 2>&1
	rc=$?
	t1=$EPOCHREALTIME
	secs=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.4f", b - a }')
}
median() { printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END {
	printf "%.3f", NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
minimum() { printf '%s\n' "$@" | sort -g | head -n 1 | awk '{ printf "%.3f", $1 }'; }

echo "$(nproc) CPUs; median of $repeat runs each, alternating with the baseline"
printf '%-6s %-34s %8s %8s %7s %s\n' build command median_s min_s ratio target
for build in plain asan; do
	case $build in
	plain) bin=./abiwatch selftest=build/abiwatch-selftest targets="1 s (cli), 3 s (mqueue_family)" ;;
	asan) bin=build/asan/abiwatch selftest=build/asan/abiwatch-selftest targets="10 s (mqueue_family)" ;;
	esac
	if [[ ! -x $bin || ! -x $selftest ]]; then
		echo "$build: not built ($bin, $selftest: make all asan selftest)"
		continue
	fi
	base=(); fam=(); failed=
	time_one "$selftest" run selftest.good -o "$tmp/base.snap"
	time_one "$bin" run mqueue -o "$tmp/mq.snap"
	for ((i = 0; i < repeat; i++)); do
		time_one "$selftest" run selftest.good -o "$tmp/base.snap"
		[[ $rc == 0 ]] || failed="baseline exit $rc: $(tail -n 2 "$tmp/out" | tr '\n' ' ')"
		base+=("$secs")
		time_one "$bin" run mqueue -o "$tmp/mq.snap"
		[[ $rc == 0 ]] || failed="run mqueue exit $rc: $(grep -m2 'not ok' "$tmp/out" | tr '\n' ' ')"
		fam+=("$secs")
	done
	b=$(median "${base[@]}") f=$(median "${fam[@]}")
	ratio=$(awk -v f="$f" -v b="$b" 'BEGIN { printf "%.1f", (b > 0 ? f / b : 0) }')
	printf '%-6s %-34s %8s %8s %7s %s\n' "$build" "run selftest.good (baseline)" "$b" "$(minimum "${base[@]}")" 1.0 -
	printf '%-6s %-34s %8s %8s %7s %s\n' "$build" "run mqueue" "$f" "$(minimum "${fam[@]}")" "$ratio" "$targets"
	[[ -z $failed ]] || { echo "       ($failed)"; status=1; }
done
exit $status

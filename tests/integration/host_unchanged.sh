#!/usr/bin/env bash
# A run of every probe, and runs where every probe times out, leave the
# host as they found it (tests/lib/host-state before and after each).
#
#   ABIWATCH=./abiwatch tests/integration/host_unchanged.sh
#
# The runs: a full `abiwatch run`; `run --timeout 0.05`; and
# `run --timeout 0.000001`, where the probes that start are killed by the
# runner's timeout (its snapshot must show some), so that the runner's own
# kill is taken.  Exit status: 0 pass, 1 fail, 4 skip.
# Builds nothing: $ABIWATCH must exist (default ./abiwatch).
set -u
export LC_ALL=C

root=$(cd "$(dirname "$0")/../.." && pwd)
host_state=$root/tests/lib/host-state
ABIWATCH=${ABIWATCH:-./abiwatch}

skip() { echo "SKIP: $*"; exit 4; }
fail() { echo "FAIL: $*"; exit 1; }

[[ -x $ABIWATCH && -f $ABIWATCH ]] || fail "no executable $ABIWATCH (run make first)"
why=$("$host_state" --missing) || skip "$why"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/awhost.XXXXXX") || fail "mktemp failed"
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM HUP
mkdir "$tmp/out" "$tmp/tmpdir"

# As in kill.sh: our runs' processes carry a tag, abiwatch has a TMPDIR of
# its own, and the fingerprint looks there and in the snapshot's directory
# rather than in the /tmp that others on the machine use meanwhile.
tag=AW_HOST_TAG=$$.$RANDOM
export TMPDIR=$tmp/tmpdir
export HOST_STATE_TAG=$tag HOST_STATE_PID=$$ HOST_STATE_TMPDIRS="$tmp/tmpdir $tmp/out $tmp/pathdir"
# The --path backend too: its scratch subdirectory is the one thing a
# probe makes on the host (the tmp section looks for it).
mkdir -p "$tmp/pathdir"

"$host_state" >"$tmp/before" 2>&1
"$host_state" >"$tmp/again" 2>&1
if ! diff -u "$tmp/before" "$tmp/again" >"$tmp/diff"; then
	echo "FAIL: two fingerprints in a row differ with nothing running:"
	sed 's/^/    /' "$tmp/diff"
	exit 1
fi

# run NAME [RUN-OPTION...]: one run into $tmp/out/NAME.snapshot, then the
# host must be as before.
run() {
	local name=$1 status
	shift
	env "$tag" "$ABIWATCH" run -o "$tmp/out/$name.snapshot" --path "scratch=$tmp/pathdir" "$@" \
		>"$tmp/$name.out" 2>&1
	status=$?
	case $status in
	0|1|4) ;;
	*) fail "run $* ended with status $status: $(tail -c 500 "$tmp/$name.out")" ;;
	esac
	[[ -s $tmp/out/$name.snapshot ]] || fail "run $* wrote no snapshot"
	"$host_state" >"$tmp/after" 2>&1
	if ! diff -u "$tmp/before" "$tmp/after" >"$tmp/diff"; then
		echo "FAIL: the host changed after run $* (status $status):"
		sed 's/^/    /' "$tmp/diff"
		exit 1
	fi
	echo "# run ${*:-(no options)}: status $status, host unchanged"
}

run full
run timeout-0.05 --timeout 0.05
run timeout-tiny --timeout 0.000001

# The runner's own kill must have been taken: with probes that run, some
# time out in the tiny run (not necessarily all: one may finish while
# abiwatch waits to be scheduled, before its first look at the clock).
ran=$(grep -c '^probe\..* = ran$' "$tmp/out/full.snapshot")
timed_out=$(grep -c '^probe\..* = timeout' "$tmp/out/timeout-tiny.snapshot")
if (( ran > 0 && timed_out == 0 )); then
	fail "with --timeout 0.000001 no probe timed out; $ran ran in the full run"
fi
probes=$(grep -c '^probe\.' "$tmp/out/full.snapshot")
echo "host_unchanged: $probes probes; the host is unchanged after a full run," \
     "a --timeout 0.05 run, and a run where $timed_out probes timed out"

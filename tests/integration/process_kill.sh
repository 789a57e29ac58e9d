#!/usr/bin/env bash
# process_kill: SIGKILL abiwatch while the process probes that trace
# and stop children run, and check that nothing is left.
#
# Three watched runs of those probes (process.ptrace, process.signals,
# process.compat32, process.exec) give its duration T, the shortest; then each of
# ROUNDS (default 8) runs them in a session of its own (setsid) and
# SIGKILLs abiwatch after r/ROUNDS of T, so that the kills sweep the run:
# tracees at ptrace stops, ELF programs stopped by themselves, the
# 32-bit helper under its 64-bit tracer.  No process of that session may
# remain (zombies apart; looked for up to 10 s, a bound against a hang
# that a loaded machine does not reach): the probes' children die with
# their PID namespace and by PR_SET_PDEATHSIG, the tracees by
# PTRACE_O_EXITKILL or with their tracer.  A kill after the run ended
# counts as not landed; one must land (where the kills land follows the
# machine's speed, which can change between the watched runs and the
# rounds: how many land is printed, not judged).  The host's fingerprint
# (tests/lib/host-state, with this test's tag and scratch directory) is
# the same after.  Bounded by the number of rounds, each one short run.
set -u
cd "$(dirname "$0")/../.." || exit 1
. tests/lib/dirent-common.sh

"$abiwatch" list process >/dev/null 2>&1 || skip "this abiwatch has no process family"
rounds=${ROUNDS:-8}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/abiwatch-pkill.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
tag=ABIWATCH_PROCESS_KILL=$$
# mounts, loop devices and FUSE connections apart: this family makes none,
# and on a shared machine other tests' come and go meanwhile
export HOST_STATE_TAG=$tag HOST_STATE_TMPDIRS=$tmp HOST_STATE_SKIP="mount loop fuse"
tests/lib/host-state >"$tmp/before" 2>/dev/null

session() { ps -eo sid=,pid=,stat=,comm= | awk -v s="$1" '$1 == s'; }

probes=(process.ptrace process.signals process.compat32 process.exec)
# The shortest of three watched runs: a run slowed by a moment's load
# elsewhere would place every kill after the runs that follow have ended.
T=
for ((i = 0; i < 3; i++)); do
	t0=$(date +%s%N)
	env "$tag" "$abiwatch" run -o "$tmp/snap" "${probes[@]}" >/dev/null 2>&1
	t=$((($(date +%s%N) - t0) / 1000000))
	[[ -z $T || $t -lt $T ]] && T=$t
done
echo "# a whole run takes $T ms (the shortest of 3)"
landed=0
for ((r = 1; r <= rounds; r++)); do
	delay_ms=$((T * r / (rounds + 1)))
	setsid env "$tag" "$abiwatch" run -o "$tmp/snap" "${probes[@]}" >/dev/null 2>&1 &
	pid=$!
	sid=$pid # setsid from a background job of a script: the pid is the new session's
	sleep "$(printf '%d.%03d' $((delay_ms / 1000)) $((delay_ms % 1000)))"
	if ! kill -KILL "$pid" 2>/dev/null; then
		wait "$pid" 2>/dev/null
		echo "# round $r: the run ended before $delay_ms ms"
		continue
	fi
	wait "$pid" 2>/dev/null
	landed=$((landed + 1))
	left=
	for ((i = 0; i < 100; i++)); do
		left=$(session "$sid" | awk '$3 !~ /^Z/')
		[[ -z $left ]] && break
		sleep 0.1
	done
	[[ -z $left ]] && report ok "round $r: killed after $delay_ms ms; nothing of its session left" ||
		{ report bad "round $r: killed after $delay_ms ms; left:"; echo "$left"; }
done
((landed >= 1)) && report ok "$landed of $rounds kills landed in a run" ||
	report bad "none of $rounds kills landed in a run"

tests/lib/host-state >"$tmp/after" 2>/dev/null
diff "$tmp/before" "$tmp/after" >"$tmp/state.diff" && report ok "the host is unchanged" ||
	{ report bad "the host changed:"; cat "$tmp/state.diff"; }
finish

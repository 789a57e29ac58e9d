#!/usr/bin/env bash
# dirent_kill_hostile: abiwatch killed (SIGKILL) at random moments of a
# run over each cookiefs policy, good and hostile (a listing that never
# ends, one that hangs, one that crawls, one that fails...), and once more
# exactly while the janitor removes the probe's scratch directory (on a
# second mount whose unlinks crawl, so that the removal lasts).  After
# each kill the host's fingerprint is what it was: no process of the run
# is left (every one carries the run's tag in its environment; zombies,
# which the host's init may reap lazily, do not count), and the scratch
# directory is gone (the janitor finishes its bounded removal, or gives up
# and says so, by itself).  For
# hang, whose daemon never answers, the probe's process waits in the
# kernel for the daemon: stopping the daemon, as its owner would, is what
# lets it go, and then nothing is left either.
# DIRENT_KILL_POLICIES narrows the policies (default: all of them);
# DIRENT_KILL_FRACTIONS are the moments of the random kills, in percent of
# a whole run (default 15 50 90; make check-long 10 35 60 85 97).
# Exit 0 pass, 1 fail, 4 skip (no cookiefs, no /dev/fuse, not root).
cd "$(dirname "$0")/../.." || exit 1
. tests/lib/dirent-common.sh

cookiefs_scratch hostile
# Two daemons: one for whole runs and random kills, one whose unlinks
# crawl, so that the probe's own clean-up runs out of time and the
# janitor's removal lasts long enough to be killed in.
mnt2=$tmp/mnt2
mkdir "$mnt2"
declare -A daemon=()
start_daemon() { # mountpoint options...
	local m=$1
	shift
	"$cookiefs" -f "$@" "$m" 2>/dev/null &
	daemon[$m]=$!
	until mountpoint -q "$m"; do
		kill -0 "${daemon[$m]}" 2>/dev/null || skip "cookiefs would not mount"
		sleep 0.05
	done
}
stop_daemon() { # mountpoint
	[[ -n ${daemon[$1]-} ]] && kill "${daemon[$1]}" 2>/dev/null && wait "${daemon[$1]}" 2>/dev/null
	umount "$1" 2>/dev/null || umount -l "$1" 2>/dev/null
	unset "daemon[$1]"
}
restart() { # mountpoint: the one way to free a process hang holds
	local opts=(-o delay_ms=50)
	[[ $1 == "$mnt2" ]] && opts+=(-o unlink_delay_ms=20)
	stop_daemon "$1"
	start_daemon "$1" "${opts[@]}"
}
cleanup() {
	[[ -n ${pid:-} ]] && kill -KILL "$pid" 2>/dev/null
	stop_daemon "$mnt"
	stop_daemon "$mnt2"
	rm -rf "$tmp"
}
trap cleanup EXIT
restart "$mnt"
restart "$mnt2"

policies="${DIRENT_KILL_POLICIES:-good wide signed dup cycle unstable skip repeat vanish eio slow truncate nodots hang}"
tag=ABIWATCH_TEST_RUN=hostile-$$
export HOST_STATE_TAG=$tag HOST_STATE_TMPDIRS=$tmp
mkdir "$tmp/t"
# The test's own cookiefs mounts get a new device number when it restarts
# a daemon (hang): that number is the test's doing, not the run's.
host_state() {
	TMPDIR=$tmp/t tests/lib/host-state 2>&1 |
		sed -E "s#^mount [0-9]+:[0-9]+ (/ $tmp/mnt2? )#mount DEV \1#" | sort
}
host_state >"$tmp/before"

# One snapshot file for every policy's run: --force, since each run
# selects another probe than the one the file holds.
run_bg() { # policy [mountpoint]
	env "$tag" TMPDIR="$tmp/t" "$abiwatch" run dirent --fs tmpfs --entries 200 --timeout 2 \
		--path "cf_$1=${2:-$mnt}/$1" --force -o "$tmp/t/snap" >"$tmp/run.out" 2>&1 &
	pid=$!
}

# Settled: the host as before.  Bounded by work: each comparison takes a
# full fingerprint; the janitor's own bounds (AW_HOSTDIR_ORPHAN_S and
# AW_HOSTDIR_REMOVE_S) are what make it settle.
settled() { # what
	local i
	for ((i = 0; i < 100; i++)); do
		host_state >"$tmp/after"
		cmp -s "$tmp/before" "$tmp/after" && return 0
	done
	report bad "$1: the host changed:"
	diff -u "$tmp/before" "$tmp/after" | sed 's/^/    /'
	return 1
}

# The janitor is abiwatch's child that leads a session of its own; it
# removes the directory in a child of its own.
remover_alive() {
	local j r
	for j in $(cat "/proc/$pid/task/$pid/children" 2>/dev/null); do
		[[ $(awk '{ print $6 }' "/proc/$j/stat" 2>/dev/null) == "$j" ]] || continue
		r=$(cat "/proc/$j/task/$j/children" 2>/dev/null)
		[[ -n $r ]] && return 0
	done
	return 1
}

kills=0 nocleanup=()
for p in $policies; do
	# A whole run first: it ends by itself (within its deadline and grace),
	# and its length spreads the kills below over it.
	t0=${EPOCHREALTIME/./}
	run_bg "$p"
	wait "$pid"
	rc=$?
	pid=
	run_us=$(( ${EPOCHREALTIME/./} - t0 ))
	[[ $rc == 0 || $rc == 1 ]] && report ok "$p: a whole run ends (exit $rc)" ||
		{ report bad "$p: a whole run: exit $rc"; cat "$tmp/run.out"; }
	[[ $p == hang ]] && restart "$mnt"
	settled "$p: after a whole run" || continue
	for frac in ${DIRENT_KILL_FRACTIONS:-15 50 90}; do
		run_bg "$p"
		sleep "$(awk -v u="$run_us" -v f="$frac" 'BEGIN { printf "%.3f", u * f / 100 / 1e6 }')"
		kill -KILL "$pid" 2>/dev/null
		wait "$pid" 2>/dev/null
		pid=
		kills=$((kills + 1))
		[[ $p == hang ]] && restart "$mnt"
		settled "$p: SIGKILL at $frac% of a run" && report ok "$p: SIGKILL at $frac% of a run, nothing left"
	done
	# During the clean-up: while the janitor's remover is at work.
	run_bg "$p" "$mnt2"
	while kill -0 "$pid" 2>/dev/null && ! remover_alive; do :; done
	if kill -KILL "$pid" 2>/dev/null; then
		wait "$pid" 2>/dev/null
		kills=$((kills + 1))
		what="SIGKILL while the janitor removes"
	else
		wait "$pid" 2>/dev/null
		what="(the run ended before its removal was seen)"
		nocleanup+=("$p")
	fi
	pid=
	[[ $p == hang ]] && restart "$mnt2"
	settled "$p: $what" && report ok "$p: $what, nothing left"
done
echo "$kills kills over ${policies// /, }"
# hang never lets the probe reach its clean-up; eio lists nothing to remove.
for p in "${nocleanup[@]}"; do
	[[ $p == hang || $p == eio ]] || report bad "$p: no kill while the janitor removed"
done
finish

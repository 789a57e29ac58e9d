#!/usr/bin/env bash
# dirent_kill: a SIGKILL of abiwatch while a dirent probe has its loop
# device attached and its filesystem mounted leaves nothing behind: the
# mount goes with the probe's mount namespace and the device, attached
# with LO_FLAGS_AUTOCLEAR, detaches itself (tests/lib/host-state before
# and after; for the kernel's asynchronous teardown, up to
# DIRENT_KILL_SETTLE (default 20) fingerprints are taken until one matches).
# Each loop-mounted backend in turn, and tmpfs and overlay, at 200,000
# entries so that there is time to land.  Exit 0 pass, 1 fail, 4 skip.
cd "$(dirname "$0")/../.." || exit 1
. tests/lib/dirent-common.sh
host_state=tests/lib/host-state
settle=${DIRENT_KILL_SETTLE:-20}
[[ $settle =~ ^[1-9][0-9]*$ ]] || { echo "FAIL: DIRENT_KILL_SETTLE takes a number > 0"; exit 1; }
why=$("$host_state" --missing) || skip "$why"
[[ -r /proc/$$/task/$$/children ]] || skip "no /proc/PID/task/TID/children"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/abiwatch-dirent.XXXXXX") || exit 1
pid=
cleanup() {
	[[ -n $pid ]] && { kill -KILL "$pid" 2>/dev/null; wait "$pid" 2>/dev/null; }
	rm -rf "$tmp"
}
trap cleanup EXIT
mkdir "$tmp/out" "$tmp/tmpdir"
tag=AW_DIRENT_KILL_TAG=$$.$RANDOM
export TMPDIR=$tmp/tmpdir
export HOST_STATE_TAG=$tag HOST_STATE_PID=$$ HOST_STATE_TMPDIRS="$tmp/tmpdir $tmp/out"
"$host_state" >"$tmp/before" 2>&1

# Wait until the probe (init's child) has mounted the backend's
# filesystem (a mount point named after it, of its type): true then, false
# when the run ended first.
wait_for_mount() { # backend fstype
	local kid grand
	while kill -0 "$pid" 2>/dev/null; do
		for kid in $(cat "/proc/$pid/task/$pid/children" 2>/dev/null); do
			for grand in $(cat "/proc/$kid/task/$kid/children" 2>/dev/null); do
				awk -v mp="/$1" -v t="$2" '
					{ for (i = 7; $i != "-"; i++); }
					substr($5, length($5) - length(mp) + 1) == mp && $(i + 1) == t { f = 1 }
					END { exit !f }' "/proc/$grand/mountinfo" 2>/dev/null && return 0
			done
		done
		sleep 0.025
	done
	return 1
}

for fs in ext4 xfs btrfs tmpfs overlay; do
	env "$tag" "$abiwatch" run dirent --fs "$fs" --entries 200000 -t 120 \
		-o "$tmp/out/snap" >"$tmp/run.out" 2>&1 &
	pid=$!
	fstype=$fs
	if ! wait_for_mount "$fs" "$fstype"; then
		kill -KILL "$pid"; wait "$pid" 2>/dev/null; pid=
		if grep -q "# SKIP" "$tmp/run.out"; then
			report ok "$fs: skipped here ($(grep -m1 '# SKIP' "$tmp/run.out" | sed 's/.*# SKIP //'))"
			continue
		fi
		report bad "$fs: the probe never had its $fstype mounted"
		continue
	fi
	sleep 0.$((RANDOM % 5))
	kill -KILL "$pid"
	wait "$pid" 2>/dev/null
	pid=
	# Each comparison is a whole fingerprint; a short pause between them.
	ok=0
	for ((i = 1; i <= settle; i++)); do
		"$host_state" >"$tmp/after" 2>&1
		cmp -s "$tmp/before" "$tmp/after" && { ok=1; break; }
		sleep 0.05
	done
	if ((ok)); then
		report ok "$fs: SIGKILL mid-probe, nothing left (fingerprint $i of at most $settle matched)"
	else
		report bad "$fs: the host changed after a SIGKILL mid-probe ($settle fingerprints):"
		diff -u "$tmp/before" "$tmp/after" | sed 's/^/    /'
	fi
done
finish

#!/usr/bin/env bash
# loaded_values: what used to be decided from elapsed time gives the same
# answer on an idle machine and on one whose CPUs this test oversubscribes
# itself (issue 43).  The probes, each once idle and once loaded:
#   - vfs.tmpfs: mtime_granularity, from pairs of changes within one tick
#     of CLOCK_REALTIME_COARSE (a loaded machine only discards more pairs);
#   - mqueue.notify, mqueue.notifyreg: the signals that must not come,
#     looked for as pending, not waited for.
# The load: 2 busy loops per CPU and 2 more, started here, each ended by
# `timeout` after 300 s at most should the test be killed, and killed on
# exit.  Asserted: the snapshots' items are equal (abiwatch diff exits 0)
# and the mtime evidence is work (64 pairs counted within a tick, the
# tries the note reports), never how long anything took.
set -u
cd "$(dirname "$0")/../.." || exit 1
. tests/lib/dirent-common.sh

tmp=$(mktemp -d "${TMPDIR:-/tmp}/abiwatch-loaded.XXXXXX") || exit 1
. tests/lib/cpu-hog.sh
trap 'hog_stop; rm -rf "$tmp"' EXIT
probes=(vfs.tmpfs mqueue.notify mqueue.notifyreg)

run_probes() { # name
	"$abiwatch" run -o "$tmp/$1.snapshot" "${probes[@]}" >"$tmp/$1.ktap" 2>&1
	local rc=$?
	[[ $rc == 0 ]] && report ok "$1 run exits 0" || { report bad "$1 run exits $rc"; grep 'not ok' "$tmp/$1.ktap"; }
}

# "mtime: N pairs tried, ... D different, T the tick's, ..." -> the counts
pairs_within() {
	sed -n 's/.*# mtime: [0-9]* pairs tried, .*: \([0-9]*\) different, \([0-9]*\) the tick.s, \([0-9]*\) whole seconds, \([0-9]*\) other$/\1 \2 \3 \4/p' "$1" |
		awk '{ print $1 + $2 + $3 + $4 }'
}

run_probes idle
n=$(($(nproc) * 2 + 2))
HOG_MAX_S=300 hog_start "$n"
# The hogs run before the loaded run starts: each has a CPU's worth of
# work queued, which the kernel shows as running tasks.
busy=$(awk '{ split($4, r, "/"); print r[1] }' /proc/loadavg)
report ok "$n busy loops started ($busy tasks running)"
run_probes loaded
hog_stop

"$abiwatch" diff "$tmp/idle.snapshot" "$tmp/loaded.snapshot" >"$tmp/diff" 2>&1
rc=$?
[[ $rc == 0 ]] && report ok "idle and loaded snapshots compare with no change" ||
	{ report bad "abiwatch diff idle loaded exits $rc"; head -20 "$tmp/diff"; }
load_snapshot "$tmp/idle.snapshot"
idle=${snap[obs.vfs.tmpfs.mtime_granularity]-}
load_snapshot "$tmp/loaded.snapshot"
loaded=${snap[obs.vfs.tmpfs.mtime_granularity]-}
[[ -n $idle && $idle == "$loaded" ]] && report ok "mtime_granularity is $idle idle and loaded" ||
	report bad "mtime_granularity: '$idle' idle, '$loaded' loaded"
for run in idle loaded; do
	got=$(pairs_within "$tmp/$run.ktap")
	[[ $got == 64 ]] && report ok "$run: the class rests on 64 pairs within one tick" ||
		report bad "$run: pairs within one tick: '${got}'"
done
finish

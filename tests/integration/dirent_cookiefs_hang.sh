#!/usr/bin/env bash
# dirent_cookiefs_hang: a filesystem whose readdir never returns (cookiefs
# hang) or crawls (slow) never makes abiwatch hang.  The run ends (were it
# to hang, tests/run's guard of every script would fail the test), the
# snapshot and KTAP say "timeout" for that probe, the stuck process on this
# user's own mount is named, and the mount can still be unmounted once its
# daemon is stopped.
# Exit 0 pass, 1 fail, 4 skip (no cookiefs built, no /dev/fuse, not root).
cd "$(dirname "$0")/../.." || exit 1
. tests/lib/dirent-common.sh

cookiefs_scratch hang
daemon=
stop_daemon() {
	[[ -n $daemon ]] && kill "$daemon" 2>/dev/null
	daemon=
}
cleanup() {
	stop_daemon
	umount "$mnt" 2>/dev/null || umount -l "$mnt" 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT
# In the foreground, so that the test holds the daemon's pid: stopping it is
# what releases a process stuck on the mount.
"$cookiefs" -f -o delay_ms=400 "$mnt" &
daemon=$!
# Until it is mounted, or the daemon gave up.
until mountpoint -q "$mnt"; do
	kill -0 "$daemon" 2>/dev/null || break
	sleep 0.05
done
mountpoint -q "$mnt" || skip "cookiefs would not mount"

limit=3
"$abiwatch" run dirent --fs tmpfs --path cf_hang="$mnt/hang" --path cf_slow="$mnt/slow" \
	--entries 200 --timeout "$limit" -o "$tmp/snap" >"$tmp/ktap" 2>&1
rc=$?
load_snapshot "$tmp/snap"

[[ $rc == 1 ]] && report ok "exit status 1" || report bad "exit status $rc, expected 1"
for p in cf_hang cf_slow; do
	expect_match probe.dirent.$p "^timeout: no result within $limit s"
	expect_match check.dirent.$p.terminates '^(timeout|pass)'
	grep -q "^ *not ok [0-9]* dirent.$p.* # TIMEOUT" "$tmp/ktap" &&
		report ok "KTAP says TIMEOUT for $p" || report bad "no TIMEOUT line for $p in KTAP"
done
expect_ktap_agrees "$tmp/ktap" cf_hang cf_slow
# hang blocks before any result; slow gets some out before the limit.
expect_match check.dirent.cf_hang.unique '^timeout: '
expect_pass tmpfs
grep -qE 'did not exit after SIGKILL' "$tmp/ktap" &&
	report ok "the stuck probe is reported" || report bad "no word of the stuck probe"
named='pid [0-9]+ \([^)]+\) in uninterruptible sleep in [a-z_]+'
grep -qE "$named" "$tmp/ktap" &&
	report ok "the stuck process is named: $(grep -m1 -oE "$named" "$tmp/ktap")" ||
	report bad "the stuck process is not named"

# The user's own mount was left alone: still mounted, and it unmounts once
# its daemon stops answering for good.
mountpoint -q "$mnt" && report ok "the user's mount was left alone" || report bad "the mount is gone"
d=$daemon
stop_daemon
# Until it has exited (SIGTERM fails the request it never answered).
wait "$d" 2>/dev/null
umount "$mnt" 2>/dev/null
mountpoint -q "$mnt" && report bad "still mounted after the daemon stopped" ||
	report ok "unmounted after the daemon stopped"
finish

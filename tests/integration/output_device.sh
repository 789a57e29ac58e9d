#!/usr/bin/env bash
# tests/run: sealed
# An output path that is a device (-o /dev/null, as root) is written in
# place and stays the device: run's snapshot, kcidb's document and
# report's page are put into place by renaming a temporary file, which
# over a device node would leave a regular file there, and every later
# `>/dev/null` on the machine would fill it.  The device is a null node of
# our own, on a tmpfs in a mount namespace of our own, so that a failure
# breaks nothing of the host's.
set -u
cd "$(dirname "$0")/../.." || exit 1
abiwatch=${ABIWATCH:-./abiwatch}
[[ $(id -u) == 0 ]] || { echo "SKIP: making a device node needs root"; exit 4; }
command -v unshare >/dev/null || { echo "SKIP: no unshare(1)"; exit 4; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/abiwatch-outdev.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/dev"

# shellcheck disable=SC2016
unshare -m --propagation private sh -c '
	mount -t tmpfs none "$1" && mknod -m 666 "$1/null" c 1 3 || exit 9
	"$2" run vfs.anon -o "$1/null" >/dev/null 2>&1; echo "run exit $?"
	stat -c "run %F" "$1/null"
	"$2" run vfs.anon -o "$3/s.snapshot" >/dev/null 2>&1
	"$2" kcidb --origin t -o "$1/null" "$3/s.snapshot"; echo "kcidb exit $?"
	stat -c "kcidb %F" "$1/null"
	"$2" report -o "$1/null" "$3/s.snapshot" 2>/dev/null; echo "report exit $?"
	stat -c "report %F" "$1/null"
	ls -A "$1"' sh "$tmp/dev" "$abiwatch" "$tmp" >"$tmp/out" 2>&1
cat "$tmp/out"
status=0
for cmd in run kcidb report; do
	grep -qx "$cmd exit 0" "$tmp/out" && echo "ok   $cmd -o DEVICE exits 0" ||
		{ echo "FAIL $cmd -o DEVICE does not exit 0"; status=1; }
	grep -qx "$cmd character special file" "$tmp/out" && echo "ok   $cmd left the device a device" ||
		{ echo "FAIL $cmd replaced the device"; status=1; }
done
[[ $(tail -n 1 "$tmp/out") == null ]] && echo "ok   no temporary file beside it" ||
	{ echo "FAIL left beside the device: $(tail -n 1 "$tmp/out")"; status=1; }
exit $status

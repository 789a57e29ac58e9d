#!/usr/bin/env bash
# fdio_values: the fdio family against this kernel, every item asserted
# (tests/lib/fdio-values.sh holds the values, shared with vm_fdio.sh):
#   - the guards hold: EPOLLET wakes on a second write into an undrained
#     pipe, a pipe over fs.pipe-user-pages-soft has two pages and takes a
#     byte after a partial read, ttys splice, copy_file_range across
#     filesystems and from /proc and /sys is EXDEV;
#   - every other value is the one 6.1, 6.12 and 6.18 give, and the
#     values that changed after 6.1 are the new ones on 6.12 and later;
#   - EPOLLWAKEUP with CAP_BLOCK_SUSPEND follows CONFIG_PM_SLEEP;
#   - the 32-bit items are a skip saying why where i386 programs do not
#     run (tests/lib/machine); vm_fdio.sh asserts them in guests.
set -u
cd "$(dirname "$0")/../.." || exit 1
. tests/lib/dirent-common.sh
. tests/lib/fdio-values.sh

tmp=$(mktemp -d "${TMPDIR:-/tmp}/abiwatch-fdio.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
machine_summary

"$abiwatch" run fdio -o "$tmp/s" >"$tmp/ktap" 2>"$tmp/err"
rc=$?
[[ $rc == 0 ]] && report ok "run fdio exits 0" || { report bad "run fdio exits $rc"; cat "$tmp/err"; }
load_snapshot "$tmp/s"
((header_ok)) && report ok "snapshot header" || report bad "snapshot header"
fdio_expect_no_failures "$tmp/s"
fdio_expect_same
fdio_expect_copies

IFS=. read -r major minor _ <<<"$(uname -r)"
if ((major * 1000 + ${minor%%[!0-9]*} >= 6012)); then
	fdio_expect_changed new
else
	echo "# $(uname -r): the values that changed after 6.1 are not asserted here"
fi

if ! machine_cap cap_block_suspend; then
	expect_match unobserved.fdio.epoll.wakeup.capable '^skip: .*CAP_BLOCK_SUSPEND'
elif zgrep -q '^CONFIG_PM_SLEEP=y' /proc/config.gz 2>/dev/null; then
	expect obs.fdio.epoll.wakeup.capable 20000019
elif [[ -r /proc/config.gz ]]; then
	expect obs.fdio.epoll.wakeup.capable 19
else
	expect_match obs.fdio.epoll.wakeup.capable '^(19|20000019)$'
fi

expect_i386 fdio.epoll.compat32.sizeof_epoll_event 12
expect_i386 fdio.epoll.compat32.stride pass
expect_i386 fdio.epoll.compat32.data_roundtrip pass
expect_i386 fdio.epoll.compat32.pwait2 2
expect_i386 fdio.epoll.compat32.pwait2.bad_nsec EINVAL

# Every key of the family is asserted above (or is a copy pair).
listed=$("$abiwatch" list fdio | awk '$1 == "check" || $1 == "obs" { print $2 }' | wc -l)
in_snap=$(grep -cE '^(check|obs|unobserved)\.fdio\.' "$tmp/s")
[[ $listed == "$in_snap" ]] && report ok "all $listed declared items in the snapshot" ||
	report bad "$listed items declared, $in_snap in the snapshot"
finish

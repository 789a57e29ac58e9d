#!/usr/bin/env bash
# dirent_values: `abiwatch run dirent` at its default 10,000 entries on
# tmpfs, ext4, xfs, btrfs and overlayfs, against what kernel 6.18 on
# x86_64 gives (docs/catalogue.md); the 32-bit values where this machine
# runs i386 programs, a skip saying it does not elsewhere
# (tests/lib/machine; the guests of vm_compat32.sh prove them then):
#   - every check passes on every filesystem;
#   - ext4: 63-bit hash cookies for a 64-bit caller, EOF 2^63-1, listed in
#     hash order; 31 bits and EOF 2^31-1 for the 32-bit helper
#     (d1f5273e9adb: hash2pos() and EXT4_HTREE_EOF_32BIT/64BIT);
#   - XFS: small cookies (a position in the data segment), the same for
#     both callers;
#   - tmpfs: EOF cookie 0x7fffffff (68a3a6500314, DIR_OFFSET_EOD = S32_MAX),
#     stable cookies after unlink (since 6.6), newest first (b9b588f22a0c);
#   - btrfs: index cookies from 3, EOF INT_MAX while they are small;
#   - overlayfs: a merged directory counts positions in its cache (EOF =
#     entries + 2, cookies change after an unlink); an upper-only one is
#     tmpfs seen through;
#   - nothing is left mounted or attached afterwards.
# Exit 0 pass, 1 fail, 4 skip (another kernel or architecture, or a
# filesystem this machine lacks, which the probe must say).
cd "$(dirname "$0")/../.." || exit 1
. tests/lib/dirent-common.sh

[[ $(uname -m) == x86_64 ]] || skip "the expected values are for x86_64, this is $(uname -m)"
release=$(uname -r)
[[ $release == 6.18.* ]] || skip "the expected values are kernel 6.18's, this is $release"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/abiwatch-dirent.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
loops_before=$(losetup -a 2>&1 | sort)
mounts_before=$(cut -d' ' -f5 /proc/self/mountinfo | sort)

"$abiwatch" run dirent -o "$tmp/snap" >"$tmp/ktap" 2>"$tmp/err"
rc=$?
[[ -s $tmp/snap ]] || { echo "FAIL: no snapshot (exit $rc)"; cat "$tmp/err"; exit 1; }
load_snapshot "$tmp/snap"

machine_summary
expect_fs_here ext4 xfs btrfs overlay

((header_ok)) && report ok "header $(head -n 1 "$tmp/snap")" || report bad "header: $(head -n 1 "$tmp/snap")"
[[ $rc == 0 ]] && report ok "exit status 0" || report bad "exit status $rc, expected 0"

expect_pass tmpfs ext4 xfs btrfs overlay overlay_single

# ext4
expect obs.dirent.ext4.cookie_bits 63
expect obs.dirent.ext4.headroom_bits 1
expect obs.dirent.ext4.eof_cookie 0x7fffffffffffffff
expect obs.dirent.ext4.signed no
expect obs.dirent.ext4.duplicates 0
expect obs.dirent.ext4.order hash
expect obs.dirent.ext4.reopen_stable yes
expect obs.dirent.ext4.stable_after_unlink stable
expect_i386 dirent.ext4.compat32.cookie_bits 31
expect_i386 dirent.ext4.compat32.eof_cookie 0x7fffffff
expect_i386 dirent.ext4.compat32.duplicates 0
expect_i386 dirent.ext4.compat32.nonlfs_readdir complete

# XFS: small, and the same for a 32-bit caller.
expect_le obs.dirent.xfs.cookie_bits 31
expect_i386 dirent.xfs.compat32.cookie_bits "${snap[obs.dirent.xfs.cookie_bits]-}"
expect_i386 dirent.xfs.compat32.eof_cookie "${snap[obs.dirent.xfs.eof_cookie]-}"
expect obs.dirent.xfs.duplicates 0
expect obs.dirent.xfs.order creation
expect obs.dirent.xfs.stable_after_unlink stable
expect_i386 dirent.xfs.compat32.nonlfs_readdir complete

# tmpfs: cookies 3..10002 (14 bits), the end at S32_MAX.
expect obs.dirent.tmpfs.cookie_bits 14
expect obs.dirent.tmpfs.eof_cookie 0x7fffffff
expect_i386 dirent.tmpfs.compat32.eof_cookie 0x7fffffff
expect obs.dirent.tmpfs.stable_after_unlink stable
expect obs.dirent.tmpfs.order reverse_creation
expect obs.dirent.tmpfs.reopen_stable yes
expect obs.dirent.tmpfs.duplicates 0

# btrfs
expect obs.dirent.btrfs.cookie_bits 14
expect obs.dirent.btrfs.eof_cookie 0x7fffffff
expect obs.dirent.btrfs.order creation
expect obs.dirent.btrfs.stable_after_unlink stable
expect_i386 dirent.btrfs.compat32.cookie_bits 14

# overlayfs
expect obs.dirent.overlay.eof_cookie "$(printf '0x%x' 10002)"
expect obs.dirent.overlay.stable_after_unlink cookies_changed
expect obs.dirent.overlay.reopen_stable yes
expect obs.dirent.overlay_single.eof_cookie 0x7fffffff
expect obs.dirent.overlay_single.stable_after_unlink stable

# headroom_bits is 64 - cookie_bits everywhere.
for fs in tmpfs ext4 xfs btrfs overlay overlay_single; do
	bits=${snap[obs.dirent.$fs.cookie_bits]-x}
	[[ $bits =~ ^[0-9]+$ ]] && expect "obs.dirent.$fs.headroom_bits" $((64 - bits))
done

# Nothing left behind on the host.  Autoclear is the kernel's asynchronous
# work: up to 50 looks at the attached devices, a short pause between them.
for ((look = 1; look <= 50; look++)); do
	[[ $(losetup -a 2>&1 | sort) == "$loops_before" ]] && break
	sleep 0.05
done
[[ $(losetup -a 2>&1 | sort) == "$loops_before" ]] && report ok "no loop device left attached" ||
	report bad "loop devices left: $(losetup -a)"
[[ $(cut -d' ' -f5 /proc/self/mountinfo | sort) == "$mounts_before" ]] &&
	report ok "no mount left" || report bad "mounts changed"

((failures == 0)) || { echo "--- KTAP"; grep -v '^ *ok' "$tmp/ktap" | head -100; }
finish

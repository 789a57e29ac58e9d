#!/usr/bin/env bash
# dirent_ext4_100k: ext4 at 100,000 entries.  The 32-bit helper gets
# 31-bit hash cookies (hash2pos() with is_32bit_api()), and at this size
# 31-bit hashes collide: with the hash seed and algorithm the ext4 backend
# pins (mkfs.ext4 -E hash_seed=...; half_md4) and the names the probe
# makes, the count is always 2.  64-bit callers get (major, minor) 63-bit
# cookies, with no collision, and every check passes.  Twice, to show the
# count does not move.  The 32-bit values where this machine runs i386
# programs (tests/lib/machine), a skip saying it does not elsewhere.
# Exit 0 pass, 1 fail, 4 skip (not 6.18 x86_64, or ext4 cannot be made).
cd "$(dirname "$0")/../.." || exit 1
. tests/lib/dirent-common.sh

[[ $(uname -m) == x86_64 ]] || skip "the expected values are for x86_64, this is $(uname -m)"
[[ $(uname -r) == 6.18.* ]] || skip "the expected values are kernel 6.18's, this is $(uname -r)"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/abiwatch-dirent.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT

for run in 1 2; do
	"$abiwatch" run dirent --fs ext4 --entries 100000 -o "$tmp/snap" >"$tmp/ktap" 2>&1
	rc=$?
	[[ -s $tmp/snap ]] || { echo "FAIL: no snapshot (exit $rc)"; cat "$tmp/ktap"; exit 1; }
	load_snapshot "$tmp/snap"
	expect_fs_here ext4
	echo "# run $run"
	[[ $rc == 0 ]] && report ok "exit status 0" || report bad "exit status $rc, expected 0"
	expect_pass ext4
	expect obs.dirent.ext4.cookie_bits 63
	expect obs.dirent.ext4.duplicates 0
	expect_i386 dirent.ext4.compat32.cookie_bits 31
	expect_i386 dirent.ext4.compat32.eof_cookie 0x7fffffff
	expect_i386 dirent.ext4.compat32.duplicates 2
	expect_i386 dirent.ext4.compat32.nonlfs_readdir complete
done
((failures == 0)) || grep -v '^ *ok' "$tmp/ktap" | head -60
finish

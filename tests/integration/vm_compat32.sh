#!/usr/bin/env bash
# tests/run: sealed
# vm_compat32: the 32-bit contract proven in Debian's 6.1 and 6.12 cloud
# kernels, which run i386 programs whatever this machine does: both in
# QEMU at once (abiwatch matrix), with cookiefs mounted in each guest by
# --setup, so that a FUSE filesystem with 63-bit cookies reaches the
# 32-bit helper as GlusterFS's would.  In each guest:
#   - env.i386 = yes, and no 32-bit item skipped;
#   - every mqueue.compat32 check passes, with the ILP32 facts, and its
#     limits and charges equal the native probes' (compat32-contract.sh);
#   - ext4 gives a 32-bit caller 31-bit hash cookies ending at 2^31-1
#     (d1f5273e9adb: hash2pos() with is_32bit_api());
#   - cookiefs' wide cookies overflow a 32-bit non-LFS readdir(3) with
#     EOVERFLOW after its first entries, while its good ones complete;
#   - a --setup command that fails stops the run and says which.
set -u
cd "$(dirname "$0")/../.." || exit 1
. tests/lib/dirent-common.sh
. tests/lib/compat32-contract.sh

. tests/lib/vm-kernels.sh
[[ -x tools/cookiefs/cookiefs ]] || skip "no tools/cookiefs/cookiefs (make tools)"
vm_kernels 6.1 6.12
tmp=$(mktemp -d "${TMPDIR:-/tmp}/abiwatch-vm32.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT

"$abiwatch" matrix -q -o "$tmp/m" --setup "$PWD/tools/cookiefs/cookiefs /mnt" "${debs[@]}" -- \
	mqueue.compat32 mqueue.noattr mqueue.rlimit dirent --fs ext4 --entries 1000 \
	--path cf_wide=/mnt/wide --path cf_good=/mnt/good >"$tmp/out" 2>&1
rc=$?
[[ $rc == 0 ]] && report ok "matrix exits 0" || { report bad "matrix exits $rc"; cat "$tmp/out"; }
cat "$tmp/m/matrix.txt" 2>/dev/null

guests=0
for s in "$tmp"/m/*.snapshot; do
	[[ -f $s ]] || continue
	guests=$((guests + 1))
	load_snapshot "$s"
	echo "# ${snap[env.kernel.release]-?}"
	expect env.i386 yes
	skipped=$(grep -cE '^(check|unobserved)\.[a-z]+\.([a-z_]+\.)?compat32\..* = skip' "$s")
	((skipped == 0)) && report ok "no 32-bit item skipped" || report bad "$skipped 32-bit items skipped"
	expect_mqueue_compat32
	expect_pass ext4 cf_wide cf_good
	expect_dirent_compat32 ext4 31 0x7fffffff
	expect obs.dirent.cf_wide.compat32.cookie_bits 63
	expect_match obs.dirent.cf_wide.compat32.nonlfs_readdir \
		'^EOVERFLOW after [0-9]+ entries \(d_off wider than 32 bits\)$'
	expect obs.dirent.cf_good.compat32.nonlfs_readdir complete
done
((guests == 2)) && report ok "a snapshot of each guest" || report bad "$guests guest snapshots, expected 2"

# A setup command that fails: no run, and the command is named.
"$abiwatch" vm --deb "${debs[1]}" --setup /bin/false -o "$tmp/f.snapshot" -- mqueue.noattr \
	>"$tmp/f.out" 2>"$tmp/f.err"
rc=$?
[[ $rc == 1 && ! -e $tmp/f.snapshot ]] && report ok "a failing --setup: exit 1, no snapshot" ||
	report bad "a failing --setup: exit $rc"
grep -q "note: setup 1 $(realpath /bin/false)" "$tmp/f.err" &&
	report ok "the failing command is named" || { report bad "the failing command is not named:"; cat "$tmp/f.err"; }
finish

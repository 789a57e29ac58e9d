#!/usr/bin/env bash
# tests/run: sealed
# abiwatch vm --kernel VMLINUZ --modules DIR: a kernel and a module tree
# as files (here: a Debian package unpacked into a scratch directory,
# whose tree has no modules.dep, so dependencies come from .modinfo), and
# the dirent family on xfs in the guest: loop at boot, xfs and libcrc32c
# loaded when the first mount asks for them (/sbin/modprobe in the guest),
# mkfs.xfs with its libraries from the host.  Also what the initramfs
# holds (--initramfs, read with cpio).
set -u
abiwatch=${ABIWATCH:-./abiwatch}
skip() { echo "SKIP: $*"; exit 4; }
status=0
ok() { echo "ok   $*"; }
bad() { echo "FAIL $*"; status=1; }

command -v mkfs.xfs >/dev/null || skip "mkfs.xfs not installed (xfsprogs)"
. tests/lib/vm-kernels.sh
vm_kernels "${VM_TEST_SERIES:-6.12}"
deb=${debs[0]}

work=$(mktemp -d "${TMPDIR:-/tmp}/abiwatch-vmk.XXXXXX")
trap 'rm -rf "$work"' EXIT
dpkg-deb -x "$deb" "$work/root" || { echo "FAIL: dpkg-deb -x"; exit 1; }
kernel=$(ls "$work"/root/boot/vmlinuz-* | head -n 1)
release=${kernel##*/vmlinuz-}
[[ ! -e $work/root/lib/modules/$release/modules.dep ]] && ok "the tree has no modules.dep" ||
	echo "note: the tree has a modules.dep"

"$abiwatch" vm --kernel "$kernel" --modules "$work/root" --initramfs "$work/initramfs" -v \
	-o "$work/k.snapshot" -- dirent --fs xfs,tmpfs --entries 200 >"$work/k.ktap" 2>"$work/err"
rc=$?
cat "$work/err"
[[ $rc == 0 ]] && ok "vm --kernel --modules exits 0" || bad "exit $rc"
grep -qx "env.kernel.release = $release" "$work/k.snapshot" && ok "the guest ran $release" || bad "wrong kernel"
grep -qx 'probe.dirent.xfs = ran' "$work/k.snapshot" && ok "dirent.xfs ran in the guest" ||
	bad "dirent.xfs: $(grep '^probe.dirent.xfs' "$work/k.snapshot")"
grep -qx 'probe.dirent.tmpfs = ran' "$work/k.snapshot" && ok "dirent.tmpfs ran in the guest" || bad "dirent.tmpfs did not run"
bad_checks=$(grep -E '^check\.dirent\.(xfs|tmpfs)\.' "$work/k.snapshot" | grep -v ' = pass$')
[[ -z $bad_checks ]] && ok "every dirent check passed" || bad "dirent checks: $bad_checks"
grep -q '^obs\.dirent\.tmpfs\.eof_cookie = ' "$work/k.snapshot" && ok "tmpfs cookie observed: $(grep '^obs.dirent.tmpfs.eof_cookie' "$work/k.snapshot")" ||
	bad "no tmpfs eof_cookie"

# What went in.
cpio -it <"$work/initramfs" >"$work/list" 2>/dev/null || bad "cpio cannot read the initramfs"
for f in init usr/bin/abiwatch sbin/modprobe usr/sbin/mkfs.xfs lib64/ld-linux-x86-64.so.2 \
	"lib/modules/$release/kernel/fs/xfs/xfs.ko" "lib/modules/$release/kernel/drivers/block/loop.ko" \
	vm/modules vm/modprobe vm/config vm/args dev/console; do
	grep -qx "$f" "$work/list" && ok "initramfs has /$f" || bad "initramfs lacks /$f"
done
grep -q '\.ko\.\(xz\|zst\|gz\)$' "$work/list" && bad "a module is still compressed" || ok "modules decompressed"
ls build/m32/abiwatch-*-m32 >/dev/null 2>&1 && {
	for h in build/m32/abiwatch-*-m32; do
		grep -qx "usr/libexec/abiwatch/${h##*/}" "$work/list" && ok "helper ${h##*/} where aw_helper_path() looks" ||
			bad "helper ${h##*/} missing"
	done
}
(cd "$work" && cpio -id --quiet vm/modules vm/modprobe <initramfs)
grep -qx 'kernel/drivers/block/loop.ko' "$work/vm/modules" && ok "loop loads at boot" || bad "loop not at boot"
grep -q 'xfs.ko' "$work/vm/modules" && bad "xfs loads at boot" || ok "xfs waits for its first mount"
grep -qE '^fs-xfs (.* )?kernel/lib/libcrc32c.ko kernel/fs/xfs/xfs.ko$' "$work/vm/modprobe" &&
	ok "modprobe fs-xfs loads libcrc32c, then xfs" || bad "fs-xfs: $(grep '^fs-xfs' "$work/vm/modprobe")"
exit $status

#!/usr/bin/env bash
# tests/run: sealed
# surface2_diff: what `abiwatch diff` says between the io_uring, sockets
# and statx items of Debian's 6.1.192 and 6.12.118 cloud kernels, as
# their guests recorded them (tests/fixtures/surface2/, from
# `abiwatch vm ... -- surface.io_uring surface.sockets surface.statx`):
#   - the io_uring opcodes that appeared are listed by name, each
#     absent -> supported (READ_MULTISHOT ... LISTEN), as are the register
#     operations (EINVAL -> EFAULT), setup flags and features, and
#     io_uring_disabled with its effects (absent -> a value);
#   - no opcode vanished, and no socket family, type or protocol changed;
#   - SO_PASSPIDFD and SO_PEERPIDFD appear in the SOL_SOCKET options;
#   - btrfs's statx SUBVOL appears, and DIOALIGN is on ext4 and xfs on
#     both sides (6.1 brought it).
set -u
cd "$(dirname "$0")/../.." || exit 1
. tests/lib/dirent-common.sh

"$abiwatch" list surface.io_uring >/dev/null 2>&1 || skip "this abiwatch has no surface.io_uring"
fx=tests/fixtures/surface2
tmp=$(mktemp -d "${TMPDIR:-/tmp}/abiwatch-surface2.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT

"$abiwatch" diff -v "$fx/61.snapshot" "$fx/612.snapshot" >"$tmp/diff" 2>"$tmp/err"
rc=$?
[[ $rc == 1 ]] && report ok "diff exits 1 (the kernels differ)" || { report bad "diff exits $rc"; cat "$tmp/err"; }

appeared() { # item old new: the item's own line in the verbose diff
	grep -qF "    changed   obs.surface.$1: $2 -> $3 -- " "$tmp/diff"
}
for op in read_multishot waitid futex_wait futex_wake futex_waitv fixed_fd_install ftruncate bind listen; do
	appeared "io_uring.op.$op" absent supported && report ok "io_uring opcode $op appeared" ||
		report bad "io_uring opcode $op: $(grep "io_uring.op.$op:" "$tmp/diff")"
done
n=$(grep -c '^    changed   obs\.surface\.io_uring\.op\.' "$tmp/diff")
((n == 9)) && report ok "9 opcodes changed, no other" || report bad "$n opcodes changed"
grep -q '^  appeared  surface.io_uring.op: bind, fixed_fd_install, ftruncate,' "$tmp/diff" &&
	report ok "the opcodes are listed by name among the interfaces that appeared" ||
	report bad "no appeared line for io_uring.op"
for r in register_pbuf_status register_napi unregister_napi register_clock register_clone_buffers; do
	appeared "io_uring.register.$r" EINVAL EFAULT && report ok "register operation $r appeared" ||
		report bad "register operation $r: $(grep "io_uring.register.$r:" "$tmp/diff")"
done
for s in no_mmap registered_fd_only no_sqarray; do
	appeared "io_uring.setup.$s" EINVAL accepted && report ok "setup flag $s appeared" || report bad "setup flag $s"
done
for f in reg_reg_ring recvsend_bundle min_timeout; do
	appeared "io_uring.feature.$f" no yes && report ok "feature $f appeared" || report bad "feature $f"
done
appeared io_uring.disabled absent 0 && report ok "kernel.io_uring_disabled appeared (0)" || report bad "io_uring.disabled"
appeared io_uring.disabled_1.unprivileged absent EPERM && appeared io_uring.disabled_2.privileged absent EPERM &&
	appeared io_uring.disabled_1.privileged absent accepted &&
	report ok "io_uring_disabled=1 refuses nobody and lets root in; 2 refuses root" || report bad "io_uring_disabled's effects"
grep -E '^ *(vanished|removed) ' "$tmp/diff" | grep -q io_uring && report bad "an io_uring interface vanished" ||
	report ok "no io_uring interface vanished"

n=$(grep -c '^    changed   obs\.surface\.sockets\.socket\.' "$tmp/diff")
((n == 0)) && report ok "no socket family, type or protocol changed" || report bad "$n socket items changed"
"$abiwatch" diff "$fx/61.snapshot" "$fx/612.snapshot" >"$tmp/short" 2>&1
grep -q '^  changed   obs.surface.sockets.sockopt.af_inet.accepted: 60 -> 62: +SO_PASSPIDFD +SO_PEERPIDFD' "$tmp/short" &&
	report ok "SO_PASSPIDFD and SO_PEERPIDFD appear, by name" || report bad "no SO_PASSPIDFD line"
grep -q 'mask.btrfs: 13 -> 15: +MNT_ID_UNIQUE +SUBVOL' "$tmp/short" && report ok "btrfs's SUBVOL appears, by name" ||
	report bad "no SUBVOL for btrfs"
for k in 61 612; do
	for fs in ext4 xfs; do
		grep -qE "^obs\.surface\.statx\.mask\.$fs = .*,DIOALIGN(,|\$)" "$fx/$k.snapshot" && report ok "$k: DIOALIGN on $fs" ||
			report bad "$k: no DIOALIGN on $fs"
	done
done
finish

#!/usr/bin/env bash
# vm_vfs: the vfs family on Debian's 6.1 and 6.12 cloud kernels and on
# this machine's, in ONE `abiwatch matrix --host`, and the changes between
# them as diffs with their meanings (docs/catalogue.md, vfs):
#   6.1 -> 6.12: pidfds leave the shared anonymous inode for pidfs (f_type
#     0x09041934 -> 0x50494446, mode 0600 -> 0700, an inode per process:
#     cb12fd8e0dab, db3d841ac9ed), unprivileged linkat(AT_EMPTY_PATH)
#     ENOENT -> ok (42bd2af59504), overlay O_TMPFILE (9a87907de359);
#   6.12 -> host (6.13+ only): mtime granularity jiffy -> ns (multigrain
#     timestamps) and, from 6.14, no inotify events from an eventfd.
# The guests run tmpfs, ext4 and overlay: mkfs.ext4 goes into every
# initramfs, xfs and btrfs add TCG time and nothing this test asserts.
set -u
cd "$(dirname "$0")/../.." || exit 1
. tests/lib/dirent-common.sh

. tests/lib/vm-kernels.sh
vm_kernels 6.1 6.12
tmp=$(mktemp -d "${TMPDIR:-/tmp}/abiwatch-vmvfs.XXXXXX") || exit 1
trap '[[ -n ${VM_VFS_KEEP-} ]] || rm -rf "$tmp"' EXIT

"$abiwatch" matrix -q --host -o "$tmp/m" "${debs[@]}" -- \
	vfs --vfs-fs anon,open,inotify,shebang,tmpfs,ext4,overlay >"$tmp/out" 2>&1
rc=$?
[[ $rc == 0 ]] && report ok "matrix exits 0" || { report bad "matrix exits $rc"; cat "$tmp/out"; }
cat "$tmp/m/matrix.txt" 2>/dev/null

# The snapshots by series: the guests' releases say which is which.
declare -A snapfile
for s in "$tmp"/m/*.snapshot; do
	[[ -f $s ]] || continue
	rel=$(sed -n 's/^env\.kernel\.release = //p' "$s")
	case $rel in
	6.1.*) snapfile[6.1]=$s ;;
	6.12.*) snapfile[6.12]=$s ;;
	"$(uname -r)") snapfile[host]=$s ;;
	esac
done
for k in 6.1 6.12 host; do
	[[ -n ${snapfile[$k]-} ]] && report ok "a snapshot of $k" || report bad "no snapshot of $k"
done
[[ -n ${snapfile[6.1]-} && -n ${snapfile[6.12]-} && -n ${snapfile[host]-} ]] || finish

# Values in each, from the kernels' sources and the research notes:
# KEY, then its value on 6.1 and on 6.12.
values='obs.vfs.anon.pidfd.f_type 0x09041934 0x50494446
obs.vfs.anon.pidfd.mode 0600 0700
obs.vfs.anon.pidfd.ino_per_process no yes
obs.vfs.anon.pidfd.ino_shared yes no
obs.vfs.anon.pidfd.link anon_inode:[pidfd] anon_inode:[pidfd]
obs.vfs.open.creat_directory EINVAL EINVAL
obs.vfs.tmpfs.flink_unprivileged ENOENT ok
obs.vfs.ext4.flink_unprivileged ENOENT ok
obs.vfs.overlay.tmpfile EOPNOTSUPP ok
obs.vfs.tmpfs.mtime_granularity jiffy jiffy
obs.vfs.ext4.mtime_granularity jiffy jiffy
obs.vfs.inotify.eventfd events events
obs.vfs.shebang.max_line 255 255'
for s in 6.1 6.12; do
	load_snapshot "${snapfile[$s]}"
	echo "# $s: ${snap[env.kernel.release]-?}"
	while read -r key v61 v612; do
		[[ $s == 6.1 ]] && expect "$key" "$v61" || expect "$key" "$v612"
	done <<<"$values"
done
for s in 6.1 6.12; do
	# A skip is allowed only where O_TMPFILE is missing (6.1's overlay).
	bad=$(grep -E '^(check|probe)\.vfs\..* = ' "${snapfile[$s]}" |
		grep -vE ' = (pass|ran|skip: no O_TMPFILE here \(EOPNOTSUPP\))$')
	[[ -z $bad ]] && report ok "$s: every vfs check passes (or lacks O_TMPFILE)" || report bad "$s: $bad"
done

# The diffs matrix wrote between neighbours: each change with its meaning
# (the catalogue's .change, which `abiwatch diff` shows after the values).
diff_has() { # diff-file key from to
	local line
	line=$(grep -F -- "obs.$2: $3 -> $4 -- " "$1")
	if [[ -n $line && -n ${line#*" -- "} ]]; then
		report ok "${1##*/}: $2 $3 -> $4 -- ${line#*" -- "}"
	else
		report bad "${1##*/}: no '$2: $3 -> $4 -- MEANING' in: $(grep -F -- "$2" "$1")"
	fi
}
d1=$(ls "$tmp"/m/6.1.*--6.12.*.diff 2>/dev/null | head -n 1)
d2=$(ls "$tmp"/m/6.12.*--host-"$(uname -r)".diff 2>/dev/null | head -n 1)
[[ -f $d1 && -f $d2 ]] || { report bad "the neighbour diffs are missing: $(ls "$tmp/m")"; finish; }
d1=$(verbose_diff "$d1") d2=$(verbose_diff "$d2") # each item's line, also in an object of several
diff_has "$d1" vfs.anon.pidfd.f_type 0x09041934 0x50494446
diff_has "$d1" vfs.anon.pidfd.mode 0600 0700
diff_has "$d1" vfs.anon.pidfd.ino_per_process no yes
diff_has "$d1" vfs.tmpfs.flink_unprivileged ENOENT ok
diff_has "$d1" vfs.ext4.flink_unprivileged ENOENT ok
diff_has "$d2" vfs.tmpfs.mtime_granularity jiffy ns
diff_has "$d2" vfs.ext4.mtime_granularity jiffy ns
diff_has "$d2" vfs.inotify.eventfd events none
finish

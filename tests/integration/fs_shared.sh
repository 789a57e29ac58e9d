#!/usr/bin/env bash
# fs_shared: a run makes each block filesystem's image once and the other
# probes that need it copy it (aw_run_dirfd(), backends/backend.h), and a
# copy stands for a fresh mkfs:
#   - vfs.xfs and vfs.ext4 run after dirent.xfs and dirent.ext4 say their
#     filesystem is "a copy of the run's" mkfs image (XFS mounted nouuid);
#   - run alone, they make their own (no copy), and every item they report
#     is the same either way;
#   - btrfs is never a copy (copies would share one filesystem id);
#   - the run's shared directory is on no mount table: nothing is left
#     mounted or attached, and the host's fingerprint is unchanged.
cd "$(dirname "$0")/../.." || exit 1
. tests/lib/dirent-common.sh

for fs in xfs ext4 btrfs; do
	machine_fs "$fs" || skip "no $fs here"
done
# Loop devices and block mounts need CAP_SYS_ADMIN, and so does the run's
# shared directory.
machine_cap cap_sys_admin || skip "no CAP_SYS_ADMIN: no block filesystem is made here"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/abiwatch-fsshared.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
tag=ABIWATCH_FS_SHARED=$$
export HOST_STATE_TAG=$tag HOST_STATE_TMPDIRS=$tmp
tests/lib/host-state >"$tmp/before" 2>/dev/null

probes=(vfs.xfs vfs.ext4 vfs.btrfs)
env "$tag" "$abiwatch" run -o "$tmp/alone.snap" "${probes[@]}" >"$tmp/alone.ktap" 2>&1
rc_alone=$?
env "$tag" "$abiwatch" run -o "$tmp/after.snap" dirent.xfs dirent.ext4 dirent.btrfs "${probes[@]}" \
	--entries 1000 >"$tmp/after.ktap" 2>&1
rc_after=$?
[[ $rc_alone == 0 && $rc_after == 0 ]] && report ok "both runs exit 0" ||
	report bad "exit $rc_alone alone, $rc_after after dirent"

# The set-up note of each vfs probe, from its KTAP block.
setup_note() { # ktap probe
	awk -v p="$2" '/^    KTAP version 1$/ { block = "" } { block = block $0 "\n" }
		$0 ~ "^  (not )?ok [0-9]+ " p "$" { printf "%s", block }' "$1" | grep -m1 ' on /dev/loop'
}
for fs in xfs ext4; do
	note=$(setup_note "$tmp/after.ktap" "vfs.$fs")
	[[ $note == *"a copy of the run's "*mkfs.$fs* ]] && report ok "vfs.$fs after dirent.$fs: a copy of the run's image" ||
		report bad "vfs.$fs after dirent.$fs: $note"
	note=$(setup_note "$tmp/alone.ktap" "vfs.$fs")
	[[ -n $note && $note != *"a copy"* ]] && report ok "vfs.$fs alone: made by mkfs" || report bad "vfs.$fs alone: $note"
done
note=$(setup_note "$tmp/after.ktap" "vfs.xfs")
[[ $note == *"-o nouuid"* ]] && report ok "the XFS copy is mounted nouuid" || report bad "XFS copy: $note"
note=$(setup_note "$tmp/after.ktap" "vfs.btrfs")
[[ -n $note && $note != *"a copy"* ]] && report ok "vfs.btrfs after dirent.btrfs: made by mkfs, never a copy" ||
	report bad "vfs.btrfs: $note"

# Every vfs item the same, copy or not.
vfs_items() { grep -E '^(check|obs|unobserved|probe)\.vfs\.' "$1"; }
if diff <(vfs_items "$tmp/alone.snap") <(vfs_items "$tmp/after.snap") >"$tmp/items.diff"; then
	report ok "every vfs item ($(vfs_items "$tmp/alone.snap" | wc -l)) the same on a copy as on a fresh mkfs"
else
	report bad "vfs items differ on a copy:"
	head -n 20 "$tmp/items.diff"
fi

tests/lib/host-state >"$tmp/after" 2>/dev/null
diff "$tmp/before" "$tmp/after" >"$tmp/state.diff" && report ok "the host is unchanged" ||
	{ report bad "the host changed:"; cat "$tmp/state.diff"; }
finish

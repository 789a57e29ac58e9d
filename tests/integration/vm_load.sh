#!/usr/bin/env bash
# tests/run: sealed
# vm_load: Debian's 6.1 guest with the vfs family (whose probes on btrfs,
# ext4, xfs and overlay timed out in a guest on a loaded host) booted
# twice, once on a quiet machine and once while two busy loops per CPU,
# this test's own, oversubscribe the host: no probe timed out or was
# starved, and the two snapshots compare with no kernel change.  The
# guest measures its pace at boot and the time limit, every probe's
# timeout with it, follows; asserts no time, only the results.
set -u
cd "$(dirname "$0")/../.." || exit 1
. tests/lib/dirent-common.sh
. tests/lib/cpu-hog.sh
. tests/lib/vm-kernels.sh
vm_kernels 6.1
tmp=$(mktemp -d "${TMPDIR:-/tmp}/abiwatch-vmload.XXXXXX") || exit 1
trap 'hog_stop; rm -rf "$tmp"' EXIT

boot() { # name
	"$abiwatch" vm -v --deb "${debs[0]}" -o "$tmp/$1.snapshot" -- vfs >"$tmp/$1.out" 2>&1
	local rc=$?
	[[ $rc == 0 ]] && report ok "$1: the guest's run exits 0" ||
		{ report bad "$1: vm exits $rc"; tail -n 15 "$tmp/$1.out"; }
	grep -o 'pace [0-9.]* s, [0-9.]*x' "$tmp/$1.out" | sed "s/^/# $1: /"
}
boot quiet
hog_start
boot loaded
running=$(hog_running)
hog_stop
[[ $running == $((2 * $(nproc))) ]] && report ok "the hog ran throughout the loaded boot" ||
	report bad "only $running busy loops lasted the loaded boot"

for s in quiet loaded; do
	[[ -s $tmp/$s.snapshot ]] || { report bad "$s: no snapshot"; continue; }
	timed=$(grep -cE '^(probe|check|obs|unobserved)\.[^ ]* = timeout' "$tmp/$s.snapshot")
	starved=$(grep -c 'needs load: starved' "$tmp/$s.snapshot")
	[[ $timed == 0 && $starved == 0 ]] && report ok "$s: nothing timed out or starved" ||
		{ report bad "$s: $timed items timed out, $starved starved"; grep -E '^(probe\..* = timeout|env.load)' "$tmp/$s.snapshot" | head; }
done
"$abiwatch" diff "$tmp/quiet.snapshot" "$tmp/loaded.snapshot" >"$tmp/diff"
rc=$?
[[ $rc == 0 ]] && report ok "quiet -> loaded: no kernel change" ||
	{ report bad "quiet -> loaded: diff exits $rc"; head -n 20 "$tmp/diff"; }
finish

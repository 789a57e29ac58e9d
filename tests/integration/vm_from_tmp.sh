#!/usr/bin/env bash
# tests/run: sealed
# vm_from_tmp: the VM step from a clone under /tmp, a directory the guest's
# init mounts a fresh tmpfs on (so do many CI runners' checkouts).  HEAD
# of this checkout is cloned into /tmp (not $TMPDIR: /tmp is the point)
# and built there (make vm m32 tools abiwatch); the clone's abiwatch then
# boots Debian's 6.1 and 6.12 at once (matrix) with
#   - --setup of the clone's cookiefs, at its path under /tmp, mounted on
#     /mnt, so that its wide cookies overflow the 32-bit non-LFS readdir(3)
#     in each guest as in vm_compat32;
#   - --file HOST=GUEST into /tmp and into /run, each checked by a --setup
#     that fails when the file did not reach the guest (test -s).
# Each guest must give a snapshot with those results, and its console no
# complaint of init about what it kept.  Refusals of what cannot reach the
# guest (/proc, /sys, /dev, init's own paths) are in vm_failures.
set -u
cd "$(dirname "$0")/../.." || exit 1
. tests/lib/dirent-common.sh
. tests/lib/vm-kernels.sh

head=$(git rev-parse --verify -q HEAD 2>/dev/null) || skip "not a git checkout: nothing to clone"
vm_kernels 6.1 6.12
clone=$(mktemp -d /tmp/abiwatch-clone.XXXXXX) || exit 1
trap 'rm -rf "$clone"' EXIT

echo "# cloning $head into $clone and building there"
git clone -q --no-checkout . "$clone/src" && git -C "$clone/src" checkout -q --detach "$head" ||
	{ echo "FAIL: cannot clone this checkout into $clone"; exit 1; }
src=$clone/src
make -C "$src" -j2 vm m32 tools abiwatch >"$clone/build.log" 2>&1 ||
	{ echo "FAIL: make in the clone"; tail -n 20 "$clone/build.log"; exit 1; }

# The clone finds its own init, static abiwatch and helpers beside itself.
echo kept >"$clone/file"
env -u ABIWATCH_HELPER_DIR "$src/abiwatch" matrix -q -o "$clone/m" \
	--file "$clone/file=/tmp/abiwatch-kept/file" --setup "/usr/bin/test -s /tmp/abiwatch-kept/file" \
	--file "$clone/file=/run/abiwatch-kept/file" --setup "/usr/bin/test -s /run/abiwatch-kept/file" \
	--setup "$src/tools/cookiefs/cookiefs /mnt" "${debs[@]}" -- \
	dirent.cf_wide dirent.cf_good --entries 100 --path cf_wide=/mnt/wide --path cf_good=/mnt/good \
	>"$clone/out" 2>&1
rc=$?
[[ $rc == 0 ]] && report ok "matrix from $src exits 0" || { report bad "matrix exits $rc"; cat "$clone/out"; }
cat "$clone/m/matrix.txt" 2>/dev/null

guests=0
for s in "$clone"/m/*.snapshot; do
	[[ -f $s ]] || continue
	guests=$((guests + 1))
	load_snapshot "$s"
	echo "# ${snap[env.kernel.release]-?}"
	expect env.i386 yes
	expect_pass cf_wide cf_good
	expect obs.dirent.cf_wide.compat32.cookie_bits 63
	expect_match obs.dirent.cf_wide.compat32.nonlfs_readdir \
		'^EOVERFLOW after [0-9]+ entries \(d_off wider than 32 bits\)$'
	expect obs.dirent.cf_good.compat32.nonlfs_readdir complete
	console=${s%.snapshot}.console
	complaints=$(grep -c 'abiwatch-init: keeping' "$console" 2>/dev/null)
	[[ -f $console && $complaints == 0 ]] && report ok "init kept /tmp and /run whole" ||
		{ report bad "init's complaints:"; grep 'abiwatch-init:' "$console"; }
done
((guests == 2)) && report ok "a snapshot of each guest" || report bad "$guests guest snapshots, expected 2"
finish

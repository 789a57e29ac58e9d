#!/usr/bin/env bash
# tests/run: sealed
# vm_bisect: abiwatch bisect over Debian's 6.1 and 6.12 cloud kernels in
# QEMU, whose pidfds differ (anonymous inodes, then pidfs from cb12fd8e0dab,
# 6.9) and whose eventfds do not.
#   - Six packages, the first three 6.1, given out of order: sorted by
#     version, the boundary (kernel 4) is found in three boots, with the
#     values on both sides and that pair's diff; exit 0.
#   - The same list, an unchanged item (vfs.anon.eventfd.f_type), the same
#     output directory: "no change", exit 1, the three kept snapshots
#     taken and only two kernels booted.
#   - An assumptions file that holds on 6.1 and breaks on 6.12: found at
#     kernel 4 without booting anything (every snapshot is kept).
#   - A git tree of eight commits whose --build hands out the 6.1 package
#     up to commit 5 and the 6.12 one from commit 6, commit 4 unbuildable:
#     interrupted (SIGINT) while a step builds, the tree is put back (its
#     branch, clean, no bisect) and nothing is left running; run again, the
#     kept ends are not built again, commit 4 is skipped (125) and commit 6
#     named, with both values; the tree is put back.
#   - The same without a boot under ASan+UBSan (every snapshot kept).
set -u
cd "$(dirname "$0")/../.." || exit 1
. tests/lib/dirent-common.sh
. tests/lib/vm-kernels.sh
vm_kernels 6.1 6.12
tmp=$(mktemp -d "${TMPDIR:-/tmp}/abiwatch-vmbisect.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
old=${debs[0]} new=${debs[1]}
[[ $old == /* ]] || old=$PWD/$old
[[ $new == /* ]] || new=$PWD/$new

run() { # expected-rc name ARGS...: output in $tmp/NAME.out
	local want=$1 name=$2 rc
	shift 2
	"$abiwatch" bisect "$@" >"$tmp/$name.out" 2>"$tmp/$name.err"
	rc=$?
	cat "$tmp/$name.out"
	[[ $rc == "$want" ]] && report ok "$name: exit $rc" ||
		{ report bad "$name: exit $rc, not $want"; cat "$tmp/$name.err"; }
}
says() { # name pattern
	grep -qE -- "$2" "$tmp/$1.out" && report ok "$1 says: $2" ||
		report bad "$1 does not say: $2"
}

# ---- a list of packages ----
for i in 1 2 3; do mkdir "$tmp/a$i" && ln -s "$old" "$tmp/a$i/"; done
for i in 4 5 6; do mkdir "$tmp/b$i" && ln -s "$new" "$tmp/b$i/"; done
list=("$tmp"/b4/*.deb "$tmp"/a1/*.deb "$tmp"/a2/*.deb "$tmp"/b5/*.deb "$tmp"/a3/*.deb "$tmp"/b6/*.deb)
out=$tmp/packages
run 0 pidfd --item vfs.anon.pidfd.f_type -o "$out" "${list[@]}"
says pidfd "^the observation vfs.anon.pidfd.f_type changed first in kernel 4 of 6, .*package 6\.12\."
says pidfd "^  before kernel 3 of 6, .*package 6\.1\..*: 0x09041934$"
says pidfd "^  after  kernel 4 of 6, .*: 0x50494446$"
says pidfd "^3 of 6 kernels judged: 3 booted, 0 from kept snapshots"
says pidfd "changed +vfs\.anon\.pidfd: f_type: 0x09041934 -> 0x50494446"
n=$(ls "$out"/*.snapshot | wc -l)
[[ $n == 3 ]] && report ok "three snapshots kept" || report bad "$n snapshots kept, not 3"

run 1 eventfd --item vfs.anon.eventfd.f_type -o "$out" "${list[@]}"
says eventfd "^no change: the observation vfs.anon.eventfd.f_type is the same"
says eventfd "^5 of 6 kernels judged: 2 booted, 3 from kept snapshots"

printf 'vfs.anon.pidfd.ino_shared == "yes" : "one inode shared by every pidfd"\n' >"$tmp/shared.assume"
run 0 assume --assume "$tmp/shared.assume" -o "$out" "${list[@]}"
says assume "^the assumptions in .*shared.assume changed first in kernel 4 of 6"
says assume ": held$"
says assume ": broken$"
says assume "0 booted, [0-9]+ from kept snapshots"

# ---- a git tree ----
tree=$tmp/tree
git init -q -b main "$tree"
for i in 1 2 3 4 5 6 7 8; do
	if ((i == 4)); then echo unbuildable; elif ((i < 6)); then echo "$old"; else echo "$new"; fi >"$tree/kernel"
	echo "$i" >"$tree/n"
	git -C "$tree" add kernel n
	git -C "$tree" -c user.name=t -c user.email=t@example.org commit -qm "commit $i"
done
planted=$(git -C "$tree" rev-parse HEAD~2)  # commit 6
unbuildable=$(git -C "$tree" rev-parse HEAD~4)
# Each build is logged; with $tmp/hold it waits (the interrupt's moment)
# in a sleep whose pid it leaves, unless it builds an end.
cat >"$tmp/build" <<EOF
#!/bin/sh
echo "\$ABIWATCH_BISECT_COMMIT" >>"$tmp/builds"
n=\$(cat n)
if [ -e "$tmp/hold" ] && [ "\$n" != 1 ] && [ "\$n" != 8 ]; then
	echo \$\$ >"$tmp/build.pid"
	exec sleep 120
fi
k=\$(cat kernel)
[ "\$k" = unbuildable ] && { echo "commit \$n does not build" >&2; exit 1; }
echo "\$k"
EOF
chmod +x "$tmp/build"
tree_state() {
	git -C "$tree" symbolic-ref -q HEAD
	git -C "$tree" rev-parse HEAD
	git -C "$tree" status --porcelain
	ls "$tree/.git" | grep -i bisect
}
before=$(tree_state)
gitargs=(--item vfs.anon.pidfd.f_type --git "$tree" --good HEAD~7 --bad main --build "$tmp/build"
	 -o "$tmp/git")

touch "$tmp/hold"
"$abiwatch" bisect "${gitargs[@]}" >"$tmp/interrupted.out" 2>&1 &
pid=$!
for ((i = 0; i < 1200; i++)); do [[ -s $tmp/build.pid ]] && break; sleep 0.25; done
[[ -s $tmp/build.pid ]] && report ok "a step is building" || report bad "no step started building"
kill -INT "$pid"
wait "$pid"
rc=$?
[[ $rc == 130 ]] && report ok "interrupted: exit 130" || { report bad "interrupted: exit $rc"; cat "$tmp/interrupted.out"; }
[[ $(tree_state) == "$before" ]] && report ok "interrupted: the tree is put back" ||
	report bad "interrupted: the tree is $(tree_state)"
sleeper=$(cat "$tmp/build.pid" 2>/dev/null)
for ((i = 0; i < 100; i++)); do
	state=$(awk '{ print $3 }' "/proc/$sleeper/stat" 2>/dev/null)
	[[ -z $state || $state == Z ]] && break
	sleep 0.1
done
[[ -z $state || $state == Z ]] && report ok "interrupted: the build is not left running" ||
	report bad "interrupted: the build $sleeper is still running ($state)"
rm -f "$tmp/hold"
: >"$tmp/builds"

run 0 git "${gitargs[@]}"
says git "^the observation vfs.anon.pidfd.f_type changed first in commit $planted"
says git "\"commit 6\""
says git "^  before [0-9a-f]{12} \(commit 5\): 0x09041934$"
says git "^  after  [0-9a-f]{12} \(commit 6\): 0x50494446$"
says git "1 did not build, 2 kept from an earlier run"
grep -q "^$unbuildable	failed	no	125	" "$tmp/git/steps.log" && report ok "commit 4 was skipped (125)" ||
	{ report bad "commit 4 was not skipped"; cat "$tmp/git/steps.log"; }
good=$(git -C "$tree" rev-parse HEAD~7) bad=$(git -C "$tree" rev-parse main)
grep -qE "^($good|$bad)$" "$tmp/builds" && report bad "an end was built again: $(cat "$tmp/builds")" ||
	report ok "the kept ends were not built again"
[[ $(tree_state) == "$before" ]] && report ok "the tree is put back" || report bad "the tree is $(tree_state)"

# The search, the driver, the steps and both reports once more under
# ASan+UBSan (no boot: every snapshot is kept; commit 4 fails to build
# again), where make asan built it.
asan=build/asan/abiwatch
if [[ -x $asan ]]; then
	abiwatch=$asan run 0 asan-packages --assume "$tmp/shared.assume" -o "$out" "${list[@]}"
	abiwatch=$asan run 0 asan-git "${gitargs[@]}"
	says asan-git "changed first in commit $planted"
	grep -q 'ERROR: \(Address\|Leak\)Sanitizer\|runtime error' "$tmp"/asan-*.err &&
		report bad "ASan/UBSan: $(grep -h -m3 'Sanitizer\|runtime error' "$tmp"/asan-*.err)" ||
		report ok "no ASan or UBSan report"
	[[ $(tree_state) == "$before" ]] && report ok "asan: the tree is put back" ||
		report bad "asan: the tree is $(tree_state)"
fi
finish

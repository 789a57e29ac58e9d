#!/usr/bin/env bash
# tests/run: sealed
# abiwatch bisect refuses bad input with exit 2 and a message naming what
# is wrong, before anything is built or booted: a QEMU and a --build
# command that leave a mark when run are given, and no mark may appear.
# A kernel tree it refuses is left exactly as it was (HEAD, branch, index,
# a bisect of the user's own in progress).  And `abiwatch check
# --bisect-exit` answers as git bisect run wants: 0, 1, 125, 128.
set -u
cd "$(dirname "$0")/../.." || exit 1
export LC_ALL=C
abiwatch=${ABIWATCH:-./abiwatch}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/abiwatch-bisect-usage.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
status=0
ok() { echo "ok   $*"; }
bad() { echo "FAIL $*"; status=1; }

# Marks: a QEMU and a build that should never run.
printf '#!/bin/sh\ntouch %s/qemu-ran\nexit 1\n' "$tmp" >"$tmp/qemu"
chmod +x "$tmp/qemu"
spy_build="touch $tmp/build-ran; exit 1"
item=vfs.anon.pidfd.f_type

# A tree of three commits, on branch main.
tree=$tmp/tree
git init -q -b main "$tree"
for i in 1 2 3; do
	echo "$i" >"$tree/n"
	git -C "$tree" add n
	git -C "$tree" -c user.name=t -c user.email=t@example.org commit -qm "commit $i"
done
tree_state() { # what must not change: HEAD, its branch, the index, a bisect
	git -C "$tree" rev-parse HEAD
	git -C "$tree" symbolic-ref -q HEAD
	git -C "$tree" status --porcelain
	ls "$tree/.git" | grep -i bisect
}
before=$(tree_state)

refuses() { # what message-pattern ARGS...
	local what=$1 pattern=$2 out rc
	shift 2
	out=$("$abiwatch" bisect --qemu "$tmp/qemu" -o "$tmp/out" "$@" 2>&1)
	rc=$?
	if [[ $rc != 2 ]]; then
		bad "$what: exit $rc, not 2: $out"
	elif ! grep -qE -- "$pattern" <<<"$out"; then
		bad "$what: the message does not say '$pattern': $out"
	else
		ok "$what: exit 2: $out"
	fi
}

deb=$tmp/linux-image-6.1.0-1-amd64_6.1.1-1_amd64.deb
echo "not an ar archive" >"$deb"
echo "not a kernel" >"$tmp/bzImage"
refuses "no question" "give the question" "$tmp/bzImage" "$tmp/bzImage"
refuses "two questions" "give the question" --item $item --assume x "$tmp/bzImage" "$tmp/bzImage"
refuses "an unknown item" "'vfs.anon.nope': no such item" --item vfs.anon.nope "$tmp/bzImage" "$tmp/bzImage"
refuses "a probe for an item" "is a probe, not an item" --item vfs.anon "$tmp/bzImage" "$tmp/bzImage"
refuses "a family for an item" "is a family, not an item" --item vfs "$tmp/bzImage" "$tmp/bzImage"
refuses "a pattern for an item" "not a pattern" --item 'vfs.anon.*.f_type' "$tmp/bzImage" "$tmp/bzImage"
# The key as a snapshot or diff writes it is the item too: past the
# question, the refusal is the kernel's.
refuses "an item by its snapshot key" "bzImage: not a bzImage" --item obs.$item "$tmp/bzImage" "$tmp/bzImage"
refuses "a sysctl knob by its snapshot key" "bzImage: not a bzImage" \
	--item obs.sysctl.knob.kernel.msgmax.value "$tmp/bzImage" "$tmp/bzImage"
refuses "a check by its snapshot key" "bzImage: not a bzImage" \
	--item check.mqueue.attr.einval_above_msg_max "$tmp/bzImage" "$tmp/bzImage"
refuses "a key of the wrong class" "is an observation, its key is obs.$item" --item check.$item "$tmp/bzImage" "$tmp/bzImage"
refuses "an unknown key" "'obs.vfs.anon.nope': no such item" --item obs.vfs.anon.nope "$tmp/bzImage" "$tmp/bzImage"
printf 'vfs.anon.pidfd.f_type ==\n' >"$tmp/broken.assume"
refuses "a bad assumptions file" "broken.assume:1:" --assume "$tmp/broken.assume" "$tmp/bzImage" "$tmp/bzImage"
printf 'nosuch.probe.item == 1 : "names nothing known"\n' >"$tmp/unknown.assume"
refuses "assumptions naming nothing known" "no rule names an item" --assume "$tmp/unknown.assume" "$tmp/bzImage" "$tmp/bzImage"
refuses "one kernel" "at least two kernels" --item $item "$tmp/bzImage"
refuses "a file that is not a kernel" "bzImage: not a bzImage" --item $item "$tmp/bzImage" "$tmp/bzImage"
refuses "a package that is not one" "not a Debian package|not named linux-image" --item $item "$deb" "$tmp/bzImage"
refuses "a missing kernel" "nowhere: No such file" --item $item "$tmp/nowhere" "$tmp/bzImage"
refuses "--good without --git" "go with --git" --item $item --good HEAD "$tmp/bzImage" "$tmp/bzImage"

refuses "not a git tree" "not a git work tree" --item $item --git "$tmp" --good A --bad B --build "$spy_build"
refuses "a revision that does not resolve" "--good nosuch: no such commit" --item $item --git "$tree" --good nosuch --bad HEAD --build "$spy_build"
refuses "GOOD not an ancestor of BAD" "is not an ancestor" --item $item --git "$tree" --good HEAD --bad HEAD~2 --build "$spy_build"
refuses "the same commit at both ends" "the same commit" --item $item --git "$tree" --good HEAD --bad main --build "$spy_build"
refuses "no way to build" "one way to build" --item $item --git "$tree" --good HEAD~2 --bad HEAD
refuses "two ways to build" "one way to build" --item $item --git "$tree" --good HEAD~2 --bad HEAD --build "$spy_build" --config "$tmp/n"
refuses "a missing --config" "--config $tmp/nowhere: No such file" --item $item --git "$tree" --good HEAD~2 --bad HEAD --config "$tmp/nowhere"
refuses "kernels beside --git" "kernels are built, not given" --item $item --git "$tree" --good HEAD~2 --bad HEAD --build "$spy_build" "$tmp/bzImage"
echo changed >"$tree/n"
refuses "uncommitted changes" "has uncommitted changes" --item $item --git "$tree" --good HEAD~2 --bad HEAD --build "$spy_build"
git -C "$tree" checkout -q n
[[ $(tree_state) == "$before" ]] && ok "the tree is as it was" || bad "the tree changed: $(tree_state)"

# A bisect of the user's own is theirs: refused, and left going.
git -C "$tree" bisect start -q HEAD HEAD~2 >/dev/null 2>&1 || git -C "$tree" bisect start HEAD HEAD~2 >/dev/null
going=$(tree_state)
refuses "someone else's bisect in progress" "a bisect is in progress" --item $item --git "$tree" --good HEAD~2 --bad HEAD --build "$spy_build"
[[ $(tree_state) == "$going" ]] && ok "their bisect is left as it was" || bad "their bisect changed: $(tree_state)"
git -C "$tree" bisect reset -q >/dev/null 2>&1 || git -C "$tree" bisect reset >/dev/null 2>&1

for mark in qemu-ran build-ran; do
	[[ ! -e $tmp/$mark ]] && ok "nothing was run ($mark)" || bad "$mark: something ran before the input was checked"
done

# check --bisect-exit: 0 held, 1 broken, 125 unknown, 128 bad input.
"$abiwatch" run vfs.anon -o "$tmp/s.snapshot" >/dev/null 2>&1
value=$(sed -n 's/^obs\.vfs\.anon\.pidfd\.f_type = //p' "$tmp/s.snapshot")
[[ -n $value ]] || bad "abiwatch run vfs.anon observed no pidfd f_type"
printf 'vfs.anon.pidfd.f_type == "%s" : "the same"\n' "$value" >"$tmp/held.assume"
printf 'vfs.anon.pidfd.f_type == "0x1" : "not so"\n' >"$tmp/broken-rule.assume"
printf 'vfs.anon.nowhere.f_type == "0x1" : "not observed"\n' >"$tmp/unknown-rule.assume"
for case in "held 0" "broken-rule 1" "unknown-rule 125" "broken 128"; do
	set -- $case
	"$abiwatch" check --bisect-exit "$tmp/$1.assume" "$tmp/s.snapshot" >/dev/null 2>&1
	rc=$?
	[[ $rc == "$2" ]] && ok "check --bisect-exit: $1: $rc" || bad "check --bisect-exit: $1: $rc, not $2"
done
"$abiwatch" check --bisect-exit --no-such-option "$tmp/held.assume" >/dev/null 2>&1
rc=$?
[[ $rc == 128 ]] && ok "check --bisect-exit: a usage error stops the bisect (128)" || bad "check --bisect-exit: usage error: $rc, not 128"
"$abiwatch" check "$tmp/unknown-rule.assume" "$tmp/s.snapshot" >/dev/null 2>&1
rc=$?
[[ $rc == 4 ]] && ok "check without the flag keeps its statuses (4)" || bad "check: $rc, not 4"
exit $status

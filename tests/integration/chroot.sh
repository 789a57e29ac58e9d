#!/usr/bin/env bash
# In a chroot into a plain directory (/ no mount point) the probes cannot
# be isolated (their mounts would propagate to the host): every one is a
# skip that says why and what to do, exit 4.  With the directory
# bind-mounted onto itself, as the message says, they run.  All of it in
# mount and PID namespaces of this test's own, so nothing outlives it.
set -u
abiwatch=${ABIWATCH:-./abiwatch}
work=$(mktemp -d "${TMPDIR:-/tmp}/abiwatch-chroot.XXXXXX")
trap 'rm -rf --one-file-system "$work"' EXIT
status=0
ok() { echo "ok   $*"; }
bad() { echo "FAIL $*"; status=1; }
command -v unshare >/dev/null || { echo "SKIP: no unshare"; exit 4; }
unshare --mount --propagation private true 2>/dev/null || { echo "SKIP: no mount namespace here"; exit 4; }

# The binary, the libraries it links and its 32-bit helper where an
# installed abiwatch finds it (../libexec/abiwatch), nothing else.
root=$work/root
mkdir -p "$root"/{proc,tmp,dev,bin,libexec/abiwatch}
cp "$abiwatch" "$root/bin/abiwatch"
helper=build/m32/abiwatch-mqueue-m32
[[ -x $helper ]] && cp "$helper" "$root/libexec/abiwatch/"
ldd "$abiwatch" 2>/dev/null | grep -o '/[^ ]*' | while read -r lib; do
	mkdir -p "$root${lib%/*}"
	cp -L "$lib" "$root$lib"
done

unshare --mount --propagation private --pid --fork --kill-child bash -c '
	root=$1
	mount -t proc proc "$root/proc"
	chroot "$root" /bin/abiwatch run mqueue.noattr -f text -o /tmp/plain.snapshot >"$root/tmp/plain.out" 2>&1
	echo $? >"$root/tmp/plain.rc"
	umount "$root/proc"
	mount --bind "$root" "$root"
	mount -t proc proc "$root/proc"
	chroot "$root" /bin/abiwatch run mqueue.noattr mqueue.compat32 -o /tmp/bound.snapshot \
		>"$root/tmp/bound.out" 2>&1
	echo $? >"$root/tmp/bound.rc"
' chroot-test "$root"

[[ $(cat "$root/tmp/plain.rc") == 4 ]] && ok "plain chroot: exit 4" || { bad "plain chroot: exit $(cat "$root/tmp/plain.rc")"; cat "$root/tmp/plain.out"; }
grep -qx 'probe.mqueue.noattr = skip: in a chroot whose / is not a mount point, .*bind-mount the directory onto itself before chroot' \
	"$root/tmp/plain.snapshot" && ok "plain chroot: the skip says why and what to do" ||
	bad "plain chroot: $(grep '^probe' "$root/tmp/plain.snapshot")"
grep -q 'crashed\|error' "$root/tmp/plain.snapshot" && bad "plain chroot: an error in the snapshot"
[[ $(cat "$root/tmp/bound.rc") == 0 ]] && grep -qx 'probe.mqueue.noattr = ran' "$root/tmp/bound.snapshot" &&
	ok "chroot bind-mounted onto itself: the probe runs, exit 0" ||
	{ bad "bound chroot: exit $(cat "$root/tmp/bound.rc")"; cat "$root/tmp/bound.out"; }
# The probe finds the helper through the binary's path as seen in the
# chroot, not as its own mount namespace would name it (outside).
if [[ -x $helper ]]; then
	grep -qx 'check.mqueue.compat32.sendrecv.fifo_within_priority = pass' "$root/tmp/bound.snapshot" &&
		ok "chroot: the 32-bit helper found beside the binary" ||
		bad "chroot: $(grep 'compat32.sendrecv.fifo_within_priority' "$root/tmp/bound.snapshot")"
fi
exit $status

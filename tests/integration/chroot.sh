#!/usr/bin/env bash
# In a chroot into a plain directory (/ no mount point) the probes cannot
# be isolated (their mounts would propagate to the host): every one is a
# skip that says why and what to do, exit 4.  With the directory
# bind-mounted onto itself, as the message says, they run.  All of it in
# mount and PID namespaces of this test's own, so nothing outlives it.
set -u
abiwatch=${ABIWATCH:-./abiwatch}
work=$(mktemp -d "${TMPDIR:-/tmp}/abiwatch-chroot.XXXXXX")
trap 'kill "${ballast_pid:-}" 2>/dev/null; rm -rf --one-file-system "$work"' EXIT
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
cp build/m32/abiwatch-mqueue-m32 "$root/libexec/abiwatch/" || { echo "FAIL: no 32-bit helper (make m32)"; exit 1; }
ldd "$abiwatch" 2>/dev/null | grep -o '/[^ ]*' | while read -r lib; do
	mkdir -p "$root${lib%/*}"
	cp -L "$lib" "$root$lib"
done

# Root's queues elsewhere count against the probes' RLIMIT_MSGQUEUE where
# no fresh user namespace can be had (a chroot): hold a 10 x 128 one, in an
# IPC namespace of its own (never the host's), for the runs below.
ballast() {
	exec unshare --ipc python3 -c '
import ctypes, os, sys, time
libc = ctypes.CDLL(None, use_errno=True)
class Attr(ctypes.Structure):
    _fields_ = [("flags", ctypes.c_long), ("maxmsg", ctypes.c_long),
                ("msgsize", ctypes.c_long), ("curmsgs", ctypes.c_long), ("pad", ctypes.c_long * 4)]
libc.mq_open.argtypes = [ctypes.c_char_p, ctypes.c_int, ctypes.c_uint, ctypes.POINTER(Attr)]
q = libc.mq_open(b"/aw_ballast", os.O_CREAT | os.O_RDWR, 0o600, ctypes.byref(Attr(0, 10, 128, 0)))
print("held" if q >= 0 else "failed: %s" % os.strerror(ctypes.get_errno()), flush=True)
time.sleep(120)'
}
coproc BALLAST { ballast; }
ballast_pid=$BALLAST_PID
read -r -t 10 held <&"${BALLAST[0]}" || held="no answer"
[[ $held == held ]] && ok "a 10 x 128 queue held by root in an IPC namespace of its own" ||
	bad "ballast queue: $held"

unshare --mount --propagation private --pid --fork --kill-child bash -c '
	root=$1
	mount -t proc proc "$root/proc"
	chroot "$root" /bin/abiwatch run mqueue.noattr -f text -o /tmp/plain.snapshot >"$root/tmp/plain.out" 2>&1
	echo $? >"$root/tmp/plain.rc"
	umount "$root/proc"
	mount --bind "$root" "$root"
	mount -t proc proc "$root/proc"
	chroot "$root" /bin/abiwatch run mqueue.noattr mqueue.compat32 mqueue.rlimit -o /tmp/bound.snapshot \
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
# Where the kernel runs no i386 programs, the exec of the helper found
# there is what failed.
. "$(dirname "$0")/../lib/machine"
if machine_i386; then want='pass'
else want="skip: needs i386: this kernel runs no i386 programs: exec of /bin/\\.\\./libexec/abiwatch/abiwatch-mqueue-m32 failed with ENOEXEC.*"; fi
grep -qx "check.mqueue.compat32.sendrecv.fifo_within_priority = $want" "$root/tmp/bound.snapshot" &&
	ok "chroot: the 32-bit helper found beside the binary" ||
	bad "chroot: $(grep 'compat32.sendrecv.fifo_within_priority' "$root/tmp/bound.snapshot")"
kill "$ballast_pid" 2>/dev/null
wait "$ballast_pid" 2>/dev/null
grep -q "queues elsewhere held [0-9]* bytes" "$root/tmp/bound.out" &&
	ok "chroot: $(grep -o "this uid's queues elsewhere held [0-9]* bytes" "$root/tmp/bound.out")" ||
	bad "chroot: the usage taken off is not noted"
# No user namespace in a chroot: the charges are still the queues' own,
# other queues of root's being solved for and taken off.
"$abiwatch" run mqueue.rlimit -o "$work/host.snapshot" >/dev/null
for k in charge.1x128 charge.10x128 charge.10x8192 per_msg_overhead; do
	want=$(sed -n "s/^obs\.mqueue\.rlimit\.$k = //p" "$work/host.snapshot")
	got=$(sed -n "s/^obs\.mqueue\.rlimit\.$k = //p" "$root/tmp/bound.snapshot")
	[[ -n $want && $got == "$want" ]] && ok "chroot: rlimit.$k = $got, as outside" || bad "chroot: rlimit.$k = '$got', outside '$want'"
done
grep -qx 'check.mqueue.rlimit.formula_linear = pass' "$root/tmp/bound.snapshot" && ok "chroot: formula_linear passes" ||
	bad "chroot: $(grep formula_linear "$root/tmp/bound.snapshot")"
exit $status

#!/usr/bin/env bash
# surface_values: the surface family on this kernel.
#   - `abiwatch run surface` exits 0, its KTAP parses, no item fails or
#     errs, and each of 10 runs gives the same snapshot (but for its
#     environment lines; how long a run takes is
#     tests/bench.d/family_runs.sh's figure);
#   - what every kernel since 5.5 answers: read(-1) EBADF, kill(INT_MIN)
#     ESRCH, getpid ok, sysctl(2) gone (ENOSYS: removed in 5.5), the
#     never-implemented tuxcall absent; the calls added by the kernels this
#     one is at least as new as (syscalls(2)): fchmodat2 (6.6), listmount
#     and statmount (6.8), mseal (6.10);
#     memfd_create's MFD_EXEC/MFD_NOEXEC_SEAL from 6.3; 52 fields in
#     /proc/self/stat; the private scratch mount's 6+3 mountinfo columns;
#     statx's MNT_ID asked alone still filled beside MNT_ID_UNIQUE; a
#     PR_GET_IO_FLUSHER without CAP_SYS_RESOURCE a skip with that cause;
#   - the guest-only calls (reboot, sync, settimeofday...) are skips with
#     the cause vm, and the 32-bit table's items follow env.i386;
#   - io_uring: the opcodes and register operations of 5.6 and the ones
#     this kernel is at least as new as, kernel.io_uring_disabled as
#     /proc/sys reads it and an unprivileged ring that follows it;
#     sockets: AF_UNIX and TCP there, ping sockets EACCES in the probe's
#     fresh network namespace (ping_group_range "1 0"); statx: DIOALIGN
#     on ext4 and xfs, SUBVOL on btrfs (6.10); the calls of
#     surface.lifecycle made by children; the pidfd ioctls (6.11, 6.13)
#     and AT_EXECVE_CHECK (6.14); prctl's SET forms;
#   - the host fingerprint (tests/lib/host-state) is the same afterwards,
#     and so is /proc/modules (no socket family's module was loaded).
set -u
cd "$(dirname "$0")/../.." || exit 1
. tests/lib/dirent-common.sh

"$abiwatch" list surface >/dev/null 2>&1 || skip "this abiwatch has no surface family"
[[ $(uname -m) == x86_64 ]] || skip "the tables are x86-64's and i386's, this is $(uname -m)"
release=$(uname -r)
IFS=. read -r major minor _ <<<"$release"
minor=${minor%%[!0-9]*}
at_least() { ((major > $1 || (major == $1 && minor >= $2))); }
at_least 5 5 || skip "kernel $release predates the removal of sysctl(2); the expectations are for 5.5 and later"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/abiwatch-surface.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
fingerprint=0
if tests/lib/host-state --missing >/dev/null 2>&1; then
	fingerprint=1
	mkdir "$tmp/tmpdir"
	export HOST_STATE_TAG=AW_SURFACE_TAG=$$.$RANDOM HOST_STATE_PID=$$ HOST_STATE_TMPDIRS="$tmp/tmpdir $tmp"
	tests/lib/host-state >"$tmp/before" 2>&1
fi

modules_before=$(cat /proc/modules 2>/dev/null | awk '{ print $1 }' | sort)
for i in 1 2 3 4 5 6 7 8 9 10; do
	env ${HOST_STATE_TAG:+"$HOST_STATE_TAG"} TMPDIR="$tmp/tmpdir" "$abiwatch" run -o "$tmp/snap$i" surface >"$tmp/ktap$i" 2>"$tmp/err$i"
	rc=$?
	[[ $rc == 0 ]] || { report bad "run $i exits $rc"; cat "$tmp/err$i"; }
	grep -v -e '^env\.' -e '^abiwatch-snapshot' "$tmp/snap$i" >"$tmp/body$i"
	((i == 1)) || cmp -s "$tmp/body1" "$tmp/body$i" || {
		report bad "run $i's snapshot differs from run 1's"
		diff "$tmp/body1" "$tmp/body$i" | head -20
	}
done
report ok "10 runs exit 0 with the same snapshot"

tests/lib/ktap-check "$tmp/ktap1" >/dev/null && report ok "the KTAP output parses" || report bad "the KTAP output does not parse"
load_snapshot "$tmp/snap1"
bad_items=$(grep -E '^(check|unobserved)\.surface\..* = (error|fail|timeout)' "$tmp/snap1")
[[ -z $bad_items ]] && report ok "no surface item failed or erred" || report bad "failed or erred: $bad_items"

s=obs.surface.syscalls
expect $s.read.present yes
expect $s.read.result EBADF
expect $s.kill.result ESRCH
expect $s.getpid.result ok
expect $s._sysctl.present no
expect $s._sysctl.result ENOSYS
expect $s.tuxcall.present no
at_least 6 6 && expect $s.fchmodat2.present yes
at_least 6 8 && { expect $s.listmount.present yes; expect $s.statmount.present yes; }
at_least 6 10 && expect $s.mseal.present yes
for call in reboot sync settimeofday init_module kexec_load; do
	expect_match unobserved.surface.syscalls.$call.present '^skip: needs vm: not swept outside the VM guest: '
done
# Never-swept calls have no items at all.
[[ -z ${snap[$s.exit.present]-} && -z ${snap[unobserved.surface.syscalls.exit.present]-} ]] &&
	report ok "exit is not swept" || report bad "exit has an item"

if [[ ${snap[env.i386]-} == yes ]]; then
	expect obs.surface.syscalls32.read.result EBADF
	expect obs.surface.syscalls32.ipc.result ENOENT
	at_least 6 8 && expect obs.surface.syscalls32.listmount.present yes
else
	expect_match unobserved.surface.syscalls32.read.present '^skip: needs i386: '
fi

f=obs.surface.flags
if at_least 6 3; then
	expect $f.memfd_create.mfd_exec accepted
	expect $f.memfd_create.mfd_noexec_seal accepted
fi
expect $f.openat.o_tmpfile accepted
expect $f.openat2.other_bits 0
expect $f.memfd_create.other_bits 0
expect $f.rseq.rseq_flag_unregister accepted
expect $f.rseq.other_bits 0
# open(2) keeps only the flags it knows: every other bit it accepts, it ignores.
expect $f.openat.ignored_bits "${snap[$f.openat.other_bits]-none}"
expect $f.pipe2.o_cloexec accepted
expect $f.fcntl.f_getfd accepted
expect_match $f.statx.mask.tmpfs '^TYPE,MODE,NLINK,UID,GID,ATIME,MTIME,CTIME,INO,SIZE,BLOCKS'
# Each field is asked alone: from 6.8 a kernel asked for every field fills
# MNT_ID_UNIQUE in place of MNT_ID (fs/stat.c), and still fills MNT_ID
# when asked for it (STATX_MNT_ID came in 5.8).
for where in tmpfs proc root; do
	at_least 5 8 && expect_match $f.statx.mask.$where '(^|,)MNT_ID(,|$)'
	at_least 6 8 && expect_match $f.statx.mask.$where '(^|,)MNT_ID_UNIQUE(,|$)'
done
# PR_GET_IO_FLUSHER needs CAP_SYS_RESOURCE (kernel/sys.c): without it,
# EPERM is the run's privilege, reported as a skip with its cause; the
# run is repeated with the capability dropped from the bounding set so
# that a machine that has it proves the skip too.
if [[ ,${snap[env.caps]-}, == *,cap_sys_resource,* ]]; then
	expect $f.prctl.pr_get_io_flusher accepted
else
	expect_match unobserved.surface.flags.prctl.pr_get_io_flusher '^skip: needs cap_sys_resource: '
fi
if command -v capsh >/dev/null; then
	env ${HOST_STATE_TAG:+"$HOST_STATE_TAG"} TMPDIR="$tmp/tmpdir" capsh --drop=cap_sys_resource -- -c \
		'exec "$0" run -o "$1" surface.flags' "$abiwatch" "$tmp/nocap" >/dev/null 2>"$tmp/nocap.err" ||
		report bad "surface.flags without CAP_SYS_RESOURCE: $(head -3 "$tmp/nocap.err")"
	grep -q '^env.caps = .*cap_sys_resource' "$tmp/nocap" && report bad "capsh left cap_sys_resource"
	grep -qx 'unobserved.surface.flags.prctl.pr_get_io_flusher = skip: needs cap_sys_resource: .*' "$tmp/nocap" &&
		report ok "without CAP_SYS_RESOURCE, PR_GET_IO_FLUSHER is a skip with its cause" ||
		report bad "without CAP_SYS_RESOURCE: $(grep pr_get_io_flusher "$tmp/nocap")"
fi
[[ -n ${snap[obs.surface.kconfig.source]-} || ${snap[unobserved.surface.kconfig.source]-} == skip:* ]] &&
	report ok "surface.kconfig names its source or why there is none" || report bad "surface.kconfig.source missing"
expect obs.surface.text.proc_stat.fields 52
expect obs.surface.text.mountinfo.columns 6+3
expect_match obs.surface.text.proc_status.keys '^Name,Umask,State,Tgid,Ngid,Pid,PPid,'

u=obs.surface.io_uring
if [[ -r /proc/sys/kernel/io_uring_disabled ]]; then
	knob=$(cat /proc/sys/kernel/io_uring_disabled)
	expect $u.disabled "$knob"
	[[ $knob == 0 ]] && expect $u.unprivileged accepted
else
	expect $u.disabled absent
fi
if [[ ${snap[$u.op.nop]-} == supported ]]; then
	for op in readv writev poll_add accept openat statx; do expect $u.op.$op supported; done
	at_least 6 7 && { expect $u.op.read_multishot supported; expect $u.op.futex_wait supported; }
	at_least 6 11 && { expect $u.op.bind supported; expect $u.op.listen supported; }
	expect $u.register.register_probe ok
	expect $u.register.unregister_buffers ENXIO
	expect $u.register.register_buffers EFAULT
	expect $u.setup.sqpoll accepted
	expect $u.setup.defer_taskrun accepted
	at_least 6 6 && expect $u.setup.no_sqarray accepted
	expect $u.feature.nodrop yes
	expect $u.feature.other_bits 0
else
	report bad "io_uring has no NOP: ${snap[$u.op.nop]-none} (${snap[unobserved.surface.io_uring.op.nop]-})"
fi
expect_match unobserved.surface.io_uring.disabled_1.unprivileged '^skip: needs vm: '

k=obs.surface.sockets
expect $k.socket.af_unix.sock_stream ok
expect $k.socket.af_unix.sock_rdm ESOCKTNOSUPPORT
expect $k.socket.af_inet.sock_stream.ipproto_tcp ok
expect $k.socket.af_inet.sock_dgram.ipproto_icmp EACCES
expect $k.socket.af_ash.sock_stream EAFNOSUPPORT
expect $k.sockopt.af_unix.socket sock_stream
expect_match $k.sockopt.af_unix.accepted '^SO_DEBUG,SO_REUSEADDR,SO_TYPE,SO_ERROR,'
at_least 6 5 && expect_match $k.sockopt.af_unix.accepted ',SO_PASSPIDFD,SO_PEERPIDFD(,|$)'

for fs in ext4 xfs btrfs; do
	if [[ ,${snap[env.fs]-}, == *,$fs,* ]]; then
		case $fs in
		ext4 | xfs) expect_match obs.surface.statx.mask.$fs ',DIOALIGN(,|$)' ;;
		btrfs) at_least 6 10 && expect_match obs.surface.statx.mask.$fs ',SUBVOL(,|$)' ;;
		esac
	else
		expect_match unobserved.surface.statx.mask.$fs "^skip: needs fs:$fs: "
	fi
done

l=obs.surface.lifecycle
expect $l.exit.result "exit 7"
expect $l.exit_group.result "exit 7"
expect $l.fork.result ok
expect $l.vfork.result ok
expect $l.pause.result EINTR
expect $l.rt_sigreturn.result SIGSEGV

at_least 6 11 && expect $f.pidfd_ioctl.pidfd_get_mnt_namespace accepted
at_least 6 13 && expect $f.pidfd_ioctl.pidfd_get_info accepted
at_least 6 14 && expect $f.execveat.at_execve_check accepted
expect $f.execveat.at_symlink_nofollow accepted
expect $f.prctl_set.pr_set_name accepted
expect $f.prctl_set.pr_set_child_subreaper accepted

modules_after=$(cat /proc/modules 2>/dev/null | awk '{ print $1 }' | sort)
if [[ -r /proc/modules ]]; then
	[[ $modules_before == "$modules_after" ]] && report ok "/proc/modules is unchanged" ||
		report bad "modules loaded by the runs: $(comm -13 <(echo "$modules_before") <(echo "$modules_after") | tr '\n' ' ')"
else
	echo "# no /proc/modules: a kernel without module support, where socket() can load nothing"
fi

if ((fingerprint)); then
	tests/lib/host-state >"$tmp/after" 2>&1
	diff "$tmp/before" "$tmp/after" >"$tmp/hostdiff" && report ok "the host fingerprint is unchanged" ||
		report bad "the host changed: $(grep '^[<>]' "$tmp/hostdiff" | head -5 | tr '\n' ';')"
else
	echo "# no host fingerprint here: $(tests/lib/host-state --missing 2>&1)"
fi
finish

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
#   - the host fingerprint (tests/lib/host-state) is the same afterwards.
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

if ((fingerprint)); then
	tests/lib/host-state >"$tmp/after" 2>&1
	diff "$tmp/before" "$tmp/after" >"$tmp/hostdiff" && report ok "the host fingerprint is unchanged" ||
		report bad "the host changed: $(grep '^[<>]' "$tmp/hostdiff" | head -5 | tr '\n' ';')"
else
	echo "# no host fingerprint here: $(tests/lib/host-state --missing 2>&1)"
fi
finish

#!/usr/bin/env bash
# tests/run: sealed
# vm_surface: the surface family in Debian's 6.1 and 6.12 cloud kernels,
# both in QEMU at once (one abiwatch matrix, surface only), as full root
# with every capability and i386 execution.  In each guest:
#   - no surface item fails or errs, env.i386 = yes, and the guest-only
#     calls are swept (reboot with a wrong magic: EINVAL; sync: ok);
#   - the 32-bit table is swept through the helper (ipc(MSGGET) ENOENT).
# And the diff matrix wrote between them names exactly the changes
# docs/catalogue.md explains (section "surface: what 6.1 -> 6.12 shows"):
#   - the system calls that appeared, on both tables (x86-64 alone:
#     map_shadow_stack, uretprobe), each no -> yes with ENOSYS -> its errno;
#     none vanished;
#   - four calls that check their arguments in another order;
#   - the flags and values that appeared (MFD_EXEC, MFD_NOEXEC_SEAL,
#     PIDFD_THREAD, MAP_DROPPABLE, MAP_ABOVE4G, MOVE_MOUNT_BENEATH,
#     FSCONFIG_CMD_CREATE_EXCL,
#     O_DIRECT on tmpfs,
#     F_DUPFD_QUERY, F_CREATED_QUERY, PR_GET_AUXV ...), statx's
#     MNT_ID_UNIQUE, membarrier's GET_REGISTRATIONS;
#   - the text surfaces that grew (auxv's AT_RSEQ_*, status's Kthread ...);
#   - io_uring's opcodes, register operations, setup flags and features
#     that appeared, kernel.io_uring_disabled and what 1 and 2 refuse;
#     SO_PASSPIDFD in the SOL_SOCKET options; the pidfd ioctls; btrfs's
#     statx SUBVOL (DIOALIGN is on ext4 and xfs in both: 6.1 brought it);
#   - the configuration options that differ (CACHESTAT_SYSCALL, new in 6.5,
#     and X86_USER_SHADOW_STACK), from the /boot/config-RELEASE abiwatch vm
#     gives each guest from its .deb.
set -u
cd "$(dirname "$0")/../.." || exit 1
. tests/lib/dirent-common.sh

. tests/lib/vm-kernels.sh
vm_kernels 6.1 6.12
tmp=$(mktemp -d "${TMPDIR:-/tmp}/abiwatch-vmsurface.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT

# The system calls 6.12 has and 6.1 answers ENOSYS for, on both tables.
APPEARED=(cachestat fchmodat2 futex_requeue futex_wait futex_wake listmount lsm_get_self_attr
	lsm_list_modules lsm_set_self_attr mseal statmount)
APPEARED64=(map_shadow_stack uretprobe)
# Built in both, switched off by default on 6.1 (secretmem.enable, on by
# default since 6.5: mm/secretmem.c): "disabled", not absent, on 6.1.
SWITCHED=(memfd_secret)
# item old new: every other change, on both tables where it is a syscall.
CHANGED=(
	syscalls.lsetxattr.result EFAULT EINVAL
	syscalls.setxattr.result EFAULT EINVAL
	syscalls.open_by_handle_at.result EFAULT EBADF
	syscalls.setsockopt.result EINVAL EBADF
	flags.fchmodat2.at_empty_path ENOSYS accepted
	flags.fchmodat2.at_symlink_nofollow ENOSYS accepted
	flags.fcntl.f_created_query EINVAL accepted
	flags.fcntl.f_dupfd_query EINVAL accepted
	flags.memfd_create.mfd_exec EINVAL accepted
	flags.memfd_create.mfd_noexec_seal EINVAL accepted
	flags.mmap_type.map_droppable EINVAL accepted
	flags.mmap_validate.map_above4g EOPNOTSUPP accepted
	flags.fsconfig.fsconfig_cmd_create_excl EOPNOTSUPP accepted
	flags.move_mount.move_mount_beneath EINVAL accepted
	flags.openat.o_direct EINVAL accepted
	flags.openat2.o_direct EINVAL accepted
	flags.openat2.other_bits 0x4000000 0x2000000
	flags.pidfd_open.pidfd_thread EINVAL accepted
	flags.pidfd_send_signal.pidfd_signal_process_group EINVAL ESRCH
	flags.pidfd_send_signal.pidfd_signal_thread EINVAL accepted
	flags.pidfd_send_signal.pidfd_signal_thread_group EINVAL accepted
	flags.prctl.pr_get_auxv EINVAL accepted
	flags.prctl.pr_get_mdwe EINVAL accepted
	flags.prctl.pr_get_memory_merge EINVAL accepted
	flags.statx.attributes_mask.tmpfs 0x203070 0x303070
	flags.prctl_set.pr_set_mdwe EINVAL accepted
	flags.prctl_set.pr_set_memory_merge EINVAL accepted
	flags.pidfd_ioctl.pidfd_get_info ENOTTY EINVAL
	io_uring.disabled absent 0
	io_uring.group absent -1
	io_uring.disabled_1.privileged absent accepted
	io_uring.disabled_1.unprivileged absent EPERM
	io_uring.disabled_2.privileged absent EPERM
	io_uring.disabled_2.unprivileged absent EPERM
	statx.attributes_mask.btrfs 0x203074 0x303074
	statx.attributes_mask.xfs 0x203070 0x303070
	kconfig.cachestat_syscall absent y
	kconfig.x86_user_shadow_stack absent y
	kconfig.memory_failure absent y
	kconfig.unaccepted_memory absent y
)
# The io_uring names that appeared (surface.io_uring), each with its
# 6.1 and 6.12 value, and the pidfd namespace ioctls (6.11).
for op in bind fixed_fd_install ftruncate futex_wait futex_waitv futex_wake listen read_multishot waitid; do
	CHANGED+=(io_uring.op.$op absent supported)
done
for r in register_clock register_clone_buffers register_napi register_pbuf_status unregister_napi; do
	CHANGED+=(io_uring.register.$r EINVAL EFAULT)
done
for f in no_mmap no_sqarray registered_fd_only; do CHANGED+=(io_uring.setup.$f EINVAL accepted); done
for f in min_timeout recvsend_bundle reg_reg_ring; do CHANGED+=(io_uring.feature.$f no yes); done
for ns in cgroup ipc mnt net pid pid_for_children time time_for_children user uts; do
	CHANGED+=(flags.pidfd_ioctl.pidfd_get_${ns}_namespace ENOTTY accepted)
done
# Long values that changed: item, then a word only 6.12's value has.
GREW=(
	flags.membarrier.query GET_REGISTRATIONS
	flags.statx.mask.tmpfs MNT_ID_UNIQUE
	flags.statx.mask.proc MNT_ID_UNIQUE
	flags.statx.mask.root MNT_ID_UNIQUE
	text.auxv.keys RSEQ_FEATURE_SIZE
	text.meminfo.keys Unaccepted
	text.proc_status.keys Kthread
	text.thp.files hugepages-64kB/
	statx.mask.btrfs SUBVOL
	statx.mask.ext4 MNT_ID_UNIQUE
	statx.mask.xfs MNT_ID_UNIQUE
)
# SO_PASSPIDFD (6.5) in the SOL_SOCKET options of every family that made
# a socket in both guests (surface.sockets).
for af in alg inet inet6 kcm netlink packet smc unix xdp; do GREW+=(sockets.sockopt.af_$af.accepted SO_PASSPIDFD); done
# Lists whose elements the configuration explains in part (meminfo's
# Unaccepted and HardwareCorrupted follow UNACCEPTED_MEMORY and
# MEMORY_FAILURE, absent from 6.1's configuration): a line for the part
# under config:NAME and one for the rest (model/causes_witness.c).
SPLIT=(text.meminfo.keys text.proc_status.keys)

"$abiwatch" matrix -q -o "$tmp/m" "${debs[@]}" -- surface >"$tmp/out" 2>&1
rc=$?
# Exit 1 is matrix's "the kernels differ", which they do here.
[[ $rc == 0 || $rc == 1 ]] && report ok "matrix exits $rc" || { report bad "matrix exits $rc"; cat "$tmp/out"; }
cat "$tmp/m/matrix.txt" 2>/dev/null

guests=0
for s in "$tmp"/m/*.snapshot; do
	[[ -f $s ]] || continue
	guests=$((guests + 1))
	load_snapshot "$s"
	release=${snap[env.kernel.release]-?}
	echo "# $release"
	expect env.i386 yes
	bad_items=$(grep -E '^(check|unobserved)\.surface\..* = (error|fail|timeout|skip)' "$s")
	[[ -z $bad_items ]] && report ok "no surface item failed, erred or was skipped" || report bad "$bad_items"
	expect obs.surface.syscalls.reboot.result EINVAL
	expect obs.surface.syscalls.sync.result ok
	expect obs.surface.syscalls32.reboot.result EINVAL
	expect obs.surface.syscalls32.ipc.result ENOENT
	expect obs.surface.syscalls._sysctl.present no
	expect obs.surface.kconfig.source "/boot/config-RELEASE"
	expect obs.surface.kconfig.ia32_emulation y
	expect_match obs.surface.statx.mask.ext4 ',DIOALIGN(,|$)'
	expect_match obs.surface.statx.mask.xfs ',DIOALIGN(,|$)'
	expect obs.surface.sockets.socket.af_inet.sock_stream.ipproto_sctp ok
	expect obs.surface.lifecycle.pause.result EINTR
	case $release in
	6.1.*) side=old ;;
	6.12.*) side=new ;;
	*) report bad "unexpected guest kernel $release"; continue ;;
	esac
	for c in "${APPEARED[@]}" "${APPEARED64[@]}"; do
		expect obs.surface.syscalls.$c.present "$([[ $side == old ]] && echo no || echo yes)"
	done
	for c in "${APPEARED[@]}"; do
		expect obs.surface.syscalls32.$c.present "$([[ $side == old ]] && echo no || echo yes)"
	done
	for c in "${SWITCHED[@]}"; do
		expect obs.surface.syscalls.$c.present "$([[ $side == old ]] && echo disabled || echo yes)"
		expect obs.surface.syscalls32.$c.present "$([[ $side == old ]] && echo disabled || echo yes)"
	done
	for ((i = 0; i < ${#CHANGED[@]}; i += 3)); do
		want=${CHANGED[i + 1]}
		[[ $side == new ]] && want=${CHANGED[i + 2]}
		expect "obs.surface.${CHANGED[i]}" "$want"
		[[ ${CHANGED[i]} == syscalls.* ]] && expect "obs.surface.${CHANGED[i]/syscalls./syscalls32.}" "$want"
	done
	for ((i = 0; i < ${#GREW[@]}; i += 2)); do
		got=${snap[obs.surface.${GREW[i]}]-}
		has=0
		[[ ,$got, == *",${GREW[i + 1]},"* ]] && has=1
		if [[ $side == old ]]; then
			((has == 0)) && report ok "6.1's ${GREW[i]} has no ${GREW[i + 1]}" || report bad "6.1's ${GREW[i]} has ${GREW[i + 1]}: $got"
		else
			((has == 1)) && report ok "6.12's ${GREW[i]} has ${GREW[i + 1]}" || report bad "6.12's ${GREW[i]} lacks ${GREW[i + 1]}: $got"
		fi
	done
done
((guests == 2)) && report ok "a snapshot of each guest" || report bad "$guests guest snapshots, expected 2"

# The diff between the two guests: the changes above and nothing else.
diffs=("$tmp"/m/*.diff)
if [[ -f ${diffs[0]} ]]; then
	diffs[0]=$(verbose_diff "${diffs[0]}") # an item's line, also in an object of several
	got=$(sed -n 's/^ *changed *obs\.surface\.\([^:]*\):.*/\1/p' "${diffs[0]}" | sort)
	want=$({
		for c in "${APPEARED[@]}" "${SWITCHED[@]}"; do
			printf 'syscalls.%s.present\nsyscalls.%s.result\nsyscalls32.%s.present\nsyscalls32.%s.result\n' "$c" "$c" "$c" "$c"
		done
		for c in "${APPEARED64[@]}"; do printf 'syscalls.%s.present\nsyscalls.%s.result\n' "$c" "$c"; done
		for ((i = 0; i < ${#CHANGED[@]}; i += 3)); do
			echo "${CHANGED[i]}"
			[[ ${CHANGED[i]} == syscalls.* ]] && echo "${CHANGED[i]/syscalls./syscalls32.}"
		done
		for ((i = 0; i < ${#GREW[@]}; i += 2)); do echo "${GREW[i]}"; done
		printf '%s\n' "${SPLIT[@]}"
	} | sort) # kconfig.source names the place (/boot/config-RELEASE): the same on both

	[[ $got == "$want" ]] && report ok "the 6.1 -> 6.12 diff names exactly the $(wc -l <<<"$want") expected changes" ||
		report bad "the 6.1 -> 6.12 diff differs from the expected changes:"$'\n'"$(diff <(echo "$want") <(echo "$got"))"
	others=$(grep -cE '^ *(added|removed|regressed|recovered|skipped|unskipped) ' "${diffs[0]}")
	((others == 0)) && report ok "no other kind of difference" || { report bad "$others other differences"; cat "${diffs[0]}"; }
else
	report bad "matrix wrote no diff"
fi
finish

# shellcheck shell=bash
# The process family's values that every kernel since 5.16 gives on
# x86_64 (6.18 here, the Debian cloud kernels 6.1.192 and 6.12.118 in
# QEMU), for tests/integration/process_values.sh and vm_process.sh.
# Source it after dirent-common.sh (snap[], expect, report).
#
#   PROCESS_SAME          KEY VALUE pairs every such kernel gives
#   process_expect_same   expect every PROCESS_SAME pair
PROCESS_SAME=(
	obs.process.exec.elf.plain runs
	obs.process.exec.elf.overlap runs
	obs.process.exec.elf.dyn runs
	obs.process.exec.elf.stack_default rw-p
	obs.process.exec.elf.stack_rw rw-p
	obs.process.exec.elf.stack_rwx rwxp
	obs.process.exec.elf.personality_default 0x40000
	obs.process.exec.elf.stack_top 0x7ffffffff000
	obs.process.exec.args.max_strlen 131072
	obs.process.exec.args.count_1m 63
	obs.process.exec.args.count_256k 31
	obs.process.exec.args.env_count_1m 63
	obs.process.exec.args.beyond E2BIG
	obs.process.exec.auxv.minsigstksz present
	obs.process.exec.auxv.hwcap2 present
	check.process.personality.uname26.prefix pass
	check.process.personality.uname26.rest pass
	check.process.personality.addr_no_randomize.same_layout pass
	obs.process.personality.uname26.offset 60
	obs.process.personality.read_implies_exec.mmap r-xp
	obs.process.personality.read_implies_exec.exec 0
	obs.process.personality.linux32.machine i686
	obs.process.personality.linux32.persona 0x8
	obs.process.signals.forced.segv_blocked_traced 'signal-delivery-stop SIGSEGV, then killed by SIGSEGV'
	obs.process.signals.forced.segv_ignored_traced 'signal-delivery-stop SIGSEGV, then killed by SIGSEGV'
	obs.process.signals.forced.trap_blocked_traced 'signal-delivery-stop SIGTRAP, then killed by SIGTRAP'
	obs.process.signals.forced.segv_blocked 'killed by SIGSEGV'
	obs.process.signals.rt.nsig 64
	obs.process.signals.rt.first_queued 32
	obs.process.signals.altstack.min 2048
	check.process.signals.altstack.at_minsigstksz pass
	obs.process.signals.setsig.rt 1
	obs.process.signals.setsig.rt_fields 'band 0x41 fd pipe'
	obs.process.signals.setsig.sigio 128
	obs.process.signals.setsig.sigchld -5
	obs.process.signals.sigpending.sigqueue EAGAIN
	obs.process.signals.sigpending.kill queued
	obs.process.ptrace.wait.tracer_parent 'exit 7'
	obs.process.ptrace.wait.wall 'exit 7'
	obs.process.ptrace.wait.pidfd 'exit 7'
	obs.process.ptrace.syscall_info.entry 'op entry, 80 B, nr getpid'
	obs.process.ptrace.exitkill 'killed by SIGKILL'
	obs.process.ptrace.rseq_configuration '24 B'
	obs.process.procfs.stat.fields 52
	obs.process.procfs.cmdline.setproctitle 'the whole title'
	obs.process.pidfd.send_signal 'killed by SIGTERM'
	obs.process.pidfd.nonblock EAGAIN
	obs.process.pidfd.getfd 'the same file'
	obs.process.pidfd.clone3.into_cgroup EBADF
	obs.process.pidfd.clone3.clear_sighand SIG_DFL
	obs.process.pidfd.subreaper.orphan 'the subreaper'
	obs.process.pidfd.subreaper.none "the namespace's init"
)
# Where user namespaces can be made (env.userns = yes).
PROCESS_USERNS=(
	obs.process.userns.gid_map.before_deny EPERM
	obs.process.userns.gid_map.after_deny ok
	obs.process.userns.setgroups.after_deny EPERM
	obs.process.userns.uid_map.range EPERM
	obs.process.userns.uid_map.other EPERM
	obs.process.userns.uid_map.own ok
	obs.process.userns.threaded_unshare EINVAL
	obs.process.userns.inner.max_user_namespaces 2147483647
)

process_expect_same() {
	local i
	for ((i = 0; i < ${#PROCESS_SAME[@]}; i += 2)); do expect "${PROCESS_SAME[i]}" "${PROCESS_SAME[i + 1]}"; done
	if [[ ${snap[env.userns]-} == yes ]]; then
		for ((i = 0; i < ${#PROCESS_USERNS[@]}; i += 2)); do expect "${PROCESS_USERNS[i]}" "${PROCESS_USERNS[i + 1]}"; done
	fi
}

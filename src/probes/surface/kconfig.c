// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * surface.kconfig: the configuration options that decide whether calls
 * and flags the other surface probes sweep exist, read through
 * lib/kconfig.h and reported by aw_report_kconfig() as sysctl.kconfig is.  A call configured out
 * answers ENOSYS like one the kernel removed (kernel/sys_ni.c: the
 * COND_SYSCALL entries), so the option recorded beside it is what tells
 * the two apart in a diff: ioperm and iopl need X86_IOPL_IOPERM (5.5),
 * map_shadow_stack X86_USER_SHADOW_STACK (6.6), memfd_secret SECRETMEM,
 * uselib USELIB, O_NOTIFICATION_PIPE WATCH_QUEUE, PR_SET_VMA
 * ANON_VMA_NAME, the i386 table IA32_EMULATION (the Kconfig help of each
 * option, init/Kconfig, arch/x86/Kconfig, mm/Kconfig).  The keys of
 * /proc/meminfo and /proc/self/status and the entries of /proc/self/
 * that surface.text lists follow options too (fs/proc/meminfo.c,
 * fs/proc/array.c, fs/proc/base.c): witness.c says which, and the
 * options are recorded here for diff to weigh.
 */
#include "surface.h"


/* "absent" (lib/kconfig.h) is told apart from n in the words: 6.1 has no
 * CACHESTAT_SYSCALL to set, and "n -> y" would report a choice nobody
 * made. */
#define OPT(o, what) AW_OBS_ITEM(o, "CONFIG_" what, .change = "the kernel was configured differently " \
				 "(absent: not an option of that kernel, or its dependencies unmet): " \
				 "the calls or flags the option decides appear or vanish for that reason")

static const struct aw_item kconfig_items[] = {
	AW_OBS_ITEM("source", "where the configuration was read (/proc/config.gz, /boot/config-RELEASE)"),
	OPT("ia32_emulation", "IA32_EMULATION: every call of the i386 table (surface.syscalls32)"),
	OPT("x86_iopl_ioperm", "X86_IOPL_IOPERM: iopl, ioperm"),
	OPT("x86_user_shadow_stack", "X86_USER_SHADOW_STACK (6.6): map_shadow_stack, x86_Thread_features of /proc/self/status"),
	OPT("uprobes", "UPROBES: uretprobe, uprobe"),
	OPT("secretmem", "SECRETMEM: memfd_secret"),
	OPT("uselib", "USELIB: uselib"),
	OPT("sysfs_syscall", "SYSFS_SYSCALL: sysfs"),
	OPT("uid16", "UID16: the i386 16-bit uid calls (lchown, setuid ...)"),
	OPT("sgetmask_syscall", "SGETMASK_SYSCALL: the i386 sgetmask, ssetmask"),
	OPT("compat_32bit_time", "COMPAT_32BIT_TIME: the i386 calls with a 32-bit time_t"),
	OPT("sysvipc", "SYSVIPC: msgget, semget, shmget and the rest, ipc"),
	OPT("posix_mqueue", "POSIX_MQUEUE: mq_open and the rest"),
	OPT("bpf_syscall", "BPF_SYSCALL: bpf"),
	OPT("io_uring", "IO_URING: io_uring_setup, io_uring_enter, io_uring_register"),
	OPT("fanotify", "FANOTIFY: fanotify_init, fanotify_mark"),
	OPT("userfaultfd", "USERFAULTFD: userfaultfd"),
	OPT("membarrier", "MEMBARRIER: membarrier"),
	OPT("rseq", "RSEQ: rseq"),
	OPT("kcmp", "KCMP: kcmp"),
	OPT("checkpoint_restore", "CHECKPOINT_RESTORE: F_GETOWNER_UIDS"),
	OPT("fhandle", "FHANDLE: name_to_handle_at, open_by_handle_at"),
	OPT("cross_memory_attach", "CROSS_MEMORY_ATTACH: process_vm_readv, process_vm_writev"),
	OPT("numa", "NUMA: mbind, set_mempolicy, get_mempolicy, migrate_pages, move_pages, /proc/self/numa_maps"),
	OPT("advise_syscalls", "ADVISE_SYSCALLS: madvise, fadvise64"),
	OPT("cachestat_syscall", "CACHESTAT_SYSCALL (6.5): cachestat"),
	OPT("kexec_file", "KEXEC_FILE: kexec_file_load"),
	OPT("quota", "QUOTA: quotactl, quotactl_fd"),
	OPT("perf_events", "PERF_EVENTS: perf_event_open"),
	OPT("security_landlock", "SECURITY_LANDLOCK: landlock_*"),
	OPT("watch_queue", "WATCH_QUEUE: pipe2(O_NOTIFICATION_PIPE)"),
	OPT("anon_vma_name", "ANON_VMA_NAME: prctl(PR_SET_VMA)"),
	OPT("sched_core", "SCHED_CORE: prctl(PR_SCHED_CORE)"),
	OPT("ksm", "KSM: MADV_MERGEABLE, prctl(PR_GET_MEMORY_MERGE), /proc/self/ksm_*"),
	OPT("transparent_hugepage", "TRANSPARENT_HUGEPAGE: MADV_HUGEPAGE, MADV_COLLAPSE, the THP files, *HugePages and *PmdMapped of /proc/meminfo"),
	OPT("dnotify", "DNOTIFY: fcntl(F_NOTIFY)"),
	OPT("time_ns", "TIME_NS: clone3(CLONE_NEWTIME), /proc/self/timens_offsets"),
	/* What surface.text's key lists follow (witness.c, with the file
	 * that prints each key only under the option). */
	OPT("zswap", "ZSWAP: Zswap, Zswapped of /proc/meminfo"),
	OPT("memory_failure", "MEMORY_FAILURE: HardwareCorrupted of /proc/meminfo"),
	OPT("cma", "CMA: CmaTotal, CmaFree of /proc/meminfo"),
	OPT("unaccepted_memory", "UNACCEPTED_MEMORY (6.5): Unaccepted of /proc/meminfo"),
	OPT("hugetlb_page", "HUGETLB_PAGE: HugePages_*, Hugepagesize, Hugetlb of /proc/meminfo"),
	OPT("seccomp", "SECCOMP: Seccomp of /proc/self/status"),
	OPT("seccomp_filter", "SECCOMP_FILTER: Seccomp_filters of /proc/self/status"),
	OPT("sched_debug", "SCHED_DEBUG: /proc/self/sched"),
	OPT("sched_autogroup", "SCHED_AUTOGROUP: /proc/self/autogroup"),
	OPT("proc_page_monitor", "PROC_PAGE_MONITOR: /proc/self/clear_refs, smaps, smaps_rollup, pagemap"),
	OPT("latencytop", "LATENCYTOP: /proc/self/latency"),
	OPT("proc_pid_cpuset", "PROC_PID_CPUSET: /proc/self/cpuset"),
	OPT("proc_cpu_resctrl", "PROC_CPU_RESCTRL: /proc/self/cpu_resctrl_groups"),
	OPT("audit", "AUDIT: /proc/self/loginuid, sessionid"),
	OPT("fault_injection", "FAULT_INJECTION: /proc/self/make-it-fail, fail-nth"),
	OPT("task_io_accounting", "TASK_IO_ACCOUNTING: /proc/self/io"),
	OPT("livepatch", "LIVEPATCH: /proc/self/patch_state"),
	OPT("stackleak_metrics", "STACKLEAK_METRICS: /proc/self/stack_depth"),
	OPT("proc_pid_arch_status", "PROC_PID_ARCH_STATUS: /proc/self/arch_status"),
	OPT("seccomp_cache_debug", "SECCOMP_CACHE_DEBUG: /proc/self/seccomp_cache"),
	AW_ITEMS_END,
};

static void kconfig_run(struct aw_ctx *ctx)
{
	aw_report_kconfig(ctx, kconfig_items);
}

static const char *const tags[] = { "man:syscalls(2)", NULL };

const struct aw_probe surface_kconfig_probes[] = {
	{
		.name = "kconfig",
		.summary = "the configuration options that decide whether swept calls and flags exist",
		.run = kconfig_run,
		.items = kconfig_items,
		.tags = tags,
	},
	AW_PROBES_END,
};

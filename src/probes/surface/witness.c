// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Which configuration option decides whether a swept call, a key of
 * /proc/meminfo or /proc/self/status, or an entry of /proc/self/ is
 * there (struct aw_item.witness), so that diff folds one configured
 * out on one side under config:NAME instead of calling it vanished or
 * appeared.  The option is surface.kconfig's item (kconfig.c records
 * it beside them); "absent" there is no option of that kernel, which
 * diff says in its own words.  Each row cites the file of Debian's
 * 6.12.118 tree (6.1.192's where it differs) that prints the key or
 * builds the call only with the option.
 */
#include "surface.h"
#include "lib/procfs.h"
#include "lib/util.h"

#include <stdio.h>
#include <string.h>

/* System calls: COND_SYSCALL in kernel/sys_ni.c answers ENOSYS for each
 * where the option does not build it. */
static const struct aw_config_name calls[] = {
	{ "ioperm", "x86_iopl_ioperm", "arch/x86/Kconfig X86_IOPL_IOPERM: \"enables the ioperm() and iopl() syscalls\"" },
	{ "iopl", "x86_iopl_ioperm", "arch/x86/Kconfig X86_IOPL_IOPERM: \"enables the ioperm() and iopl() syscalls\"" },
	{ "map_shadow_stack", "x86_user_shadow_stack",
	  "arch/x86/kernel/shstk.c SYSCALL_DEFINE3(map_shadow_stack), built with CONFIG_X86_USER_SHADOW_STACK (6.6)" },
};

#define MEMINFO "fs/proc/meminfo.c meminfo_proc_show(), under "
#define HUGETLB "mm/hugetlb.c hugetlb_report_meminfo(), built with CONFIG_HUGETLB_PAGE (an empty inline " \
		"without it, include/linux/hugetlb.h)"

static const struct aw_config_name meminfo_keys[] = {
	{ "Zswap", "zswap", MEMINFO "CONFIG_ZSWAP" },
	{ "Zswapped", "zswap", MEMINFO "CONFIG_ZSWAP" },
	{ "HardwareCorrupted", "memory_failure", MEMINFO "CONFIG_MEMORY_FAILURE" },
	{ "AnonHugePages", "transparent_hugepage", MEMINFO "CONFIG_TRANSPARENT_HUGEPAGE" },
	{ "ShmemHugePages", "transparent_hugepage", MEMINFO "CONFIG_TRANSPARENT_HUGEPAGE" },
	{ "ShmemPmdMapped", "transparent_hugepage", MEMINFO "CONFIG_TRANSPARENT_HUGEPAGE" },
	{ "FileHugePages", "transparent_hugepage", MEMINFO "CONFIG_TRANSPARENT_HUGEPAGE" },
	{ "FilePmdMapped", "transparent_hugepage", MEMINFO "CONFIG_TRANSPARENT_HUGEPAGE" },
	{ "CmaTotal", "cma", MEMINFO "CONFIG_CMA" },
	{ "CmaFree", "cma", MEMINFO "CONFIG_CMA" },
	{ "Unaccepted", "unaccepted_memory", MEMINFO "CONFIG_UNACCEPTED_MEMORY (6.5)" },
	{ "HugePages_Total", "hugetlb_page", HUGETLB },
	{ "HugePages_Free", "hugetlb_page", HUGETLB },
	{ "HugePages_Rsvd", "hugetlb_page", HUGETLB },
	{ "HugePages_Surp", "hugetlb_page", HUGETLB },
	{ "Hugepagesize", "hugetlb_page", HUGETLB },
	{ "Hugetlb", "hugetlb_page", HUGETLB },
};

/* /proc/self/'s entries (observe_dir(): "/" after a directory). */
#define BASE "fs/proc/base.c tgid_base_stuff, under "
static const struct aw_config_name self_entries[] = {
	{ "sched", "sched_debug", BASE "CONFIG_SCHED_DEBUG" },
	{ "autogroup", "sched_autogroup", BASE "CONFIG_SCHED_AUTOGROUP" },
	{ "timens_offsets", "time_ns", BASE "CONFIG_TIME_NS" },
	{ "numa_maps", "numa", BASE "CONFIG_NUMA" },
	{ "clear_refs", "proc_page_monitor", BASE "CONFIG_PROC_PAGE_MONITOR" },
	{ "smaps", "proc_page_monitor", BASE "CONFIG_PROC_PAGE_MONITOR" },
	{ "smaps_rollup", "proc_page_monitor", BASE "CONFIG_PROC_PAGE_MONITOR" },
	{ "pagemap", "proc_page_monitor", BASE "CONFIG_PROC_PAGE_MONITOR" },
	{ "latency", "latencytop", BASE "CONFIG_LATENCYTOP" },
	{ "cpuset", "proc_pid_cpuset", BASE "CONFIG_PROC_PID_CPUSET" },
	{ "cpu_resctrl_groups", "proc_cpu_resctrl", BASE "CONFIG_PROC_CPU_RESCTRL (which X86_CPU_RESCTRL selects)" },
	{ "loginuid", "audit", BASE "CONFIG_AUDIT" },
	{ "sessionid", "audit", BASE "CONFIG_AUDIT" },
	{ "make-it-fail", "fault_injection", BASE "CONFIG_FAULT_INJECTION" },
	{ "fail-nth", "fault_injection", BASE "CONFIG_FAULT_INJECTION" },
	{ "io", "task_io_accounting", BASE "CONFIG_TASK_IO_ACCOUNTING" },
	{ "patch_state", "livepatch", BASE "CONFIG_LIVEPATCH" },
	{ "stack_depth", "stackleak_metrics", BASE "CONFIG_STACKLEAK_METRICS" },
	{ "arch_status", "proc_pid_arch_status", BASE "CONFIG_PROC_PID_ARCH_STATUS (which x86 selects)" },
	{ "seccomp_cache", "seccomp_cache_debug", BASE "CONFIG_SECCOMP_CACHE_DEBUG" },
	{ "ksm_merging_pages", "ksm", BASE "CONFIG_KSM" },
	{ "ksm_stat", "ksm", BASE "CONFIG_KSM" },
};

static bool from_table(const struct aw_config_name *t, size_t n, const char *name, struct aw_witness *out)
{
	for (size_t i = 0; i < n; i++) {
		if (strcmp(t[i].name, name) != 0)
			continue;
		memset(out, 0, sizeof(*out));
		out->kind = AW_WITNESS_CONFIG;
		snprintf(out->cause, sizeof(out->cause), "config:%s", t[i].option);
		snprintf(out->key, sizeof(out->key), "surface.kconfig.%s", t[i].option);
		out->why = t[i].source;
		return true;
	}
	return false;
}

/* surface.syscalls.NAME.present and .result, and syscalls32's. */
static bool call_witness(const char *name, const char *release, const char *version, struct aw_witness *out)
{
	(void)release;
	(void)version;
	const char *call = NULL;
	if (strncmp(name, "surface.syscalls.", 17) == 0)
		call = name + 17;
	else if (strncmp(name, "surface.syscalls32.", 19) == 0)
		call = name + 19;
	const char *dot = call ? strrchr(call, '.') : NULL;
	if (!dot)
		return false;
	char buf[64];
	snprintf(buf, sizeof(buf), "%.*s", (int)(dot - call), call);
	return from_table(calls, AW_ARRAY_SIZE(calls), buf, out);
}

static bool element_witness(const char *name, const char *element, struct aw_witness *out)
{
	if (strcmp(name, "surface.text.meminfo.keys") == 0)
		return from_table(meminfo_keys, AW_ARRAY_SIZE(meminfo_keys), element, out);
	if (strcmp(name, "surface.text.proc_status.keys") == 0)
		return from_table(aw_status_config_keys, aw_nstatus_config_keys, element, out);
	if (strcmp(name, "surface.text.proc_self.entries") == 0)
		return from_table(self_entries, AW_ARRAY_SIZE(self_entries), element, out);
	return false;
}

const struct aw_witness_rule surface_call_witness = { .find = call_witness };
const struct aw_witness_rule surface_text_witness = { .find_element = element_witness };

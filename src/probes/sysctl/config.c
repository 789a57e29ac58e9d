// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * sysctl.kconfig: the kernel configuration the run sees, as the options
 * that decide whether knobs and cgroup controllers exist, so that a knob
 * absent because of configuration is told apart from one the kernel
 * removed (fs.quota.warnings left Debian 6.12 with PRINT_QUOTA_WARNING,
 * which 6.12's fs/quota/Kconfig makes depend on BROKEN, so the file does
 * not name it: "absent", not a choice of n).  The configuration comes from lib/kconfig.h
 * (/proc/config.gz, else /boot/config-RELEASE, else the build's .config,
 * shared with the surface family).  A digest of the
 * whole file would change with every unrelated option; the options
 * recorded are the ones the sysctl and cgroup keys depend on.
 *
 * sysctl.machine: the inputs of the knobs sized from the machine
 * (memory and CPUs), recorded next to them.
 */
#include "sysctl.h"
#include "lib/util.h"
#include "lib/errname.h"
#include "lib/proc.h"
#include "lib/procfs.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

/* As surface.kconfig's: "absent" is no option (or unmet dependencies),
 * not a choice of n. */
#define OPT(o, why) AW_OBS_ITEM(o, "CONFIG_" why, .change = "the kernel was configured differently " \
				 "(absent: not an option of that kernel, or its dependencies unmet): " \
				 "knobs and controllers that depend on it appear or vanish for that reason")

static const struct aw_item kconfig_items[] = {
	AW_OBS_ITEM("source", "where the configuration was read (/proc/config.gz, /boot/config-RELEASE)"),
	OPT("io_uring", "IO_URING: io_uring and kernel.io_uring_*"),
	OPT("legacy_tiocsti", "LEGACY_TIOCSTI: the default of dev.tty.legacy_tiocsti"),
	OPT("memcg_v1", "MEMCG_V1 (6.11): the cgroup v1 memory controller, memory.kmem.*"),
	OPT("cpusets_v1", "CPUSETS_V1 (6.11): the cgroup v1 cpuset controller"),
	OPT("memfd_create", "MEMFD_CREATE: memfd_create() and vm.memfd_noexec"),
	OPT("uclamp_task", "UCLAMP_TASK: kernel.sched_util_clamp_* and cpu.uclamp.*"),
	OPT("memory_failure", "MEMORY_FAILURE: vm.memory_failure_*"),
	OPT("print_quota_warning", "PRINT_QUOTA_WARNING: fs.quota.warnings"),
	OPT("checkpoint_restore", "CHECKPOINT_RESTORE: kernel.ns_last_pid, kernel.*_next_id"),
	OPT("modules", "MODULES: kernel.modprobe, kernel.modules_disabled"),
	OPT("kexec_core", "KEXEC_CORE: kernel.kexec_*"),
	OPT("magic_sysrq", "MAGIC_SYSRQ: kernel.sysrq"),
	OPT("security_yama", "SECURITY_YAMA: kernel.yama.* (also needs yama in CONFIG_LSM)"),
	OPT("bpf_syscall", "BPF_SYSCALL: kernel.unprivileged_bpf_disabled, kernel.bpf_stats_enabled"),
	OPT("hz", "HZ: the unit of the jiffies knobs (net.ipv6.neigh.*.retrans_time)"),
	OPT("crypto_fips", "CRYPTO_FIPS: crypto.fips_* (crypto/Makefile builds crypto/fips.c, which registers them, only with it)"),
	OPT("optprobes", "OPTPROBES (needs KPROBES): debug.kprobes-optimization (kernel/kprobes.c, under CONFIG_OPTPROBES)"),
	OPT("hpet", "HPET: dev.hpet.max-user-freq (drivers/char/Makefile builds drivers/char/hpet.c only with it)"),
	OPT("fs_verity_builtin_signatures", "FS_VERITY_BUILTIN_SIGNATURES: fs.verity.require_signatures (fs/verity/init.c)"),
	OPT("acpi_sleep", "ACPI_SLEEP: kernel.acpi_video_flags on x86 (kernel/sysctl.c)"),
	OPT("security_apparmor", "SECURITY_APPARMOR: kernel.apparmor_*, kernel.unprivileged_userns_apparmor_policy (security/apparmor/lsm.c)"),
	OPT("energy_model", "ENERGY_MODEL (with CPU_FREQ_GOV_SCHEDUTIL): kernel.sched_energy_aware (kernel/sched/topology.c)"),
	OPT("schedstats", "SCHEDSTATS: kernel.sched_schedstats (kernel/sched/core.c)"),
	OPT("stack_tracer", "STACK_TRACER: kernel.stack_tracer_enabled (kernel/sysctl.c)"),
	OPT("ipv6_mroute", "IPV6_MROUTE: net.ipv6.conf.*.mc_forwarding (net/ipv6/addrconf.c)"),
	OPT("ipv6_seg6_hmac", "IPV6_SEG6_HMAC: net.ipv6.conf.*.seg6_require_hmac (net/ipv6/addrconf.c)"),
	OPT("sched_autogroup", "SCHED_AUTOGROUP: kernel.sched_autogroup_enabled (its boot default, 1 upstream, was a distribution's patch in Debian before 6.9.7-1)"),
	AW_ITEMS_END,
};

static void kconfig_run(struct aw_ctx *ctx)
{
	aw_report_kconfig(ctx, kconfig_items);
}

/* ---- the machine ---- */

static const struct aw_item machine_items[] = {
	AW_OBS_ITEM("memory_kib", "MemTotal of /proc/meminfo: what the knobs sized from memory follow",
		    .unit = "KiB", .varies_with = "memory", .change = "the machine has other memory"),
	AW_OBS_ITEM("cpus_possible", "CPUs the kernel may ever bring up (/sys/devices/system/cpu/possible)",
		    .unit = "CPUs", .varies_with = "cpus", .change = "the machine has other CPUs"),
	AW_ITEMS_END,
};

/* "0-3,5" -> 5 */
static long count_cpu_list(const char *s)
{
	long n = 0;
	while (*s && *s != '\n') {
		char *end;
		long a = strtol(s, &end, 10), b = a;
		if (end == s)
			return -1;
		if (*end == '-')
			b = strtol(end + 1, &end, 10);
		n += b - a + 1;
		s = *end == ',' ? end + 1 : end;
	}
	return n;
}

static void machine_run(struct aw_ctx *ctx)
{
	char *text = NULL;
	size_t len;
	long long kib = aw_mem_total_kib();

	if (kib > 0)
		aw_observe_long(ctx, "memory_kib", kib);
	else
		aw_unobserved(ctx, "memory_kib", "no MemTotal in /proc/meminfo");
	long cpus = aw_file_slurp("/sys/devices/system/cpu/possible", &text, &len) == 0
			    ? count_cpu_list(text) : -1;
	free(text);
	if (cpus > 0)
		aw_observe_long(ctx, "cpus_possible", cpus);
	else
		aw_unobserved(ctx, "cpus_possible", "/sys/devices/system/cpu/possible unreadable");
}

const struct aw_probe sc_config_probes[] = {
	{ .name = "kconfig", .summary = "the kernel configuration options the knobs and controllers depend on",
	  .run = kconfig_run, .items = kconfig_items },
	AW_PROBES_END,
};

const struct aw_probe sc_machine_probes[] = {
	{ .name = "machine", .summary = "the memory and CPUs that machine-sized knobs follow",
	  .run = machine_run, .items = machine_items },
	AW_PROBES_END,
};

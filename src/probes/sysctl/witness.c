// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Why a knob is there on one run and not on another, or reads another
 * value, for a reason the same snapshot records (struct aw_item.witness):
 *
 * - a module registers it while loaded (nf_conntrack's net.netfilter.*),
 *   so a kernel with the module =m and not loaded lacks it and one with
 *   it =y has it: the knob probe records each module's state as the walk
 *   saw it (module.NAME, lib/kmodule.h), and this table says which module
 *   registers which knobs, with the file that does;
 * - a network namespace shows it or not: the probe reads net.* in a
 *   fresh network namespace, and a knob the kernel shows only in the
 *   initial one is recorded by net.initns instead (net.core.rmem_max
 *   before 6.11, 19249c0724f2);
 * - the namespace it is read in has a value of its own: kernel.pid_max
 *   per PID namespace since 6.14, where a new namespace starts from
 *   PID_MAX_LIMIT whatever the machine's limit (7863dcc72d0f; "pid: Do
 *   not set pid_max in new pid namespaces", kernel/pid_namespace.c
 *   create_pid_namespace()), so the run records the machine's
 *   (env.sysctl.kernel.pid_max, core/env.c);
 * - a distribution's patch set its default: Debian carried "sched: Do
 *   not enable autogrouping by default" until its 6.9.7-1 (Closes:
 *   #1070083), so Debian's 6.1 boots with kernel.sched_autogroup_enabled
 *   0 where upstream (and CONFIG_SCHED_AUTOGROUP alike) gives 1.
 */
#include "sysctl.h"
#include "lib/debver.h"
#include "lib/kmodule.h"
#include "lib/procfs.h"
#include "lib/util.h"

#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The knobs a module registers: its name in /proc/modules, its option,
 * and the file that registers the table.  until: the first release
 * (strverscmp) where another part of the kernel registers them instead,
 * or NULL. */
static const struct sc_module_knobs {
	const char *glob; /* fnmatch(3) over the dotted knob */
	const char *module, *option, *source, *until;
} module_knobs[] = {
	{ "net.netfilter.nf_conntrack_*", "nf_conntrack", "NF_CONNTRACK",
	  "net/netfilter/nf_conntrack_standalone.c nf_conntrack_standalone_init_sysctl(), per network namespace",
	  NULL },
	{ "net.nf_conntrack_max", "nf_conntrack", "NF_CONNTRACK",
	  "net/netfilter/nf_conntrack_standalone.c nf_ct_netfilter_table, initial namespace only", NULL },
	/* 6.1's table has it (nf_conntrack_standalone.c, Debian's 6.1.192
	 * line 961); the netfilter core registers it since the fix of
	 * nf-24-06-19 ("moves nf_hooks_lwtunnel sysctl toggle to the
	 * netfilter core ... regardless"): net/netfilter/nf_hooks_lwtunnel.c
	 * in 6.12. */
	{ "net.netfilter.nf_hooks_lwtunnel", "nf_conntrack", "NF_CONNTRACK",
	  "net/netfilter/nf_conntrack_standalone.c before 6.10; net/netfilter/nf_hooks_lwtunnel.c since",
	  "6.10" },
	{ "net.bridge.bridge-nf-*", "br_netfilter", "BRIDGE_NETFILTER",
	  "net/bridge/br_netfilter_hooks.c br_netfilter_sysctl_init_net(), per network namespace", NULL },
	{ "fs.xfs.*", "xfs", "XFS_FS", "fs/xfs/xfs_sysctl.c xfs_sysctl_register(), at module init", NULL },
	{ "fs.fuse.*", "fuse", "FUSE_FS", "fs/fuse/sysctl.c fuse_sysctl_register() (6.14), at module init",
	  NULL },
};

/* Knobs an option of sysctl.kconfig's table decides: without the
 * option, no knob, which is the configuration's doing, not a removal.
 * source: the file (Debian's 6.12.118 tree) that registers the knob
 * only with the option, or that the option alone builds. */
static const struct {
	const char *glob, *option; /* the sysctl.kconfig item */
	const char *source;
} config_knobs[] = {
	{ "kernel.modprobe", "modules", "kernel/sysctl.c, under CONFIG_MODULES" },
	{ "kernel.modules_disabled", "modules", "kernel/sysctl.c, under CONFIG_MODULES" },
	{ "kernel.kexec_*", "kexec_core", "kernel/kexec_core.c, built with CONFIG_KEXEC_CORE" },
	{ "kernel.sysrq", "magic_sysrq", "drivers/tty/sysrq.c, built with CONFIG_MAGIC_SYSRQ" },
	{ "vm.memory_failure_*", "memory_failure", "mm/memory-failure.c, built with CONFIG_MEMORY_FAILURE" },
	{ "vm.enable_soft_offline", "memory_failure", "mm/memory-failure.c, built with CONFIG_MEMORY_FAILURE" },
	{ "kernel.sched_util_clamp_*", "uclamp_task", "kernel/sched/core.c, under CONFIG_UCLAMP_TASK" },
	{ "kernel.ns_last_pid", "checkpoint_restore", "kernel/pid_namespace.c, under CONFIG_CHECKPOINT_RESTORE" },
	{ "fs.quota.warnings", "print_quota_warning", "fs/quota/dquot.c, under CONFIG_PRINT_QUOTA_WARNING" },
	{ "kernel.io_uring_*", "io_uring", "io_uring/io_uring.c, built with CONFIG_IO_URING" },
	{ "kernel.unprivileged_bpf_disabled", "bpf_syscall", "kernel/bpf/syscall.c, built with CONFIG_BPF_SYSCALL" },
	{ "kernel.bpf_stats_enabled", "bpf_syscall", "kernel/bpf/syscall.c, built with CONFIG_BPF_SYSCALL" },
	{ "crypto.fips_*", "crypto_fips", "crypto/fips.c, which crypto/Makefile builds with CONFIG_CRYPTO_FIPS" },
	{ "debug.kprobes-optimization", "optprobes",
	  "kernel/kprobes.c kprobe_sysctls, under CONFIG_OPTPROBES (which needs CONFIG_KPROBES)" },
	{ "dev.hpet.max-user-freq", "hpet", "drivers/char/hpet.c, which drivers/char/Makefile builds with CONFIG_HPET" },
	{ "fs.verity.require_signatures", "fs_verity_builtin_signatures",
	  "fs/verity/init.c, under CONFIG_FS_VERITY_BUILTIN_SIGNATURES" },
	{ "kernel.acpi_video_flags", "acpi_sleep", "kernel/sysctl.c, under CONFIG_ACPI_SLEEP and CONFIG_X86" },
	{ "kernel.apparmor_*", "security_apparmor", "security/apparmor/lsm.c, built with CONFIG_SECURITY_APPARMOR" },
	{ "kernel.unprivileged_userns_apparmor_policy", "security_apparmor",
	  "security/apparmor/lsm.c, built with CONFIG_SECURITY_APPARMOR" },
	{ "kernel.sched_energy_aware", "energy_model",
	  "kernel/sched/topology.c, under CONFIG_ENERGY_MODEL and CONFIG_CPU_FREQ_GOV_SCHEDUTIL" },
	{ "kernel.sched_schedstats", "schedstats", "kernel/sched/core.c sched_core_sysctls, under CONFIG_SCHEDSTATS" },
	{ "kernel.stack_tracer_enabled", "stack_tracer", "kernel/sysctl.c, under CONFIG_STACK_TRACER" },
	{ "net.ipv6.conf.*.mc_forwarding", "ipv6_mroute", "net/ipv6/addrconf.c addrconf_sysctl, under CONFIG_IPV6_MROUTE" },
	{ "net.ipv6.conf.*.seg6_require_hmac", "ipv6_seg6_hmac",
	  "net/ipv6/addrconf.c addrconf_sysctl, under CONFIG_IPV6_SEG6_HMAC" },
};

/* Knobs a child network namespace shows since a commit, where before
 * only the initial one did (net.initns records those). */
static const struct {
	const char *knob, *why;
} netns_knobs[] = {
	{ "net.core.optmem_max", "per network namespace since 6.9 (f5769faeec36), and its default 20480 "
				 "-> 131072 (4944566706b2)" },
	{ "net.core.rmem_default", "shown read-only in a child network namespace since 6.11 (19249c0724f2)" },
	{ "net.core.rmem_max", "shown read-only in a child network namespace since 6.11 (19249c0724f2)" },
	{ "net.core.wmem_default", "shown read-only in a child network namespace since 6.11 (19249c0724f2)" },
	{ "net.core.wmem_max", "shown read-only in a child network namespace since 6.11 (19249c0724f2)" },
};

/* Defaults a distribution's patch set, on the kernels that carry it. */
static const struct {
	const char *knob, *distribution;
	const char *until; /* the distribution's first version without it */
	const char *option; /* the sysctl.kconfig item that must agree */
	const char *why;
} patched_knobs[] = {
	{ "kernel.sched_autogroup_enabled", "Debian", "6.9.7-1", "sysctl.kconfig.sched_autogroup",
	  "Debian's patch \"sched: Do not enable autogrouping by default\" made the boot default 0 (upstream 1, "
	  "kernel/sched/autogroup.c); Debian dropped it in 6.9.7-1 (Closes: #1070083, its changelog)" },
};

/* Knobs a distribution's patch adds: a kernel that does not carry the
 * patch has none, which is the other kernel's distribution's doing, not
 * a removal (the patch's file in the distribution's source package). */
static const struct {
	const char *knob, *distribution, *why;
} patch_added_knobs[] = {
	{ "kernel.unprivileged_userns_clone", "Debian",
	  "Debian's patch debian/patches/debian/add-sysctl-to-disallow-unprivileged-CLONE_NEWUSER-by-default.patch "
	  "adds it (kernel/sysctl.c, kernel/fork.c); upstream has no such knob" },
};

#define PREFIX "sysctl.knob."

/* The knob of a reported name ("sysctl.knob.net.core.optmem_max.mode"),
 * malloc'd, or NULL for another probe's. */
static char *knob_of(const char *name)
{
	size_t n = strlen(PREFIX);
	const char *dot = strrchr(name, '.');
	if (strncmp(name, PREFIX, n) != 0 || !dot || dot <= name + n)
		return NULL;
	return strndup(name + n, (size_t)(dot - name - n));
}

static bool before(const char *release, const char *until)
{
	return !until || (release && strverscmp(release, until) < 0);
}

/* The distribution's version in a kernel's uname -v ("#1 SMP
 * PREEMPT_DYNAMIC Debian 6.1.192-3 (2026-11-26)"), into buf. */
static bool distribution_version(const char *version, const char *distribution, char *buf, size_t len)
{
	const char *at = version ? strstr(version, distribution) : NULL;
	if (!at || at[strlen(distribution)] != ' ')
		return false;
	at += strlen(distribution) + 1;
	size_t n = strcspn(at, " ");
	if (!n || n >= len)
		return false;
	memcpy(buf, at, n);
	buf[n] = '\0';
	return true;
}

static bool module_witness(const char *knob, const char *release, struct aw_witness *out)
{
	for (size_t i = 0; i < AW_ARRAY_SIZE(module_knobs); i++) {
		const struct sc_module_knobs *m = &module_knobs[i];
		if (fnmatch(m->glob, knob, 0) != 0 || !before(release, m->until))
			continue;
		out->kind = AW_WITNESS_MODULE;
		snprintf(out->cause, sizeof(out->cause), "module:%s", m->module);
		snprintf(out->key, sizeof(out->key), PREFIX "module.%s", m->module);
		out->why = m->source;
		return true;
	}
	return false;
}

static bool sc_witness_find(const char *name, const char *release, const char *version,
			    struct aw_witness *out)
{
	char *knob = knob_of(name);
	const char *attr = knob ? name + strlen(PREFIX) + strlen(knob) + 1 : NULL;
	bool found = false;
	memset(out, 0, sizeof(*out));
	if (!knob)
		return false;
	if (strncmp(knob, "module", 6) == 0 && !knob[6]) {
		/* module.NAME itself: the run's record of the module */
		out->kind = AW_WITNESS_MODULE;
		snprintf(out->cause, sizeof(out->cause), "module:%s", attr);
		snprintf(out->key, sizeof(out->key), "%s", name);
		out->why = "the module's state as the walk of /proc/sys found it (/proc/modules, the configuration)";
		found = true;
	} else if (strcmp(knob, "kernel.pid_max") == 0 && strcmp(attr, "value") == 0) {
		out->kind = AW_WITNESS_MACHINE;
		snprintf(out->cause, sizeof(out->cause), "pidns");
		snprintf(out->key, sizeof(out->key), "env.sysctl.kernel.pid_max");
		out->why = "per PID namespace since 6.14 (7863dcc72d0f), a new one starting from PID_MAX_LIMIT "
			   "(\"pid: Do not set pid_max in new pid namespaces\"); every ancestor's limit still applies";
		found = true;
	} else {
		found = module_witness(knob, release, out);
	}
	for (size_t i = 0; !found && i < AW_ARRAY_SIZE(config_knobs); i++) {
		if (fnmatch(config_knobs[i].glob, knob, 0) != 0)
			continue;
		out->kind = AW_WITNESS_CONFIG;
		snprintf(out->cause, sizeof(out->cause), "config:%s", config_knobs[i].option);
		snprintf(out->key, sizeof(out->key), "sysctl.kconfig.%s", config_knobs[i].option);
		out->why = config_knobs[i].source;
		found = true;
	}
	for (size_t i = 0; !found && i < AW_ARRAY_SIZE(patched_knobs); i++) {
		char v[64];
		if (strcmp(knob, patched_knobs[i].knob) != 0 || strcmp(attr, "value") != 0 ||
		    !distribution_version(version, patched_knobs[i].distribution, v, sizeof(v)) ||
		    aw_debver_cmp(v, patched_knobs[i].until) >= 0)
			continue;
		out->kind = AW_WITNESS_PATCH;
		snprintf(out->cause, sizeof(out->cause), "distro");
		snprintf(out->key, sizeof(out->key), "%s", patched_knobs[i].option);
		out->why = patched_knobs[i].why;
		found = true;
	}
	for (size_t i = 0; !found && i < AW_ARRAY_SIZE(patch_added_knobs); i++) {
		char v[64];
		if (strcmp(knob, patch_added_knobs[i].knob) != 0 ||
		    !distribution_version(version, patch_added_knobs[i].distribution, v, sizeof(v)))
			continue;
		out->kind = AW_WITNESS_PATCH_ADDED;
		snprintf(out->cause, sizeof(out->cause), "distro-added");
		snprintf(out->key, sizeof(out->key), "env.kernel.version");
		out->why = patch_added_knobs[i].why;
		found = true;
	}
	if (!found && strncmp(knob, "net.", 4) == 0) {
		out->kind = AW_WITNESS_ELSEWHERE;
		snprintf(out->cause, sizeof(out->cause), "netns");
		snprintf(out->key, sizeof(out->key), "net.initns.%s.value", knob);
		out->why = "net.initns records what the initial network namespace shows and a child one does not";
		for (size_t i = 0; i < AW_ARRAY_SIZE(netns_knobs); i++)
			if (strcmp(knob, netns_knobs[i].knob) == 0)
				out->why = netns_knobs[i].why;
		found = true;
	}
	free(knob);
	return found;
}

const struct aw_witness_rule sc_witness = { .find = sc_witness_find };

/* Every module of the table once, with its state now: the walk that
 * follows sees what it registered, or not. */
void sc_report_modules(struct aw_ctx *ctx, const struct aw_kconfig *cfg)
{
	char *modules = NULL;
	size_t len = 0;
	/* No /proc/modules: a kernel without CONFIG_MODULES, where every
	 * module is built in or not at all. */
	if (aw_file_slurp("/proc/modules", &modules, &len) != 0) {
		modules = NULL;
		len = 0;
	}
	for (size_t i = 0; i < AW_ARRAY_SIZE(module_knobs); i++) {
		const struct sc_module_knobs *m = &module_knobs[i];
		bool seen = false;
		for (size_t j = 0; j < i && !seen; j++)
			seen = strcmp(module_knobs[j].module, m->module) == 0;
		if (seen)
			continue;
		char *value = cfg->text ? aw_kconfig_value(cfg->text, cfg->len, m->option) : NULL;
		enum aw_kmodule_state st =
			aw_kmodule_state(aw_kmodule_listed(modules, len, m->module), cfg->text != NULL, value);
		char *text = aw_kmodule_format(st, m->option, value), obs[128];
		snprintf(obs, sizeof(obs), "module.%s", m->module);
		aw_observe(ctx, obs, "%s", text);
		free(text);
		free(value);
	}
	free(modules);
}

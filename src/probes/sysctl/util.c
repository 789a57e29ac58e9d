// SPDX-License-Identifier: GPL-2.0-or-later
/* The pure logic of the sysctl family: scopes, skip lists, value text and
 * .config lines (sysctl.h).  Facts from the kernel sources named below
 * and from walks of Debian 6.1, 6.12 and 6.18 kernels booted with nothing
 * but a walker as PID 1. */
#include "sysctl.h"
#include "lib/util.h"

#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct why {
	const char *glob; /* fnmatch(3) over the dotted name */
	const char *why;
};

static const char *first_match(const struct why *list, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (fnmatch(list[i].glob, name, 0) == 0)
			return list[i].why;
	return NULL;
}

static const struct why value_skips[] = {
	{ "kernel.random.uuid", "a new random UUID at every read" },
	{ "kernel.random.boot_id", "a new random UUID at every boot" },
	{ "kernel.random.entropy_avail", "a counter of this moment" },
	{ "net.core.netdev_rss_key", "random at every boot once a driver sets it" },
	{ "net.ipv4.tcp_fastopen_key", "a secret key once one is set" },
	{ "net.ipv6.conf.*.stable_secret", "a secret once set (EIO until then)" },
	{ "fs.dentry-state", "counters of this moment" },
	{ "fs.inode-nr", "counters of this moment" },
	{ "fs.inode-state", "counters of this moment" },
	{ "fs.file-nr", "counters of this moment" },
	{ "fs.aio-nr", "a counter of this moment" },
	{ "fs.quota.[a-v]*", "counters of this moment (all but fs.quota.warnings)" },
	{ "fs.quota.[x-z]*", "counters of this moment" },
	{ "fs.xfs.stats_clear", "a trigger, not a setting" },
	{ "kernel.ns_last_pid", "the last pid handed out" },
	{ "kernel.pty.nr", "a counter of this moment" },
	{ "kernel.tainted", "the state of this machine since boot" },
	{ "kernel.perf_event_max_sample_rate", "lowered by the kernel at run time" },
	{ "net.netfilter.nf_conntrack_count", "a counter of this moment" },
	{ "kernel.hostname", "the host's name, copied into a new UTS namespace" },
	{ "kernel.domainname", "the host's domain name, copied into a new UTS namespace" },
	{ "kernel.osrelease", "the kernel release: env.kernel.release" },
	{ "kernel.version", "the kernel build: env.kernel.version" },
	{ "crypto.fips_version", "the kernel release: env.kernel.release" },
	{ "vm.stat_refresh", "a trigger, not a setting" },
	{ "kernel.sched_domain.*", "the CPU topology of this machine" },
};

const char *sc_value_skip(const char *name)
{
	return first_match(value_skips, AW_ARRAY_SIZE(value_skips), name);
}

static const struct why writeback_skips[] = {
	{ "net.ipv4.route.gc_min_interval", "not a no-op: the seconds file reads 0.5 s as 0" },
	{ "net.ipv6.route.gc_min_interval", "not a no-op: the seconds file reads 0.5 s as 0" },
	{ "net.ipv*.neigh.*.base_reachable_time", "a write logs a deprecation warning" },
	{ "net.ipv*.neigh.*.retrans_time", "a write logs a deprecation warning" },
	{ "net.ipv4.tcp_fastopen_key", "writing the zero key installs a key" },
	{ "net.ipv6.conf.*.stable_secret", "a secret" },
	{ "kernel.random.*", "the random pool's settings and state" },
	{ "kernel.panic_print", "a write logs a deprecation warning (6.18)" },
	{ "kernel.cad_pid", "names a process: the value read names another namespace's" },
	{ "kernel.usermodehelper.*", "capability masks of every helper the kernel starts" },
};

const char *sc_writeback_skip(const char *name)
{
	return first_match(writeback_skips, AW_ARRAY_SIZE(writeback_skips), name);
}

char *sc_value_text(const char *buf, size_t len)
{
	size_t keep = len && buf[len - 1] == '\n' ? len - 1 : len;
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)buf[i];
		if ((c < 0x20 && c != '\n' && c != '\t') || c == 0x7f)
			return NULL;
	}
	bool cut = keep > SC_VALUE_MAX;
	size_t n = cut ? SC_VALUE_MAX : keep;
	char *out = xmalloc(n + 40);
	for (size_t i = 0; i < n; i++)
		out[i] = buf[i] == '\t' ? ' ' : buf[i];
	if (cut)
		snprintf(out + n, 40, " ... (%zu bytes)", len);
	else
		out[n] = '\0';
	return out;
}

/* The knobs the catalogue documents one by one, and the option that
 * makes them (kernel Kconfig files; "NULL": built whenever sysctl is). */
const struct sc_known sc_known_knobs[] = {
	{ "kernel.io_uring_disabled", "IO_URING", NULL },
	{ "kernel.io_uring_group", "IO_URING", NULL },
	{ "dev.tty.legacy_tiocsti", NULL, NULL },
	{ "vm.memfd_noexec", "MEMFD_CREATE", NULL },
	{ "kernel.sched_child_runs_first", NULL, NULL },
	{ "net.ipv4.tcp_tw_recycle", "INET", NULL },
	{ "kernel.unprivileged_userns_clone", NULL, NULL },
	{ "kernel.split_lock_mitigate", "CPU_SUP_INTEL", NULL },
	{ "kernel.unprivileged_bpf_disabled", "BPF_SYSCALL", NULL },
	/* security/yama/yama_lsm.c: yama_init_sysctl() runs from the
	 * module's init, only where Yama is started */
	{ "kernel.yama.ptrace_scope", "SECURITY_YAMA", "yama" },
};
const size_t sc_nknown_knobs = AW_ARRAY_SIZE(sc_known_knobs);

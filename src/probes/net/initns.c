// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * net.initns: the net.* knobs only the initial network namespace shows.
 * The kernel registers some net sysctl tables for init_net alone
 * (net_core_table: rmem_max, wmem_max, rmem_default, netdev_max_backlog
 * ...; tcp_mem and udp_mem, which size the whole machine's socket
 * memory), so a probe in a fresh namespace, as every probe is, and the
 * sysctl family's walk never see them, although they decide what sockets
 * get everywhere (the rmem_max clamp of net.sockbuf).  /proc/sys/net
 * shows the namespace of the process that reads it, so this probe
 * enters the initial one: in a child with a mount namespace of its own
 * it detaches the probe's /proc to find the machine's below it, and
 * setns(2)s into PID 1's network namespace.  That is the machine's own
 * namespace, which a probe never touches on a host, so this runs only
 * in an `abiwatch vm` guest (.needs.vm_guest), and even there it only
 * reads.  Values sized from the machine (tcp_mem and udp_mem from
 * memory, CPU masks from the CPUs) say so (.varies_with), so that diff
 * puts their changes under the environment.
 */
#include "net.h"
#include "lib/errname.h"
#include "lib/child.h"
#include "lib/procfs.h"
#include "lib/sysctl_walk.h"
#include "lib/util.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#define MEM(k, why)                                                                              \
	AW_OBS_ITEM(k ".value", k ": " why, .varies_with = "memory", .object = k,                \
		    .change = "sized from the machine's memory at boot; at equal memory, a move means " \
			      "the kernel's formula changed")
#define CPUS(k, why) AW_OBS_ITEM(k ".value", k ": " why, .varies_with = "cpus", .object = k, \
				 .change = "follows the CPUs of the machine")

static const struct aw_item initns_items[] = {
	/* count and the knobs themselves are one object, "knobs": knobs
	 * that moved into every namespace are one line in diff, beside the
	 * count they changed. */
	AW_OBS_ITEM("count", "net.* knobs the initial network namespace shows and a fresh one does not",
		    .unit = "knobs", .object = "knobs", .change = "knobs moved between the machine and the namespaces "
					       "(see the .value items that appeared or vanished)"),
	MEM("net.ipv4.tcp_mem", "pages of TCP socket memory (min, pressure, max), from free memory "
	    "(tcp_init_mem())"),
	MEM("net.ipv4.udp_mem", "pages of UDP socket memory, from free memory (udp_init())"),
	MEM("net.sctp.sctp_mem", "pages of SCTP socket memory, from free memory"),
	MEM("net.ipv4.tcp_max_orphans", "orphaned TCP sockets allowed, from the established-hash size "
	    "(tcp_init())"),
	MEM("net.ipv4.inet_peer_threshold", "inet_peer cache size, from memory (inet_initpeers())"),
	CPUS("net.core.flow_limit_cpu_bitmap", "a CPU mask"),
	CPUS("net.core.rps_default_mask", "a CPU mask as wide as the CPUs"),
	AW_OBS_ITEM("*.value", "a knob of the initial network namespace a fresh one lacks, as read "
		    "there (tabs as spaces)", .object = "knobs",
		    .change = "a machine-wide network default moved: every namespace's sockets see it"),
	AW_ITEMS_END
};

/* Knobs whose value is random per boot. */
static bool moving(const char *knob)
{
	return strcmp(knob, "net.core.netdev_rss_key") == 0;
}

struct knobs {
	char **v;
	size_t n;
};

/* Every knob of the walk, by its dotted name. */
static bool collect(const struct aw_sysctl_entry *e, void *arg)
{
	struct knobs *k = arg;
	if (e->st && S_ISREG(e->st->st_mode)) {
		k->v = xgrow(k->v, k->n, sizeof(*k->v));
		k->v[k->n++] = xstrdup(e->knob);
	}
	return e->st && S_ISDIR(e->st->st_mode);
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static bool has(const struct knobs *k, const char *name)
{
	return bsearch(&name, k->v, k->n, sizeof(*k->v), by_name) != NULL;
}

static void observe_value(struct aw_ctx *ctx, const char *knob)
{
	char obs[512];
	char *path = aw_sysctl_path(knob);
	char *data = NULL;
	size_t len = 0;
	snprintf(obs, sizeof(obs), "%s.value", knob);
	int rc = aw_file_slurp(path, &data, &len);
	if (rc != 0) {
		aw_unobserved(ctx, obs, "read: %s", aw_errname(-rc));
	} else {
		while (len && data[len - 1] == '\n')
			len--;
		for (size_t i = 0; i < len; i++)
			if (data[i] == '\t' || data[i] == '\n')
				data[i] = ' ';
		aw_observe(ctx, obs, "%.*s", (int)len, data);
	}
	free(data);
	free(path);
}

static int reader(void *arg)
{
	struct aw_ctx *ctx = arg;
	struct knobs fresh = { 0 }, init = { 0 };
	long count = 0;

	aw_sysctl_walk("/proc/sys/net", "net", collect, &fresh);
	qsort(fresh.v, fresh.n, sizeof(*fresh.v), by_name);
	if (unshare(CLONE_NEWNS) != 0 || mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) != 0 ||
	    umount2("/proc", MNT_DETACH) != 0) {
		aw_skip_rest(ctx, "cannot reach the machine's /proc below the probe's: %s", aw_errname(errno));
		return 0;
	}
	int fd = open("/proc/1/ns/net", O_RDONLY | O_CLOEXEC);
	if (fd < 0 || setns(fd, CLONE_NEWNET) != 0) {
		aw_skip_rest(ctx, "entering PID 1's network namespace: %s", aw_errname(errno));
		return 0;
	}
	close(fd);
	if (aw_private_ns(ctx, AW_SCOPE_NET)) {
		aw_skip_rest(ctx, "PID 1's network namespace is not abiwatch's");
		return 0;
	}
	aw_sysctl_walk("/proc/sys/net", "net", collect, &init);
	qsort(init.v, init.n, sizeof(*init.v), by_name);
	for (size_t i = 0; i < init.n; i++) {
		if (has(&fresh, init.v[i]))
			continue;
		count++;
		if (!moving(init.v[i]))
			observe_value(ctx, init.v[i]);
	}
	aw_observe_long(ctx, "count", count);
	return 0;
}

/* Only in the VM guest: the runner skips it elsewhere (.needs.vm_guest). */
static void run_initns(struct aw_ctx *ctx)
{
	int rc = aw_child_run(reader, ctx, 20000);
	if (rc != 0)
		aw_error_rest(ctx, "the reader failed (status %d)", rc);
	else
		aw_skip_rest(ctx, "not a knob of this kernel's initial namespace, or not one a fresh "
			     "namespace lacks");
}

static const char *const initns_tags[] = { "man:setns(2)", "man:network_namespaces(7)", NULL };

const struct aw_probe net_initns_probes[] = {
	{ .name = "initns", .summary = "the net.* knobs only the initial network namespace shows (VM guest)",
	  .run = run_initns, .items = initns_items, .tags = initns_tags,
	  .needs.vm_guest = "enters the machine's own network namespace, which a probe never does on a host" },
	AW_PROBES_END
};

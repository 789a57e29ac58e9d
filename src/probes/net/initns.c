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
#include "lib/sizing.h"
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
		    .change = "sized from the machine's memory at boot, by a formula abiwatch does not " \
			      "check: at equal memory, the formula or what the kernel held then moved it")
/* The socket memory limits: limit = max(low free pages / div, 128),
 * min limit / 4 x 3, pressure limit, max 2 x min (net/ipv4/tcp.c
 * tcp_init_mem(): div 16; net/ipv4/udp.c udp_init() and net/sctp/
 * protocol.c sctp_init(): div 8), from nr_free_buffer_pages() then. */
static bool mem_fits(const char *value, const struct aw_boot_inputs *in, unsigned long long div)
{
	long long v[3];
	unsigned long long lo, hi;
	aw_boot_range(in, &lo, &hi);
	long long least = (long long)(lo / div), most = (long long)(hi / div);
	least = least < 128 ? 128 : least;
	most = most < 128 ? 128 : most;
	return aw_sized_numbers(value, v, 3) == 3 && v[1] >= least && v[1] <= most &&
	       v[0] == v[1] / 4 * 3 && v[2] == v[0] * 2;
}

static bool tcp_mem_fits(const char *value, const struct aw_boot_inputs *in)
{
	return mem_fits(value, in, 16);
}

static bool udp_mem_fits(const char *value, const struct aw_boot_inputs *in)
{
	return mem_fits(value, in, 8);
}

static const struct aw_sizing tcp_mem = {
	.formula = "limit = max(low free pages / 16, 128): limit / 4 x 3, limit, 2 x (limit / 4 x 3) "
		   "(net/ipv4/tcp.c tcp_init_mem())",
	.unread = AW_BOOT_UNREAD("the low free pages (nr_free_buffer_pages())"),
	.fits = tcp_mem_fits,
};

static const struct aw_sizing udp_mem = {
	.formula = "limit = max(low free pages / 8, 128): limit / 4 x 3, limit, 2 x (limit / 4 x 3) "
		   "(net/ipv4/udp.c udp_init(), net/sctp/protocol.c sctp_init())",
	.unread = AW_BOOT_UNREAD("the low free pages (nr_free_buffer_pages())"),
	.fits = udp_mem_fits,
};

/* net/ipv4/inetpeer.c inet_initpeers(): 1 % of the memory in entries of
 * L1_CACHE_ALIGN(sizeof(struct inet_peer)) bytes, 4096 to 65536 + 128;
 * the entry's size follows the configuration, taken as 1 to 4 cache
 * lines of 64 bytes. */
static long long peers(unsigned long long pages, const struct aw_boot_inputs *in, long long entry)
{
	long long n = (long long)(pages * in->page_size / 100) / entry;
	return n < 4096 ? 4096 : n > 65536 + 128 ? 65536 + 128 : n;
}

static bool peers_fit(const char *value, const struct aw_boot_inputs *in)
{
	long long v;
	unsigned long long lo, hi;
	aw_boot_range(in, &lo, &hi);
	return aw_sized_numbers(value, &v, 1) == 1 && v >= peers(lo, in, 256) && v <= peers(hi, in, 64);
}

static const struct aw_sizing inet_peers = {
	.formula = "pages x PAGE_SIZE / 100 / the entry's size, 4096 to 65664 (net/ipv4/inetpeer.c inet_initpeers())",
	.unread = AW_BOOT_UNREAD("the pages counted (before the initramfs was freed)") "; the entry 64 to 256 bytes",
	.fits = peers_fit,
};

#define SIZED(k, why, f)                                                                   \
	AW_OBS_ITEM(k ".value", k ": " why, .varies_with = "memory", .object = k, .sizing = &(f), \
		    .change = AW_SIZED_CHANGE)
#define CPUS(k, why) AW_OBS_ITEM(k ".value", k ": " why, .varies_with = "cpus", .object = k, \
				 .change = "follows the CPUs of the machine")

/* A knob of this probe's that another run's fresh namespace showed
 * instead (net.core.rmem_max since 6.11, 19249c0724f2; optmem_max since
 * 6.9, f5769faeec36): the same knob as a child namespace read it, under
 * sysctl.knob, which diff finds there on the side that lacks this one. */
static bool initns_witness_find(const char *name, const char *release, const char *version,
				struct aw_witness *out)
{
	static const char prefix[] = "net.initns.", suffix[] = ".value";
	size_t n = strlen(name), p = sizeof(prefix) - 1, s = sizeof(suffix) - 1;
	(void)release;
	(void)version;
	memset(out, 0, sizeof(*out));
	if (n <= p + s || strncmp(name, prefix, p) != 0 || strcmp(name + n - s, suffix) != 0)
		return false;
	out->kind = AW_WITNESS_ELSEWHERE;
	out->initial = true;
	snprintf(out->cause, sizeof(out->cause), "netns");
	snprintf(out->key, sizeof(out->key), "sysctl.knob.%.*s.value", (int)(n - p - s), name + p);
	out->why = "sysctl.knob reads net.* in a fresh network namespace, and records there what a child "
		   "namespace shows";
	return true;
}

static const struct aw_witness_rule initns_witness = { .find = initns_witness_find };

static const struct aw_item initns_items[] = {
	/* count and the knobs themselves are one object, "knobs": knobs
	 * that moved into every namespace are one line in diff, beside the
	 * count they changed. */
	AW_OBS_ITEM("count", "net.* knobs the initial network namespace shows and a fresh one does not",
		    .unit = "knobs", .object = "knobs", .change = "knobs moved between the machine and the namespaces "
					       "(see the .value items that appeared or vanished)"),
	SIZED("net.ipv4.tcp_mem", "pages of TCP socket memory (min, pressure, max), from free memory "
	      "(tcp_init_mem())", tcp_mem),
	SIZED("net.ipv4.udp_mem", "pages of UDP socket memory, from free memory (udp_init())", udp_mem),
	SIZED("net.sctp.sctp_mem", "pages of SCTP socket memory, from free memory (sctp_init())", udp_mem),
	MEM("net.ipv4.tcp_max_orphans", "orphaned TCP sockets allowed, from the established-hash size "
	    "(tcp_init())"),
	SIZED("net.ipv4.inet_peer_threshold", "inet_peer cache size, from memory (inet_initpeers())", inet_peers),
	CPUS("net.core.flow_limit_cpu_bitmap", "a CPU mask"),
	CPUS("net.core.rps_default_mask", "a CPU mask as wide as the CPUs"),
	AW_OBS_ITEM("*.value", "a knob of the initial network namespace a fresh one lacks, as read "
		    "there (tabs as spaces)", .object = "knobs", .witness = &initns_witness,
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

// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The resource limits a fresh init starts with: the kernel's INIT_RLIMITS
 * (include/asm-generic/resource.h), with RLIMIT_NPROC and
 * RLIMIT_SIGPENDING sized from memory by fork_init().  Every process
 * inherits them unless something on the way changes them; 9dcc38e2813e
 * (5.16) raised RLIMIT_MEMLOCK from 64 KiB to 8 MiB, which is what
 * io_uring rings, BPF maps and RDMA need without CAP_IPC_LOCK.
 *
 * Only a run that a fresh init started can see them: the guest's run
 * of `abiwatch vm`, where the guest's /init (src/vm/init/init.c) starts
 * abiwatch (.needs.vm_guest) and neither it nor abiwatch calls
 * setrlimit(2).  The probe reads /proc/1/limits, PID 1
 * of its own PID namespace: the runner's init, which inherits them
 * untouched.  Anywhere else the limits are those of whatever started
 * abiwatch (a host's init and login sessions set their own), and the
 * items are skips saying so.
 */
#include "mm.h"
#include "parse.h"
#include "lib/errname.h"
#include "lib/proc.h"
#include "lib/util.h"
#include "lib/procfs.h"
#include "lib/sizing.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LIMITS "/proc/1/limits"

struct row {
	const char *item, *name;
};

static const struct row rows[] = {
	{ "memlock", "Max locked memory" },   { "nofile", "Max open files" },
	{ "stack", "Max stack size" },        { "core", "Max core file size" },
	{ "nproc", "Max processes" },         { "sigpending", "Max pending signals" },
	{ "msgqueue", "Max msgqueue size" },
};

/* fork_init() (kernel/fork.c) gives init RLIMIT_NPROC and
 * RLIMIT_SIGPENDING of max_threads / 2, soft and hard. */
static const struct aw_sizing half_threads = {
	.formula = "kernel.threads-max / 2, soft and hard (kernel/fork.c fork_init(), set_max_threads(): "
		   "pages x PAGE_SIZE / (16 KiB x 8))",
	.unread = AW_BOOT_UNREAD("the pages fork_init() counted (before the initramfs was freed)"),
	.fits = aw_threads_max_half_fits,
};

#define LIMIT_CHANGE(what) "programs started without a limits configuration get another " what

static const struct aw_item rlimit_items[] = {
	AW_OBS_ITEM("memlock", "RLIMIT_MEMLOCK of a fresh init, soft/hard, in bytes",
		    .change = "what an unprivileged program may mlock (io_uring rings, BPF maps, RDMA buffers) without CAP_IPC_LOCK changed (9dcc38e2813e: 64 KiB to 8 MiB in 5.16)"),
	AW_OBS_ITEM("nofile", "RLIMIT_NOFILE of a fresh init, soft/hard",
		    .change = LIMIT_CHANGE("descriptor limit; select(2) users break above 1024")),
	AW_OBS_ITEM("stack", "RLIMIT_STACK of a fresh init, soft/hard, in bytes",
		    .change = LIMIT_CHANGE("main-thread stack size, and glibc's default thread stack size with it")),
	AW_OBS_ITEM("core", "RLIMIT_CORE of a fresh init, soft/hard, in bytes", .change = LIMIT_CHANGE("core dump limit")),
	AW_OBS_ITEM("nproc", "RLIMIT_NPROC of a fresh init, soft/hard (threads-max / 2)", .varies_with = "memory",
		    .sizing = &half_threads,
		    .change = LIMIT_CHANGE("process limit") "; " AW_SIZED_CHANGE),
	AW_OBS_ITEM("sigpending", "RLIMIT_SIGPENDING of a fresh init, soft/hard (threads-max / 2)",
		    .varies_with = "memory", .sizing = &half_threads,
		    .change = LIMIT_CHANGE("queued-signal limit") "; " AW_SIZED_CHANGE),
	AW_OBS_ITEM("msgqueue", "RLIMIT_MSGQUEUE of a fresh init, soft/hard, in bytes",
		    .change = LIMIT_CHANGE("POSIX message queue budget")),
	AW_OBS_ITEM("nproc_is_half_threads_max", "yes when RLIMIT_NPROC of a fresh init is kernel.threads-max / 2",
		    .change = "the process limit is no longer derived from threads-max as fork_init() did"),
	AW_ITEMS_END
};

static void format_value(unsigned long long v, char *buf, size_t size)
{
	if (v == MM_UNLIMITED)
		snprintf(buf, size, "unlimited");
	else
		snprintf(buf, size, "%llu", v);
}

static void observe_rows(struct aw_ctx *ctx, const struct mm_limit *table, size_t n)
{
	for (size_t i = 0; i < AW_ARRAY_SIZE(rows); i++) {
		const struct mm_limit *l = mm_limits_find(table, n, rows[i].name);
		char soft[24], hard[24];
		if (!l) {
			aw_unobserved(ctx, rows[i].item, "no \"%s\" row in %s", rows[i].name, LIMITS);
			continue;
		}
		format_value(l->soft, soft, sizeof(soft));
		format_value(l->hard, hard, sizeof(hard));
		aw_observe(ctx, rows[i].item, "%s/%s", soft, hard);
	}
}

static void observe_threads_relation(struct aw_ctx *ctx, const struct mm_limit *table, size_t n)
{
	const char *item = "nproc_is_half_threads_max";
	const struct mm_limit *l = mm_limits_find(table, n, "Max processes");
	long long threads;
	int rc = aw_read_ll("/proc/sys/kernel/threads-max", &threads);

	if (!l || rc)
		aw_unobserved(ctx, item, "%s", !l ? "no Max processes row" : aw_errname(rc));
	else
		aw_observe(ctx, item, "%s", l->soft == (unsigned long long)threads / 2 ? "yes" : "no");
}

static void rlimit_run(struct aw_ctx *ctx)
{
	struct mm_limit table[32];
	char *text = NULL;
	size_t len = 0, bad = 0;

	if (aw_file_slurp(LIMITS, &text, &len) != 0) {
		aw_error_rest(ctx, "reading %s: %s", LIMITS, aw_errname(errno));
		return;
	}
	int n = mm_limits_parse(text, len, table, AW_ARRAY_SIZE(table), &bad);
	free(text);
	if (n < 0) {
		aw_error_rest(ctx, "%s line %zu: not a row of soft and hard limits", LIMITS, bad);
		return;
	}
	size_t kept = (size_t)n < AW_ARRAY_SIZE(table) ? (size_t)n : AW_ARRAY_SIZE(table);
	observe_rows(ctx, table, kept);
	observe_threads_relation(ctx, table, kept);
}

static const char *const rlimit_tags[] = {
	"linux-git:9dcc38e2813e", "posix:getrlimit", "man:getrlimit(2)", "man:proc_pid_limits(5)", NULL
};

const struct aw_probe mm_rlimit_probes[] = {
	{
		.name = "init_rlimits",
		.summary = "the resource limits a fresh init starts with (in a guest of abiwatch vm)",
		.run = rlimit_run,
		.items = rlimit_items,
		.tags = rlimit_tags,
		.needs = { .vm_guest = "not the guest's run of abiwatch vm: here the limits are those "
				       "of whatever started abiwatch, not a fresh init's" },
	},
	AW_PROBES_END,
};

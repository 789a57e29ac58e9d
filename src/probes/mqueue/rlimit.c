// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The bytes a queue charges against RLIMIT_MSGQUEUE, which decide how
 * many queues fit in the default 819200: getrlimit(2) documents
 * maxmsg * sizeof(struct msg_msg *) + maxmsg * msgsize up to 3.4 and
 * maxmsg * sizeof(struct msg_msg) + min(maxmsg, MQ_PRIO_MAX) *
 * sizeof(struct posix_msg_tree_node) + maxmsg * msgsize since 3.5.
 *
 * Measured, not computed: mq_open(O_CREAT|O_EXCL) succeeds iff
 * usage + charge <= the soft limit, so a binary search over the soft
 * limit finds usage + charge.  Since 5.14 (6e52a9f0532f) usage is kept
 * per user namespace and uid in ucounts, so queues any process of this
 * uid holds anywhere on the host would count; a user namespace of our
 * own starts its count at 0 and makes usage exactly 0.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "mq_util.h"
#include "lib/caps.h"

#include <errno.h>
#include <linux/capability.h>
#include <sched.h>
#include <stdio.h>
#include <mqueue.h>

#define QNAME "/aw_rlimit"
#define BALLAST "/aw_rlimit_ballast"
/* Searches stop here even where the hard limit is RLIM_INFINITY. */
#define SEARCH_CEILING (1LL << 40)

static const struct aw_item rlimit_items[] = {
	AW_OBS_ITEM("charge.1x128", "bytes a 1 x 128 queue charges against RLIMIT_MSGQUEUE",
		    .unit = "B"),
	AW_OBS_ITEM("charge.10x128", "bytes a 10 x 128 queue charges against RLIMIT_MSGQUEUE",
		    .unit = "B"),
	AW_OBS_ITEM("charge.10x8192", "bytes a 10 x 8192 queue (the default shape) charges",
		    .unit = "B"),
	AW_OBS_ITEM("per_msg_overhead", "bytes charged per message beyond its payload (charge - payload) / maxmsg",
		    .unit = "B"),
	AW_OBS_ITEM("era", "the documented charge formula per_msg_overhead belongs to",
		    .change = "fewer (or more) queues of a given shape fit in RLIMIT_MSGQUEUE"),
	AW_CHECK_ITEM("formula_linear", "charges fit maxmsg * (msgsize + overhead) with one overhead, as getrlimit(2) documents"),
	AW_ITEMS_END
};

static const struct mqu_shape shapes[] = { { 1, 128 }, { 10, 128 }, { 10, 8192 } };
static const char *const shape_obs[] = { "charge.1x128", "charge.10x128", "charge.10x8192" };

/* 1 when a queue of the shape can be created under soft limit `limit`. */
static int fits(long long limit, void *arg)
{
	int rc = mqu_rlimit_set_soft((rlim_t)limit);

	if (rc)
		return rc;
	rc = mqu_try_create(QNAME, arg, NULL);
	if (rc == -EMFILE)
		return 0;
	return rc ? rc : 1;
}

/* usage + charge of the shape, or -errno (-EMFILE: not even at the hard limit). */
static int measure(const struct mqu_shape *s, long long *bytes)
{
	struct rlimit rl;
	int rc = mqu_rlimit_get(&rl);

	if (rc)
		return rc;
	long long hi = rl.rlim_max == RLIM_INFINITY || rl.rlim_max > SEARCH_CEILING
		       ? SEARCH_CEILING : (long long)rl.rlim_max;
	rc = mqu_first_true(0, hi, fits, (void *)s, bytes);
	int rrc = mqu_rlimit_restore_soft();
	if (rc == 1)
		rc = -EMFILE;
	return rc ? rc : rrc;
}

/*
 * Leave the uid's count in the probe's user namespace (and so the host's)
 * behind.  The levels above are still held to the soft limit at unshare
 * time, which is the hard limit here.  To show that the fresh count
 * really leaves out other queues of this uid, a 10 x 128 queue is held
 * while a 1 x 128 queue is measured on both sides.
 */
static bool enter_fresh_userns(struct aw_ctx *ctx)
{
	const struct mqu_shape ballast = { 10, 128 };
	long long outside = -1, inside = -1;
	int rc = mqu_create_kept(BALLAST, &ballast);

	if (rc == 0)
		rc = measure(&shapes[0], &outside);
	if (unshare(CLONE_NEWUSER) != 0) {
		rc = -errno;
		mq_unlink(BALLAST);
		aw_note(ctx, "unshare(CLONE_NEWUSER): %s; measuring in the probe's own user "
			"namespace, where queues other processes of this uid hold count too",
			aw_errname(rc));
		return false;
	}
	if (rc == 0)
		rc = measure(&shapes[0], &inside);
	mq_unlink(BALLAST);
	if (rc)
		aw_note(ctx, "user namespace experiment failed: %s", aw_errname(rc));
	else
		aw_note(ctx, "with a 10x128 queue held, a 1x128 search found %lld bytes in the "
			"probe's user namespace and %lld in a fresh one (difference %lld: what "
			"this uid holds, which the fresh namespace does not count)",
			outside, inside, outside - inside);
	return true;
}

/*
 * Without a fresh count (a chroot refuses user namespaces) every search
 * found usage + charge, usage being what this uid's queues hold anywhere
 * on the host.  The first two shapes give the overhead and that usage
 * (two equations, two unknowns); taking it off leaves the charges, and
 * the third shape still tests the formula.
 */
static void subtract_usage(struct aw_ctx *ctx, struct mqu_charge *c)
{
	const struct mqu_shape *a = &c[0].shape, *b = &c[1].shape;
	long long payload_a = (long long)a->maxmsg * a->msgsize;
	long long payload_b = (long long)b->maxmsg * b->msgsize;
	long long overhead = (c[1].bytes - c[0].bytes - (payload_b - payload_a)) /
			     (b->maxmsg - a->maxmsg);
	long long usage = c[0].bytes - payload_a - a->maxmsg * overhead;
	for (size_t i = 0; i < AW_ARRAY_SIZE(shapes); i++)
		c[i].bytes -= usage;
	aw_note(ctx, "this uid's queues elsewhere held %lld bytes, solved from the first two "
		"shapes and taken off every search", usage);
}

static void report_fit(struct aw_ctx *ctx, const struct mqu_charge *c, size_t n)
{
	long long o;

	if (n < AW_ARRAY_SIZE(shapes)) {
		aw_unobserved(ctx, "per_msg_overhead", "not every charge could be measured");
		aw_unobserved(ctx, "era", "not every charge could be measured");
		aw_error(ctx, "formula_linear", "not every charge could be measured");
		return;
	}
	bool linear = mqu_fit_linear(c, n, &o);
	aw_observe_long(ctx, "per_msg_overhead", o);
	/* Up to 3.4 a message cost one pointer beyond its payload. */
	mqu_observe_era(ctx, "era", mqu_charge_eras,
			o == (long long)sizeof(void *) ? "pointer" : o > (long long)sizeof(void *)
			? "structs" : "less than a pointer");
	aw_expect(ctx, "formula_linear", linear,
		  "expected maxmsg * (msgsize + %lld) for each, got 1x128: %lld, "
		  "10x128: %lld, 10x8192: %lld", o, c[0].bytes, c[1].bytes, c[2].bytes);
}

/* Measure one charge; true (with *bytes) when it was measured. */
static bool measure_charge(struct aw_ctx *ctx, size_t i, long long *bytes)
{
	int rc = measure(&shapes[i], bytes);

	if (rc == 0)
		return true;
	if (rc == -EMFILE)
		/* Above level 0, the uid's host-wide count still counts. */
		aw_unobserved(ctx, shape_obs[i], "not even the hard limit admits the queue "
			      "(EMFILE): this uid's other queues use up RLIMIT_MSGQUEUE");
	else
		aw_unobserved(ctx, shape_obs[i], "the search failed: %s", aw_errname(rc));
	return false;
}

static void rlimit_run(struct aw_ctx *ctx)
{
	struct mqu_charge c[AW_ARRAY_SIZE(shapes)];
	size_t n = 0;

	/* The charge does not depend on capabilities; dropping it keeps the
	 * shapes on the unprivileged path like the other probes. */
	int rc = aw_drop_cap(CAP_SYS_RESOURCE);
	if (rc) {
		aw_error_rest(ctx, "%s", aw_errname(rc));
		return;
	}
	bool fresh = enter_fresh_userns(ctx), measured[AW_ARRAY_SIZE(shapes)];
	for (size_t i = 0; i < AW_ARRAY_SIZE(shapes); i++) {
		c[i].shape = shapes[i];
		measured[i] = measure_charge(ctx, i, &c[i].bytes);
		n += measured[i];
	}
	if (!fresh && n == AW_ARRAY_SIZE(shapes))
		subtract_usage(ctx, c);
	for (size_t i = 0; i < AW_ARRAY_SIZE(shapes); i++)
		if (measured[i])
			aw_observe_long(ctx, shape_obs[i], c[i].bytes);
	report_fit(ctx, c, n);
}

static const char *const rlimit_tags[] = {
	"man:getrlimit(2)", "man:mq_overview(7)", "linux-git:ce2d52cc1364",
	"linux-git:d6629859b36d", "linux-git:6e52a9f0532f", NULL
};

static const char *const rlimit_kconfig[] = { "CONFIG_POSIX_MQUEUE", "CONFIG_USER_NS", NULL };

const struct aw_probe mq_rlimit_probes[] = {
	{
		.name = "rlimit",
		.summary = "bytes a queue charges against RLIMIT_MSGQUEUE, by binary search",
		.run = rlimit_run,
		.items = rlimit_items,
		.needs = { .kconfig = rlimit_kconfig },
		.tags = rlimit_tags,
		/* ipc/mqueue.c: inc_rlimit_ucounts(UCOUNT_RLIMIT_MSGQUEUE) */
		.alone = "RLIMIT_MSGQUEUE counts every queue of the user (per user namespace and "
			 "uid, not per IPC namespace), so another probe's queues would count",
	},
	AW_PROBES_END,
};

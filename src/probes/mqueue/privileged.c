// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What CAP_SYS_RESOURCE changes.  It lifts msg_max/msgsize_max and
 * queues_max, but since 3.5 (02967ea08ede) not the hard ceilings
 * HARD_MSGMAX 65536 and HARD_MSGSIZEMAX 16 MiB (5b5c4d1a1440).  From 3.5
 * to 3.13 a namespace also had a hard ceiling of 1024 queues even with
 * the capability (HARD_QUEUESMAX, removed by f3713fd9cff7 in 3.14).
 * Needs the capability in the initial user namespace, so it runs as
 * full root (e.g. in a VM) and is skipped elsewhere.
 */
#include "mq_util.h"
#include "lib/caps.h"
#include "lib/procfs.h"

#include <errno.h>
#include <limits.h>
#include <linux/capability.h>
#include <stdio.h>
#include <mqueue.h>

#define QNAME "/aw_priv"
/* Above the 3.5 - 3.13 ceiling of 1024, to see whether there is one. */
#define CEILING_TRIES 1100

static const struct aw_item privileged_items[] = {
	AW_CHECK_ITEM("accepted_above_max", "with CAP_SYS_RESOURCE, maxmsg/msgsize above msg_max/msgsize_max are accepted"),
	AW_CHECK_ITEM("einval_above_hard", "maxmsg > 65536 or msgsize > 16 MiB fail with EINVAL even with CAP_SYS_RESOURCE"),
	AW_OBS_ITEM("hard_msgmax", "largest maxmsg accepted with CAP_SYS_RESOURCE (HARD_MSGMAX)",
		    .unit = "messages"),
	AW_OBS_ITEM("hard_msgsize_max", "largest msgsize accepted with CAP_SYS_RESOURCE (HARD_MSGSIZEMAX)",
		    .unit = "B"),
	AW_OBS_ITEM("queues_max_bypass", "yes when CAP_SYS_RESOURCE creates queues beyond queues_max"),
	AW_OBS_ITEM("queues_ceiling", "queue count at which ENOSPC appears even with CAP_SYS_RESOURCE, or none",
		    .unit = "queues"),
	AW_OBS_ITEM("ceiling_era", "the documented behaviour queues_ceiling belongs to",
		    .change = "programs that need more than 1024 queues, even as root, fail with ENOSPC"),
	AW_ITEMS_END
};

static int create(long maxmsg, long msgsize)
{
	struct mqu_shape s = { maxmsg, msgsize };
	return mqu_try_create(QNAME, &s, NULL);
}

static void check_above_max(struct aw_ctx *ctx, long long msg_max, long long msgsize_max)
{
	int a = create((long)msg_max + 1, 128);
	int b = create(1, (long)msgsize_max + 1);

	aw_expect(ctx, "accepted_above_max", a == 0 && b == 0,
		  "expected success above msg_max %lld / msgsize_max %lld, got %s for %lldx128 "
		  "and %s for 1x%lld", msg_max, msgsize_max, aw_errname(a), msg_max + 1,
		  aw_errname(b), msgsize_max + 1);
}

static void check_above_hard(struct aw_ctx *ctx)
{
	int a = create(MQU_HARD_MSGMAX + 1, 128);
	int b = create(1, MQU_HARD_MSGSIZEMAX + 1);

	aw_expect(ctx, "einval_above_hard", a == -EINVAL && b == -EINVAL,
		  "expected EINVAL, got %s for maxmsg %d and %s for msgsize %d",
		  aw_errname(a), MQU_HARD_MSGMAX + 1, aw_errname(b), MQU_HARD_MSGSIZEMAX + 1);
}

/* For the searches: 1 when the shape is rejected (EINVAL). */
static int rejected_maxmsg(long long x, void *arg)
{
	(void)arg;
	int rc = create((long)x, 128);
	return rc == 0 ? 0 : rc == -EINVAL ? 1 : rc;
}

static int rejected_msgsize(long long x, void *arg)
{
	(void)arg;
	int rc = create(1, (long)x);
	return rc == 0 ? 0 : rc == -EINVAL ? 1 : rc;
}

static void observe_hard(struct aw_ctx *ctx, const char *obs, mqu_pred_fn rejected)
{
	long long first;
	int rc = mqu_first_true(1, INT_MAX, rejected, NULL, &first);

	if (rc == 1)
		aw_observe(ctx, obs, "none");
	else if (rc < 0)
		aw_unobserved(ctx, obs, "mq_open failed: %s", aw_errname(rc));
	else if (first == 1)
		aw_unobserved(ctx, obs, "even 1 is rejected");
	else
		aw_observe_long(ctx, obs, first - 1);
}

/* queues_max 1, then create up to CEILING_TRIES queues (kept, closed). */
static void observe_queue_limits(struct aw_ctx *ctx)
{
	const struct mqu_shape small = { 1, 128 };
	char name[32];
	int rc = aw_sysctl_write_ll(ctx, MQU_KNOB_QUEUES_MAX, 1), n;

	if (rc) {
		aw_unobserved(ctx, "queues_max_bypass", "setting queues_max: %s", aw_sysctl_strerror(rc));
		aw_unobserved(ctx, "queues_ceiling", "setting queues_max: %s", aw_sysctl_strerror(rc));
		aw_unobserved(ctx, "ceiling_era", "no ceiling was observed");
		return;
	}
	for (n = 0; n < CEILING_TRIES; n++) {
		snprintf(name, sizeof(name), "/aw_ceil_%d", n);
		if ((rc = mqu_create_kept(name, &small)) != 0)
			break;
	}
	if (n < 2 && rc == -ENOSPC) {
		aw_observe(ctx, "queues_max_bypass", "no");
		aw_unobserved(ctx, "queues_ceiling", "the capability does not lift queues_max");
		aw_unobserved(ctx, "ceiling_era", "no ceiling was observed");
	} else if (rc && rc != -ENOSPC) {
		aw_unobserved(ctx, "queues_max_bypass", "queue %d: %s", n + 1, aw_errname(rc));
		aw_unobserved(ctx, "queues_ceiling", "queue %d: %s", n + 1, aw_errname(rc));
		aw_unobserved(ctx, "ceiling_era", "no ceiling was observed");
	} else {
		aw_observe(ctx, "queues_max_bypass", "yes");
		char count[16];
		snprintf(count, sizeof(count), "%d", n);
		aw_observe(ctx, "queues_ceiling", "%s", rc == -ENOSPC ? count : "none");
		mqu_observe_era(ctx, "ceiling_era", mqu_ceiling_eras, rc == -ENOSPC ? count : "none");
	}
}

static void privileged_run(struct aw_ctx *ctx)
{
	struct rlimit inf = { RLIM_INFINITY, RLIM_INFINITY };
	long long msg_max, msgsize_max;

	/* The runner may have put us in a user namespace of our own, where
	 * the capability shows but capable() does not count it. */
	if (!aw_has_cap(CAP_SYS_RESOURCE)) {
		aw_skip_rest_cause(ctx, "cap_sys_resource", "%s",
				   "CAP_SYS_RESOURCE counts only in the initial user namespace");
		return;
	}
	if (!aw_private_ipc(ctx)) {
		aw_skip_rest(ctx, "%s", "not in a private IPC namespace");
		return;
	}
	/* So that only the attribute checks can refuse a queue. */
	if (setrlimit(RLIMIT_MSGQUEUE, &inf) != 0 ||
	    aw_sysctl_read_ll(MQU_KNOB_MSG_MAX, &msg_max) != 0 ||
	    aw_sysctl_read_ll(MQU_KNOB_MSGSIZE_MAX, &msgsize_max) != 0) {
		aw_error_rest(ctx, "%s", "raising RLIMIT_MSGQUEUE or reading the maxima failed");
		return;
	}
	check_above_max(ctx, msg_max, msgsize_max);
	check_above_hard(ctx);
	observe_hard(ctx, "hard_msgmax", rejected_maxmsg);
	observe_hard(ctx, "hard_msgsize_max", rejected_msgsize);
	observe_queue_limits(ctx);
}

static const char *const privileged_tags[] = {
	"man:mq_overview(7)", "man:mq_open(3)", "linux-git:02967ea08ede",
	"linux-git:5b5c4d1a1440", "linux-git:93e6f119c0ce", "linux-git:f3713fd9cff7", NULL
};

static const int privileged_caps[] = { CAP_SYS_RESOURCE, -1 };
const struct aw_probe mq_privileged_probes[] = {
	{
		.name = "privileged",
		.summary = "what CAP_SYS_RESOURCE lifts and which hard ceilings stay",
		.run = privileged_run,
		.items = privileged_items,
		.needs = { .caps = privileged_caps, .kconfig = mqu_kconfig },
		.tags = privileged_tags,
	},
	AW_PROBES_END,
};

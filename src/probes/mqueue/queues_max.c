// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fs.mqueue.queues_max bounds the queues of an IPC namespace for a
 * process without CAP_SYS_RESOURCE: the create that would exceed it
 * fails with ENOSPC (mq_open(3), mq_overview(7)).  Programs that create
 * a queue per client meet it (queues_max 256 is the default).
 */
#include "mq_util.h"
#include "lib/caps.h"

#include <errno.h>
#include <linux/capability.h>
#include <stdio.h>

#define LIMIT 3

static const struct aw_item queues_max_items[] = {
	AW_CHECK_ITEM("enospc_unprivileged", "with queues_max N, N queues succeed and the next fails with ENOSPC"),
	AW_ITEMS_END
};

/* Create queues until one fails or `want` exist: how many were made,
 * with *rc the result of the last attempt. */
static int create_upto(int want, int *rc)
{
	const struct mqu_shape small = { 1, 128 };
	char name[32];
	int n;

	for (n = 0; n < want; n++) {
		snprintf(name, sizeof(name), "/aw_qmax_%d", n);
		*rc = mqu_create_kept(name, &small);
		if (*rc)
			break;
	}
	return n;
}

static void queues_max_run(struct aw_ctx *ctx)
{
	const char *c = "enospc_unprivileged";
	int rc;

	if (!aw_private_ipc(ctx)) {
		aw_skip_rest(ctx, "%s", "not in a private IPC namespace: queues_max must not be written");
		return;
	}
	if ((rc = aw_drop_cap(CAP_SYS_RESOURCE)) != 0) {
		aw_error(ctx, c, "dropping CAP_SYS_RESOURCE: %s", aw_errname(rc));
		return;
	}
	rc = aw_sysctl_write_ll(ctx, MQU_KNOB_QUEUES_MAX, LIMIT);
	if (rc) {
		aw_error(ctx, c, "setting queues_max to %d: %s", LIMIT, aw_sysctl_strerror(rc));
		return;
	}
	/* The queues stay: each one counts until the namespace dies. */
	int made = create_upto(LIMIT + 1, &rc);
	if (made < LIMIT) {
		aw_fail(ctx, c, "queues_max %d: expected %d queues to succeed, queue %d failed with %s",
			LIMIT, LIMIT, made + 1, aw_errname(rc));
		return;
	}
	aw_expect(ctx, c, made == LIMIT && rc == -ENOSPC,
		  "queues_max %d: expected queue %d to fail with ENOSPC, got %s",
		  LIMIT, LIMIT + 1, made > LIMIT ? "success" : aw_errname(rc));
}

static const char *const queues_max_tags[] = {
	"posix:mq_open", "man:mq_open(3)", "man:mq_overview(7)", NULL
};

const struct aw_probe mq_queues_max_probes[] = {
	{
		.name = "queues_max",
		.summary = "queues_max is enforced with ENOSPC for a process without CAP_SYS_RESOURCE",
		.run = queues_max_run,
		.items = queues_max_items,
		.needs = { .kconfig = mqu_kconfig },
		.tags = queues_max_tags,
	},
	AW_PROBES_END,
};

// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The mqueue family: POSIX message queue limits, the ABI whose changes in
 * 2.6.28, 3.5 and 3.14 went unnoticed for months (docs/catalogue.md).
 * Each file declares its probes in a table; this lists them in order.
 */
#include "mq_util.h"

static const struct aw_probe *const tables[] = {
	mq_noattr_probes, mq_attr_probes, mq_rlimit_probes,
	mq_sysctl_probes, mq_queues_max_probes, mq_privileged_probes, NULL,
};

static const struct aw_family mqueue_family = {
	.name = "mqueue",
	.summary = "POSIX message queue limits: default shapes, attribute checks, rlimit charge, sysctl ranges",
	.tables = tables,
};

AW_FAMILY(mqueue_family);

// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The mqueue family: POSIX message queues.  First the limits, the ABI
 * whose changes in 2.6.28, 3.5 and 3.14 went unnoticed for months; then
 * the whole interface: names, send and receive, timeouts, attributes,
 * notification, polling, the mqueue filesystem, IPC and user namespaces,
 * and 32-bit callers (docs/catalogue.md).  Each file declares its probes
 * in a table; this lists them in order.
 */
#include "mq_util.h"

static const struct aw_probe *const tables[] = {
	mq_noattr_probes, mq_attr_probes, mq_rlimit_probes,
	mq_sysctl_probes, mq_queues_max_probes, mq_privileged_probes,
	mq_names_probes, mq_sendrecv_probes, mq_timed_probes, mq_getsetattr_probes,
	mq_notify_probes, mq_notifyreg_probes, mq_poll_probes, mq_mqueuefs_probes,
	mq_ipcns_probes, mq_userns_probes, mq_compat32_probes, NULL,
};

static const struct aw_family mqueue_family = {
	.name = "mqueue",
	.summary = "POSIX message queues: limits, call contracts, notification, polling, mqueuefs, namespaces, 32-bit",
	.tables = tables,
	.helper32 = "abiwatch-mqueue-m32",
};

AW_FAMILY(mqueue_family);

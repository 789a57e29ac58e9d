// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The fdio family: pipes, epoll, splice, sendfile, copy_file_range and
 * the counter descriptors (eventfd, timerfd, signalfd), where kernel
 * changes broke Android apps (pipe wake-ups), GNU make (small pipes), ttys
 * (splice) and Go (copy_file_range from /proc).  Every item is exact:
 * non-blocking descriptors and epoll_wait with timeout 0 after the
 * triggering call has returned, so no timing decides a result
 * (docs/catalogue.md, "fdio").
 */
#include "fdio.h"
#include "lib/errname.h"

#include <errno.h>
#include <stdio.h>

const char *fdio_res(char buf[FDIO_RES_LEN], long long rc, int err)
{
	if (rc < 0)
		return aw_errname(err);
	snprintf(buf, FDIO_RES_LEN, "%lld", rc);
	return buf;
}

void fdio_observe_res(struct aw_ctx *ctx, const char *obs, long long rc, int err)
{
	char buf[FDIO_RES_LEN];
	aw_observe(ctx, obs, "%s", fdio_res(buf, rc, err));
}

void fdio_observe_rc(struct aw_ctx *ctx, const char *obs, long long rc)
{
	int err = errno;
	fdio_observe_res(ctx, obs, rc, err);
}

static const struct aw_probe *const tables[] = {
	fdio_pipe_probes, fdio_setsz_probes, fdio_splice_probes, fdio_copy_probes,
	fdio_epoll_probes, fdio_counter_probes, NULL,
};

static const struct aw_family fdio_family = {
	.name = "fdio",
	.summary = "pipes, epoll, splice and sendfile, copy_file_range, eventfd/timerfd/signalfd",
	.tables = tables,
	.helper32 = FDIO_HELPER,
};

AW_FAMILY(fdio_family);

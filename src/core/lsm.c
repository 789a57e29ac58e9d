// SPDX-License-Identifier: GPL-2.0-or-later
/* aw_skip_unless_lsm(): an item of a security module the kernel did not
 * start is the machine's set-up (see probe.h). */
#include "probe.h"
#include "status.h"
#include "lib/lsm.h"

#include <stdio.h>
#include <stdlib.h>

bool aw_skip_unless_lsm(struct aw_ctx *ctx, const char *item, const char *lsm)
{
	const char *why;
	char *active = aw_lsm_active(&why);
	bool off = active && !aw_lsm_listed(active, lsm);
	if (off) {
		char cause[AW_CAUSE_MAX];
		snprintf(cause, sizeof(cause), "lsm:%s", lsm);
		aw_skip_cause(ctx, item, cause, "%s is not among the security modules this kernel started (%s)", lsm,
			      active);
	}
	free(active);
	return off;
}

// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The compat32.* observations: what a 32-bit program sees in the same
 * directory.  The family's 32-bit helper (m32/dirent_m32.c) scans the
 * directory, inherited as a descriptor, and reports them itself through
 * the probe library (lib/helper.h); where it is not built or 32-bit
 * programs cannot run here, each says why.
 */
#include "dirent.h"
#include "lib/helper.h"

#include <stdio.h>

/* Two scans of a million entries take seconds; one that takes minutes
 * is stuck (a filesystem that hangs), and costs only these items. */
#define HELPER_TIMEOUT_MS 120000

void dirent_compat32(struct aw_ctx *ctx, int dirfd, size_t expect, size_t cap)
{
	char fd_s[16], cap_s[24], expect_s[24];
	snprintf(fd_s, sizeof(fd_s), "%d", dirfd);
	snprintf(cap_s, sizeof(cap_s), "%zu", cap);
	snprintf(expect_s, sizeof(expect_s), "%zu", expect);
	const char *const args[] = { fd_s, cap_s, expect_s, NULL };
	const int keep[] = { dirfd, -1 };
	const struct aw_helper helper = {
		.name = DIRENT_HELPER, .args = args, .prefix = "compat32.",
		.timeout_ms = HELPER_TIMEOUT_MS, .keep = keep,
	};

	(void)aw_helper_report(ctx, &helper);
}

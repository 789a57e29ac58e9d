/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Removing what is below a directory on any filesystem, hostile ones
 * included: bounded by entries, passes, depth and a deadline, and safe
 * from a listing that never ends (tree.c).  The backends empty a user's
 * directory with it, the runner's janitor a probe's scratch directory.
 */
#ifndef ABIWATCH_LIB_TREE_H
#define ABIWATCH_LIB_TREE_H

#include <stddef.h>

struct aw_tree_limits {
	size_t max_entries;  /* read per listing pass */
	unsigned max_passes; /* listings of one directory */
	unsigned max_depth;
	double deadline;     /* aw_now() seconds; 0: none */
};

/* Enough for the dirent probes' largest directory (--entries 1000000). */
#define AW_TREE_LIMITS_DEFAULT { .max_entries = 2000000, .max_passes = 1000, .max_depth = 64 }

/* Remove everything below dirfd (not dirfd itself), depth first.  0, or
 * -errno of the first failure: -ENOTEMPTY when names stay that cannot be
 * removed, -ETIMEDOUT at the deadline, -ELOOP beyond max_depth.  lim NULL:
 * AW_TREE_LIMITS_DEFAULT. */
int aw_remove_tree(int dirfd, const struct aw_tree_limits *lim);

#endif

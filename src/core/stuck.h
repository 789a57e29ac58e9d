/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What the runner does about a probe that will not die: a process blocked
 * on a FUSE request that the daemon never answers stays in uninterruptible
 * sleep even after SIGKILL, until the daemon replies or the connection is
 * aborted.  FUSE mounts the probe made itself (they exist only in its mount
 * namespace) are aborted through fusectl; a user's own mount is left alone,
 * and the stuck processes are named instead.
 */
#ifndef ABIWATCH_STUCK_H
#define ABIWATCH_STUCK_H

#include <stdbool.h>
#include <sys/types.h>

/* Abort the FUSE connections of mounts that exist in the mount namespace
 * of pid but not in ours.  Returns how many were aborted. */
int aw_abort_own_fuse(pid_t pid);

/* A line naming the processes that share pid's PID namespace and are in
 * uninterruptible sleep ("pid 12 (ls) in D state, wchan fuse_..."), or
 * NULL when there are none.  malloc'd. */
char *aw_describe_stuck(pid_t pid);

/* What the processes that share pid's PID namespace are doing: the CPU
 * time they have used so far (clock ticks, user and system), and whether
 * one of them is running or waiting for a CPU now (state R).  A probe
 * that is neither is blocked, not slow. */
struct aw_pidns_activity {
	unsigned long long ticks;
	bool runnable;
};
struct aw_pidns_activity aw_pidns_activity(pid_t pid);

#endif

/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The work `abiwatch bisect` starts: one question asked of many kernels.
 * cmd/bisect.c fills struct bisect (bisect_opts.h); session_bisect()
 * (bisect.c) picks the strategy (bisect_strategy.h): a list of kernels
 * searched here (bisect_list.c), or `git bisect run` over a kernel tree
 * (bisect_git.c), one step per commit, each step a run of this binary
 * with --step, which builds with bisect_build.c.  Both judge a kernel
 * with bisect_judge.c.  Each file calls only those below it: bisect.c ->
 * list, git; git -> build, judge; list -> judge.
 */
#ifndef ABIWATCH_SESSION_BISECT_H
#define ABIWATCH_SESSION_BISECT_H

#include "bisect_opts.h"

#include <stddef.h>

/* Search for the first kernel, or commit, where b's answer changed:
 * kernels (linux-image .debs, bzImages, BZIMAGE:MODULES) when b->git is
 * NULL, else the commits of the tree; b->step: one step of git bisect run
 * (its answer for git: 0, 1, 125 or 128).  The exit status. */
int session_bisect(struct bisect *b, char **kernels, size_t nkernels);

#endif

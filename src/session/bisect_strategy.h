/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * abiwatch bisect's strategies, the small table session_bisect() picks
 * from: each searches (or steps) on its own and returns the exit status;
 * none calls back into bisect.c.
 */
#ifndef ABIWATCH_SESSION_BISECT_STRATEGY_H
#define ABIWATCH_SESSION_BISECT_STRATEGY_H

#include "bisect_opts.h"

#include <stdbool.h>
#include <stddef.h>

struct bisect_strategy {
	/* Whether the command line asked for this one. */
	bool (*chosen)(const struct bisect *b);
	/* The search, or the step: its exit status.  kernels: the KERNEL
	 * arguments (none with --git). */
	int (*run)(struct bisect *b, char **kernels, size_t nkernels);
};

/* --step GOOD: build and judge HEAD; 0 same answer as the good end, 1
 * another, 125 no answer, 128 (git bisect stops) when the step itself
 * broke (bisect_git.c). */
extern const struct bisect_strategy bisect_git_step;
/* --git: check the tree and the revisions, judge both ends, run git
 * bisect, say what it found, leave the tree as it was (bisect_git.c). */
extern const struct bisect_strategy bisect_git;
/* KERNEL...: version order, then the search of lib/bisect.h
 * (bisect_list.c). */
extern const struct bisect_strategy bisect_list;

#endif

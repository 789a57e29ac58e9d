/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What a bisect is asked (cmd/bisect.c fills it): the question, how each
 * guest boots, where things are kept, and with --git the tree, its ends
 * and how a commit is built.  Every bisect file reads it; it is apart
 * from bisect.h so that the strategies, which session_bisect() calls,
 * need nothing of the driver's.
 */
#ifndef ABIWATCH_SESSION_BISECT_OPTS_H
#define ABIWATCH_SESSION_BISECT_OPTS_H

#include "model/question.h"
#include "vm/vm.h"
#include "lib/progress.h"

#include <stdbool.h>

struct bisect {
	struct aw_question q;
	struct aw_vm_opts vm;   /* how each guest boots; the kernel set per step */
	const char *out;        /* where snapshots and logs are kept */
	bool verbose;
	struct aw_progress say; /* "abiwatch bisect": its steps, off with --quiet */
	/* --git */
	const char *git, *good, *bad;
	const char *config;     /* the default build's configuration */
	const char *build;      /* or a command printing the kernel's path */
	unsigned jobs;          /* make -j */
	const char *step;       /* --step GOOD-COMMIT: one step of git bisect run */
	int argc;               /* the command line, for the steps' */
	char **argv;
};

#endif

/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * abiwatch bisect: what its two halves share.  bisect.c reads the command
 * line, judges one kernel (boot it, or take the snapshot an earlier step
 * kept) and searches a list of kernels; bisect_git.c drives `git bisect
 * run` over a kernel tree, one step per commit, each step a run of this
 * binary with --step, which builds with bisect_build.c.
 */
#ifndef ABIWATCH_CMD_BISECT_H
#define ABIWATCH_CMD_BISECT_H

#include "model/question.h"
#include "vm/kernel.h"
#include "vm/vm.h"

#include <stdbool.h>

struct bisect {
	struct aw_question q;
	struct aw_vm_opts vm;   /* how each guest boots; the kernel set per step */
	const char *out;        /* where snapshots and logs are kept */
	bool verbose, quiet;
	/* --git */
	const char *git, *good, *bad;
	const char *config;     /* the default build's configuration */
	const char *build;      /* or a command printing the kernel's path */
	unsigned jobs;          /* make -j */
	const char *step;       /* --step GOOD-COMMIT: one step of git bisect run */
	int argc;               /* the command line, for the steps' */
	char **argv;
};

/* The snapshot at path, kept by an earlier run, when it can answer the
 * question (it holds every probe the question needs). */
bool bisect_kept(const struct bisect *b, const char *path, struct aw_snapshot *snap);

/* How a kernel was judged. */
enum judged { JUDGED_BOOTED, JUDGED_KEPT, JUDGED_NOT_BOOTED };

/* The answer of kernel k: from the snapshot at snapshot_path when an
 * earlier run kept one that covers the question, else by booting it (the
 * snapshot is saved there, the console beside it when no answer came).
 * snap gets the snapshot (empty when none came).  Progress on stderr
 * names the kernel as label. */
enum judged bisect_judge(const struct bisect *b, const struct aw_kernel_spec *k,
			 const char *label, const char *snapshot_path, struct aw_snapshot *snap,
			 struct aw_answer *a);

/* "abiwatch bisect: ..." on stderr unless quiet. */
void bisect_say(const struct bisect *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* The pair's differences as `abiwatch diff` shows them, after a line. */
void bisect_print_diff(const struct aw_snapshot *before, const char *before_name,
		       const struct aw_snapshot *after, const char *after_name);

/* Build the commit checked out in the tree (--build, or --config's
 * default build), its output in OUT/commits/COMMIT.build.log: the kernel
 * as a spec (a .deb, a bzImage, BZIMAGE:MODULES), or NULL with *why. */
char *bisect_build(const struct bisect *b, const char *commit, char **why);

/* --git: check the tree and the revisions, judge both ends, run git bisect,
 * say what it found, leave the tree as it was.  The exit status. */
int bisect_git(struct bisect *b);
/* --step: build and judge HEAD; 0 same answer as the good end, 1 another,
 * 125 no answer, 128 (git bisect stops) when the step itself broke. */
int bisect_git_step(struct bisect *b);

#endif

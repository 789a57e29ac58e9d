/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The work `abiwatch run` starts, and the path of running probes that
 * `abiwatch check` shares: the selection, the environment, the isolated
 * runs with their KTAP stream, what is printed of them and the snapshot.
 * cmd/run.c and cmd/check.c only fill the option structs below.
 */
#ifndef ABIWATCH_SESSION_RUN_H
#define ABIWATCH_SESSION_RUN_H

#include "core/params.h"
#include "core/result.h"
#include "model/snapshot.h"
#include "output/format.h"

#include <stdbool.h>
#include <stdio.h>

/* How probes run: --timeout and the options families declare. */
struct probe_options {
	double timeout_s;
	unsigned jobs; /* --jobs; 0: not given (one at a time) */
	struct aw_params params;
};

/* What run and check are told: the snapshot to write, the format of what
 * they print, and how probes run. */
struct probe_command {
	const char *output;
	const struct aw_format *format; /* output/format.h's table */
	bool probe_options; /* --timeout or a family option was given */
	bool verbose;       /* run -v: every skip on stderr, with its reason */
	bool force;         /* run --force: replace a snapshot of more probes */
	struct probe_options probes;
};

/* abiwatch run: the command's options and the globs that select. */
struct run_opts {
	struct probe_command pc;
	char **globs;
	size_t nglobs;
};

/* Select, run, print in the chosen format and save the snapshot (by
 * default abiwatch-RELEASE.snapshot here).  The exit status. */
int session_run(struct run_opts *o);

/* The registered probes the globs select.  A glob none of them matches may
 * name a probe an option makes (--path LABEL=DIR makes dirent.LABEL): it
 * goes to *later (malloc'd), to be checked once those exist. */
void probes_select(char *const *globs, size_t nglobs, struct aw_probe_ref **refs, size_t *n,
		   char ***later, size_t *nlater);
/* Each later-glob must select one of the probes the options made.  0, or
 * the usage status of `abiwatch run`. */
int probes_check_later(char *const *later, size_t nlater, const struct aw_probe_ref *refs,
		       size_t n);

/* Apply the family options to the selection (narrowing it, adding the
 * probes they make) and collect the environment.  0, or the usage status. */
int probes_prepare(const char *cmd, struct probe_options *po, struct aw_probe_ref **refs,
		   size_t *nrefs, struct aw_run *run);
/* Run them, each isolated; the results stream to out as each probe ends
 * when format streams a run (KTAP), else nothing is written (format may
 * be NULL). */
void probes_execute(const struct probe_options *po, const struct aw_probe_ref *refs,
		    size_t nrefs, const struct aw_format *format, FILE *out, struct aw_run *run);
/* Write the run's snapshot to path.  0, or the usage status. */
int probes_save(const char *cmd, const struct aw_run *run, const char *path);
/* Prepare and run refs quietly into snap, saving it to output too unless
 * that is NULL (abiwatch check without a snapshot).  0, or the usage
 * status (snap then holds nothing). */
int probes_snapshot(const char *cmd, struct probe_options *po, const char *output,
		    struct aw_probe_ref **refs, size_t *n, struct aw_snapshot *snap);

#endif

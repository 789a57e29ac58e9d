/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Runs probes, each isolated in a child of its own. */
#ifndef ABIWATCH_RUNNER_H
#define ABIWATCH_RUNNER_H

#include "params.h"
#include "result.h"

#include <stdbool.h>

struct aw_runner_opts {
	double timeout_s; /* > 0: overrides every probe's own timeout */
	/* Probes at a time (0 or 1: one after the other).  Each is isolated
	 * in namespaces of its own, so they may run side by side, but for
	 * one that declares it must run alone (struct aw_probe.alone). */
	unsigned jobs;
	/* > 0: the seconds the whole run has (a VM guest's, whose /init must
	 * send what there is in time): a probe still running then, or not
	 * started, is settled as starved (cause load). */
	double budget_s;
	const struct aw_params *params; /* family options, for aw_param_int() ... */
	/* Called as each probe finishes, so that output can stream. */
	void (*probe_done)(const struct aw_probe_result *r, void *arg);
	void *arg;
};

/* Run the probes, opts->jobs at a time, filling run->probes in their
 * order (run->env is the caller's); probe_done is called in that order
 * too, whatever order they end in.  Never fails as a whole: a probe that cannot start, crashes
 * or hangs is a result like any other. */
void aw_run_probes(const struct aw_probe_ref *refs, size_t n,
		   const struct aw_runner_opts *opts, struct aw_run *run);

#endif

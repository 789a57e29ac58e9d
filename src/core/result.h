/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What a run found: per probe, per check and observation.  Every output
 * (KTAP, text, JSON, snapshot) is written from this one model. */
#ifndef ABIWATCH_RESULT_H
#define ABIWATCH_RESULT_H

#include "env.h"
#include "registry.h"
#include "status.h"

#include <stdbool.h>
#include <stddef.h>

struct aw_item_result {
	const struct aw_item *item;
	char *fullname;       /* family.probe.item */
	enum aw_status status;
	char *text;           /* value (observation made), else the reason */
};

/* How a probe's process ended, as init of its namespace saw it.  Kept as
 * numbers, so that the runner decides on them (an exit status of 125 is
 * init's own: the isolation could not be built); the sentence in the
 * result's reason is only for people. */
enum aw_end_kind {
	AW_END_UNKNOWN, /* init said nothing (yet) */
	AW_END_EXIT,    /* exited with status code */
	AW_END_SIGNAL,  /* killed by signal code */
};

struct aw_probe_end {
	enum aw_end_kind how;
	int code;
};

struct aw_probe_result {
	struct aw_probe_ref ref;
	char *fullname;        /* family.probe */
	enum aw_status status; /* PASS when it ran to the end */
	char *reason;          /* why not PASS */
	struct aw_probe_end end;
	struct aw_item_result *items;
	size_t nitems;
	char **notes;
	size_t nnotes;
	double seconds;
};

struct aw_run {
	struct aw_env env;
	struct aw_probe_result *probes;
	size_t nprobes;
};

void aw_probe_result_init(struct aw_probe_result *r, const struct aw_probe_ref *ref);
/* Forget everything reported (a first try, to run the probe again); ref
 * may not point into r. */
void aw_probe_result_reset(struct aw_probe_result *r, const struct aw_probe_ref *ref);
/* The result of the item the probe reports as name: a specific item's
 * slot, or the one of a name a pattern item covers (made at its first
 * report).  NULL for a name no item declares.  The pointer is good until
 * the next call, which may add a slot and move them all. */
struct aw_item_result *aw_probe_result_item(struct aw_probe_result *r,
					    const char *name);
/* Record one report; the worse status wins over an earlier one. */
void aw_item_set(struct aw_item_result *it, enum aw_status st, const char *text);
void aw_probe_result_note(struct aw_probe_result *r, const char *text);
/* Give every unreported item the status and reason (a skipped, crashed
 * or timed-out probe). */
void aw_probe_result_settle(struct aw_probe_result *r, enum aw_status st,
			    const char *reason);
/* Make every result that is not already worse an error with the reason:
 * the ground changed under the probe (its directory was removed), so
 * neither a pass nor a fail can be trusted. */
void aw_probe_result_void(struct aw_probe_result *r, const char *reason);
void aw_run_free(struct aw_run *run);

/* kselftest exit status of the run: 1 if anything failed or broke,
 * 4 if nothing passed and nothing failed, else 0. */
int aw_run_exit_status(const struct aw_run *run);

struct aw_totals {
	size_t pass, fail, skip, error, observed;
};
struct aw_totals aw_run_totals(const struct aw_run *run);

#endif

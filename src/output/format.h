/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The one table of formats: each says how it writes a run, a diff and a
 * check, NULL where it does not (as fio's ioengine_ops name what an
 * engine does).  Commands look a --format up here, once, with what they
 * are about to write, and call what they get: no command tests a format's
 * name.  The matrix writes its neighbour diffs with the text format's.
 */
#ifndef ABIWATCH_OUTPUT_FORMAT_H
#define ABIWATCH_OUTPUT_FORMAT_H

#include "core/result.h"
#include "model/assume.h"
#include "model/diff.h"

#include <stdbool.h>
#include <stdio.h>

/* Every rule of an assumptions file and its result: what check writes. */
struct aw_checked {
	const char *assumptions;    /* the file, as named */
	const char *snapshot;       /* as named, or NULL: the probes ran now */
	const struct aw_assumptions *as;
	const struct aw_rule_result *results; /* one per rule */
	size_t totals[3];           /* by verdict */
	int exit_status;
};

enum aw_format_op { AW_WRITES_RUN, AW_WRITES_DIFF, AW_WRITES_CHECK };

struct aw_format {
	const char *name;
	/* A run's results as the probes end (KTAP: nested, streamed). */
	bool streams_run;
	/* A run's results, once every probe has ended. */
	void (*run)(FILE *out, const struct aw_run *run);
	void (*diff)(FILE *out, const struct aw_diff *d, const char *old_name,
		     const char *new_name, bool verbose);
	void (*check)(FILE *out, const struct aw_checked *c);
};

/* The format called name that writes what op says, or NULL: then *names
 * (malloc'd) is "a, b or c" of those that do, for the usage error. */
const struct aw_format *aw_format_find(const char *name, enum aw_format_op op, char **names);

/* check's writers (output/check.c). */
void aw_check_text(FILE *out, const struct aw_checked *c);
void aw_check_ktap(FILE *out, const struct aw_checked *c);
void aw_check_json(FILE *out, const struct aw_checked *c);

#endif

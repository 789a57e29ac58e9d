/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The one table of formats: each says how it writes a run, a diff, a
 * check and several kernels at once, NULL where it does not (as fio's
 * ioengine_ops name what an engine does).  Commands look a --format up
 * here, once, with what they are about to write, and call what they get:
 * no command tests a format's name.  The commands that have no --format
 * look theirs up here too, by the name of what they write: matrix its
 * neighbour diffs ("text" diff) and matrix.txt ("text" several), report
 * its page ("html"), kcidb its document ("kcidb").  So no file above
 * output/ includes another output header than this one.
 */
#ifndef ABIWATCH_OUTPUT_FORMAT_H
#define ABIWATCH_OUTPUT_FORMAT_H

#include "core/result.h"
#include "html_report.h"
#include "kcidb.h"
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

/* One kernel's job of a matrix, as matrix.txt lists it. */
struct aw_matrix_row {
	const char *label;       /* the kernel's release, or the host's */
	const char *where;       /* kvm, tcg, or "-" when it never booted */
	const char *outcome;     /* "ok", "timed out", ... */
	int exit_status;         /* of the run */
	double total_s, boot_s, run_s;
	const char *ktap;        /* its KTAP file, whose family times are read back */
	const char *source;      /* "host", or the kernel as given */
	const char *why;         /* when the outcome is not ok, else NULL */
	bool reused;             /* its snapshot was already there: not run, no times */
};

/* Several kernels at once: what matrix, report and kcidb write.  Each
 * format reads its part: text the rows and the series of the labelled
 * snapshots (matrix.txt), html the report's
 * options, columns included (and fills stats), kcidb the snapshots. */
struct aw_several {
	const struct aw_matrix_row *rows;
	size_t nrows;
	const struct aw_report_opts *report;
	struct aw_report_stats *stats;
	const struct aw_snapshot *const *snaps;
	size_t nsnaps;
	/* For matrix.txt's series section: the kernels' snapshots in
	 * version order (snaps) and a name for each; NULL: none. */
	const char *const *snap_labels;
	/* snaps' neighbours' diffs, [c] for 1 <= c < nsnaps: snaps[c - 1]
	 * -> snaps[c] with no options, when the caller has them (a matrix
	 * writes them as .diff files); NULL: the writer computes them. */
	const struct aw_diff *snap_diffs;
	const struct aw_kcidb_opts *kcidb;
};

enum aw_format_op { AW_WRITES_RUN, AW_WRITES_DIFF, AW_WRITES_CHECK, AW_WRITES_SEVERAL };

/* A run written as its probes end; the format's state between the calls. */
struct aw_run_stream;

struct aw_format {
	const char *name;
	/* A run's results as the probes end (KTAP: nested, streamed):
	 * begin before the first probe, probe as each ends, end after. */
	struct aw_run_stream *(*stream_begin)(FILE *out, const struct aw_probe_ref *refs, size_t n);
	void (*stream_probe)(struct aw_run_stream *s, const struct aw_probe_result *r);
	void (*stream_end)(struct aw_run_stream *s);
	/* A run's results, once every probe has ended. */
	void (*run)(FILE *out, const struct aw_run *run);
	/* Whether run is the terminal's summary already (aw_run_summary). */
	bool run_is_summary;
	void (*diff)(FILE *out, const struct aw_diff *d, const char *old_name,
		     const char *new_name, bool verbose);
	void (*check)(FILE *out, const struct aw_checked *c);
	/* 0, or -1 when out failed. */
	int (*several)(FILE *out, const struct aw_several *s);
};

/* The format called name that writes what op says, or NULL: then *names
 * (malloc'd) is "a, b or c" of those that do, for the usage error. */
const struct aw_format *aw_format_find(const char *name, enum aw_format_op op, char **names);

/* What a run's stderr shows on a terminal: what did not pass and the skips
 * by cause (the text format's summary), whatever the format of stdout. */
void aw_run_summary(FILE *out, const struct aw_run *run, bool verbose);

/* The one line a run ends with wherever stderr goes (a log, tee): the
 * totals and the snapshot's path; cmd names the command ("run"). */
void aw_run_summary_line(FILE *out, const char *cmd, const struct aw_run *run,
			 const char *snapshot);

/* matrix.txt's writer (output/matrix_text.c). */
int aw_matrix_text(FILE *out, const struct aw_several *s);

/* check's writers (output/check.c). */
void aw_check_text(FILE *out, const struct aw_checked *c);
void aw_check_ktap(FILE *out, const struct aw_checked *c);
void aw_check_json(FILE *out, const struct aw_checked *c);

#endif

/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The ways a run is shown: KTAP (streamed), a readable text report, JSON. */
#ifndef ABIWATCH_OUTPUT_H
#define ABIWATCH_OUTPUT_H

#include "core/result.h"

#include <stdio.h>

/* KTAP version 1, nested family > probe > items.  The plans come from the
 * declarations, so results can be written as each probe finishes. */
struct aw_ktap {
	FILE *out;
	const struct aw_probe_ref *refs;
	size_t nrefs;
	size_t next;            /* index of the next probe to be written */
	size_t family_no;       /* number of the current family */
	size_t probe_no;        /* within the current family */
	enum aw_status family_status;
	double family_seconds;  /* the current family's probes so far */
};

/* The top-level KTAP header and plan, the one every KTAP output (a run,
 * a diff, a check) starts with. */
void aw_ktap_header(FILE *out, size_t tests);

void aw_ktap_begin(struct aw_ktap *k, FILE *out, const struct aw_probe_ref *refs, size_t n);
void aw_ktap_probe(struct aw_ktap *k, const struct aw_probe_result *r);
void aw_ktap_end(struct aw_ktap *k);

/* Each family's time as a KTAP stream of aw_ktap_probe() says it (the
 * "# time:" line before the family's result: the sum of its probes'
 * wall times), in the stream's order. */
struct aw_family_time {
	char *family;
	double seconds;
};
/* 0 with *times (malloc'd, aw_family_times_free()) and *n; -1 with errno
 * when the file cannot be read.  Lines of any other shape are passed by. */
int aw_ktap_family_times(const char *path, struct aw_family_time **times, size_t *n);
void aw_family_times_free(struct aw_family_time *times, size_t n);

/* A report for people: failures and skips with their reasons, totals. */
void aw_text_report(FILE *out, const struct aw_run *run);
/* What stderr gets on a terminal before the summary line: failures,
 * errors and time-outs, and the skips counted by cause (verbose: every
 * item that did not pass, each skip with its reason). */
void aw_text_summary(FILE *out, const struct aw_run *run, bool verbose);
/* The one line a run ends with on stderr, whatever stdout is: "abiwatch
 * CMD: N checks passed, N failed, N skipped, N errors; N observations;
 * snapshot PATH". */
void aw_text_summary_line(FILE *out, const char *cmd, const struct aw_run *run,
			  const char *snapshot);

/* The whole run as one JSON document. */
int aw_json_report(FILE *out, const struct aw_run *run);

#endif

// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * matrix.txt (format.h's "text" several): one line per kernel, for
 * people and for `make bench`: the outcome, the times of the whole job,
 * its boot and its run, then each family's (the sum of its probes' times
 * in the job's KTAP, read back here), so that where a guest's time goes
 * shows kernel by kernel; then the series of their snapshots
 * (series_text.c): what each update changed, item by item.
 */
#include "format.h"
#include "output.h"
#include "series.h"
#include "lib/util.h"

#include <stdlib.h>
#include <string.h>

/* Each row's family times, and the union of the families in the order
 * they first came. */
struct family_columns {
	struct aw_family_time **times;
	size_t *ntimes;
	const char **names;
	size_t nnames;
};

static void add_family_name(struct family_columns *fc, const char *name)
{
	for (size_t k = 0; k < fc->nnames; k++)
		if (strcmp(fc->names[k], name) == 0)
			return;
	fc->names = xgrow(fc->names, fc->nnames, sizeof(*fc->names));
	fc->names[fc->nnames++] = name;
}

static void read_family_columns(const struct aw_several *s, struct family_columns *fc)
{
	fc->times = xcalloc(s->nrows + 1, sizeof(*fc->times));
	fc->ntimes = xcalloc(s->nrows + 1, sizeof(*fc->ntimes));
	fc->names = NULL;
	fc->nnames = 0;
	for (size_t i = 0; i < s->nrows; i++) {
		if (aw_ktap_family_times(s->rows[i].ktap, &fc->times[i], &fc->ntimes[i]) != 0)
			fc->ntimes[i] = 0;
		for (size_t t = 0; t < fc->ntimes[i]; t++)
			add_family_name(fc, fc->times[i][t].family);
	}
}

static void free_family_columns(const struct aw_several *s, struct family_columns *fc)
{
	for (size_t i = 0; i < s->nrows; i++)
		aw_family_times_free(fc->times[i], fc->ntimes[i]);
	free(fc->times);
	free(fc->ntimes);
	free(fc->names);
}

/* A row's time for family name, or "-" when its run had none. */
static void print_family_time(FILE *f, const struct family_columns *fc, size_t row,
			      const char *name)
{
	for (size_t t = 0; t < fc->ntimes[row]; t++)
		if (strcmp(fc->times[row][t].family, name) == 0) {
			fprintf(f, " %.2f", fc->times[row][t].seconds);
			return;
		}
	fputs(" -", f);
}

/* One word for the outcome ("timed_out"), so that columns split on blanks. */
static void print_outcome(FILE *f, const char *outcome)
{
	fputc(' ', f);
	for (const char *p = outcome; *p; p++)
		fputc(*p == ' ' ? '_' : *p, f);
}

int aw_matrix_text(FILE *f, const struct aw_several *s)
{
	struct family_columns fc;
	read_family_columns(s, &fc);
	fprintf(f, "# label where outcome exit total_s boot_s run_s");
	for (size_t k = 0; k < fc.nnames; k++)
		fprintf(f, " %s_s", fc.names[k]);
	fprintf(f, " source\n");
	for (size_t i = 0; i < s->nrows; i++) {
		const struct aw_matrix_row *r = &s->rows[i];
		if (r->reused) {
			fprintf(f, "%s - reused - - - -", r->label);
		} else {
			fprintf(f, "%s %s", r->label, r->where);
			print_outcome(f, r->outcome);
			fprintf(f, " %d %.2f %.2f %.2f", r->exit_status, r->total_s, r->boot_s, r->run_s);
		}
		for (size_t k = 0; k < fc.nnames; k++)
			print_family_time(f, &fc, i, fc.names[k]);
		fprintf(f, " %s\n", r->source);
		if (r->why)
			fprintf(f, "#   %s: %s\n", r->label, r->why);
	}
	free_family_columns(s, &fc);
	if (s->snap_labels && s->nsnaps > 1) {
		struct aw_series series;
		if (s->snap_diffs)
			aw_series_compute_from(s->snaps, s->snap_diffs, s->nsnaps, &series);
		else
			aw_series_compute(s->snaps, s->nsnaps, &series);
		aw_series_text(f, &series, s->snap_labels);
		aw_series_free(&series);
	}
	return ferror(f) ? -1 : 0;
}

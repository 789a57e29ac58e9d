// SPDX-License-Identifier: GPL-2.0-or-later
/* The table of formats (format.h) and its one lookup. */
#include "format.h"
#include "diff.h"
#include "kcidb.h"
#include "output.h"
#include "model/snapshot.h"
#include "lib/util.h"

#include <stdlib.h>
#include <string.h>

static void text_run(FILE *out, const struct aw_run *run)
{
	aw_text_report(out, run);
}

static void json_run(FILE *out, const struct aw_run *run)
{
	aw_json_report(out, run);
}

/* The document 'abiwatch kcidb' makes of this run's snapshot, with its
 * defaults (origin abiwatch, a build made up of the kernel). */
static void kcidb_run(FILE *out, const struct aw_run *run)
{
	struct aw_snapshot snap;
	aw_snapshot_from_run(run, &snap);
	const struct aw_snapshot *one = &snap;
	struct aw_kcidb_opts o = { 0 };
	aw_kcidb_write(out, &one, 1, &o);
	aw_snapshot_free(&snap);
}

void aw_run_summary(FILE *out, const struct aw_run *run, bool verbose)
{
	aw_text_summary(out, run, verbose);
}

void aw_run_summary_line(FILE *out, const char *cmd, const struct aw_run *run,
			 const char *snapshot)
{
	aw_text_summary_line(out, cmd, run, snapshot);
}

/* KTAP's stream: output.h's writer, its state malloc'd. */
struct aw_run_stream {
	struct aw_ktap ktap;
};

static struct aw_run_stream *ktap_begin(FILE *out, const struct aw_probe_ref *refs, size_t n)
{
	struct aw_run_stream *s = xcalloc(1, sizeof(*s));
	aw_ktap_begin(&s->ktap, out, refs, n);
	return s;
}

static void ktap_probe(struct aw_run_stream *s, const struct aw_probe_result *r)
{
	aw_ktap_probe(&s->ktap, r);
}

static void ktap_end(struct aw_run_stream *s)
{
	aw_ktap_end(&s->ktap);
	free(s);
}

/* The page of `abiwatch report`. */
static int html_several(FILE *out, const struct aw_several *s)
{
	aw_html_report(out, s->report, s->stats);
	return ferror(out) ? -1 : 0;
}

/* The one document of `abiwatch kcidb`. */
static int kcidb_several(FILE *out, const struct aw_several *s)
{
	return aw_kcidb_write(out, s->snaps, s->nsnaps, s->kcidb);
}

/* In the order a usage error lists them. */
static const struct aw_format formats[] = {
	{ .name = "text", .run = text_run, .run_is_summary = true, .diff = aw_diff_text,
	  .check = aw_check_text, .several = aw_matrix_text },
	{ .name = "ktap", .stream_begin = ktap_begin, .stream_probe = ktap_probe,
	  .stream_end = ktap_end, .diff = aw_diff_ktap, .check = aw_check_ktap },
	{ .name = "json", .run = json_run, .diff = aw_diff_json, .check = aw_check_json },
	{ .name = "kcidb", .run = kcidb_run, .several = kcidb_several },
	{ .name = "html", .several = html_several },
};

static bool writes(const struct aw_format *f, enum aw_format_op op)
{
	switch (op) {
	case AW_WRITES_RUN: return f->stream_begin || f->run;
	case AW_WRITES_DIFF: return f->diff;
	case AW_WRITES_CHECK: return f->check;
	case AW_WRITES_SEVERAL: return f->several;
	}
	return false;
}

/* "a, b or c" of the formats that write what op says (malloc'd). */
static char *names_of(enum aw_format_op op)
{
	char *out = NULL;
	const char *last = NULL;
	for (size_t i = 0; i < AW_ARRAY_SIZE(formats); i++) {
		if (!writes(&formats[i], op))
			continue;
		if (last) {
			char *more = out ? xasprintf("%s, %s", out, last) : xstrdup(last);
			free(out);
			out = more;
		}
		last = formats[i].name;
	}
	char *all = out ? xasprintf("%s or %s", out, last) : xstrdup(last ? last : "");
	free(out);
	return all;
}

const struct aw_format *aw_format_find(const char *name, enum aw_format_op op, char **names)
{
	for (size_t i = 0; i < AW_ARRAY_SIZE(formats); i++)
		if (strcmp(formats[i].name, name) == 0 && writes(&formats[i], op))
			return &formats[i];
	if (names)
		*names = names_of(op);
	return NULL;
}

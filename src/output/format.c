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

/* In the order a usage error lists them. */
static const struct aw_format formats[] = {
	{ .name = "text", .run = text_run, .diff = aw_diff_text, .check = aw_check_text },
	{ .name = "ktap", .streams_run = true, .diff = aw_diff_ktap, .check = aw_check_ktap },
	{ .name = "json", .run = json_run, .diff = aw_diff_json, .check = aw_check_json },
	{ .name = "kcidb", .run = kcidb_run },
};

static bool writes(const struct aw_format *f, enum aw_format_op op)
{
	switch (op) {
	case AW_WRITES_RUN: return f->streams_run || f->run;
	case AW_WRITES_DIFF: return f->diff;
	case AW_WRITES_CHECK: return f->check;
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

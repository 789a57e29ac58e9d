/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Snapshots side by side as one static HTML page (`abiwatch report`):
 * a column per snapshot (kernel), a row per check and observation,
 * grouped by family and probe (for dirent, a probe per backend), each
 * cell marked when it differs from the column to its left, each row
 * linked to its entry in the catalogue.  CSS inline, no script, nothing
 * fetched: the file is the whole page.
 */
#ifndef ABIWATCH_HTML_REPORT_H
#define ABIWATCH_HTML_REPORT_H

#include "model/snapshot.h"

#include <stdbool.h>
#include <stdio.h>

struct aw_report_column {
	const char *file;          /* as given, for the header */
	struct aw_snapshot snap;
};

struct aw_report_opts {
	struct aw_report_column *cols;
	size_t ncols;
	/* Where rows link to: the catalogue's address (a relative path or a
	 * URL), "#anchor" appended. */
	const char *catalogue_href;
	/* docs/catalogue.md's text, to link a row to the heading that
	 * documents it (grouped headings included); NULL: anchors made
	 * from item names alone. */
	const char *catalogue_text;
	const char *title;
	bool changed_only;         /* only the rows where something changed */
};

/* Counts, for the command's summary line. */
struct aw_report_stats {
	size_t rows, changed_rows, changed_cells;
};

void aw_html_report(FILE *out, const struct aw_report_opts *o, struct aw_report_stats *stats);

/* GitHub's anchor of a Markdown heading's text: lower case, only letters,
 * digits, '_', '-' and spaces kept, spaces as '-'.  malloc'd. */
char *aw_heading_anchor(const char *heading);

#endif

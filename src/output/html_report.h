/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Snapshots side by side as one static HTML page (`abiwatch report`):
 * first a table of kernel changes by family and neighbouring pair, then
 * each pair's changes as diff ranks and groups them (by object, folded
 * with <details>), then a column per snapshot (kernel), a row per check
 * and observation that differs (every one with --all),
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
	/* Only the rows where a neighbour differs (abiwatch report's
	 * default, so that the page grows with the changes, not with every
	 * row of every snapshot); false: every row (--all). */
	bool changed_only;
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

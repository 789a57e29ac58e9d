/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Snapshots side by side as one static HTML page (`abiwatch report`):
 * first a table of kernel changes by family and neighbouring pair, then
 * each pair's changes as diff ranks and groups them (by object, folded
 * with <details>), then a column per snapshot (kernel), a row per check
 * and observation that differs (every one with --all),
 * grouped by family and probe (for dirent, a probe per backend), each
 * cell marked when it differs from the column to its left, each row
 * linked to its catalogue entry, which the page carries at its end (each
 * entry the rows use, once: what it means, why programs care, its
 * sources), so that the links hold wherever the file is copied.  CSS
 * inline, no script, nothing fetched: the file is the whole page.
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
	/* docs/catalogue.md's text (catalogue_doc.h reads it): the entries
	 * rows link to, which the page carries; NULL: no row links, and the
	 * page says why with catalogue_missing ("no catalogue file ..."). */
	const char *catalogue_text;
	size_t catalogue_len;
	const char *catalogue_missing;
	/* Where the whole catalogue is (a URL): each embedded entry links to
	 * its heading there, "#anchor" appended; NULL: no such link. */
	const char *catalogue_url;
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

#endif

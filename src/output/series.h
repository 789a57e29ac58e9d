/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The series view (model/series.h) written out: its words, shared by
 * matrix.txt's series section (series_text.c) and the report's first
 * screen (html_series.c), so that both say the same.
 */
#ifndef ABIWATCH_OUTPUT_SERIES_H
#define ABIWATCH_OUTPUT_SERIES_H

#include "model/series.h"

#include <stdio.h>

/* A row's value nth as a short name: "a" ... "z", then "v27", ... */
void aw_series_value_name(size_t nth, char *buf, size_t size);
/* The value at column col (a cell with a value) as the series shows it:
 * a set of names as what moved from the previous kernel with a value
 * ("31 -> 33: +memory.peak -x"), anything else whole (malloc'd). */
char *aw_series_value_words(const struct aw_series_row *r, size_t col);

/* matrix.txt's series section, after the line per kernel: every line a
 * comment ('#'), so that what reads the kernels' lines reads on.  labels:
 * one per column.  Nothing when the series has fewer than two kernels. */
void aw_series_text(FILE *out, const struct aw_series *s, const char *const *labels);

/* The report's first screen (html_series.c): per neighbouring pair its
 * behaviour changes and their objects, each linked to the pair's
 * changes on the page (#pair-C, #pair-C-FAMILY, which the report's
 * pairs carry), then the table of the items that changed: a column per
 * kernel, a cell per value, where each value first appears marked, the
 * flapping rows marked as defects.  labels: the columns' names. */
void aw_html_series(FILE *out, const struct aw_series *s, const char *const *labels);
/* Its style, which the page's <style> carries. */
extern const char aw_html_series_css[];

#endif

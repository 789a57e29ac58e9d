// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The series in matrix.txt: the kernels numbered k1, k2, ... in version
 * order; per neighbouring pair, its behaviour changes and their objects;
 * then a line per item the kernel changed, a short name per cell for its
 * value ("." absent, "-" not observed, "*" where a value first appears),
 * each value spelled out below its row, so that fourteen kernels fit on
 * a line whatever the values.
 */
#include "series.h"
#include "diff.h"
#include "lib/util.h"

#include <stdlib.h>
#include <string.h>

/* Objects a pair's line names, at most (the pair's .diff has them all). */
#define PAIR_SHOWN 8

void aw_series_value_name(size_t nth, char *buf, size_t size)
{
	if (nth < 26)
		snprintf(buf, size, "%c", (char)('a' + nth));
	else
		snprintf(buf, size, "v%zu", nth + 1);
}

char *aw_series_value_words(const struct aw_series_row *r, size_t col)
{
	const char *v = r->cells[col].value;
	for (size_t c = col; c-- > 0;)
		if (r->cells[c].state == AW_SERIES_VALUE) {
			char *delta = aw_diff_set_delta(r->cells[c].value, v);
			return delta ? delta : xstrdup(v);
		}
	return xstrdup(v);
}

/* "k2 -> k3: 2 behaviour changes: a, b; 46 appeared; 1 flapping: x" */
static void pair_line(FILE *out, const struct aw_series_pair *p, size_t c)
{
	fprintf(out, "#   k%zu -> k%zu: %zu behaviour change%s", c, c + 1, p->changes,
		p->changes == 1 ? "" : "s");
	size_t shown = 0;
	for (size_t i = 0; i < p->nobjects; i++) {
		const struct aw_series_object *o = &p->objects[i];
		if (o->flapping || o->appeared)
			continue;
		if (shown < PAIR_SHOWN)
			fprintf(out, "%s%s", shown ? ", " : ": ", o->name);
		shown++;
	}
	if (shown > PAIR_SHOWN)
		fprintf(out, " and %zu more", shown - PAIR_SHOWN);
	if (p->appeared)
		fprintf(out, "; %zu appeared", p->appeared);
	if (p->flapping) {
		fprintf(out, "; %zu flapping (not counted):", p->flapping);
		for (size_t i = 0; i < p->nobjects; i++)
			if (p->objects[i].flapping)
				fprintf(out, " %s", p->objects[i].name);
	}
	fputc('\n', out);
}

/* A cell as its row shows it, padded to width. */
static void put_cell(FILE *out, const struct aw_series_cell *cell, int width)
{
	char name[24] = "";
	if (cell->state == AW_SERIES_ABSENT)
		snprintf(name, sizeof(name), ".");
	else if (cell->state == AW_SERIES_UNOBSERVED)
		snprintf(name, sizeof(name), "-");
	else
		aw_series_value_name(cell->nth, name, sizeof(name) - 1);
	if (cell->first)
		strcat(name, "*");
	fprintf(out, " %-*s", width, name);
}

/* The row, then each of its values: "a = short write: 1 of 2 bytes",
 * "b = accepted (first in k3)"; a set as what moved from the value
 * before. */
static void item_row(FILE *out, const struct aw_series_row *r, size_t ncols, int keyw, int colw)
{
	fprintf(out, "# %-*s", keyw, r->key);
	for (size_t c = 0; c < ncols; c++)
		put_cell(out, &r->cells[c], colw);
	if (r->flapping)
		fputs("  FLAPPING: a value came back; a defect of the measurement, not a change", out);
	fputc('\n', out);
	for (size_t k = 0; k < r->nvalues; k++) {
		size_t col = r->value_cols[k];
		char name[24];
		aw_series_value_name(k, name, sizeof(name));
		char *words = aw_series_value_words(r, col);
		fprintf(out, "#     %s = %s", name, words);
		if (r->cells[col].first)
			fprintf(out, "  (first in k%zu)", col + 1);
		fputc('\n', out);
		free(words);
	}
}

void aw_series_text(FILE *out, const struct aw_series *s, const char *const *labels)
{
	if (s->ncols < 2)
		return;
	fprintf(out, "#\n# series: %zu kernels in version order, %zu behaviour change%s between "
		"neighbours, %zu item%s changed, %zu flapping\n", s->ncols, s->changes,
		s->changes == 1 ? "" : "s", s->nrows, s->nrows == 1 ? "" : "s", s->nflapping);
	for (size_t c = 0; c < s->ncols; c++)
		fprintf(out, "#   k%zu %s\n", c + 1, labels[c]);
	fputs("# pairs (each pair's changes in full: OLD--NEW.diff):\n", out);
	for (size_t c = 0; c + 1 < s->ncols; c++)
		pair_line(out, &s->pairs[c], c + 1);
	if (!s->nrows)
		return;
	int keyw = 4, colw = (int)snprintf(NULL, 0, "k%zu", s->ncols) + 1;
	for (size_t i = 0; i < s->nrows; i++)
		if (s->rows[i].nvalues > 1 && (int)strlen(s->rows[i].key) > keyw)
			keyw = (int)strlen(s->rows[i].key);
	if (s->npresence == s->nrows)
		return;
	fprintf(out, "# items whose value moved (a, b, ...: its values; . absent; - not observed; * "
		"where a value first appears); %zu more only appeared, vanished or went unobserved "
		"(their objects are in the pairs' lines):\n", s->npresence);
	fprintf(out, "# %-*s", keyw, "item");
	for (size_t c = 0; c < s->ncols; c++) {
		char k[24];
		snprintf(k, sizeof(k), "k%zu", c + 1);
		fprintf(out, " %-*s", colw, k);
	}
	fputc('\n', out);
	for (size_t i = 0; i < s->nrows; i++)
		if (s->rows[i].nvalues > 1)
			item_row(out, &s->rows[i], s->ncols, keyw, colw);
}

// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The series on the report's first screen: see series.h.  A long value
 * is written where it first appears or changes, and as "=" where it
 * stays, so that a row of fourteen kernels stays readable and the page
 * small; a set of names shows what moved from its left (the whole value
 * in the cell's title).
 */
#include "html_escape.h"
#include "series.h"
#include "lib/util.h"

#include <stdlib.h>
#include <string.h>

/* Values no longer than this are repeated in every cell. */
#define SHORT_VALUE 24
/* Rows beyond which the items table starts folded, so that the pairs and
 * the page's own tables stay on the first screens. */
#define OPEN_ROWS 40
/* Objects a pair's row names, at most, so that a branch's hundred
 * changes leave the other pairs on the first screen. */
#define PAIR_SHOWN 10

const char aw_html_series_css[] =
	"table.series-pairs td.n{text-align:right;font-weight:600}"
	"table.series-pairs td.zero{color:#2a6a2a;font-weight:normal}"
	"table.series-pairs .obj{display:inline-block;margin:0 .5em .1em 0}"
	".flap{background:#fde2e2;color:#7a0d0d;padding:0 .3em;border-radius:3px}"
	"table.series td{max-width:16em}table.series td.same{color:#666}"
	"table.series td.first{background:#fff4d6;font-weight:600}"
	"table.series td.first::before{content:'new ';font-size:.75em;color:#8a4b00}"
	"table.series tr.flapping th{background:#fde2e2}";

/* "sysctl.knob.x, ...": the pair's behaviour changes, each linked to its
 * family's first change in the pair. */
static void pair_objects(FILE *out, const struct aw_series_pair *p, size_t col)
{
	size_t shown = 0, hidden = 0;
	for (size_t i = 0; i < p->nobjects; i++) {
		const struct aw_series_object *o = &p->objects[i];
		if (o->appeared && !o->flapping)
			continue;
		if (!o->flapping && shown >= PAIR_SHOWN) {
			hidden++;
			continue;
		}
		shown += !o->flapping;
		fprintf(out, "<a class=\"obj%s\" href=\"#pair-%zu-", o->flapping ? " flap" : "", col);
		aw_html_escape(out, o->family);
		fputs("\">", out);
		aw_html_escape(out, o->name);
		fputs(o->flapping ? " (flapping: not counted)</a>" : "</a>", out);
	}
	if (hidden)
		fprintf(out, "<a class=\"obj\" href=\"#pair-%zu\">and %zu more</a>", col, hidden);
	if (p->appeared)
		fprintf(out, "<a class=\"obj\" href=\"#pair-%zu\">+%zu appeared</a>", col, p->appeared);
}

static void pairs_table(FILE *out, const struct aw_series *s, const char *const *labels)
{
	fputs("<div class=\"scroll\"><table class=\"series-pairs\" id=\"series-pairs\">\n<thead><tr><th>update</th>"
	      "<th>behaviour changes</th><th>objects (each linked to its changes)</th></tr></thead>\n"
	      "<tbody>\n", out);
	for (size_t c = 1; c < s->ncols; c++) {
		const struct aw_series_pair *p = &s->pairs[c - 1];
		fprintf(out, "<tr id=\"series-pair-%zu\"><th><a href=\"#pair-%zu\">", c, c);
		aw_html_escape(out, labels[c - 1]);
		fputs(" &#8594; ", out);
		aw_html_escape(out, labels[c]);
		fprintf(out, "</a></th><td class=\"n%s\">%zu</td><td>", p->changes ? "" : " zero",
			p->changes);
		pair_objects(out, p, c);
		fputs("</td></tr>\n", out);
	}
	fputs("</tbody>\n</table></div>\n", out);
}

static void value_cell(FILE *out, const struct aw_series_row *r, size_t c)
{
	const struct aw_series_cell *cell = &r->cells[c];
	if (cell->state != AW_SERIES_VALUE) {
		fprintf(out, "<td class=\"%s\"", cell->state == AW_SERIES_ABSENT ? "absent" : "unobserved");
		if (cell->value) {
			fputs(" title=\"", out);
			aw_html_escape(out, cell->value);
			fputc('"', out);
		}
		fputs(cell->state == AW_SERIES_ABSENT ? ">absent</td>" : ">not observed</td>", out);
		return;
	}
	bool moved = r->value_cols[cell->nth] == c, shortv = strlen(cell->value) <= SHORT_VALUE;
	if (!moved) /* the same as the kernel with a value before, or back */
		for (size_t k = c; k-- > 0;)
			if (r->cells[k].state == AW_SERIES_VALUE) {
				moved = r->cells[k].nth != cell->nth;
				break;
			}
	bool start = cell->nth == 0 && r->value_cols[0] == c; /* the row's first value */
	fprintf(out, "<td class=\"%s\"", cell->first ? "first" : start ? "start" : moved ? "moved" : "same");
	if (!moved || shortv) { /* the value itself, or "=": the same as on its left */
		fputc('>', out);
		aw_html_escape(out, shortv ? cell->value : "=");
	} else { /* what moved, the whole value in its title */
		char *words = aw_series_value_words(r, c);
		if (strcmp(words, cell->value) != 0) {
			fputs(" title=\"", out);
			aw_html_escape(out, cell->value);
			fputc('"', out);
		}
		fputc('>', out);
		aw_html_escape(out, words);
		free(words);
	}
	fputs("</td>", out);
}

static void items_table(FILE *out, const struct aw_series *s, const char *const *labels)
{
	size_t shown = s->nrows - s->npresence;
	fprintf(out, "<details class=\"series\"%s><summary>The %zu item%s whose value the kernel "
		"changed, kernel by kernel (a new value marked where it first appears; %zu more only "
		"appeared, vanished or went unobserved: their objects are in the table above)"
		"</summary>\n<div class=\"scroll\"><table class=\"series\" id=\"series-table\">\n<thead><tr><th>item</th>",
		shown <= OPEN_ROWS ? " open" : "", shown, shown == 1 ? "" : "s", s->npresence);
	for (size_t c = 0; c < s->ncols; c++) {
		fputs("<th class=\"kernel\">", out);
		aw_html_escape(out, labels[c]);
		fputs("</th>", out);
	}
	fputs("</tr></thead>\n<tbody>\n", out);
	for (size_t i = 0; i < s->nrows; i++) {
		const struct aw_series_row *r = &s->rows[i];
		if (r->nvalues < 2)
			continue;
		fprintf(out, "<tr%s id=\"series-", r->flapping ? " class=\"flapping\"" : "");
		aw_html_escape(out, r->key);
		fputs("\"><th class=\"item\">", out);
		aw_html_escape(out, r->key);
		if (r->flapping)
			fputs(" <span class=\"flap\">flapping: a value came back; a defect of the "
			      "measurement, not a change</span>", out);
		fputs("</th>", out);
		for (size_t c = 0; c < s->ncols; c++)
			value_cell(out, r, c);
		fputs("</tr>\n", out);
	}
	fputs("</tbody>\n</table></div>\n</details>\n", out);
}

void aw_html_series(FILE *out, const struct aw_series *s, const char *const *labels)
{
	if (s->ncols < 2)
		return;
	fprintf(out, "<h2 id=\"series\">The series: what each update changed</h2>\n"
		"<p class=\"meta\" id=\"series-summary\">%zu kernels in version order: "
		"<b>%zu behaviour change%s</b> between neighbours; %zu item%s changed; "
		"<span class=\"%s\">%zu flapping</span> (a value that came back: a defect, not "
		"counted).</p>\n", s->ncols, s->changes, s->changes == 1 ? "" : "s", s->nrows,
		s->nrows == 1 ? "" : "s", s->nflapping ? "flap" : "", s->nflapping);
	pairs_table(out, s, labels);
	if (s->nrows > s->npresence)
		items_table(out, s, labels);
}

// SPDX-License-Identifier: GPL-2.0-or-later
/* Snapshots side by side as one static HTML page: see html_report.h. */
#include "catalogue_doc.h"
#include "html_escape.h"
#include "html_report.h"
#include "output/diff.h"
#include "output/series.h"
#include "core/env.h"
#include "core/registry.h"
#include "lib/util.h"

#include <stdlib.h>
#include <string.h>

enum row_kind { ROW_PROBE, ROW_CHECK, ROW_OBS };

/* The catalogue as read, and which of its entries the rows link to: the
 * ones the page carries. */
struct links {
	struct aw_catdoc doc;
	bool *used; /* one per entry */
};

enum cell_kind { CELL_ABSENT, CELL_CHECK, CELL_OBS, CELL_UNOBSERVED, CELL_PROBE };

struct cell {
	enum cell_kind kind;
	const struct aw_record *rec; /* the snapshot's, NULL when absent */
};

struct row {
	char *name;        /* family.probe[.item] */
	char *family, *probe;
	enum row_kind kind;
	long frank, prank, irank; /* declaration order; LONG_MAX: unknown */
	const char *summary;
	struct cell *cells;
	bool changed;
};

struct model {
	struct row *rows;
	size_t n;
	size_t ncols;
	/* The rows other than probes' by name (then by their place in
	 * rows), for finding a change's row without a scan per change. */
	const struct row **by_name;
	size_t nnamed;
};

/* ---- declaration order and summaries, from the registry ---- */

struct known {
	long frank, prank, irank;
	const char *summary;
	bool found;
};

/* The entry of name if it is of that kind, for its rank. */
static const struct aw_catalogue_entry *entry(const char *name, bool probe, bool item)
{
	const struct aw_catalogue_entry *e = name ? aw_catalogue_find(name) : NULL;
	return e && (e->ref.probe != NULL) == probe && (e->item != NULL) == item ? e : NULL;
}

/* The ranks of a family, its probe ("family.probe") and its item (the
 * full name), each as far as the catalogue knows them, and the summary of
 * the last one asked for.  NULL probe: the family's; NULL item: the
 * probe's. */
static struct known lookup(const char *family, const char *probe, const char *item)
{
	struct known k = { .frank = 1L << 30, .prank = 1L << 30, .irank = 1L << 30 };
	const struct aw_catalogue_entry *f = entry(family, false, false);
	const struct aw_catalogue_entry *p = f ? entry(probe, true, false) : NULL;
	const struct aw_catalogue_entry *i = p ? entry(item, true, true) : NULL;
	const struct aw_catalogue_entry *asked = item ? i : probe ? p : f;

	k.frank = f ? (long)f->rank : k.frank;
	k.prank = p ? (long)p->rank : k.prank;
	k.irank = i ? (long)i->rank : k.irank;
	k.summary = asked ? asked->summary : NULL;
	k.found = asked != NULL;
	return k;
}

/* ---- the model ---- */

static struct row *new_row(struct model *m, const char *name, enum row_kind kind)
{
	m->rows = xgrow(m->rows, m->n, sizeof(*m->rows));
	struct row *r = &m->rows[m->n++];
	memset(r, 0, sizeof(*r));
	r->name = xstrdup(name);
	r->kind = kind;
	r->cells = xcalloc(m->ncols, sizeof(*r->cells));
	/* family.probe[.item...] */
	const char *dot = strchr(name, '.');
	r->family = dot ? strndup(name, (size_t)(dot - name)) : xstrdup(name);
	const char *dot2 = dot ? strchr(dot + 1, '.') : NULL;
	r->probe = dot ? (dot2 ? strndup(name, (size_t)(dot2 - name)) : xstrdup(name)) : xstrdup(name);
	if (!r->family || !r->probe)
		abort();
	struct known k = lookup(r->family, r->probe, kind == ROW_PROBE ? NULL : name);
	r->frank = k.frank;
	r->prank = k.prank;
	r->irank = kind == ROW_PROBE ? -1 : k.irank;
	r->summary = k.found ? k.summary : NULL;
	return r;
}

static int by_order(const void *a, const void *b)
{
	const struct row *x = a, *y = b;
	int c;
	if (x->frank != y->frank)
		return x->frank < y->frank ? -1 : 1;
	if ((c = strcmp(x->family, y->family)))
		return c;
	if (x->prank != y->prank)
		return x->prank < y->prank ? -1 : 1;
	if ((c = strcmp(x->probe, y->probe)))
		return c;
	if (x->irank != y->irank)
		return x->irank < y->irank ? -1 : 1;
	return strcmp(x->name, y->name);
}

static bool same_cell(const struct cell *a, const struct cell *b)
{
	if (a->kind != b->kind)
		return false;
	if (a->kind == CELL_ABSENT)
		return true;
	return strcmp(a->rec->value, b->rec->value) == 0;
}

/* The row and cell a record makes; false for env.* and other keys. */
static bool place(enum aw_key_class cls, enum row_kind *row, enum cell_kind *cell)
{
	switch (cls) {
	case AW_KEY_CHECK: *row = ROW_CHECK; *cell = CELL_CHECK; return true;
	case AW_KEY_OBS: *row = ROW_OBS; *cell = CELL_OBS; return true;
	case AW_KEY_UNOBSERVED: *row = ROW_OBS; *cell = CELL_UNOBSERVED; return true;
	case AW_KEY_PROBE: *row = ROW_PROBE; *cell = CELL_PROBE; return true;
	case AW_KEY_ENV:
	case AW_KEY_OTHER: break;
	}
	return false;
}

/* A record with the row and cell it makes, and its place among all the
 * columns' records, for gathering each row's cells in one sort. */
struct placed {
	const struct aw_record *rec;
	enum row_kind row;
	enum cell_kind cell;
	size_t col, seq;
};

static int by_row_then_seq(const void *a, const void *b)
{
	const struct placed *x = a, *y = b;
	if (x->row != y->row)
		return x->row < y->row ? -1 : 1;
	int c = strcmp(x->rec->name, y->rec->name);
	if (c)
		return c;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static int by_name_then_place(const void *a, const void *b)
{
	const struct row *x = *(const struct row *const *)a, *y = *(const struct row *const *)b;
	int c = strcmp(x->name, y->name);
	return c ? c : x < y ? -1 : x > y;
}

static void index_names(struct model *m)
{
	m->by_name = xcalloc(m->n + 1, sizeof(*m->by_name));
	for (size_t i = 0; i < m->n; i++)
		if (m->rows[i].kind != ROW_PROBE)
			m->by_name[m->nnamed++] = &m->rows[i];
	qsort(m->by_name, m->nnamed, sizeof(*m->by_name), by_name_then_place);
}

/* Every record of every column placed, sorted so that a row's records
 * are neighbours (a later record of a row's column, as before, wins). */
static struct placed *place_all(const struct aw_report_opts *o, size_t *n)
{
	size_t total = 0;
	for (size_t c = 0; c < o->ncols; c++)
		total += o->cols[c].snap.n;
	struct placed *p = xcalloc(total + 1, sizeof(*p));
	*n = 0;
	for (size_t c = 0; c < o->ncols; c++) {
		const struct aw_snapshot *s = &o->cols[c].snap;
		for (size_t i = 0; i < s->n; i++) {
			struct placed *e = &p[*n];
			if (!place(s->records[i].cls, &e->row, &e->cell))
				continue;
			e->rec = &s->records[i];
			e->col = c;
			e->seq = (*n)++;
		}
	}
	qsort(p, *n, sizeof(*p), by_row_then_seq);
	return p;
}

static void build(struct model *m, const struct aw_report_opts *o)
{
	memset(m, 0, sizeof(*m));
	m->ncols = o->ncols;
	size_t n;
	struct placed *p = place_all(o, &n);
	for (size_t i = 0; i < n;) {
		struct row *r = new_row(m, p[i].rec->name, p[i].row);
		size_t j = i;
		for (; j < n && p[j].row == p[i].row && strcmp(p[j].rec->name, p[i].rec->name) == 0; j++)
			r->cells[p[j].col] = (struct cell){ p[j].cell, p[j].rec };
		i = j;
	}
	free(p);
	qsort(m->rows, m->n, sizeof(*m->rows), by_order);
	for (size_t i = 0; i < m->n; i++)
		for (size_t c = 1; c < m->ncols; c++)
			if (!same_cell(&m->rows[i].cells[c], &m->rows[i].cells[c - 1]))
				m->rows[i].changed = true;
	index_names(m);
}

static void free_model(struct model *m)
{
	for (size_t i = 0; i < m->n; i++) {
		free(m->rows[i].name);
		free(m->rows[i].family);
		free(m->rows[i].probe);
		free(m->rows[i].cells);
	}
	free(m->rows);
	free(m->by_name);
}

/* ---- HTML ---- */

static void esc_n(FILE *out, const char *s, size_t n)
{
	char *t = strndup(s, n);
	if (!t)
		abort();
	aw_html_escape(out, t);
	free(t);
}

static const char css[] =
	"body{font:14px/1.35 system-ui,-apple-system,'Segoe UI',sans-serif;margin:1.5em;color:#1d1d1f}"
	"h1{font-size:1.4em;margin:0 0 .2em}h2{font-size:1.15em;margin:1.2em 0 .4em}"
	"details.changes{margin:.3em 0}details.changes summary{font-weight:600;cursor:pointer}"
	"details.changes li{font-size:.92em}code{font-family:ui-monospace,Menlo,Consolas,monospace}"
	"p.meta{color:#555;margin:.2em 0 1em}"
	"table{border-collapse:collapse}"
	"th,td{border:1px solid #d0d0d5;padding:.25em .5em;vertical-align:top;text-align:left}"
	"thead th{position:sticky;top:0;background:#f4f4f8;z-index:1}"
	"thead th.kernel{min-width:11em}"
	"thead .where,thead .file{font-weight:normal;color:#555;font-size:.85em;display:block}"
	"table.env th{background:#f4f4f8;font-weight:normal}"
	"tr.family th{background:#2f3b52;color:#fff;font-size:1.05em;padding:.45em .5em}"
	"tr.family th a{color:#fff}"
	"tr.probe th,tr.probe td{background:#e6e9f2}"
	"tr.probe th{font-weight:600}"
	"th.item{font-weight:normal;font-family:ui-monospace,Menlo,Consolas,monospace;font-size:.92em}"
	"th.item .kind{font-family:system-ui,sans-serif;font-size:.75em;color:#666;margin-left:.4em}"
	"a{color:#1f4fa8;text-decoration:none}a:hover{text-decoration:underline}"
	"td{font-family:ui-monospace,Menlo,Consolas,monospace;font-size:.92em;max-width:26em;overflow-wrap:anywhere}"
	"td .why{display:block;font-family:system-ui,sans-serif;font-size:.8em;color:#555}"
	"td.pass{background:#e7f6ea}td.fail{background:#fbe1e1;color:#8a1010;font-weight:600}"
	"td.skip{background:#f3f3f3;color:#555}td.error,td.timeout{background:#fdebd3;color:#8a4b00}"
	"td.absent{background:#fafafa;color:#666}td.unobserved{background:#f3f3f3;color:#555}"
	"td.changed{outline:3px solid #e0a000;outline-offset:-3px}"
	"td.changed::before{content:'\\25B2 ';color:#8a5000}"
	"tr.changed th.item{background:#fff4d6}"
	".legend span{display:inline-block;padding:.1em .5em;margin-right:.4em;border:1px solid #d0d0d5}"
	"section.pair{margin:.4em 0 1em;padding:.4em .8em;border-left:4px solid #2f3b52;background:#fafafe}"
	"section.pair h3{font-size:1.05em;margin:.2em 0}p.pair-summary{margin:.2em 0 .5em;font-weight:600}"
	"ul.kernel-changes{margin:.2em 0 .6em;padding-left:1.2em}"
	"li.kernel-change{font-size:1.02em;margin:.2em 0;padding:.25em .4em;background:#fff4d6;"
	"border-left:4px solid #e0a000;list-style:none}"
	"li.kernel-change .meaning{display:block;color:#444;font-size:.88em}"
	"p.no-kernel-change{color:#2a6a2a;font-weight:600}"
	"details.cause{margin:.15em 0;color:#555}details.cause summary{cursor:pointer}"
	"details.cause li{font-size:.85em}"
	"details.rank{margin:.3em 0}details.rank summary{font-weight:600;cursor:pointer}"
	"li.kernel-change .kind{font-size:.8em;color:#8a4b00;text-transform:uppercase;margin-right:.3em}"
	"li.kernel-change[data-rank=appeared]{background:#eef6ee;border-left-color:#5a9a5a}"
	"table.summary td.count{font-family:system-ui,sans-serif}table.summary tr.total{background:#f4f4f8}"
	"dl.catalogue dt{font-family:ui-monospace,Menlo,Consolas,monospace;font-weight:600;margin-top:.7em}"
	"dl.catalogue dt:target{background:#fff4d6}dl.catalogue dd{margin:.1em 0 0 1.2em;max-width:50em}"
	"dl.catalogue p{margin:.15em 0}dl.catalogue p.sources{color:#555;font-size:.9em}"
	/* A phone: the tables scroll inside their box, not the page, and a
	 * row's name takes at most 40% of the screen. */
	"div.scroll{max-width:100%;overflow-x:auto}"
	"@media (max-width:700px){body{margin:.6em}"
	"table.results th.item,table.results tr.probe th{max-width:40vw;overflow-wrap:anywhere}"
	"thead th.kernel{min-width:7em}td{max-width:60vw}}";

/* The class of a cell: its status for checks and probes (a probe that
 * ran is a pass), else what it is. */
static const char *cell_class(const struct cell *c)
{
	switch (c->kind) {
	case CELL_CHECK:
	case CELL_PROBE: return aw_status_name(c->rec->status);
	case CELL_OBS: return "obs";
	case CELL_UNOBSERVED: return "unobserved";
	case CELL_ABSENT: break;
	}
	return "absent";
}

/* The reason below the status, cut at 90 bytes; an unobserved cell's
 * names its status too. */
static void write_why(FILE *out, const struct cell *c)
{
	const char *why = c->rec->reason;
	size_t l = strlen(why);
	fputs("<span class=\"why\">", out);
	if (c->kind == CELL_UNOBSERVED) {
		aw_html_escape(out, aw_status_name(c->rec->status));
		fputs(": ", out);
	}
	esc_n(out, why, l > 90 ? 90 : l);
	if (l > 90)
		fputs("\xe2\x80\xa6", out);
	fputs("</span>", out);
}

/* The cell: a check's status (its reason below), an observation's value. */
static void write_cell(FILE *out, const struct cell *c, bool changed, size_t col)
{
	fprintf(out, "<td class=\"%s%s\" data-col=\"%zu\"", cell_class(c), changed ? " changed" : "",
		col);
	if (c->rec && c->kind != CELL_OBS) {
		fputs(" title=\"", out);
		aw_html_escape(out, c->rec->value);
		fputc('"', out);
	}
	fputc('>', out);
	if (c->kind == CELL_ABSENT) {
		fputs("absent", out);
	} else if (c->kind == CELL_OBS) {
		fputs("<span class=\"v\">", out);
		aw_html_escape(out, c->rec->value);
		fputs("</span>", out);
	} else {
		enum aw_subject of = c->kind == CELL_PROBE ? AW_OF_PROBE : AW_OF_CHECK;
		aw_html_escape(out, c->kind == CELL_UNOBSERVED ? "unobserved" : aw_status_word(c->rec->status, of));
		if (c->rec->reason)
			write_why(out, c);
	}
	fputs("</td>", out);
}

/* "lacks cap_x" against the union of every column's capabilities. */
static char *caps_summary(const struct aw_report_opts *o, size_t col)
{
	const char *mine = aw_snapshot_get(&o->cols[col].snap, "env.caps");
	char *lacks = xstrdup("");
	size_t nlack = 0, total = 0;
	for (size_t c = 0; c < o->ncols; c++) {
		const char *theirs = aw_snapshot_get(&o->cols[c].snap, "env.caps");
		char *copy = xstrdup(theirs ? theirs : ""), *save = NULL;
		for (char *cap = strtok_r(copy, ",", &save); cap; cap = strtok_r(NULL, ",", &save)) {
			char *pat = xasprintf(",%s,", cap), *have = xasprintf(",%s,", mine ? mine : "");
			bool held = strstr(have, pat) != NULL;
			char *seen = xasprintf(",%s,", lacks);
			bool listed = strstr(seen, pat) != NULL;
			if (!held && !listed) {
				char *old = lacks;
				lacks = xasprintf("%s%s%s", old, *old ? "," : "", cap);
				free(old);
				nlack++;
			}
			free(pat);
			free(have);
			free(seen);
		}
		free(copy);
	}
	char *copy = xstrdup(mine ? mine : ""), *save = NULL;
	for (char *cap = strtok_r(copy, ",", &save); cap; cap = strtok_r(NULL, ",", &save))
		if (strcmp(cap, "none") != 0)
			total++;
	free(copy);
	char *out = nlack ? xasprintf("%zu capabilities; lacks %s", total, lacks)
			  : xasprintf("%zu capabilities", total);
	free(lacks);
	return out;
}

static void write_head(FILE *out, const struct aw_report_opts *o, const struct links *l,
		       const struct aw_report_stats *st)
{
	const char *title = o->title ? o->title : "abiwatch report";
	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
	      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
	      "<meta name=\"generator\" content=\"abiwatch " ABIWATCH_VERSION "\">\n<title>", out);
	aw_html_escape(out, title);
	fprintf(out, "</title>\n<style>%s%s</style>\n</head>\n<body>\n<h1>", css, aw_html_series_css);
	aw_html_escape(out, title);
	fprintf(out, "</h1>\n<p class=\"meta\" id=\"summary\">%zu snapshots, %zu rows; "
		"<span id=\"changed-rows\">%zu</span> rows differ between neighbouring columns "
		"(<span id=\"changed-cells\">%zu</span> cells marked).", o->ncols, st->rows,
		st->changed_rows, st->changed_cells);
	if (l->doc.n) {
		fputs("  Each row links to its <a href=\"#catalogue\">catalogue entry</a>, at the end "
		      "of the page.</p>\n", out);
	} else {
		/* Said once, here: the rows are not linked. */
		fputs("</p>\n<p class=\"meta\" id=\"catalogue-missing\">Catalogue entries not "
		      "embedded: ", out);
		aw_html_escape(out, o->catalogue_missing ? o->catalogue_missing
			 : o->catalogue_text ? "the catalogue given has no entry headings"
			 : "no catalogue given");
		fputs(".</p>\n", out);
	}
	fputs("<p class=\"legend\"><span style=\"background:#e7f6ea\">pass</span>"
	      "<span style=\"background:#fbe1e1\">fail</span><span style=\"background:#f3f3f3\">skip"
	      "</span><span style=\"background:#fdebd3\">error / timeout</span>"
	      "<span style=\"outline:3px solid #e0a000;outline-offset:-3px\">&#9650; differs from the "
	      "column to its left</span></p>\n", out);
}

/* The environment of each column. */
static void write_environment(FILE *out, const struct aw_report_opts *o)
{
	static const char *const env_rows[][2] = {
		{ "env.kernel.version", "kernel build" }, { "env.arch", "architecture" },
		{ "env.abi", "abiwatch ABI" }, { "env.abiwatch.version", "abiwatch" },
		{ "env.i386", "i386 programs" }, { "env.userns", "user namespaces" },
		{ "env.fs", "filesystems" }, { "env.memory", "memory (bytes)" }, { "env.cpus", "CPUs" },
	};
	fputs("<div class=\"scroll\"><table class=\"env\" id=\"environment\">\n<tbody>\n", out);
	for (size_t r = 0; r < sizeof(env_rows) / sizeof(env_rows[0]); r++) {
		fprintf(out, "<tr><th>%s</th>", env_rows[r][1]);
		for (size_t c = 0; c < o->ncols; c++) {
			fputs("<td>", out);
			aw_html_escape(out, aw_snapshot_get(&o->cols[c].snap, env_rows[r][0]));
			fputs("</td>", out);
		}
		fputs("</tr>\n", out);
	}
	fputs("<tr><th>capabilities</th>", out);
	for (size_t c = 0; c < o->ncols; c++) {
		char *caps = caps_summary(o, c);
		fputs("<td title=\"", out);
		aw_html_escape(out, aw_snapshot_get(&o->cols[c].snap, "env.caps"));
		fputs("\">", out);
		aw_html_escape(out, caps);
		fputs("</td>", out);
		free(caps);
	}
	fputs("</tr>\n</tbody>\n</table></div>\n", out);
}

static void write_columns(FILE *out, const struct aw_report_opts *o)
{
	fputs("<thead>\n<tr><th>check / observation</th>", out);
	for (size_t c = 0; c < o->ncols; c++) {
		const struct aw_snapshot *s = &o->cols[c].snap;
		const char *rel = aw_snapshot_get(s, "env.kernel.release");
		const char *accel = aw_snapshot_get(s, "env.vm.accel");
		const char *base = strrchr(o->cols[c].file, '/');
		fprintf(out, "<th class=\"kernel\" data-col=\"%zu\"><span class=\"release\">", c);
		aw_html_escape(out, rel ? rel : "unknown kernel");
		fputs("</span><span class=\"where\">", out);
		if (accel) {
			fputs("VM (", out);
			aw_html_escape(out, accel);
			fputc(')', out);
		} else {
			fputs("this machine", out);
		}
		fputs("</span><span class=\"file\">", out);
		aw_html_escape(out, base ? base + 1 : o->cols[c].file);
		fputs("</span></th>", out);
	}
	fputs("</tr>\n</thead>\n", out);
}

/* A row's name, linked to its catalogue entry when the catalogue has one
 * (of level: 2 a family, 3 a probe, 4 an item), the entry marked used
 * for the page's end; never a link that leads nowhere. */
static void write_link(FILE *out, struct links *l, const char *name, int level, const char *text)
{
	const struct aw_catdoc_entry *e = l->doc.n ? aw_catdoc_find(&l->doc, name, level) : NULL;
	if (!e) {
		aw_html_escape(out, text);
		return;
	}
	l->used[e - l->doc.entries] = true;
	fputs("<a href=\"#cat-", out);
	aw_html_escape(out, e->id);
	fputs("\">", out);
	aw_html_escape(out, text);
	fputs("</a>", out);
}

static const char *column_name(const struct aw_report_opts *o, size_t c)
{
	const char *rel = aw_snapshot_get(&o->cols[c].snap, "env.kernel.release");
	return rel ? rel : o->cols[c].file;
}

/* The row a diff change belongs to: its name without the class prefix. */
static const char *row_id(const struct aw_diff_change *c)
{
	const char *dot = strchr(c->name, '.');
	return c->cls == AW_DIFF_OTHER || !dot ? c->name : dot + 1;
}

/* A value cut at 60 bytes; whole when cut is false. */
static void change_value(FILE *out, const char *v, bool cut)
{
	fputs("<code>", out);
	if (!v) {
		fputs("(absent)", out);
	} else {
		bool longer = cut && strlen(v) > 60;
		esc_n(out, v, longer ? 60 : strlen(v));
		if (longer)
			fputs("\xe2\x80\xa6", out);
	}
	fputs("</code>", out);
}

/* A change's values: what moved in a set, as the text diff says it
 * ("31 -> 33: +a -b"), else both values, cut at 60 bytes unless the cut
 * would make them look alike. */
static void change_values(FILE *out, const struct aw_diff_change *c)
{
	char *delta = aw_diff_set_delta(c->old_value, c->new_value);
	if (delta) {
		fputs("<code class=\"delta\">", out);
		aw_html_escape(out, delta);
		fputs("</code>", out);
		free(delta);
		return;
	}
	bool cut = !c->old_value || !c->new_value || strncmp(c->old_value, c->new_value, 60) != 0;
	change_value(out, c->old_value, cut);
	fputs(" &#8594; ", out);
	change_value(out, c->new_value, cut);
}

/* The rows the results table shows by default: those of kernel changes
 * other than interfaces that appeared (their values are in the pair's
 * list), sorted for bsearch. */
struct shown {
	char **names;
	size_t n;
};

static void add_shown(struct shown *sh, const struct aw_diff *d)
{
	for (size_t i = 0; i < d->nobjects; i++) {
		const struct aw_diff_object *ob = &d->objects[i];
		if (ob->rank == AW_RANK_APPEARED)
			continue;
		for (size_t j = 0; j < ob->n; j++) {
			sh->names = xgrow(sh->names, sh->n, sizeof(*sh->names));
			sh->names[sh->n++] = xstrdup(row_id(&d->changes[ob->changes[j]]));
		}
	}
}

static int by_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static bool is_shown(const struct shown *sh, const char *name)
{
	return sh->n && bsearch(&name, sh->names, sh->n, sizeof(*sh->names), by_str);
}

/* Whether the results table has a row of that name: the test of
 * aw_html_report's loop, so that a change links only to a row there. */
static bool row_shown(const struct aw_report_opts *o, const struct model *m,
		      const struct shown *sh, const struct row *r)
{
	return !o->changed_only || (r->changed && (m->ncols < 2 || is_shown(sh, r->name)));
}

static bool row_on_page(const struct aw_report_opts *o, const struct model *m,
			const struct shown *sh, const char *name)
{
	size_t lo = 0, hi = m->nnamed;
	while (lo < hi) { /* the first row of that name */
		size_t mid = lo + (hi - lo) / 2;
		if (strcmp(m->by_name[mid]->name, name) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < m->nnamed && strcmp(m->by_name[lo]->name, name) == 0 && row_shown(o, m, sh, m->by_name[lo]);
}

/* A kernel change: one object, its items and values on one line, its
 * meaning below; named by its key when it has one change, as diff's
 * KTAP does.  The first object of a family in a pair carries the anchor
 * the summary table links to. */
static void object_item(FILE *out, const struct aw_diff *d, const struct aw_diff_object *ob,
			size_t pair, bool first_of_family, bool row_linked)
{
	const struct aw_diff_change *c0 = &d->changes[ob->changes[0]];
	fputs("<li class=\"kernel-change\" data-name=\"", out);
	aw_html_escape(out, ob->n == 1 ? c0->name : ob->name);
	fprintf(out, "\" data-rank=\"%s\" data-family=\"", aw_diff_rank_name(ob->rank));
	aw_html_escape(out, ob->family);
	fputc('"', out);
	if (first_of_family) {
		fprintf(out, " id=\"pair-%zu-", pair);
		aw_html_escape(out, ob->family);
		fputc('"', out);
	}
	fprintf(out, "><span class=\"kind\">%s</span> ", aw_diff_object_kind(d, ob));
	/* Linked to its row when the results table has it (an interface
	 * that appeared has its value here, not a row). */
	if (row_linked) {
		fputs("<a href=\"#", out);
		aw_html_escape(out, row_id(c0));
		fputs("\">", out);
	}
	aw_html_escape(out, ob->n == 1 ? c0->name : ob->name);
	if (row_linked)
		fputs("</a>", out);
	for (size_t i = 0; i < ob->n; i++) {
		const struct aw_diff_change *c = &d->changes[ob->changes[i]];
		fputs(i ? "; " : ": ", out);
		if (ob->n > 1) {
			const char *item = row_id(c);
			size_t n = strlen(ob->name);
			aw_html_escape(out, strncmp(item, ob->name, n) == 0 && item[n] == '.' ? item + n + 1 : item);
			fputc(' ', out);
		}
		change_values(out, c);
	}
	if (ob->meaning && ob->rank != AW_RANK_APPEARED) {
		fputs("<span class=\"meaning\">", out);
		aw_html_escape(out, ob->meaning);
		fputs("</span>", out);
	}
	fputs("</li>\n", out);
}

static const char *const rank_titles[] = {
	[AW_RANK_NAMED] = "Changes with a named consequence, and interfaces that vanished",
	[AW_RANK_BEHAVIOUR] = "Other behaviour changes",
	[AW_RANK_APPEARED] = "Interfaces that appeared (nothing that worked breaks)",
};

/* The objects of one rank, in diff's order, folded open but for what
 * merely appeared. */
static void write_rank(FILE *out, const struct aw_diff *d, enum aw_diff_rank rank, size_t pair,
		       bool *seen_family, const struct aw_report_opts *o, const struct model *m,
		       const struct shown *sh)
{
	size_t n = 0;
	for (size_t i = 0; i < d->nobjects; i++)
		n += d->objects[i].rank == rank;
	if (!n)
		return;
	fprintf(out, "<details class=\"rank\" data-rank=\"%s\"%s><summary>%s: %zu</summary>\n"
		"<ul class=\"kernel-changes\">\n", aw_diff_rank_name(rank),
		rank == AW_RANK_APPEARED ? "" : " open", rank_titles[rank], n);
	for (size_t i = 0; i < d->nobjects; i++) {
		const struct aw_diff_object *ob = &d->objects[i];
		if (ob->rank != rank)
			continue;
		size_t f = 0;
		while (f < d->nfamilies && strcmp(d->families[f].name, ob->family) != 0)
			f++;
		object_item(out, d, ob, pair, f < d->nfamilies && !seen_family[f],
			    row_on_page(o, m, sh, row_id(&d->changes[ob->changes[0]])));
		if (f < d->nfamilies)
			seen_family[f] = true;
	}
	fputs("</ul>\n</details>\n", out);
}

/* One pair of neighbours as diff sees it: its summary line, the kernel
 * changes by object in diff's ranks, then what the environment explains,
 * collapsed under each cause. */
static void write_pair(FILE *out, const struct aw_report_opts *o, size_t c, struct aw_diff *d,
		       const struct model *m, const struct shown *sh)
{
	char *summary = aw_diff_summary(d);
	size_t failures, kernel = aw_diff_kernel_changes(d, &failures), ng;

	fprintf(out, "<section class=\"pair\" data-pair=\"%zu\" id=\"pair-%zu\"><h3>", c, c);
	aw_html_escape(out, column_name(o, c - 1));
	fputs(" &#8594; ", out);
	aw_html_escape(out, column_name(o, c));
	fprintf(out, "</h3>\n<p class=\"pair-summary\" id=\"pair-summary-%zu\">", c);
	aw_html_escape(out, summary);
	fputs("</p>\n", out);
	if (kernel) {
		bool *seen = xcalloc(d->nfamilies + 1, sizeof(*seen));
		for (int r = AW_RANK_NAMED; r <= AW_RANK_APPEARED; r++)
			write_rank(out, d, (enum aw_diff_rank)r, c, seen, o, m, sh);
		free(seen);
	} else {
		fputs("<p class=\"no-kernel-change\">No kernel change.</p>\n", out);
	}
	struct aw_diff_group *g = aw_diff_groups(d, &ng);
	for (size_t i = 0; i < ng; i++) {
		char *label = aw_diff_group_label(&g[i]);
		fputs("<details class=\"cause\" data-cause=\"", out);
		aw_html_escape(out, g[i].cause_key);
		fprintf(out, "\"><summary>%zu ", g[i].n);
		aw_html_escape(out, label);
		fputs("</summary>\n<ul>\n", out);
		/* Names only: the values are no kernel's doing (--all shows
		 * their rows). */
		for (size_t j = 0; j < g[i].n; j++) {
			fputs("<li class=\"env-change\" data-name=\"", out);
			aw_html_escape(out, d->changes[g[i].changes[j]].name);
			fputs("\">", out);
			aw_html_escape(out, d->changes[g[i].changes[j]].name);
			fputs("</li>\n", out);
		}
		fputs("</ul>\n</details>\n", out);
		free(label);
	}
	fputs("</section>\n", out);
	aw_diff_groups_free(g, ng);
	free(summary);
}

/* A family's kernel changes in a pair, as the summary line counts them:
 * "9", "4 + 46 appeared", linked to the first of them. */
static void summary_cell(FILE *out, const struct aw_diff *d, const char *family, size_t pair)
{
	const struct aw_diff_family *f = NULL;
	for (size_t i = 0; i < d->nfamilies && !f; i++)
		if (strcmp(d->families[i].name, family) == 0)
			f = &d->families[i];
	if (!f) {
		fputs("<td class=\"none\"></td>", out);
		return;
	}
	fprintf(out, "<td class=\"count\"><a href=\"#pair-%zu-", pair);
	aw_html_escape(out, family);
	fputs("\">", out);
	const char *sep = "";
	if (f->changed + f->vanished) {
		fprintf(out, "<b>%zu</b>", f->changed + f->vanished);
		sep = " ";
	}
	if (f->vanished) {
		fprintf(out, " (%zu vanished)", f->vanished);
		sep = " ";
	}
	if (f->appeared)
		fprintf(out, "%s+%zu appeared", sep, f->appeared);
	fputs("</a></td>", out);
}

/* Families x neighbouring pairs: what the kernel changed, first on the
 * page; then, for each pair, the changes. */
static void write_changes(FILE *out, const struct aw_report_opts *o, const struct model *m,
			  struct shown *sh)
{
	if (m->ncols < 2)
		return;
	struct aw_diff *d = xcalloc(m->ncols, sizeof(*d));
	struct aw_diff_opts none = { 0 };
	char **fams = NULL;
	size_t nfams = 0;
	for (size_t c = 1; c < m->ncols; c++) {
		aw_diff_compute(&o->cols[c - 1].snap, &o->cols[c].snap, &none, &d[c]);
		for (size_t i = 0; i < d[c].nfamilies; i++) {
			size_t j = 0;
			while (j < nfams && strcmp(fams[j], d[c].families[i].name) != 0)
				j++;
			if (j == nfams) {
				fams = xgrow(fams, nfams, sizeof(*fams));
				fams[nfams++] = d[c].families[i].name;
			}
		}
	}
	fputs("<h2>Kernel changes by family</h2>\n<div class=\"scroll\">"
	      "<table class=\"summary\" id=\"summary-table\">\n"
	      "<thead><tr><th>family</th>", out);
	for (size_t c = 1; c < m->ncols; c++) {
		fprintf(out, "<th><a href=\"#pair-%zu\">", c);
		aw_html_escape(out, column_name(o, c - 1));
		fputs(" &#8594; ", out);
		aw_html_escape(out, column_name(o, c));
		fputs("</a></th>", out);
	}
	fputs("</tr></thead>\n<tbody>\n", out);
	for (size_t i = 0; i < nfams; i++) {
		fputs("<tr><th>", out);
		aw_html_escape(out, fams[i]);
		fputs("</th>", out);
		for (size_t c = 1; c < m->ncols; c++)
			summary_cell(out, &d[c], fams[i], c);
		fputs("</tr>\n", out);
	}
	fputs("<tr class=\"total\"><th>all</th>", out);
	for (size_t c = 1; c < m->ncols; c++) {
		size_t failures, k = aw_diff_kernel_changes(&d[c], &failures);
		fprintf(out, "<td><a href=\"#pair-%zu\">%zu kernel change%s, %zu new failure%s</a></td>",
			c, k, k == 1 ? "" : "s", failures, failures == 1 ? "" : "s");
	}
	fputs("</tr>\n</tbody>\n</table></div>\n<h2>Changes between neighbours</h2>\n", out);
	/* The rows shown first: the pairs' links go only to rows there. */
	for (size_t c = 1; c < m->ncols; c++)
		add_shown(sh, &d[c]);
	if (sh->n)
		qsort(sh->names, sh->n, sizeof(*sh->names), by_str);
	for (size_t c = 1; c < m->ncols; c++) {
		write_pair(out, o, c, &d[c], m, sh);
		aw_diff_free(&d[c]);
	}
	free(fams);
	free(d);
}

static struct aw_report_stats count(const struct model *m)
{
	struct aw_report_stats st = { 0 };
	for (size_t i = 0; i < m->n; i++) {
		if (m->rows[i].kind == ROW_PROBE)
			continue;
		st.rows++;
		st.changed_rows += m->rows[i].changed;
		for (size_t c = 1; c < m->ncols; c++)
			st.changed_cells += !same_cell(&m->rows[i].cells[c], &m->rows[i].cells[c - 1]);
	}
	return st;
}

static void write_family_row(FILE *out, struct links *l, const char *family, size_t ncols)
{
	struct known k = lookup(family, NULL, NULL);
	fprintf(out, "<tr class=\"family\" id=\"family-");
	aw_html_escape(out, family);
	fprintf(out, "\"><th colspan=\"%zu\">", ncols + 1);
	write_link(out, l, family, 2, family);
	if (k.summary) {
		fputs(": ", out);
		aw_html_escape(out, k.summary);
	}
	fputs("</th></tr>\n", out);
}

/* A probe's or an item's row: its name linked to the catalogue (an item's
 * without its probe's), the summary as its title, a cell per column. */
static void write_row(FILE *out, struct links *l, const struct row *r, size_t ncols)
{
	const char *kind = r->kind == ROW_CHECK ? "check" : "obs";
	const char *shown = r->name + strlen(r->probe);
	if (r->kind == ROW_PROBE)
		fputs("<tr class=\"probe\" id=\"", out);
	else
		fprintf(out, "<tr class=\"item %s%s\" id=\"", kind, r->changed ? " changed" : "");
	aw_html_escape(out, r->name);
	fputs(r->kind == ROW_PROBE ? "\"><th" : "\"><th class=\"item\"", out);
	if (r->summary) {
		fputs(" title=\"", out);
		aw_html_escape(out, r->summary);
		fputc('"', out);
	}
	fputc('>', out);
	write_link(out, l, r->name, r->kind == ROW_PROBE ? 3 : 4, *shown == '.' ? shown + 1 : r->name);
	if (r->kind != ROW_PROBE)
		fprintf(out, "<span class=\"kind\">%s</span>", kind);
	fputs("</th>", out);
	for (size_t c = 0; c < ncols; c++)
		write_cell(out, &r->cells[c], c > 0 && !same_cell(&r->cells[c], &r->cells[c - 1]), c);
	fputs("</tr>\n", out);
}

/* Catalogue text: `code` spans as <code>, the rest escaped. */
static void write_md(FILE *out, const char *s)
{
	for (const char *tick; (tick = strchr(s, '`')) && strchr(tick + 1, '`'); ) {
		const char *end = strchr(tick + 1, '`');
		esc_n(out, s, (size_t)(tick - s));
		fputs("<code>", out);
		esc_n(out, tick + 1, (size_t)(end - tick - 1));
		fputs("</code>", out);
		s = end + 1;
	}
	aw_html_escape(out, s);
}

/* The most of a part of an entry (its meaning, why programs care, a
 * family's or probe's first paragraph) the page shows: two or three
 * sentences, so that the matrix's page of three kernels, ~120 entries,
 * stays below 512,000 bytes (tests/integration/diff_scale.sh); the
 * whole entry is the catalogue's. */
#define CATALOGUE_PART_MAX 300

/* A part of an entry, as much as CATALOGUE_PART_MAX lets through. */
static void write_part(FILE *out, const char *text, size_t n)
{
	char *part = strndup(text, n);
	if (!part)
		abort();
	bool cut;
	part[aw_catdoc_lead(part, CATALOGUE_PART_MAX, &cut)] = '\0';
	size_t kept = strlen(part);
	fputs("<p>", out);
	write_md(out, part);
	/* "... it. \u2026", "... a word\u2026": more in the catalogue. */
	if (cut)
		fputs(kept && part[kept - 1] == '.' ? " \xe2\x80\xa6" : "\xe2\x80\xa6", out);
	fputs("</p>", out);
	free(part);
}

/* One entry: its heading (a link to the whole catalogue's with
 * --catalogue-url), its parts and its sources. */
static void write_entry(FILE *out, const struct aw_report_opts *o, const struct aw_catdoc_entry *e)
{
	fputs("<dt id=\"cat-", out);
	aw_html_escape(out, e->id);
	fputs("\">", out);
	if (o->catalogue_url) {
		char *a = aw_heading_anchor(e->heading);
		fputs("<a href=\"", out);
		aw_html_escape(out, o->catalogue_url);
		fputc('#', out);
		aw_html_escape(out, a);
		fputs("\">", out);
		free(a);
	}
	write_md(out, e->heading);
	fputs(o->catalogue_url ? "</a></dt>" : "</dt>", out);
	if (!e->text && !e->sources) {
		fputc('\n', out);
		return;
	}
	fputs("<dd>", out);
	for (const char *p = e->text; p && *p;) {
		size_t n = strcspn(p, "\n");
		write_part(out, p, n);
		p += n + (p[n] == '\n');
	}
	if (e->sources) {
		fputs("<p class=\"sources\">Sources: ", out);
		write_md(out, e->sources);
		fputs("</p>", out);
	}
	fputs("</dd>\n", out);
}

/* The entries the rows link to, each once, in the catalogue's order; the
 * rest of each entry is the catalogue's to give, so that the page stays
 * small. */
static void write_catalogue(FILE *out, const struct aw_report_opts *o, const struct links *l)
{
	if (!l->doc.n)
		return;
	fputs("<h2 id=\"catalogue\">Catalogue entries</h2>\n<p class=\"meta\">What the rows above "
	      "link to, from the catalogue: what each means and why programs care (its first "
	      "sentences), its sources.  The whole entry: docs/catalogue.md, "
	      "abiwatch-catalogue(7).</p>\n<dl class=\"catalogue\">\n", out);
	for (size_t i = 0; i < l->doc.n; i++)
		if (l->used[i])
			write_entry(out, o, &l->doc.entries[i]);
	fputs("</dl>\n", out);
}

/* The series first (html_series.c): what each update changed. */
static void write_series(FILE *out, const struct aw_report_opts *o)
{
	const struct aw_snapshot **snaps = xcalloc(o->ncols + 1, sizeof(*snaps));
	const char **labels = xcalloc(o->ncols + 1, sizeof(*labels));
	for (size_t c = 0; c < o->ncols; c++) {
		snaps[c] = &o->cols[c].snap;
		labels[c] = column_name(o, c);
	}
	struct aw_series s;
	aw_series_compute(snaps, o->ncols, &s);
	aw_html_series(out, &s, labels);
	aw_series_free(&s);
	free(snaps);
	free(labels);
}

void aw_html_report(FILE *out, const struct aw_report_opts *o, struct aw_report_stats *stats)
{
	struct model m;
	build(&m, o);
	struct aw_report_stats st = count(&m);
	struct links l = { .used = NULL };
	if (o->catalogue_text)
		aw_catdoc_parse(o->catalogue_text, o->catalogue_len, &l.doc);
	l.used = xcalloc(l.doc.n + 1, sizeof(*l.used));
	write_head(out, o, &l, &st);
	write_series(out, o);
	struct shown sh = { 0 };
	write_changes(out, o, &m, &sh);
	fputs("<h2>Environments</h2>\n", out);
	write_environment(out, o);
	fprintf(out, "<h2>%s</h2>\n<div class=\"scroll\"><table class=\"results\" id=\"results\">\n",
		o->changed_only ? "Results of the kernel changes (every result: abiwatch report --all)"
				: "All results");
	write_columns(out, o);
	fputs("<tbody>\n", out);
	const char *family = NULL, *probe = NULL;
	for (size_t i = 0; i < m.n; i++) {
		const struct row *r = &m.rows[i];
		/* A probe row comes as the heading of its first item shown. */
		if (!row_shown(o, &m, &sh, r))
			continue;
		if (!family || strcmp(family, r->family) != 0) {
			write_family_row(out, &l, r->family, m.ncols);
			family = r->family;
			probe = NULL;
		}
		if (r->kind != ROW_PROBE && (!probe || strcmp(probe, r->probe) != 0)) {
			/* Items without a probe.* line: a heading of their own. */
			fputs("<tr class=\"probe\"><th>", out);
			write_link(out, &l, r->probe, 3, r->probe);
			fprintf(out, "</th><td colspan=\"%zu\"></td></tr>\n", m.ncols);
		}
		probe = r->probe;
		write_row(out, &l, r, m.ncols);
	}
	fputs("</tbody>\n</table></div>\n", out);
	write_catalogue(out, o, &l);
	fputs("</body>\n</html>\n", out);
	free(l.used);
	aw_catdoc_free(&l.doc);
	if (stats)
		*stats = st;
	for (size_t i = 0; i < sh.n; i++)
		free(sh.names[i]);
	free(sh.names);
	free_model(&m);
}

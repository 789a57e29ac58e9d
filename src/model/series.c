// SPDX-License-Identifier: GPL-2.0-or-later
/* A series of kernels as one table: see series.h. */
#include "series.h"
#include "diff.h"
#include "lib/util.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* ---- the rows: the items diff found changed by the kernel ---- */

static struct aw_series_row *find_row(const struct aw_series *s, const char *key)
{
	for (size_t i = 0; i < s->nrows; i++)
		if (strcmp(s->rows[i].key, key) == 0)
			return &s->rows[i];
	return NULL;
}

/* The row of key, made (with its object's names) when new. */
static struct aw_series_row *row_of(struct aw_series *s, const struct aw_diff_change *c,
				    const char *family, size_t col)
{
	struct aw_series_row *old = find_row(s, c->name);
	if (old)
		return old;
	s->rows = xgrow(s->rows, s->nrows, sizeof(*s->rows));
	struct aw_series_row *r = &s->rows[s->nrows++];
	*r = (struct aw_series_row){
		.key = xstrdup(c->name), .object = xstrdup(c->object), .family = xstrdup(family),
		.cells = xcalloc(s->ncols, sizeof(*r->cells)), .first_change = col,
	};
	return r;
}

/* The record a change's key names in a snapshot: an observation's key
 * also finds it not made there (unobserved.NAME); any other key is the
 * record's own. */
static const struct aw_record *record_of(const struct aw_snapshot *snap, const char *key)
{
	const char *obs = aw_key_class_prefix(AW_KEY_OBS);
	if (strncmp(key, obs, strlen(obs)) == 0)
		return aw_snapshot_observation(snap, key + strlen(obs));
	return aw_snapshot_record(snap, key);
}

static struct aw_series_cell cell_of(const struct aw_record *r)
{
	if (!r)
		return (struct aw_series_cell){ .state = AW_SERIES_ABSENT };
	bool none = r->cls == AW_KEY_UNOBSERVED || r->status == AW_ST_SKIP;
	return (struct aw_series_cell){
		.state = none ? AW_SERIES_UNOBSERVED : AW_SERIES_VALUE,
		.value = none && r->reason ? r->reason : r->value,
	};
}

/* ---- a row's values along the series ---- */

/* Numbers each value by first appearance, marks where a new one comes
 * after another, counts the moves between kernels that have a value, and
 * whether an earlier value comes back (A -> B -> A) within one stable
 * line (run_start[c]: the first column of c's line): across lines a
 * value may well come back (6.1 and 6.18 agree where 6.12 differs).
 * Kernels with no value in between are passed over: a probe that did
 * not run on one kernel changes nothing. */
static void read_values(struct aw_series_row *r, size_t ncols, const size_t *run_start)
{
	size_t *last_col = xcalloc(ncols + 1, sizeof(*last_col)); /* of each value */
	r->value_cols = xcalloc(ncols + 1, sizeof(*r->value_cols));
	size_t last = SIZE_MAX; /* the nth of the latest kernel with a value */
	for (size_t c = 0; c < ncols; c++) {
		struct aw_series_cell *cell = &r->cells[c];
		if (cell->state != AW_SERIES_VALUE)
			continue;
		size_t k = 0;
		while (k < r->nvalues && strcmp(r->cells[r->value_cols[k]].value, cell->value) != 0)
			k++;
		if (k == r->nvalues) {
			r->value_cols[r->nvalues++] = c;
			cell->first = last != SIZE_MAX;
		} else if (k != last && last != SIZE_MAX && last_col[k] >= run_start[c]) {
			r->flapping = true; /* an earlier value of this line, back */
		}
		cell->nth = k;
		last_col[k] = c;
		r->changes += last != SIZE_MAX && k != last;
		last = k;
	}
	free(last_col);
	if (r->flapping)
		r->changes = 0;
}

static int by_first_change(const void *a, const void *b)
{
	const struct aw_series_row *x = a, *y = b;
	if (x->first_change != y->first_change)
		return x->first_change < y->first_change ? -1 : 1;
	return strcmp(x->key, y->key);
}


/* ---- the pairs ---- */

static bool object_flaps(const struct aw_series *s, const struct aw_diff *d,
			 const struct aw_diff_object *ob)
{
	for (size_t i = 0; i < ob->n; i++) {
		const struct aw_series_row *r = find_row(s, d->changes[ob->changes[i]].name);
		if (!r || !r->flapping)
			return false;
	}
	return true;
}

static void read_pair(const struct aw_series *s, const struct aw_diff *d, struct aw_series_pair *p)
{
	p->objects = xcalloc(d->nobjects + 1, sizeof(*p->objects));
	for (size_t i = 0; i < d->nobjects; i++) {
		const struct aw_diff_object *ob = &d->objects[i];
		struct aw_series_object *o = &p->objects[p->nobjects++];
		*o = (struct aw_series_object){
			.name = xstrdup(ob->name), .family = xstrdup(ob->family),
			.flapping = object_flaps(s, d, ob), .appeared = ob->rank == AW_RANK_APPEARED,
		};
		if (o->flapping)
			p->flapping++;
		else if (o->appeared)
			p->appeared++;
		else
			p->changes++;
	}
}

/* The length of the stable line a kernel release starts with: "6.1" of
 * "6.1.0-47-cloud-amd64", "6.12" of "6.12.107+deb12-cloud-amd64". */
static size_t line_len(const char *release)
{
	size_t i = strspn(release, "0123456789");
	if (release[i] == '.')
		i += 1 + strspn(release + i + 1, "0123456789");
	return i;
}

/* run_start[c]: the first column of the run of neighbours that share c's
 * stable line. */
static void stable_lines(const struct aw_snapshot *const *snaps, size_t n, size_t *run_start)
{
	const char *prev = NULL;
	for (size_t c = 0; c < n; c++) {
		const char *rel = aw_snapshot_get(snaps[c], "env.kernel.release");
		rel = rel ? rel : "";
		size_t len = line_len(rel);
		bool same = prev && line_len(prev) == len && strncmp(prev, rel, len) == 0;
		run_start[c] = same ? run_start[c - 1] : c;
		prev = rel;
	}
}

void aw_series_compute_from(const struct aw_snapshot *const *snaps, const struct aw_diff *d,
			    size_t n, struct aw_series *s)
{
	memset(s, 0, sizeof(*s));
	s->ncols = n;
	for (size_t c = 1; c < n; c++)
		for (size_t i = 0; i < d[c].nobjects; i++) {
			const struct aw_diff_object *ob = &d[c].objects[i];
			for (size_t j = 0; j < ob->n; j++)
				row_of(s, &d[c].changes[ob->changes[j]], ob->family, c);
		}
	if (s->nrows)
		qsort(s->rows, s->nrows, sizeof(*s->rows), by_first_change);
	size_t *run_start = xcalloc(n + 1, sizeof(*run_start));
	stable_lines(snaps, n, run_start);
	for (size_t i = 0; i < s->nrows; i++) {
		struct aw_series_row *r = &s->rows[i];
		for (size_t c = 0; c < n; c++)
			r->cells[c] = cell_of(record_of(snaps[c], r->key));
		read_values(r, n, run_start);
		s->nflapping += r->flapping;
		s->npresence += r->nvalues < 2;
	}
	free(run_start);
	s->pairs = xcalloc(n, sizeof(*s->pairs));
	for (size_t c = 1; c < n; c++) {
		read_pair(s, &d[c], &s->pairs[c - 1]);
		s->changes += s->pairs[c - 1].changes;
	}
}

void aw_series_compute(const struct aw_snapshot *const *snaps, size_t n, struct aw_series *s)
{
	struct aw_diff *d = xcalloc(n + 1, sizeof(*d));
	struct aw_diff_opts none = { 0 };
	for (size_t c = 1; c < n; c++)
		aw_diff_compute(snaps[c - 1], snaps[c], &none, &d[c]);
	aw_series_compute_from(snaps, d, n, s);
	for (size_t c = 1; c < n; c++)
		aw_diff_free(&d[c]);
	free(d);
}

void aw_series_free(struct aw_series *s)
{
	for (size_t i = 0; i < s->nrows; i++) {
		free(s->rows[i].key);
		free(s->rows[i].object);
		free(s->rows[i].family);
		free(s->rows[i].cells);
		free(s->rows[i].value_cols);
	}
	free(s->rows);
	for (size_t c = 0; c + 1 < s->ncols; c++) {
		for (size_t i = 0; i < s->pairs[c].nobjects; i++) {
			free(s->pairs[c].objects[i].name);
			free(s->pairs[c].objects[i].family);
		}
		free(s->pairs[c].objects);
	}
	free(s->pairs);
	memset(s, 0, sizeof(*s));
}

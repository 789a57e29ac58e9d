// SPDX-License-Identifier: GPL-2.0-or-later
/* The series model: where a new value first appears, values that come
 * back (flapping within a stable line, not across lines), kernels where
 * the item is absent or not observed (no value, so no change), and what
 * each pair counts; and a set's cell as what moved. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "model/series.h"
#include "output/series.h"
#include "lib/util.h"

#include <stdlib.h>
#include <string.h>

#define MAXK 4

struct fixture {
	struct aw_snapshot snaps[MAXK];
	const struct aw_snapshot *ptrs[MAXK];
	size_t n;
	struct aw_series s;
};

/* A kernel's snapshot: its release and the lines after it. */
static void add_kernel(struct fixture *f, const char *release, const char *lines)
{
	char *text = xasprintf("abiwatch-snapshot 1.1\nenv.kernel.release = %s\n%s", release, lines);
	char *err = NULL;
	if (aw_snapshot_parse(text, strlen(text), release, &f->snaps[f->n], &err) != 0)
		fail_msg("%s", err);
	f->ptrs[f->n] = &f->snaps[f->n];
	f->n++;
	free(text);
}

static void compute(struct fixture *f)
{
	aw_series_compute(f->ptrs, f->n, &f->s);
}

static void release(struct fixture *f)
{
	aw_series_free(&f->s);
	for (size_t i = 0; i < f->n; i++)
		aw_snapshot_free(&f->snaps[i]);
}

static const struct aw_series_row *row(const struct aw_series *s, const char *key)
{
	for (size_t i = 0; i < s->nrows; i++)
		if (strcmp(s->rows[i].key, key) == 0)
			return &s->rows[i];
	fail_msg("no row %s", key);
	return NULL;
}

static void test_first_appearance(void **state)
{
	(void)state;
	struct fixture f = { 0 };
	add_kernel(&f, "6.1.1", "obs.fam.p.same = 1\nobs.fam.p.v = a\nprobe.fam.p = ran\n");
	add_kernel(&f, "6.1.2", "obs.fam.p.same = 1\nobs.fam.p.v = b\nprobe.fam.p = ran\n");
	add_kernel(&f, "6.1.3", "obs.fam.p.same = 1\nobs.fam.p.v = b\nprobe.fam.p = ran\n");
	compute(&f);
	assert_int_equal(f.s.nrows, 1); /* fam.p.same never changed */
	const struct aw_series_row *r = row(&f.s, "obs.fam.p.v");
	assert_int_equal(r->nvalues, 2);
	assert_false(r->cells[0].first);
	assert_true(r->cells[1].first);
	assert_false(r->cells[2].first);
	assert_int_equal(r->cells[2].nth, 1);
	assert_int_equal(r->value_cols[1], 1);
	assert_int_equal(r->changes, 1);
	assert_int_equal(r->first_change, 1);
	assert_false(r->flapping);
	assert_int_equal(f.s.pairs[0].changes, 1);
	assert_int_equal(f.s.pairs[0].nobjects, 1);
	assert_int_equal(f.s.pairs[1].changes, 0);
	assert_int_equal(f.s.nflapping, 0);
	release(&f);
}

static void test_flapping_within_a_line(void **state)
{
	(void)state;
	struct fixture f = { 0 };
	add_kernel(&f, "6.1.1", "obs.fam.p.v = a\nobs.fam.q.w = x\n");
	add_kernel(&f, "6.1.2", "obs.fam.p.v = b\nobs.fam.q.w = y\n");
	add_kernel(&f, "6.1.3", "obs.fam.p.v = a\nobs.fam.q.w = y\n");
	compute(&f);
	const struct aw_series_row *v = row(&f.s, "obs.fam.p.v"), *w = row(&f.s, "obs.fam.q.w");
	assert_true(v->flapping);
	assert_int_equal(v->changes, 0);
	assert_false(v->cells[2].first); /* a came back: not new */
	assert_false(w->flapping);
	assert_int_equal(w->changes, 1);
	assert_int_equal(f.s.nflapping, 1);
	/* Pair 1: fam.p flaps (not counted), fam.q changed; pair 2: only
	 * fam.p, which flaps. */
	assert_int_equal(f.s.pairs[0].changes, 1);
	assert_int_equal(f.s.pairs[0].flapping, 1);
	assert_int_equal(f.s.pairs[1].changes, 0);
	assert_int_equal(f.s.pairs[1].flapping, 1);
	assert_true(f.s.pairs[1].objects[0].flapping);
	release(&f);
}

static void test_back_across_lines_is_no_flap(void **state)
{
	(void)state;
	struct fixture f = { 0 };
	add_kernel(&f, "6.1.170", "obs.fam.p.v = a\n");
	add_kernel(&f, "6.12.107+deb12", "obs.fam.p.v = b\n");
	add_kernel(&f, "6.18.44", "obs.fam.p.v = a\n");
	compute(&f);
	const struct aw_series_row *v = row(&f.s, "obs.fam.p.v");
	assert_false(v->flapping);
	assert_int_equal(v->changes, 2);
	assert_int_equal(f.s.pairs[1].changes, 1);
	release(&f);
}

static void test_absent_and_unobserved_are_no_value(void **state)
{
	(void)state;
	struct fixture f = { 0 };
	add_kernel(&f, "6.1.1", "obs.fam.p.v = a\nobs.fam.p.w = a\n");
	add_kernel(&f, "6.1.2", "obs.fam.p.w = a\nunobserved.fam.p.v = skip: needs X\n");
	add_kernel(&f, "6.1.3", "obs.fam.p.v = a\n");
	add_kernel(&f, "6.1.4", "obs.fam.p.v = b\nobs.fam.p.w = a\n");
	compute(&f);
	const struct aw_series_row *v = row(&f.s, "obs.fam.p.v"), *w = row(&f.s, "obs.fam.p.w");
	assert_int_equal(v->cells[1].state, AW_SERIES_UNOBSERVED);
	assert_string_equal(v->cells[1].value, "needs X");
	assert_false(v->flapping); /* a, -, a: the same value */
	assert_int_equal(v->changes, 1);
	assert_true(v->cells[3].first);
	assert_int_equal(w->cells[2].state, AW_SERIES_ABSENT);
	assert_false(w->flapping); /* a, a, absent, a */
	assert_int_equal(w->changes, 0);
	assert_int_equal(w->nvalues, 1);
	assert_int_equal(f.s.npresence, 1); /* w: its value never moved */
	release(&f);
}

static void test_a_set_shows_what_moved(void **state)
{
	(void)state;
	struct fixture f = { 0 };
	add_kernel(&f, "6.1.1", "obs.fam.p.files = cgroup.procs cgroup.stat cpu.max cpu.stat "
			      "memory.current memory.max memory.stat io.stat pids.max\n");
	add_kernel(&f, "6.1.2", "obs.fam.p.files = cgroup.procs cgroup.stat cpu.max cpu.stat "
			      "memory.current memory.max memory.peak memory.stat io.stat pids.max "
			      "pids.peak\n");
	compute(&f);
	const struct aw_series_row *r = row(&f.s, "obs.fam.p.files");
	char *words = aw_series_value_words(r, 1);
	assert_string_equal(words, "9 -> 11: +memory.peak +pids.peak");
	free(words);
	char name[8];
	aw_series_value_name(1, name, sizeof(name));
	assert_string_equal(name, "b");
	aw_series_value_name(26, name, sizeof(name));
	assert_string_equal(name, "v27");
	release(&f);
}

static char *series_text(const struct aw_series *s)
{
	static const char *const labels[MAXK] = { "k0", "k1", "k2", "k3" };
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	aw_series_text(f, s, labels);
	fclose(f);
	return buf;
}

/* A matrix hands the series the neighbours' diffs it wrote as .diff
 * files: the series must be the one it computes itself. */
static void test_from_given_diffs_is_the_same(void **state)
{
	(void)state;
	struct fixture f = { 0 };
	add_kernel(&f, "6.1.1", "obs.fam.p.v = a\nobs.fam.q.w = x\nobs.fam.r.s = A,B\n");
	add_kernel(&f, "6.1.2", "obs.fam.p.v = b\nobs.fam.q.w = y\nobs.fam.r.s = A,B,C\n");
	add_kernel(&f, "6.12.1", "obs.fam.n.x = 1\nobs.fam.p.v = a\nobs.fam.q.w = y\n");
	compute(&f);
	struct aw_diff d[MAXK] = { 0 };
	struct aw_diff_opts none = { 0 };
	for (size_t c = 1; c < f.n; c++)
		aw_diff_compute(f.ptrs[c - 1], f.ptrs[c], &none, &d[c]);
	struct aw_series given;
	aw_series_compute_from(f.ptrs, d, f.n, &given);
	char *a = series_text(&f.s), *b = series_text(&given);
	assert_true(strlen(a) > 0);
	assert_string_equal(a, b);
	assert_int_equal(given.changes, f.s.changes);
	assert_int_equal(given.nrows, f.s.nrows);
	free(a);
	free(b);
	aw_series_free(&given);
	for (size_t c = 1; c < f.n; c++)
		aw_diff_free(&d[c]);
	release(&f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_first_appearance),
		cmocka_unit_test(test_flapping_within_a_line),
		cmocka_unit_test(test_back_across_lines_is_no_flap),
		cmocka_unit_test(test_absent_and_unobserved_are_no_value),
		cmocka_unit_test(test_a_set_shows_what_moved),
		cmocka_unit_test(test_from_given_diffs_is_the_same),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

// SPDX-License-Identifier: GPL-2.0-or-later
/* What a dirent scan makes of a listing: the reasons a scan did not end,
 * the cookies taken from it, the dots; and one real scan of a small
 * directory, held against a record of it (test_dirent_record.c has the
 * census itself). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "probes/dirent/record.h"
#include "probes/dirent/scan.h"

#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* A recorded scan of the given tags, with d_off 3, 4, ... and last eof. */
static void fake(struct ds_scan *s, const uint32_t *tags, size_t n, uint64_t eof)
{
	memset(s, 0, sizeof(*s));
	s->tag = malloc((n + 1) * sizeof(*s->tag));
	s->off = malloc((n + 1) * sizeof(*s->off));
	for (size_t i = 0; i < n; i++) {
		s->tag[i] = tags[i];
		s->off[i] = i + 1 == n ? eof : 3 + i;
	}
	s->len = s->alloc = n;
	s->ended = true;
}

#define POP(i) dc_tag(DC_POP, (i))

static void test_cookies(void **state)
{
	(void)state;
	uint32_t tags[] = { DC_TAG_DOT, DC_TAG_DOTDOT, POP(2), POP(0), POP(1) };
	struct ds_scan s;
	fake(&s, tags, 5, 0x7fffffff);
	assert_null(ds_scan_trouble(&s));
	assert_int_equal(ds_eof_cookie(&s), 0x7fffffff);
	assert_int_equal(ds_max_cookie(&s), 6);
	assert_false(ds_any_negative(&s));
	ds_scan_free(&s);
}

static void test_negative(void **state)
{
	(void)state;
	uint32_t tags[] = { POP(0), POP(1) };
	struct ds_scan s;
	fake(&s, tags, 2, 0x8000000000000000ULL);
	assert_true(ds_any_negative(&s));
	ds_scan_free(&s);
}

/* POSIX readdir(): "." and ".." each once, or neither at all. */
static void test_dots(void **state)
{
	(void)state;
	assert_true(ds_dots_ok(1, 1));
	assert_true(ds_dots_ok(0, 0));
	assert_false(ds_dots_ok(1, 0));
	assert_false(ds_dots_ok(0, 1));
	assert_false(ds_dots_ok(2, 2));
	assert_false(ds_dots_ok(1, 2));
	assert_string_equal(ds_dots_name(1, 1), "both");
	assert_string_equal(ds_dots_name(0, 0), "none");
	assert_string_equal(ds_dots_name(1, 0), "dot_only");
	assert_string_equal(ds_dots_name(0, 1), "dotdot_only");
	assert_string_equal(ds_dots_name(2, 1), "repeated");
	assert_string_equal(ds_dots_name(0, 3), "repeated");
}

static void test_trouble(void **state)
{
	(void)state;
	struct ds_scan s = { 0 };
	s.cycle = true;
	s.cycle_cookie = 0x1f7;
	s.cycle_tag = POP(500);
	s.len = 1002;
	char *t = ds_scan_trouble(&s);
	assert_string_equal(t, "a cycle: f0000500 came back with d_off 0x1f7 after 1002 entries");
	free(t);
	s.cycle = false;
	s.capped = true;
	t = ds_scan_trouble(&s);
	assert_string_equal(t, "no end after 1002 entries (the bound)");
	free(t);
	s.capped = false;
	s.err = 5;
	t = ds_scan_trouble(&s);
	assert_string_equal(t, "getdents64 failed with EIO after 1002 entries");
	free(t);
}

/* A real directory, read with small and large buffers, and a bound. */
static void test_real_scan(void **state)
{
	(void)state;
	const char *tmp = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
	char dir[4096];
	snprintf(dir, sizeof(dir), "%s/abiwatch-test-dirent.XXXXXX", tmp);
	assert_non_null(mkdtemp(dir));
	int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	assert_true(dfd >= 0);
	enum { N = 300 };
	char name[DC_NAME_LEN + 1];
	for (uint32_t i = 0; i < N; i++) {
		dc_name(DC_POP, i, name);
		int fd = openat(dfd, name, O_CREAT | O_WRONLY | O_CLOEXEC, 0600);
		assert_true(fd >= 0);
		close(fd);
	}
	char *buf = malloc(DS_BIG_BUF);
	struct dc_set set;
	struct ds_scan s = { 0 };
	struct dr_census c;
	struct dr_record rec;
	const uint32_t rec_size[DR_KINDS] = { [DC_POP] = N };
	assert_int_equal(dr_record_init(&rec, rec_size), 0);
	for (uint32_t i = 0; i < N; i++)
		dr_record_made(&rec, DC_POP, i);
	assert_int_equal(dc_set_init(&set, N), 0);
	static const size_t sizes[] = { DS_BIG_BUF, 1024, 300 };
	for (size_t k = 0; k < 3; k++) {
		struct ds_scan_opts o = { .cap = 3 * N + 1000, .bufsize = sizes[k] };
		assert_int_equal(ds_scan_fresh(dfd, buf, &o, &set, &s), 0);
		assert_true(s.ended);
		assert_int_equal(s.len, N + 2);
		assert_int_equal(s.shared, 0);
		dr_census(&rec, &s, dr_record_now(&rec), &c);
		assert_true(dr_census_ok(&c));
		if (sizes[k] == 300)
			assert_true(s.calls > 10);
	}
	struct ds_scan_opts tight = { .cap = 10, .bufsize = DS_BIG_BUF };
	assert_int_equal(ds_scan_fresh(dfd, buf, &tight, &set, &s), 0);
	assert_true(s.capped);
	assert_int_equal(s.len, 10);
	/* Clean up. */
	for (uint32_t i = 0; i < N; i++) {
		dc_name(DC_POP, i, name);
		assert_int_equal(unlinkat(dfd, name, 0), 0);
	}
	close(dfd);
	assert_int_equal(rmdir(dir), 0);
	ds_scan_free(&s);
	dc_set_free(&set);
	dr_record_free(&rec);
	free(buf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cookies),
		cmocka_unit_test(test_negative),
		cmocka_unit_test(test_dots),
		cmocka_unit_test(test_trouble),
		cmocka_unit_test(test_real_scan),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

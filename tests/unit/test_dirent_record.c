// SPDX-License-Identifier: GPL-2.0-or-later
/* The dirent probe's record of its directory, and a listing held against
 * it: names made and removed, the moment a stream was opened (what came
 * or went after may be listed or not), the missing names in creation
 * order and the removed name before each. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "probes/dirent/record.h"

#include <stdlib.h>
#include <string.h>

#define POP(i) dc_tag(DC_POP, (i))
#define REN(i) dc_tag(DC_RENAMED, (i))

static void listing(struct ds_scan *s, const uint32_t *tags, size_t n)
{
	memset(s, 0, sizeof(*s));
	s->tag = malloc((n + 1) * sizeof(*s->tag));
	s->off = calloc(n + 1, sizeof(*s->off));
	memcpy(s->tag, tags, n * sizeof(*tags));
	s->len = s->alloc = n;
	s->ended = true;
}

/* Six population names made, f2 renamed to r2, f4 unlinked. */
static void six(struct dr_record *r)
{
	const uint32_t size[DR_KINDS] = { [DC_POP] = 6, [DC_RENAMED] = 6 };
	assert_int_equal(dr_record_init(r, size), 0);
	for (uint32_t i = 0; i < 6; i++)
		dr_record_made(r, DC_POP, i);
	dr_record_gone(r, DC_POP, 2);
	dr_record_made(r, DC_RENAMED, 2);
	dr_record_gone(r, DC_POP, 4);
}

static void test_matches(void **state)
{
	(void)state;
	struct dr_record r;
	six(&r);
	assert_true(dr_record_has(&r, DC_RENAMED, 2));
	assert_false(dr_record_has(&r, DC_POP, 2));
	assert_true(dr_record_removed(&r, DC_POP, 4));
	uint32_t tags[] = { DC_TAG_DOT, DC_TAG_DOTDOT, POP(5), POP(0), REN(2), POP(1), POP(3) };
	struct ds_scan s;
	struct dr_census c;
	listing(&s, tags, 7);
	dr_census(&r, &s, dr_record_now(&r), &c);
	assert_true(dr_census_ok(&c));
	char *d = dr_census_describe(&c);
	assert_string_equal(d, "");
	free(d);
	ds_scan_free(&s);
	dr_record_free(&r);
}

static void test_lost_and_kept(void **state)
{
	(void)state;
	struct dr_record r;
	six(&r);
	/* f5 lost (after removed f4), f4 listed though gone before the open,
	 * f1 twice, r3 never made, f3 there. */
	uint32_t tags[] = { DC_TAG_DOT, DC_TAG_DOTDOT, POP(0), POP(1), POP(1), REN(2), POP(3),
			    POP(4), REN(3) };
	struct ds_scan s;
	struct dr_census c;
	listing(&s, tags, 9);
	dr_census(&r, &s, dr_record_now(&r), &c);
	assert_false(dr_census_ok(&c));
	assert_int_equal(c.missing, 1);
	assert_int_equal(c.missing_tag[0], POP(5));
	assert_int_equal(c.ghosts, 1);
	assert_int_equal(c.repeated, 1);
	assert_int_equal(c.unknown, 1);
	assert_true(dr_is_missing(&r, DC_POP, 5, dr_record_now(&r)));
	assert_false(dr_is_missing(&r, DC_POP, 3, dr_record_now(&r)));
	uint32_t before = 0, removed = 0;
	assert_true(dr_removed_before(&r, DC_POP, 5, &before, &removed));
	assert_int_equal(before, 4);
	assert_int_equal(removed, 2); /* f2 (renamed away) and f4 */
	assert_false(dr_removed_before(&r, DC_POP, 1, &before, &removed));
	char *d = dr_census_describe(&c);
	assert_string_equal(d, "1 names missing (first f0000005); 1 names returned more than once "
			    "(first f0000001); 1 deleted names returned (first f0000004); 1 names "
			    "returned that abiwatch never made or had renamed away (first r0000003)");
	free(d);
	ds_scan_free(&s);
	dr_record_free(&r);
}

/* A stream opened before changes: what came or went since may be listed
 * (once) or not; the rest must be. */
static void test_changed_while_open(void **state)
{
	(void)state;
	const uint32_t size[DR_KINDS] = { [DC_POP] = 4, [DC_ADDED_Y] = 2 };
	struct dr_record r;
	assert_int_equal(dr_record_init(&r, size), 0);
	for (uint32_t i = 0; i < 4; i++)
		dr_record_made(&r, DC_POP, i);
	uint32_t opened = dr_record_now(&r);
	dr_record_gone(&r, DC_POP, 0);
	dr_record_made(&r, DC_ADDED_Y, 0);
	uint32_t tags[] = { POP(0), POP(1), POP(2), POP(3), dc_tag(DC_ADDED_Y, 0) };
	struct ds_scan s;
	struct dr_census c;
	listing(&s, tags, 5);
	dr_census(&r, &s, opened, &c);
	assert_true(dr_census_ok(&c));
	assert_int_equal(c.changed, 2);
	/* Neither listed: still fine; f2 missing is not. */
	uint32_t fewer[] = { POP(1), POP(3) };
	ds_scan_free(&s);
	listing(&s, fewer, 2);
	dr_census(&r, &s, opened, &c);
	assert_int_equal(c.missing, 1);
	assert_int_equal(c.missing_tag[0], POP(2));
	/* A stream opened after the removal must not list f0. */
	ds_scan_free(&s);
	listing(&s, tags, 5);
	dr_census(&r, &s, dr_record_now(&r), &c);
	assert_int_equal(c.ghosts, 1);
	ds_scan_free(&s);
	dr_record_free(&r);
}

/* Names of no shape of ours, and the dots, as POSIX readdir() has them. */
static void test_strangers_and_dots(void **state)
{
	(void)state;
	const uint32_t size[DR_KINDS] = { [DC_POP] = 1 };
	struct dr_record r;
	assert_int_equal(dr_record_init(&r, size), 0);
	dr_record_made(&r, DC_POP, 0);
	uint32_t tags[] = { DC_TAG_DOT, POP(0), DC_TAG_STRANGER | 5 };
	struct ds_scan s;
	struct dr_census c;
	listing(&s, tags, 3);
	dr_census(&r, &s, dr_record_now(&r), &c);
	assert_false(dr_census_ok(&c));
	assert_int_equal(c.strangers, 1);
	assert_int_equal(c.dots, 1);
	assert_int_equal(c.dotdots, 0);
	char *d = dr_census_describe(&c);
	assert_string_equal(d, "\".\" 1 times, \"..\" 0 times (POSIX: each once, or neither); "
			    "1 names abiwatch did not create");
	free(d);
	/* Neither dot: allowed. */
	ds_scan_free(&s);
	listing(&s, tags + 1, 1);
	dr_census(&r, &s, dr_record_now(&r), &c);
	assert_true(dr_census_ok(&c));
	ds_scan_free(&s);
	dr_record_free(&r);
}

/* A reader that renames what it lists (terminates_rename): f0 renamed to
 * r0 and back during the scan is two files and may be listed twice; f1,
 * left alone, may not, and f3, left alone and never listed, is missing. */
static void test_untouched_while_renaming(void **state)
{
	(void)state;
	const uint32_t size[DR_KINDS] = { [DC_POP] = 4, [DC_RENAMED] = 4 };
	struct dr_record r;
	assert_int_equal(dr_record_init(&r, size), 0);
	for (uint32_t i = 0; i < 4; i++)
		dr_record_made(&r, DC_POP, i);
	uint32_t opened = dr_record_now(&r);
	dr_record_gone(&r, DC_POP, 0);
	dr_record_made(&r, DC_RENAMED, 0);
	dr_record_gone(&r, DC_RENAMED, 0);
	dr_record_made(&r, DC_POP, 0);
	uint32_t tags[] = { POP(0), REN(0), POP(0), POP(1), POP(2), POP(1) };
	struct ds_scan s;
	struct dr_census c;
	listing(&s, tags, 6);
	dr_census(&r, &s, opened, &c);
	assert_int_equal(c.repeated, 2);
	assert_int_equal(c.repeated_untouched, 1);
	dr_census_untouched(&c);
	assert_int_equal(c.repeated, 1);
	assert_int_equal(c.first_repeated, POP(1));
	assert_int_equal(c.missing, 1);
	assert_int_equal(c.missing_tag[0], POP(3));
	char *d = dr_census_describe(&c);
	assert_string_equal(d, "1 names missing (first f0000003); 1 names returned more than once "
			    "(first f0000001)");
	free(d);
	/* Each left-alone name once, the renamed one twice: clean. */
	uint32_t right[] = { POP(0), REN(0), POP(0), POP(1), POP(2), POP(3) };
	ds_scan_free(&s);
	listing(&s, right, 6);
	dr_census(&r, &s, opened, &c);
	assert_false(dr_census_ok(&c));
	dr_census_untouched(&c);
	assert_true(dr_census_ok(&c));
	ds_scan_free(&s);
	dr_record_free(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_matches),
		cmocka_unit_test(test_lost_and_kept),
		cmocka_unit_test(test_changed_while_open),
		cmocka_unit_test(test_strangers_and_dots),
		cmocka_unit_test(test_untouched_while_renaming),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

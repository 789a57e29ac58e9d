// SPDX-License-Identifier: GPL-2.0-or-later
/* The dirent family's pure logic: bit widths, names and tags, the cookie
 * set and the monotonic tracker that find cycles and shared cookies, the
 * order classification, duplicate counting and sampling. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "probes/dirent/cookies.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static void test_bits(void **state)
{
	(void)state;
	assert_int_equal(dc_bits(0), 0);
	assert_int_equal(dc_bits(1), 1);
	assert_int_equal(dc_bits(2), 2);
	assert_int_equal(dc_bits(0x2712), 14);            /* tmpfs, 10k entries */
	assert_int_equal(dc_bits(0x7ffffffeULL), 31);     /* ext4, compat caller */
	assert_int_equal(dc_bits(0x7fffffffULL), 31);
	assert_int_equal(dc_bits(0x80000000ULL), 32);
	assert_int_equal(dc_bits(0x7ffffffffffffffeULL), 63); /* ext4, 64-bit */
	assert_int_equal(dc_bits(0x8000000000000000ULL), 64); /* negative as off_t */
	assert_int_equal(dc_bits(UINT64_MAX), 64);
}

static void test_names_and_tags(void **state)
{
	(void)state;
	char buf[DC_NAME_LEN + 1], nb[16];
	dc_name(DC_POP, 12, buf);
	assert_string_equal(buf, "f0000012");
	dc_name(DC_RENAMED, 999999, buf);
	assert_string_equal(buf, "r0999999");

	static const enum dc_kind kinds[] = { DC_POP, DC_ADDED_X, DC_ADDED_Y, DC_RENAMED };
	static const uint32_t nums[] = { 0, 1, 4711, DC_MAX_ENTRIES - 1 };
	for (size_t k = 0; k < 4; k++) {
		for (size_t i = 0; i < 4; i++) {
			dc_name(kinds[k], nums[i], buf);
			uint32_t t = dc_tag_of(buf);
			assert_int_equal(t, dc_tag(kinds[k], nums[i]));
			assert_true(dc_tag_is(t, kinds[k]));
			assert_int_equal(dc_tag_num(t), nums[i]);
			assert_string_equal(dc_tag_name(t, nb), buf);
			for (size_t o = 0; o < 4; o++)
				if (o != k)
					assert_false(dc_tag_is(t, kinds[o]));
		}
	}
	assert_int_equal(dc_tag_of("."), DC_TAG_DOT);
	assert_int_equal(dc_tag_of(".."), DC_TAG_DOTDOT);
	assert_string_equal(dc_tag_name(DC_TAG_DOT, nb), ".");
	assert_string_equal(dc_tag_name(DC_TAG_DOTDOT, nb), "..");

	/* Anything else is a stranger, never one of ours. */
	static const char *const strangers[] = {
		"f000001", "f00000123", "g0000001", "f000000a", "f1000000", "", "...", ".x",
		"lost+found", "F0000001",
	};
	for (size_t i = 0; i < sizeof(strangers) / sizeof(strangers[0]); i++) {
		uint32_t t = dc_tag_of(strangers[i]);
		assert_true(t & DC_TAG_STRANGER);
		for (size_t k = 0; k < 4; k++)
			assert_false(dc_tag_is(t, kinds[k]));
		assert_int_not_equal(t, DC_TAG_DOT);
		assert_int_not_equal(t, DC_TAG_DOTDOT);
	}
	/* Different strangers usually differ. */
	assert_int_not_equal(dc_tag_of("lost+found"), dc_tag_of("lost+foune"));
	assert_int_equal(dc_fnv1a(""), 2166136261u);
	assert_int_equal(dc_fnv1a("a"), 0xe40c292cu); /* the published FNV-1a value */
}

static void test_set_new_shared_repeat(void **state)
{
	(void)state;
	struct dc_set s;
	uint32_t other = 0;
	assert_int_equal(dc_set_init(&s, 4), 0);
	assert_int_equal(dc_set_add(&s, 10, 1, &other), DC_NEW);
	assert_int_equal(dc_set_add(&s, 11, 2, &other), DC_NEW);
	assert_int_equal(dc_set_add(&s, 10, 3, &other), DC_SHARED);
	assert_int_equal(other, 1);
	assert_int_equal(dc_set_add(&s, 10, 4, &other), DC_SHARED);
	assert_int_equal(other, 1); /* the first name with the cookie */
	assert_int_equal(dc_set_add(&s, 10, 3, &other), DC_REPEAT);
	assert_int_equal(dc_set_add(&s, 11, 2, NULL), DC_REPEAT);
	assert_int_equal(dc_set_add(&s, 0, 0, NULL), DC_NEW);
	assert_int_equal(dc_set_add(&s, UINT64_MAX, 0, NULL), DC_NEW);
	dc_set_clear(&s);
	assert_int_equal(s.n, 0);
	assert_int_equal(dc_set_add(&s, 10, 3, NULL), DC_NEW);
	dc_set_free(&s);
}

/* Growth from 16 slots to a million keeps every answer. */
static void test_set_growth(void **state)
{
	(void)state;
	struct dc_set s;
	const uint32_t n = 300000;
	assert_int_equal(dc_set_init(&s, 0), 0);
	for (uint32_t i = 0; i < n; i++)
		assert_int_equal(dc_set_add(&s, (uint64_t)i << 32, i, NULL), DC_NEW);
	assert_true(s.cap >= 2 * (size_t)n);
	assert_true((s.cap & (s.cap - 1)) == 0);
	for (uint32_t i = 0; i < n; i += 997)
		assert_int_equal(dc_set_add(&s, (uint64_t)i << 32, i, NULL), DC_REPEAT);
	uint32_t other = 0;
	assert_int_equal(dc_set_add(&s, (uint64_t)7 << 32, 99, &other), DC_SHARED);
	assert_int_equal(other, 7);
	dc_set_free(&s);
}

/* A deterministic generator for the property tests. */
static uint64_t rng(uint64_t *x)
{
	*x ^= *x << 13;
	*x ^= *x >> 7;
	*x ^= *x << 17;
	return *x;
}

/* The tag of the first entry before i with cookie i's: what the tracker
 * names as the other (the plain set names one of them, after a growth
 * not always the first). */
static uint32_t first_with(const uint64_t *cookies, const uint32_t *tags, size_t i)
{
	for (size_t k = 0; k < i; k++)
		if (cookies[k] == cookies[i])
			return tags[k];
	return UINT32_MAX;
}

/* The tracker gives the plain set's verdict for every cookie of the
 * sequence, and for a shared cookie the same first name, up to the
 * repeat where a scan stops. */
static void expect_tracker_matches_set(const uint64_t *cookies, const uint32_t *tags, size_t len)
{
	struct dc_set plain, backing;
	struct dc_track t;
	assert_int_equal(dc_set_init(&plain, 8), 0);
	assert_int_equal(dc_set_init(&backing, 8), 0);
	dc_track_start(&t, &backing);
	for (size_t i = 0; i < len; i++) {
		uint32_t o1 = 0, o2 = 0;
		int want = dc_set_add(&plain, cookies[i], tags[i], &o1);
		int got = dc_track_add(&t, cookies, tags, i, &o2);
		assert_int_equal(got, want);
		if (want == DC_SHARED)
			assert_int_equal(o2, t.in_set ? o1 : first_with(cookies, tags, i));
		if (want == DC_REPEAT)
			break; /* a scan stops here */
	}
	dc_set_free(&plain);
	dc_set_free(&backing);
}

/* The tracker answers exactly as the plain set would, for sequences that
 * are monotonic, then not, with shared cookies and repeats. */
static void test_tracker_matches_set(void **state)
{
	(void)state;
	uint64_t seed = 0x9e3779b97f4a7c15ULL;
	enum { LEN = 400 };
	uint64_t cookies[LEN];
	uint32_t tags[LEN];
	for (int round = 0; round < 500; round++) {
		size_t len = 2 + rng(&seed) % (LEN - 2);
		size_t turn = rng(&seed) % len;  /* where it stops being monotonic */
		int dir = rng(&seed) % 2 ? 1 : -1;
		uint64_t c = dir > 0 ? 100 : 1000000;
		for (size_t i = 0; i < len; i++) {
			if (i < turn) {
				c = dir > 0 ? c + 1 + rng(&seed) % 5 : c - 1 - rng(&seed) % 5;
				cookies[i] = c;
				tags[i] = (uint32_t)i;
			} else {
				/* Revisit earlier cookies and names now and then. */
				size_t j = rng(&seed) % (i + 1);
				cookies[i] = rng(&seed) % 3 ? cookies[j] : rng(&seed) % 2000000;
				tags[i] = rng(&seed) % 2 ? tags[j] : (uint32_t)(i + 1000);
			}
		}
		expect_tracker_matches_set(cookies, tags, len);
	}
}

/* The same for sequences made of monotonic runs, up or down, some of
 * one entry, with cookies and names of earlier runs coming back: fewer
 * runs than DC_TRACK_RUNS and more. */
static void test_tracker_runs_match_set(void **state)
{
	(void)state;
	uint64_t seed = 0x2545f4914f6cdd1dULL;
	enum { LEN = 600 };
	uint64_t cookies[LEN];
	uint32_t tags[LEN];
	for (int round = 0; round < 2000; round++) {
		size_t len = 2 + rng(&seed) % (LEN - 2), runs = 1 + rng(&seed) % 12;
		size_t run_len = len / runs + 1;
		uint64_t c = rng(&seed) % 1000;
		int dir = 1;
		for (size_t i = 0; i < len; i++) {
			if (i % run_len == 0) {
				dir = rng(&seed) % 2 ? 1 : -1;
				c = rng(&seed) % 3000;
			}
			c = dir > 0 ? c + 1 + rng(&seed) % 3 : c - 1 - rng(&seed) % 3;
			cookies[i] = c;
			tags[i] = (uint32_t)i;
			if (i && rng(&seed) % 50 == 0) { /* an earlier cookie, maybe its name */
				size_t j = rng(&seed) % i;
				cookies[i] = cookies[j];
				tags[i] = rng(&seed) % 2 ? tags[j] : (uint32_t)(i + 5000);
			}
		}
		expect_tracker_matches_set(cookies, tags, len);
	}
	/* tmpfs since 6.14: "." 1, ".." the largest, the names falling, the
	 * last one INT_MAX: three runs, no set. */
	enum { N = 10000 };
	static uint64_t tm[N + 2];
	static uint32_t tt[N + 2];
	tm[0] = 1;
	tm[1] = N + 2;
	for (size_t i = 2; i < N + 1; i++)
		tm[i] = N + 3 - i;
	tm[N + 1] = 0x7fffffff;
	for (uint32_t i = 0; i < N + 2; i++)
		tt[i] = i;
	struct dc_set s;
	struct dc_track t;
	assert_int_equal(dc_set_init(&s, 0), 0);
	dc_track_start(&t, &s);
	for (size_t i = 0; i < N + 2; i++)
		assert_int_equal(dc_track_add(&t, tm, tt, i, NULL), DC_NEW);
	assert_false(t.in_set);
	assert_int_equal(s.n, 0);
	dc_set_free(&s);
}

/* Monotonic scans, up or down, never touch the set. */
static void test_tracker_monotonic_costs_nothing(void **state)
{
	(void)state;
	enum { LEN = 10000 };
	static uint64_t up[LEN], down[LEN];
	static uint32_t tags[LEN];
	for (uint32_t i = 0; i < LEN; i++) {
		up[i] = 2 + (uint64_t)i * 7919;
		down[i] = 0x7fffffffULL - i;
		tags[i] = i;
	}
	struct dc_set s;
	struct dc_track t;
	assert_int_equal(dc_set_init(&s, 0), 0);
	dc_track_start(&t, &s);
	for (size_t i = 0; i < LEN; i++)
		assert_int_equal(dc_track_add(&t, up, tags, i, NULL), DC_NEW);
	assert_false(t.in_set);
	assert_int_equal(s.n, 0);
	dc_track_start(&t, &s);
	for (size_t i = 0; i < LEN; i++)
		assert_int_equal(dc_track_add(&t, down, tags, i, NULL), DC_NEW);
	assert_false(t.in_set);
	/* ext4's compat collisions: equal neighbours, different names. */
	uint64_t coll[] = { 5, 9, 9, 12 };
	uint32_t ct[] = { 1, 2, 3, 4 };
	dc_track_start(&t, &s);
	assert_int_equal(dc_track_add(&t, coll, ct, 0, NULL), DC_NEW);
	assert_int_equal(dc_track_add(&t, coll, ct, 1, NULL), DC_NEW);
	uint32_t other = 0;
	assert_int_equal(dc_track_add(&t, coll, ct, 2, &other), DC_SHARED);
	assert_int_equal(other, 2);
	assert_int_equal(dc_track_add(&t, coll, ct, 3, NULL), DC_NEW);
	dc_set_free(&s);
}

/* A directory whose listing loops (the GlusterFS symptom): the cycle is
 * found at the first entry that comes round again, however long the
 * loop, so the scan reads at most prefix + loop + 1 entries. */
static void test_cycle_found_within_bound(void **state)
{
	(void)state;
	static const struct { size_t prefix, loop; } shapes[] = {
		{ 0, 1 }, { 0, 2 }, { 3, 1 }, { 500, 500 }, { 1, 9999 }, { 9999, 1 },
	};
	for (size_t k = 0; k < sizeof(shapes) / sizeof(shapes[0]); k++) {
		size_t prefix = shapes[k].prefix, loop = shapes[k].loop;
		size_t cap = 3 * (prefix + loop) + 1000, total = prefix + loop;
		uint64_t *cookies = malloc(cap * sizeof(*cookies));
		uint32_t *tags = malloc(cap * sizeof(*tags));
		struct dc_set s;
		struct dc_track t;
		assert_non_null(cookies);
		assert_non_null(tags);
		assert_int_equal(dc_set_init(&s, 16), 0);
		dc_track_start(&t, &s);
		size_t seen = 0;
		int how = DC_NEW;
		while (seen < cap) {
			/* Entry seen: the prefix once, then the loop forever. */
			size_t pos = seen < total ? seen : prefix + (seen - prefix) % loop;
			cookies[seen] = 3 + pos;
			tags[seen] = (uint32_t)pos;
			how = dc_track_add(&t, cookies, tags, seen, NULL);
			if (how == DC_REPEAT)
				break;
			seen++;
		}
		assert_int_equal(how, DC_REPEAT);
		assert_int_equal(seen, total); /* the first entry of the second lap */
		dc_set_free(&s);
		free(cookies);
		free(tags);
	}
}

static void test_order(void **state)
{
	(void)state;
	uint32_t up[] = { 0, 1, 2, 3 }, down[] = { 3, 2, 1, 0 }, mixed[] = { 2, 0, 3, 1 };
	uint64_t inc[] = { 10, 20, 30, 40 }, dec[] = { 40, 30, 20, 10 }, zig[] = { 10, 30, 20, 40 };
	assert_int_equal(dc_classify_order(up, inc, 4), DC_ORDER_CREATION);
	assert_int_equal(dc_classify_order(up, zig, 4), DC_ORDER_CREATION);
	assert_int_equal(dc_classify_order(down, dec, 4), DC_ORDER_REVERSE);
	assert_int_equal(dc_classify_order(mixed, inc, 4), DC_ORDER_HASH);
	assert_int_equal(dc_classify_order(mixed, zig, 4), DC_ORDER_OTHER);
	assert_int_equal(dc_classify_order(up, inc, 1), DC_ORDER_NONE);
	assert_int_equal(dc_classify_order(NULL, NULL, 0), DC_ORDER_NONE);
	assert_string_equal(dc_order_name(DC_ORDER_CREATION), "creation");
	assert_string_equal(dc_order_name(DC_ORDER_REVERSE), "reverse_creation");
	assert_string_equal(dc_order_name(DC_ORDER_HASH), "hash");
	assert_string_equal(dc_order_name(DC_ORDER_OTHER), "other");
}

static void test_count_duplicates(void **state)
{
	(void)state;
	uint64_t none[] = { 5, 1, 3 }, some[] = { 7, 7, 1, 7, 2, 1 };
	assert_int_equal(dc_count_duplicates(none, 3), 0);
	assert_int_equal(dc_count_duplicates(some, 6), 3); /* 6 values, 3 distinct */
	assert_int_equal(dc_count_duplicates(some, 0), 0);
}

static void test_sample(void **state)
{
	(void)state;
	assert_int_equal(dc_sample_count(10, 1024), 10);
	assert_int_equal(dc_sample_count(100000, 1024), 1024);
	assert_int_equal(dc_sample_count(0, 1024), 0);
	for (size_t k = 0; k < 10; k++)
		assert_int_equal(dc_sample_at(10, 1024, k), k); /* all of a small range */
	size_t n = 1000001, prev = 0;
	assert_int_equal(dc_sample_at(n, 1024, 0), 0);
	assert_int_equal(dc_sample_at(n, 1024, 1023), n - 1);
	for (size_t k = 1; k < 1024; k++) {
		size_t p = dc_sample_at(n, 1024, k);
		assert_true(p > prev && p < n);
		prev = p;
	}
	assert_int_equal(dc_sample_at(1, 1024, 0), 0);
}

static void test_spread(void **state)
{
	(void)state;
	assert_false(dc_spread_pick(0, 0));
	assert_false(dc_spread_pick(0, 1));
	assert_true(dc_spread_pick(0, 2));
	assert_false(dc_spread_pick(1, 2));
	assert_false(dc_spread_pick(2, 2)); /* past the end */
	for (size_t total = 2; total < 400; total++) {
		size_t picked = 0, survivors_after = 0;
		for (size_t p = 0; p < total; p++) {
			picked += dc_spread_pick(p, total);
			survivors_after += dc_spread_pick(p, total) && p + 1 < total &&
					   !dc_spread_pick(p + 1, total);
		}
		assert_true(picked >= 1 && picked < total); /* someone always survives */
		assert_true(survivors_after >= 1);          /* a removed name, then a survivor */
	}
	/* 10,000 names: the first and last 3, and every 20th. */
	size_t n = 10000, picked = 0;
	for (size_t p = 0; p < n; p++)
		picked += dc_spread_pick(p, n);
	assert_int_equal(picked, 3 + 3 + n / 20); /* 10, 30, ... 9990 and the edges */
	assert_true(dc_spread_pick(0, n) && dc_spread_pick(2, n) && !dc_spread_pick(3, n));
	assert_true(dc_spread_pick(10, n) && !dc_spread_pick(11, n) && dc_spread_pick(30, n));
	assert_true(dc_spread_pick(n - 1, n) && dc_spread_pick(n - 3, n) && !dc_spread_pick(n - 4, n));
	/* Bounded: the same up to 20 * max names, beyond at most max but the
	 * edges, still the first and last 3 and spread to the end. */
	assert_int_equal(dc_spread_stride(n, 4096), 20);
	assert_int_equal(dc_spread_stride(81920, 4096), 20);
	assert_int_equal(dc_spread_stride(1000000, 4096), 245);
	assert_int_equal(dc_spread_stride(1000000, 0), 20);
	for (size_t p = 0; p < n; p++)
		assert_int_equal(dc_spread_pick_max(p, n, 4096), dc_spread_pick(p, n));
	n = 1000000;
	picked = 0;
	size_t last = 0;
	for (size_t p = 0; p < n; p++) {
		if (dc_spread_pick_max(p, n, 4096)) {
			picked++;
			if (p < n - 3)
				last = p;
		}
	}
	assert_true(picked <= 3 + 3 + 4096 && picked >= 3 + 3 + 4000);
	assert_true(last > n - 245 - 3);            /* picks reach the last block */
	assert_true(dc_spread_pick_max(0, n, 4096) && dc_spread_pick_max(n - 1, n, 4096));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bits),
		cmocka_unit_test(test_names_and_tags),
		cmocka_unit_test(test_set_new_shared_repeat),
		cmocka_unit_test(test_set_growth),
		cmocka_unit_test(test_tracker_matches_set),
		cmocka_unit_test(test_tracker_runs_match_set),
		cmocka_unit_test(test_tracker_monotonic_costs_nothing),
		cmocka_unit_test(test_cycle_found_within_bound),
		cmocka_unit_test(test_order),
		cmocka_unit_test(test_count_duplicates),
		cmocka_unit_test(test_sample),
		cmocka_unit_test(test_spread),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

// SPDX-License-Identifier: GPL-2.0-or-later
/* The search behind abiwatch bisect (lib/bisect.h): every boundary of
 * every length up to 40 is found in 1 + ceil(log2(n - 1)) judgements, one
 * more when the change is at the last candidate or there is none; with
 * candidates that give no answer it names the range the change hides in,
 * and never a wrong one. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "lib/bisect.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>

/* Candidates good before boundary, bad from it on (boundary == n: no
 * change); those whose bit is set in skips give no answer. */
struct world {
	size_t n, boundary;
	uint64_t skips;
};

static enum aw_bisect_mark judge(const struct world *w, size_t i)
{
	if (i > 0 && (w->skips >> i) & 1)
		return AW_BISECT_SKIP;
	return i < w->boundary ? AW_BISECT_GOOD : AW_BISECT_BAD;
}

/* Run the search to its end; *judged counts the judgements, 0 included. */
static struct aw_bisect_state search(const struct world *w, size_t *judged)
{
	struct aw_bisect b;
	aw_bisect_init(&b, w->n);
	aw_bisect_mark(&b, 0, AW_BISECT_GOOD);
	*judged = 1;
	struct aw_bisect_state s;
	while ((s = aw_bisect_state(&b)).end == AW_BISECT_GOING) {
		assert_true(s.next > 0 && s.next < w->n);
		assert_int_equal(b.marks[s.next], AW_BISECT_UNKNOWN); /* never judged twice */
		aw_bisect_mark(&b, s.next, judge(w, s.next));
		(*judged)++;
		assert_true(*judged <= w->n);
	}
	aw_bisect_free(&b);
	return s;
}

static size_t ceil_log2(size_t x)
{
	size_t k = 0;
	while (((size_t)1 << k) < x)
		k++;
	return k;
}

static void test_every_boundary(void **state)
{
	(void)state;
	for (size_t n = 1; n <= 40; n++)
		for (size_t k = 1; k <= n; k++) {
			struct world w = { .n = n, .boundary = k };
			size_t judged;
			struct aw_bisect_state s = search(&w, &judged);
			if (k == n) {
				assert_int_equal(s.end, AW_BISECT_NO_CHANGE);
				assert_int_equal(s.last_good, n - 1);
			} else {
				assert_int_equal(s.end, AW_BISECT_FOUND);
				assert_int_equal(s.first_bad, k);
				assert_int_equal(s.last_good, k - 1);
			}
			/* The last is presumed bad: a change there, or none,
			 * costs its judgement on top. */
			size_t bound = 1 + (n > 1 ? ceil_log2(n - 1) : 0) + (k >= n - 1 && n > 1);
			assert_true(judged <= bound);
		}
}

/* Six kernels, the first three alike: three judgements (0, 2, 3). */
static void test_six_kernels(void **state)
{
	(void)state;
	struct world w = { .n = 6, .boundary = 3 };
	size_t judged;
	struct aw_bisect_state s = search(&w, &judged);
	assert_int_equal(s.end, AW_BISECT_FOUND);
	assert_int_equal(s.first_bad, 3);
	assert_int_equal(judged, 3);
}

/* Every pattern of unanswered candidates up to n = 9: the answer is
 * exact or a range that holds the boundary, never wrong. */
static void test_skips(void **state)
{
	(void)state;
	for (size_t n = 2; n <= 9; n++)
		for (size_t k = 1; k <= n; k++)
			for (uint64_t skips = 0; skips < ((uint64_t)1 << n); skips += 2) {
				struct world w = { .n = n, .boundary = k, .skips = skips };
				size_t judged;
				struct aw_bisect_state s = search(&w, &judged);
				switch (s.end) {
				case AW_BISECT_FOUND:
					assert_int_equal(s.first_bad, k);
					break;
				case AW_BISECT_AMBIGUOUS:
					assert_true(s.from <= k && k <= s.first_bad);
					assert_true(s.from < s.first_bad);
					for (size_t i = s.from; i < s.first_bad; i++)
						assert_true((skips >> i) & 1);
					break;
				case AW_BISECT_NO_CHANGE:
					assert_int_equal(k, n);
					break;
				case AW_BISECT_UNDECIDED:
					/* The change, if any, is among the last, unanswered. */
					assert_true(s.from <= k);
					for (size_t i = s.from; i < n; i++)
						assert_true((skips >> i) & 1);
					break;
				default:
					fail_msg("the search ended GOING");
				}
			}
}

/* One candidate: the reference alone is no change. */
static void test_one(void **state)
{
	(void)state;
	struct world w = { .n = 1, .boundary = 1 };
	size_t judged;
	assert_int_equal(search(&w, &judged).end, AW_BISECT_NO_CHANGE);
	assert_int_equal(judged, 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_boundary),
		cmocka_unit_test(test_six_kernels),
		cmocka_unit_test(test_skips),
		cmocka_unit_test(test_one),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

// SPDX-License-Identifier: GPL-2.0-or-later
/* A binary search that tolerates unanswered questions (lib/bisect.h). */
#include "bisect.h"
#include "util.h"

#include <stdbool.h>
#include <stdlib.h>

void aw_bisect_init(struct aw_bisect *b, size_t n)
{
	b->n = n;
	b->marks = xcalloc(n ? n : 1, sizeof(*b->marks));
}

void aw_bisect_free(struct aw_bisect *b)
{
	free(b->marks);
	b->marks = NULL;
	b->n = 0;
}

void aw_bisect_mark(struct aw_bisect *b, size_t i, enum aw_bisect_mark m)
{
	if (i < b->n)
		b->marks[i] = m;
}

/* The first candidate known bad, or n. */
static size_t first_known_bad(const struct aw_bisect *b)
{
	for (size_t i = 0; i < b->n; i++)
		if (b->marks[i] == AW_BISECT_BAD)
			return i;
	return b->n;
}

/* The last candidate known good before limit (0 when none is: the
 * reference is good by definition).  A good one after a bad one would
 * say the answer changed twice; the search holds to the first change. */
static size_t last_known_good(const struct aw_bisect *b, size_t limit)
{
	size_t lo = 0;
	for (size_t i = 0; i < limit; i++)
		if (b->marks[i] == AW_BISECT_GOOD)
			lo = i;
	return lo;
}

/* The unjudged candidate strictly between lo and hi nearest to their
 * middle (the lower on a tie), or hi when there is none. */
static size_t nearest_unjudged(const struct aw_bisect *b, size_t lo, size_t hi)
{
	size_t mid = lo + (hi - lo) / 2;
	for (size_t d = 0; d < hi - lo; d++) {
		if (mid >= lo + 1 + d && b->marks[mid - d] == AW_BISECT_UNKNOWN)
			return mid - d;
		if (d > 0 && mid + d < hi && b->marks[mid + d] == AW_BISECT_UNKNOWN)
			return mid + d;
	}
	return hi;
}

static bool any_skipped(const struct aw_bisect *b, size_t lo, size_t hi)
{
	for (size_t i = lo + 1; i < hi; i++)
		if (b->marks[i] == AW_BISECT_SKIP)
			return true;
	return false;
}

struct aw_bisect_state aw_bisect_state(const struct aw_bisect *b)
{
	size_t bad = first_known_bad(b);
	size_t lo = last_known_good(b, bad);
	struct aw_bisect_state s = { .end = AW_BISECT_GOING, .last_good = lo, .from = lo + 1,
				     .first_bad = bad };

	if (b->n == 0 || lo == b->n - 1) {
		s.end = AW_BISECT_NO_CHANGE;
		return s;
	}
	/* Without a known bad one the last is presumed bad until judged. */
	size_t hi = bad < b->n ? bad : b->n - 1;
	size_t next = nearest_unjudged(b, lo, hi);
	if (next != hi) {
		s.next = next;
		return s;
	}
	if (bad < b->n) {
		s.end = any_skipped(b, lo, bad) ? AW_BISECT_AMBIGUOUS : AW_BISECT_FOUND;
		return s;
	}
	if (b->marks[hi] == AW_BISECT_UNKNOWN) {
		s.next = hi;
		return s;
	}
	s.end = AW_BISECT_UNDECIDED; /* the last gave no answer, nor did those before it */
	return s;
}

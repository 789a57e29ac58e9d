/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A binary search for the first of n ordered candidates whose answer
 * differs from the first's, asking as few questions as it can, where a
 * question may go unanswered ("skip": a kernel that did not boot).  The
 * caller judges candidate 0 first (it is the reference: good by
 * definition), then asks aw_bisect_next() which one to judge, marks it,
 * and asks again until the search is decided.
 *
 * The last candidate is presumed bad and only judged when the search
 * comes down to it, so that a change is found in 1 + ceil(log2(n - 1))
 * judgements; a change at the last, or none, costs its judgement on top.  As
 * git bisect, it assumes the answer changes once: good up to some
 * candidate, bad from the next on.
 */
#ifndef ABIWATCH_LIB_BISECT_H
#define ABIWATCH_LIB_BISECT_H

#include <stddef.h>

enum aw_bisect_mark {
	AW_BISECT_UNKNOWN, /* not judged */
	AW_BISECT_GOOD,
	AW_BISECT_BAD,
	AW_BISECT_SKIP,    /* judged, but no answer came */
};

enum aw_bisect_end {
	AW_BISECT_GOING,     /* judge aw_bisect_next() */
	AW_BISECT_FOUND,     /* first_bad is the first bad candidate */
	AW_BISECT_AMBIGUOUS, /* it is one of [from, first_bad]: those before
				first_bad were skipped */
	AW_BISECT_NO_CHANGE, /* every judged candidate was good, the last too */
	AW_BISECT_UNDECIDED, /* the candidates from `from` on gave no answer */
};

struct aw_bisect {
	size_t n;
	enum aw_bisect_mark *marks; /* n of them, owned */
};

struct aw_bisect_state {
	enum aw_bisect_end end;
	size_t next;      /* GOING: the candidate to judge */
	size_t last_good; /* the last candidate known good */
	size_t from;      /* AMBIGUOUS, UNDECIDED: the first candidate in doubt */
	size_t first_bad; /* FOUND, AMBIGUOUS: the first known bad */
};

/* n >= 1 candidates, none judged. */
void aw_bisect_init(struct aw_bisect *b, size_t n);
void aw_bisect_free(struct aw_bisect *b);
void aw_bisect_mark(struct aw_bisect *b, size_t i, enum aw_bisect_mark m);
/* Where the search stands.  Candidate 0 must be marked good first. */
struct aw_bisect_state aw_bisect_state(const struct aw_bisect *b);

#endif

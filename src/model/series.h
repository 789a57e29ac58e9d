/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A series of kernels (a distribution's stable updates, in version
 * order) as one table: a row per item that the kernel changed between
 * some pair of neighbours (diff.h's kernel changes, so what the
 * environment explains stays out), a cell per kernel with its value, the
 * kernel where each new value first appears, and the items whose value
 * comes back after it changed (A -> B -> A) within a stable line: a measurement that flaps is
 * a defect to show, not a change to count.  Computed here; matrix.txt
 * and the report write it (output/).
 */
#ifndef ABIWATCH_MODEL_SERIES_H
#define ABIWATCH_MODEL_SERIES_H

#include "snapshot.h"
#include "diff.h"

#include <stdbool.h>
#include <stddef.h>

enum aw_series_state {
	AW_SERIES_ABSENT,     /* no record: the interface or the probe is not there */
	AW_SERIES_UNOBSERVED, /* unobserved.*, or a check or probe that skipped */
	AW_SERIES_VALUE,      /* a value: an observation, a check's or probe's status */
};

struct aw_series_cell {
	enum aw_series_state state;
	const char *value;  /* the snapshot's value (for UNOBSERVED its reason), or NULL */
	/* Which of the row's values this is (0, 1, ... in order of first
	 * appearance); meaningful for AW_SERIES_VALUE only. */
	size_t nth;
	/* A value the row had no earlier kernel show, after one that had
	 * another: where it first appears.  Absent or unobserved between
	 * two values is no value (A, absent, A is no change). */
	bool first;
};

struct aw_series_row {
	char *key;      /* "obs.sysctl.knob.net.ipv6.conf.all.forwarding.writeback" */
	char *object;   /* its object in the diff ("sysctl.knob.net.ipv6.conf.all.forwarding") */
	char *family;
	struct aw_series_cell *cells; /* one per kernel */
	/* The column of the first kernel whose diff with its left neighbour
	 * has the item as a kernel change (1 ...). */
	size_t first_change;
	size_t nvalues;  /* distinct values */
	size_t *value_cols; /* [nth]: the column where value nth first appears */
	/* A value came back after another (A -> B -> A) within one stable
	 * line (6.1.y, 6.12.y: the release's first two numbers): not a
	 * change.  Across lines (6.1, 6.12, then 6.18) values may return. */
	bool flapping;
	/* Times the value moved from one kernel with a value to the next
	 * with a value; 0 when flapping. */
	size_t changes;
};

/* One object's kernel change between neighbours, as diff groups them. */
struct aw_series_object {
	char *name;   /* "sysctl.knob.net.ipv6.conf.all.forwarding" */
	char *family;
	/* Every item of the object's change in this pair flaps across the
	 * series: shown as a defect, not counted. */
	bool flapping;
	bool appeared; /* the interface only appeared (diff's rank "appeared") */
};

/* Neighbours old -> new, columns c - 1 and c. */
struct aw_series_pair {
	size_t changes;  /* behaviour changes: objects changed, but not those
			    that only appeared nor those that flap */
	size_t appeared; /* objects whose interface appeared */
	size_t flapping; /* objects whose every item flaps */
	struct aw_series_object *objects; /* in diff's rank order */
	size_t nobjects;
};

struct aw_series {
	size_t ncols;
	/* By the first change, then key: read top down, the rows follow
	 * the series. */
	struct aw_series_row *rows;
	size_t nrows;
	struct aw_series_pair *pairs; /* pairs[c - 1]: columns c - 1 and c */
	size_t changes;               /* the pairs' behaviour changes, summed */
	size_t nflapping;             /* rows that flap */
	/* Rows whose value never moved (one value at most: the item only
	 * appeared, vanished or went unobserved somewhere): the views list
	 * their objects with each pair, not a row each. */
	size_t npresence;
};

/* The series of n snapshots in the order given (their kernels' version
 * order: the caller's).  Cells point into the snapshots, which must
 * outlive s. */
void aw_series_compute(const struct aw_snapshot *const *snaps, size_t n, struct aw_series *s);
/* The same from the neighbours' diffs the caller has already computed:
 * diffs[c], for 1 <= c < n, is snaps[c - 1] -> snaps[c] with no options
 * (a matrix writes them as its .diff files too).  diffs must outlive
 * the call only. */
void aw_series_compute_from(const struct aw_snapshot *const *snaps, const struct aw_diff *diffs,
			    size_t n, struct aw_series *s);
void aw_series_free(struct aw_series *s);

#endif

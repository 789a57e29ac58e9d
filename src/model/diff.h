/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Two snapshots compared: what changed that programs can see, each change
 * with its meaning from the catalogue, and the environment's differences
 * apart, so that a skip the machine caused is not taken for a kernel
 * change.  Computed here (classes, causes, objects, ranks); written
 * out by output/ (output/diff.h: text, KTAP, JSON, and the words the
 * report shares), so that nothing here knows a format.
 */
#ifndef ABIWATCH_DIFF_H
#define ABIWATCH_DIFF_H

#include "diff_types.h"
#include "snapshot.h"

#include <stdbool.h>
#include <stddef.h>

struct aw_diff_opts {
	char *const *ignore; /* globs over names (as run's) or whole keys */
	size_t nignore;
	enum aw_diff_gate fail_on; /* kept in aw_diff.fail_on */
};

void aw_diff_compute(const struct aw_snapshot *old, const struct aw_snapshot *new,
		     const struct aw_diff_opts *opts, struct aw_diff *d);
/* Whether any change is left that the environment does not explain:
 * `abiwatch diff` exits 1 then. */
bool aw_diff_differs(const struct aw_diff *d);
/* Whether the object's changes fail the diff's gate (aw_diff.fail_on):
 * under "breaking", an object whose interface only appeared, or whose
 * changes are all checks and probes that now pass where they did not,
 * breaks nothing that worked and passes. */
bool aw_diff_object_fails(const struct aw_diff *d, const struct aw_diff_object *ob);
/* Whether any object fails the gate: `abiwatch diff` exits 1 then. */
bool aw_diff_fails(const struct aw_diff *d);
const char *aw_diff_gate_name(enum aw_diff_gate g); /* "breaking", "any", "none" */
/* 0 with *g for "breaking", "any" or "none"; -1 for anything else. */
int aw_diff_gate_parse(const char *name, enum aw_diff_gate *g);
/* The changes the environment explains, grouped by cause and side, the
 * largest group first.  Free with aw_diff_groups_free(). */
struct aw_diff_group *aw_diff_groups(const struct aw_diff *d, size_t *n);
void aw_diff_groups_free(struct aw_diff_group *g, size_t n);
/* Kernel changes (not explained by the environment), counted by object
 * (aw_diff.nobjects), and the new failures among their items: a check,
 * observation or probe that is now fail, error or timeout and was not. */
size_t aw_diff_kernel_changes(const struct aw_diff *d, size_t *new_failures);
/* The items changed that the environment does not explain. */
size_t aw_diff_kernel_items(const struct aw_diff *d);
const char *aw_diff_rank_name(enum aw_diff_rank r); /* "named", "behaviour", "appeared" */
void aw_diff_free(struct aw_diff *d);

const char *aw_diff_kind_name(enum aw_diff_kind k); /* "regressed" */

#endif

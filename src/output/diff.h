/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A diff (model/diff.h) written out: the words every writer shares
 * (diff_words.c: the summary line, an object's line, a change's line,
 * a cause's label), used by the text, KTAP and JSON diffs and by the
 * HTML report, and the three writers (diff_text.c, diff_ktap.c,
 * diff_json.c), which the format table (format.h) names.
 */
#ifndef ABIWATCH_OUTPUT_DIFF_H
#define ABIWATCH_OUTPUT_DIFF_H

#include "model/diff.h"

#include <stdbool.h>
#include <stdio.h>

/* What a group's items need, for people: "need i386 programs (not on
 * the new side)" (malloc'd). */
char *aw_diff_group_label(const struct aw_diff_group *g);
/* The one line diff, report and matrix lead with: "5 kernel changes, 0
 * new failures (vfs 3, sysctl 1 + 46 appeared + 1 vanished); 46 items not
 * comparable: 38 need i386 programs (not on the new side), ..."
 * (malloc'd). */
char *aw_diff_summary(const struct aw_diff *d);
/* "appeared", "vanished", or the kind of its changes when they share one
 * ("regressed"), else "changed". */
const char *aw_diff_object_kind(const struct aw_diff *d, const struct aw_diff_object *o);
/* An object's changes on one line: "vfs.anon.pidfd: f_type: a -> b;
 * fdinfo_pid = 1 -- MEANING"; a single change as its own line
 * ("changed   obs.x.y: a -> b -- MEANING"), kind word first (malloc'd). */
char *aw_diff_object_line(const struct aw_diff *d, const struct aw_diff_object *o);
/* For two values that are sets of names (comma lists of names of any
 * size, "none" for none; space-separated words only when long and four or
 * more), what moved instead of both: "31 -> 33: +memory.peak -cgroup.x",
 * or NULL when they are no such sets (malloc'd).  An object's line, the
 * report and the series view (matrix.txt) show it. */
char *aw_diff_set_delta(const char *old_value, const char *new_value);
/* One change: "changed   obs.x.y: a -> b -- MEANING" (malloc'd). */
char *aw_diff_change_line(const struct aw_diff_change *c);

/* For the writers: whether the snapshots' format versions differ; an
 * environment difference on one line ("key: old -> new", escaped;
 * malloc'd); what text and KTAP lead with, each line after prefix (the
 * summary, and a word on the formats when they differ). */
bool aw_diff_formats_differ(const struct aw_diff *d);
/* A change's item as its object's line names it: "f_type" of
 * obs.vfs.anon.pidfd.f_type in vfs.anon.pidfd. */
const char *aw_diff_item_in_object(const struct aw_diff_change *c);
char *aw_diff_env_line(const struct aw_diff_env *e);
void aw_diff_put_lead(FILE *out, const struct aw_diff *d, const char *old_name,
		      const char *new_name, const char *prefix);

/* The summary line; the kernel changes one line per object, ranked
 * (named consequences and vanished interfaces, then other behaviour
 * changes), each object's items below it when verbose; the interfaces
 * that appeared as one wrapped line of names per family (a line per
 * object when verbose); what could not be compared folded by cause (the
 * first few names of each; all of them when verbose); then the
 * environment's differences.  Nothing when the snapshots are the same. */
void aw_diff_text(FILE *out, const struct aw_diff *d, const char *old_name,
		  const char *new_name, bool verbose);
/* A not ok result per kernel change (per object), an ok SKIP per change
 * the environment explains; verbose changes nothing. */
void aw_diff_ktap(FILE *out, const struct aw_diff *d, const char *old_name,
		  const char *new_name, bool verbose);
/* Changes, objects, ranks and the summary's counts (abiwatch-diff-1);
 * verbose changes nothing: everything is there. */
void aw_diff_json(FILE *out, const struct aw_diff *d, const char *old_name,
		  const char *new_name, bool verbose);

#endif

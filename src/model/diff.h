/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Two snapshots compared: what changed that programs can see, each change
 * with its meaning from the catalogue, and the environment's differences
 * apart, so that a skip the machine caused is not taken for a kernel
 * change.  Written out as text, KTAP or JSON by `abiwatch diff`.
 */
#ifndef ABIWATCH_DIFF_H
#define ABIWATCH_DIFF_H

#include "snapshot.h"

#include <stdbool.h>
#include <stdio.h>

/* What a key is about; obs.X and unobserved.X are one observation X. */
enum aw_diff_class {
	AW_DIFF_PROBE,
	AW_DIFF_CHECK,
	AW_DIFF_OBS,
	AW_DIFF_OTHER, /* a key of a newer minor format this one does not know */
};

enum aw_diff_kind {
	AW_DIFF_CHANGED,   /* a value, a reason, or one failure for another */
	AW_DIFF_ADDED,
	AW_DIFF_REMOVED,
	AW_DIFF_REGRESSED, /* pass/ran/observed -> fail, error or timeout */
	AW_DIFF_RECOVERED, /* fail, error or timeout -> pass/ran/observed */
	AW_DIFF_SKIPPED,   /* something else -> skip */
	AW_DIFF_UNSKIPPED, /* skip -> something else */
};

struct aw_diff_change {
	enum aw_diff_class cls;
	enum aw_diff_kind kind;
	char *name;      /* "obs.mqueue.noattr.maxmsg": class prefix and item */
	char *old_value; /* as the snapshot has it, NULL when absent */
	char *new_value;
	char *meaning;   /* from the catalogue when this binary knows the item */
	char *cause;     /* the environment difference that explains it, or NULL */
	/* When cause is set: what the machine lacked, machine-readable
	 * ("i386", "cap_sys_resource", "fs:xfs", "userns", "memory", "cpus",
	 * "vm", as core/status.h; "probes" for a probe one side did not
	 * run), and the side that lacked it (for memory and cpus: the new
	 * side, whose machine differs).  Changes are folded by both. */
	char *cause_key;
	bool new_side;
	enum aw_status old_status, new_status; /* NONE when absent or env */
};

/* Changes with the same cause on the same side, for folding. */
struct aw_diff_group {
	const char *cause_key;
	bool new_side;
	size_t *changes; /* indices into aw_diff.changes, in their order */
	size_t n;
};

/* A difference of env.* keys; for list values (env.caps) what each lacks. */
struct aw_diff_env {
	char *key;
	char *old_value, *new_value; /* NULL when absent */
	char *summary;               /* "lost cap_sys_resource; gained ..." */
	/* Matched by --ignore: not shown, but still used to explain skips. */
	bool ignored;
};

struct aw_diff {
	unsigned old_major, old_minor, new_major, new_minor;
	struct aw_diff_env *env;
	size_t nenv;
	struct aw_diff_change *changes; /* probes, checks, observations, others */
	size_t n;
};

struct aw_diff_opts {
	char *const *ignore; /* globs over names (as run's) or whole keys */
	size_t nignore;
};

void aw_diff_compute(const struct aw_snapshot *old, const struct aw_snapshot *new,
		     const struct aw_diff_opts *opts, struct aw_diff *d);
/* Whether any change is left that the environment does not explain:
 * `abiwatch diff` exits 1 then. */
bool aw_diff_differs(const struct aw_diff *d);
/* The changes the environment explains, grouped by cause and side, the
 * largest group first.  Free with aw_diff_groups_free(). */
struct aw_diff_group *aw_diff_groups(const struct aw_diff *d, size_t *n);
void aw_diff_groups_free(struct aw_diff_group *g, size_t n);
/* What a group's items need, for people: "need i386 programs (not on
 * the new side)" (malloc'd). */
char *aw_diff_group_label(const struct aw_diff_group *g);
/* Kernel changes (not explained by the environment) and, of them, the
 * new failures: a check, observation or probe that is now fail, error
 * or timeout and was not. */
size_t aw_diff_kernel_changes(const struct aw_diff *d, size_t *new_failures);
/* The one line diff, report and matrix lead with: "2 kernel changes, 0
 * new failures; 46 items not comparable: 38 need i386 programs (not on
 * the new side), ..." (malloc'd). */
char *aw_diff_summary(const struct aw_diff *d);
void aw_diff_free(struct aw_diff *d);

const char *aw_diff_kind_name(enum aw_diff_kind k); /* "regressed" */

/* The summary line, the kernel changes with their meanings, what could
 * not be compared folded by cause (the first few names of each; all of
 * them when verbose), then the environment's differences. */
void aw_diff_text(FILE *out, const struct aw_diff *d, const char *old_name,
		  const char *new_name, bool verbose);
void aw_diff_ktap(FILE *out, const struct aw_diff *d, const char *old_name,
		  const char *new_name);
int aw_diff_json(FILE *out, const struct aw_diff *d, const char *old_name,
		 const char *new_name);

#endif

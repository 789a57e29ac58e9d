/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What a diff is made of: its changes, objects, families and environment
 * differences (diff.h computes them, output/ writes them).  Apart from
 * the computing, so that the cause finder (causes.c), which diff.c asks,
 * fills a change without depending on diff.c.
 */
#ifndef ABIWATCH_MODEL_DIFF_TYPES_H
#define ABIWATCH_MODEL_DIFF_TYPES_H

#include "core/status.h"

#include <stdbool.h>
#include <stddef.h>

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
	/* What the change is about, for grouping: FAMILY.PROBE.OBJECT, the
	 * item's .object in the catalogue, else its name without the last
	 * component, else the probe ("sysctl.knob.vm.swappiness"). */
	char *object;
	/* The interface is not there on that side: the key is missing, or
	 * its value is one of the item's .absent. */
	bool old_absent, new_absent;
	/* The catalogue names what this change means (an item of its own
	 * with a .change line, not a pattern's), or it is a new failure. */
	bool named;
};

/* How changes of one object are ranked, most telling first. */
enum aw_diff_rank {
	AW_RANK_NAMED,     /* a vanished interface, a new failure, or a change
			      whose catalogue entry names its consequence */
	AW_RANK_BEHAVIOUR, /* any other behaviour change */
	AW_RANK_APPEARED,  /* an interface that appeared: nothing that worked breaks */
};

enum aw_diff_shape {
	AW_SHAPE_CHANGED,  /* there on both sides, or mixed */
	AW_SHAPE_APPEARED, /* every change is from absent to present */
	AW_SHAPE_VANISHED, /* every change is from present to absent */
};

/* The kernel changes (not the environment's) of one object, together. */
struct aw_diff_object {
	char *name;          /* "vfs.anon.pidfd" */
	char *family;        /* "vfs" */
	enum aw_diff_rank rank;
	enum aw_diff_shape shape;
	/* What the changes mean: one meaning when they share it, else each
	 * part's, "PART: meaning", the severest first (a new failure, then a
	 * break: a value that became an errno or vanished); NULL: none. */
	char *meaning;
	size_t *changes;     /* indices into aw_diff.changes, in key order */
	size_t n;
};

/* A family's kernel changes, counted by object. */
struct aw_diff_family {
	char *name;
	size_t changed, appeared, vanished;
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

/* Which kernel changes fail a CI gate (diff's exit status, its KTAP's
 * "not ok"): those with a consequence for programs that worked (the
 * default), every one, or none. */
enum aw_diff_gate {
	AW_GATE_BREAKING, /* all but interfaces that appeared and checks that recovered */
	AW_GATE_ANY,
	AW_GATE_NONE,
};

struct aw_diff {
	enum aw_diff_gate fail_on;
	unsigned old_major, old_minor, new_major, new_minor;
	struct aw_diff_env *env;
	size_t nenv;
	struct aw_diff_change *changes; /* probes, checks, observations, others */
	size_t n;
	/* The kernel changes by object, ranked: rank, then the family with
	 * the most changes first, then by name. */
	struct aw_diff_object *objects;
	size_t nobjects;
	/* Families with kernel changes, the most first. */
	struct aw_diff_family *families;
	size_t nfamilies;
};

#endif

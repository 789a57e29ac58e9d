/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Snapshots: every result of a run as sorted "key = value" lines under a
 * versioned header, so that diff(1) and git work on them directly.  The
 * format is specified in man/abiwatch-snapshot.5.
 *
 * This is the only snapshot codec: it reads a snapshot into typed records
 * (what a key is about, the name under its prefix, the status and reason
 * or the value), refuses what the commands cannot rely on, and offers
 * the lookups and edits they need, so that no reader splits "check.",
 * "obs.", "unobserved." or "probe." off a key itself.
 */
#ifndef ABIWATCH_SNAPSHOT_H
#define ABIWATCH_SNAPSHOT_H

#include "core/result.h"
#include "core/status.h"

#include <stdio.h>

#define AW_SNAPSHOT_MAJOR 1
#define AW_SNAPSHOT_MINOR 1

/* What a key is about, by its prefix. */
enum aw_key_class {
	AW_KEY_ENV,        /* env.NAME: the run's environment */
	AW_KEY_PROBE,      /* probe.FAMILY.PROBE: how the probe ended */
	AW_KEY_CHECK,      /* check.FAMILY.PROBE.CHECK: a check's status */
	AW_KEY_OBS,        /* obs.FAMILY.PROBE.OBS: an observation made */
	AW_KEY_UNOBSERVED, /* unobserved.FAMILY.PROBE.OBS: one not made, why */
	AW_KEY_OTHER,      /* a key of a newer minor format */
};

struct aw_record {
	char *key;             /* as written: "obs.mqueue.noattr.maxmsg" */
	char *value;           /* unescaped */
	enum aw_key_class cls;
	const char *name;      /* the key past its class's prefix
				  ("mqueue.noattr.maxmsg"); all of it for OTHER */
	enum aw_status status; /* PASS for "ran", "pass" and an observation
				  made; NONE for env.* and other keys */
	const char *reason;    /* in value, after "STATUS: ", or NULL */
};

struct aw_snapshot {
	unsigned major, minor;
	struct aw_record *records; /* sorted by key, keys unique */
	size_t n;
};

/* "env.", "probe.", "check.", "obs.", "unobserved."; "" for OTHER. */
const char *aw_key_class_prefix(enum aw_key_class cls);

void aw_snapshot_from_run(const struct aw_run *run, struct aw_snapshot *snap);
void aw_snapshot_free(struct aw_snapshot *snap);

/* The value of a whole key ("env.kernel.release"), or NULL. */
const char *aw_snapshot_get(const struct aw_snapshot *snap, const char *key);
/* The record of a whole key ("check.mqueue.noattr.clamp"), or NULL. */
const struct aw_record *aw_snapshot_record(const struct aw_snapshot *snap, const char *key);
/* The record of class cls and name ("mqueue.noattr"), or NULL. */
const struct aw_record *aw_snapshot_find(const struct aw_snapshot *snap, enum aw_key_class cls,
					 const char *name);
/* The observation name: its obs.* record if it was made, else its
 * unobserved.* record, else NULL. */
const struct aw_record *aw_snapshot_observation(const struct aw_snapshot *snap, const char *name);
/* Set env.NAME to value (added in key order, or replaced): what the host
 * knows of a run that the run itself did not (env.vm.accel). */
void aw_snapshot_set_env(struct aw_snapshot *snap, const char *name, const char *value);

int aw_snapshot_write(const struct aw_snapshot *snap, FILE *out);
/* Write to path through a temporary file and rename(2), so that a reader
 * never sees half a snapshot.  0, or -1 with *err set (malloc'd). */
int aw_snapshot_save(const struct aw_snapshot *snap, const char *path, char **err);

/* Parse text (len bytes), refusing what abiwatch-snapshot(5) does not
 * allow and what the commands rely on: a status in every probe.*,
 * check.* and unobserved.* value; never both obs.X and unobserved.X.
 * Whatever it accepts, aw_snapshot_write() writes back byte for byte.
 * 0, or -1 with *err set to "NAME:LINE: what was expected" (malloc'd). */
int aw_snapshot_parse(const char *text, size_t len, const char *name,
		      struct aw_snapshot *snap, char **err);
/* The one loader: aw_textfile_read()'s size and NUL checks (with the
 * line), then aw_snapshot_parse().  0, or -1 with *err "PATH:LINE: ..." */
int aw_snapshot_load(const char *path, struct aw_snapshot *snap, char **err);

#endif

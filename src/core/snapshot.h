/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Snapshots: every result of a run as sorted "key = value" lines under a
 * versioned header, so that diff(1) and git work on them directly.  The
 * format is specified in man/abiwatch-snapshot.5.
 */
#ifndef ABIWATCH_SNAPSHOT_H
#define ABIWATCH_SNAPSHOT_H

#include "result.h"

#include <stdio.h>

#define AW_SNAPSHOT_MAJOR 1
#define AW_SNAPSHOT_MINOR 0

struct aw_kv {
	char *key;
	char *value; /* unescaped */
};

struct aw_snapshot {
	unsigned major, minor;
	struct aw_kv *kv; /* sorted by key, keys unique */
	size_t n;
};

void aw_snapshot_from_run(const struct aw_run *run, struct aw_snapshot *snap);
const char *aw_snapshot_get(const struct aw_snapshot *snap, const char *key);
void aw_snapshot_free(struct aw_snapshot *snap);

int aw_snapshot_write(const struct aw_snapshot *snap, FILE *out);
/* Write to path through a temporary file and rename(2), so that a reader
 * never sees half a snapshot.  0, or -1 with *err set (malloc'd). */
int aw_snapshot_save(const struct aw_snapshot *snap, const char *path, char **err);

/* Parse text (len bytes).  0, or -1 with *err set to
 * "NAME:LINE: what was expected" (malloc'd). */
int aw_snapshot_parse(const char *text, size_t len, const char *name,
		      struct aw_snapshot *snap, char **err);
int aw_snapshot_load(const char *path, struct aw_snapshot *snap, char **err);

#endif

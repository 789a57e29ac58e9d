/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Snapshots as KCIDB I/O data, the JSON that KernelCI's common database
 * takes (kcidb-io schema v5.3): one test per check, per numeric
 * observation and per node of the family > probe tree, under the path
 * "abiwatch."  What maps to what is in abiwatch(1), KCIDB OUTPUT.
 */
#ifndef ABIWATCH_KCIDB_H
#define ABIWATCH_KCIDB_H

#include "model/snapshot.h"

#include <stdio.h>

#define AW_KCIDB_MAJOR 5
#define AW_KCIDB_MINOR 3

struct aw_kcidb_opts {
	/* The submitting CI system, as KCIDB knows it ([a-z0-9_]+);
	 * NULL: "abiwatch". */
	const char *origin;
	/* The build the tests belong to, as the CI system submitted it
	 * ("origin:..."); NULL: a checkout and a build are made up of each
	 * snapshot's kernel, so the document stands on its own. */
	const char *build_id;
};

/* True when origin is a valid KCIDB origin name. */
bool aw_kcidb_origin_ok(const char *origin);
/* True when id is a valid KCIDB object id ("origin:rest"). */
bool aw_kcidb_id_ok(const char *id);

/* One document holding the n snapshots.  0, or -1 when out failed. */
int aw_kcidb_write(FILE *out, const struct aw_snapshot *const *snaps, size_t n,
		   const struct aw_kcidb_opts *o);

#endif

/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The probe's own account of its directory: the names it made, and those
 * its own successful unlink and rename calls took away, each with the
 * moment (a count of changes) it came or went.  A listing is held against
 * this record, never against another listing: a name a filesystem has
 * already lost from every listing is still expected (issue 44).
 *
 * POSIX readdir(): "If a file is removed from or added to the directory
 * after the most recent call to opendir() or rewinddir(), whether a
 * subsequent call to readdir() returns an entry for that file is
 * unspecified."  So a census takes the moment its stream was opened:
 * a name that came or went after it may be listed once or not at all;
 * every other recorded name exactly once; a name gone before it never.
 * Pure logic, like cookies.c: the unit tests run it alone.
 */
#ifndef ABIWATCH_DIRENT_RECORD_H
#define ABIWATCH_DIRENT_RECORD_H

#include "cookies.h"
#include "scan.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define DR_KINDS 4     /* enum dc_kind */
#define DR_SHOWN 4     /* missing names a census keeps, in creation order */

struct dr_record {
	uint32_t size[DR_KINDS];  /* names of each kind it can hold */
	uint32_t *born[DR_KINDS]; /* the moment a name was made, 0 never */
	uint32_t *died[DR_KINDS]; /* the moment it went, 0 not gone */
	uint8_t *seen[DR_KINDS];  /* a census's scratch */
	uint32_t now;             /* changes so far */
};

/* Room for size[k] names of kind k, none made yet; 0 or -1 (no memory). */
int dr_record_init(struct dr_record *r, const uint32_t size[DR_KINDS]);
void dr_record_free(struct dr_record *r);
/* A name the probe made, or removed (unlink, or the old name of a rename). */
void dr_record_made(struct dr_record *r, enum dc_kind kind, uint32_t num);
void dr_record_gone(struct dr_record *r, enum dc_kind kind, uint32_t num);
bool dr_record_has(const struct dr_record *r, enum dc_kind kind, uint32_t num);
bool dr_record_removed(const struct dr_record *r, enum dc_kind kind, uint32_t num);
/* The moment to give a census for a stream opened now. */
static inline uint32_t dr_record_now(const struct dr_record *r) { return r->now; }

struct dr_census {
	size_t missing;     /* recorded names not listed */
	size_t repeated;    /* names listed more than once (each counted once) */
	size_t repeated_untouched; /* of them, names made before the open and kept */
	size_t ghosts;      /* names removed before the stream was opened, listed */
	size_t unknown;     /* names of ours the record never held, listed */
	size_t strangers;   /* names of no shape of ours */
	size_t dots, dotdots;
	size_t changed;     /* names that came or went while it was open, listed */
	uint32_t missing_tag[DR_SHOWN]; /* the first missing, in creation order */
	uint32_t first_repeated, first_ghost, first_unknown;
	uint32_t first_repeated_untouched;
};

/* The listing s of a stream opened at moment opened (dr_record_now()
 * then), held against the record. */
void dr_census(struct dr_record *r, const struct ds_scan *s, uint32_t opened,
	       struct dr_census *c);
bool dr_census_ok(const struct dr_census *c);
/* Keep of census c only the repeats of names no change touched while its
 * stream was open: for a stream whose reader renamed names as it went
 * (terminates_rename), a name renamed away and back is two files, each
 * of which it may list (POSIX leaves a file added after the open
 * unspecified), while every name it left alone is still due once. */
void dr_census_untouched(struct dr_census *c);
/* "2 names missing (first f0000003); 1 removed name listed (f0000009)"
 * without the missing names' details, which need the directory
 * (malloc'd, "" when ok). */
char *dr_census_describe(const struct dr_census *c);
/* For missing name (kind, num): the nearest removed name of its kind
 * before it in creation order (*before, false when there is none), how
 * many places before it, and how many of its kind were removed before it. */
bool dr_removed_before(const struct dr_record *r, enum dc_kind kind, uint32_t num,
		       uint32_t *before, uint32_t *removed);
/* After dr_census() for a stream opened at opened: whether the recorded
 * name (kind, num) was missing from it. */
bool dr_is_missing(const struct dr_record *r, enum dc_kind kind, uint32_t num, uint32_t opened);

#endif

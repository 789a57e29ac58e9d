/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The dirent family's pure logic: bit widths, the set of (cookie, name)
 * pairs that finds cycles and shared cookies in one pass, entry names and
 * their tags, and the classification of a listing's order.  No kernel and
 * no core here: the 32-bit helper (m32/dirent_m32.c) is built from this
 * file too, and the unit tests run it alone.
 */
#ifndef ABIWATCH_DIRENT_COOKIES_H
#define ABIWATCH_DIRENT_COOKIES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Bits needed to write v as an unsigned number: 0 for 0, 64 for a value
 * with the top bit set (a negative d_off). */
unsigned dc_bits(uint64_t v);

/* ---- names ---- */

/* The files the probes create are PREFIX followed by 7 decimal digits:
 * 'f' the population, 'x' and 'y' those added and removed during a scan,
 * 'r' a renamed population file.  A tag identifies a name in 32 bits:
 * the kind in the bits above 20, the number below; "." and ".." and
 * anything else (a stranger: FNV-1a with the top bit set) have their own. */
#define DC_MAX_ENTRIES 1000000u /* < 2^20 */
#define DC_NAME_LEN 8
enum dc_kind { DC_POP = 0, DC_ADDED_X = 1, DC_ADDED_Y = 2, DC_RENAMED = 3 };
#define DC_TAG_DOT     0x7ffffff0u
#define DC_TAG_DOTDOT  0x7ffffff1u
#define DC_TAG_STRANGER 0x80000000u

/* Write the name of (kind, n) into buf (at least DC_NAME_LEN + 1 bytes). */
void dc_name(enum dc_kind kind, uint32_t n, char *buf);
uint32_t dc_tag(enum dc_kind kind, uint32_t n);
/* The tag of a name read back from the directory. */
uint32_t dc_tag_of(const char *name);
static inline bool dc_tag_is(uint32_t tag, enum dc_kind kind)
{
	return tag < DC_TAG_DOT && (tag >> 20) == (uint32_t)kind;
}
static inline uint32_t dc_tag_num(uint32_t tag) { return tag & 0xfffffu; }
/* A name for messages ("f0000012", ".", "a stranger"); buf >= 16 bytes. */
const char *dc_tag_name(uint32_t tag, char *buf);
uint32_t dc_fnv1a(const char *s);

/* ---- the set of (cookie, tag) pairs seen in one scan ---- */

struct dc_set {
	uint64_t *cookie;
	uint32_t *tag;
	uint8_t *used;
	size_t cap;   /* a power of two */
	size_t n;
};

enum dc_add {
	DC_NEW,        /* first time this cookie is seen */
	DC_SHARED,     /* another name had this cookie: a duplicate d_off */
	DC_REPEAT,     /* this name with this cookie again: a cycle */
};

/* 0, or -1 when memory runs out (then the set is empty but usable). */
int dc_set_init(struct dc_set *s, size_t expected);
/* Adds (cookie, tag).  On DC_SHARED, *other is the tag seen first with
 * the cookie (other may be NULL).  Grows as needed; -1 when it cannot. */
int dc_set_add(struct dc_set *s, uint64_t cookie, uint32_t tag, uint32_t *other);
void dc_set_clear(struct dc_set *s);
void dc_set_free(struct dc_set *s);
/* Bytes per slot, for the memory note. */
#define DC_SET_SLOT_BYTES (sizeof(uint64_t) + sizeof(uint32_t) + sizeof(uint8_t))

/* The set is only needed once the cookies of a scan stop moving one way:
 * while each d_off is strictly above (or strictly below) the one before,
 * no cookie can repeat, so a monotonic scan (most filesystems, most of
 * the time) costs no hashing.  A scan made of a few such runs costs a
 * binary search in each earlier run (a strictly monotonic run holds a
 * cookie once at most): tmpfs since 6.14 gives "." 1, ".." the largest
 * cookie, then the names falling, and the last name the end-of-directory
 * cookie INT_MAX, three runs, where the whole listing went into the set
 * at the last entry.  Beyond DC_TRACK_RUNS runs the entries so far go
 * into the set, and from there every entry does. */
#define DC_TRACK_RUNS 8
struct dc_track {
	struct dc_set *set;
	int dir;      /* the last run's: +1 up, -1 down, 0 not known yet */
	bool in_set;  /* the set holds every entry so far */
	size_t runs;  /* monotonic runs so far */
	size_t start[DC_TRACK_RUNS]; /* the first entry of each */
	int run_dir[DC_TRACK_RUNS];
};

void dc_track_start(struct dc_track *t, struct dc_set *set);
/* Entry i of cookies/tags is new, 0..i-1 came before it in this scan.
 * Returns as dc_set_add(). */
int dc_track_add(struct dc_track *t, const uint64_t *cookies, const uint32_t *tags, size_t i,
		 uint32_t *other);

/* ---- order ---- */

enum dc_order {
	DC_ORDER_CREATION,   /* the order the names were made in */
	DC_ORDER_REVERSE,    /* newest first (tmpfs before 6.6) */
	DC_ORDER_HASH,       /* neither, but the cookies only grow: the order
				of a key the filesystem computes (ext4's hash) */
	DC_ORDER_OTHER,
	DC_ORDER_NONE,       /* fewer than two entries */
};

/* nums: the creation numbers of the population entries in the order the
 * scan returned them; cookies: their d_off, same order. */
enum dc_order dc_classify_order(const uint32_t *nums, const uint64_t *cookies, size_t n);
const char *dc_order_name(enum dc_order o);

/* ---- counting ---- */

/* How many values repeat one before them once sorted (n - distinct).
 * Sorts v in place. */
size_t dc_count_duplicates(uint64_t *v, size_t n);

/* A sample of at most max positions from 0..n-1, evenly spaced and always
 * with the first and the last: position k of the sample. */
size_t dc_sample_count(size_t n, size_t max);
size_t dc_sample_at(size_t n, size_t max, size_t k);

/* Whether position pos of a listing of total names is one of those
 * removed among the others: the first and last few (3 from 40 names on,
 * else 1) and every 20th (every 4th below 80 names), so that each removed
 * name but the last few has a survivor right after it; below 4 names only
 * the first, and none below 2: at least one name always survives. */
bool dc_spread_pick(size_t pos, size_t total);
/* The same with the stride widened so that at most max names (but the
 * edges) are picked, evenly spread over the whole listing; max 0 is no
 * bound.  dc_spread_stride(): that stride, 20 (4) unless max bounds it. */
bool dc_spread_pick_max(size_t pos, size_t total, size_t max);
size_t dc_spread_stride(size_t total, size_t max);

#endif

/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Directory scans through the raw getdents64 syscall, recorded entry by
 * entry, with cycle and shared-cookie detection on the way and a bound on
 * the entries read (record.h holds a listing against what exists). */
#ifndef ABIWATCH_DIRENT_SCAN_H
#define ABIWATCH_DIRENT_SCAN_H

#include "cookies.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define DS_BIG_BUF (1u << 20)

struct ds_scan {
	uint32_t *tag;        /* per entry, in the order returned */
	uint64_t *off;        /* its d_off */
	size_t len, alloc;
	size_t calls;         /* getdents64 calls that returned entries */
	bool ended;           /* getdents64 returned 0 */
	bool capped;          /* stopped at the bound */
	bool cycle;           /* stopped at a (name, d_off) pair seen before */
	int err;              /* errno of a failed getdents64, else 0 */
	uint64_t cycle_cookie;
	uint32_t cycle_tag;
	size_t shared;        /* entries with a d_off an earlier entry of
				 another name had */
	size_t wide_ino;      /* entries whose d_ino needs more than 32 bits */
	uint64_t shared_cookie;
	uint32_t shared_tags[2];
};

struct ds_scan_opts {
	size_t cap;           /* stop after this many entries */
	size_t bufsize;       /* bytes per getdents64 call, <= DS_BIG_BUF */
	/* Called after each getdents64 call that returned entries. */
	void (*after_call)(void *arg, const struct ds_scan *s);
	void *arg;
};

/* Scan fd from where it stands; buf holds bufsize bytes; set is cleared
 * first.  Returns 0, or -1 when memory ran out (s->err = ENOMEM). */
int ds_scan_fd(int fd, char *buf, const struct ds_scan_opts *o, struct dc_set *set,
	       struct ds_scan *s);
/* The same through a fresh descriptor of dirfd's directory.  -1 with
 * s->err when it cannot be opened. */
int ds_scan_fresh(int dirfd, char *buf, const struct ds_scan_opts *o, struct dc_set *set,
		  struct ds_scan *s);
void ds_scan_free(struct ds_scan *s);
/* The last entry's d_off (the end-of-directory cookie), and the largest
 * of the others as unsigned; whether any was negative. */
uint64_t ds_eof_cookie(const struct ds_scan *s);
uint64_t ds_max_cookie(const struct ds_scan *s);
bool ds_any_negative(const struct ds_scan *s);
/* Why a scan did not end well, as a sentence, or NULL (malloc'd). */
char *ds_scan_trouble(const struct ds_scan *s);

/* POSIX readdir(): "." and ".." are each returned once if they exist,
 * and not at all otherwise; a listing may hold neither, never one
 * without the other, never either twice. */
bool ds_dots_ok(size_t dots, size_t dotdots);
/* The dots observation: both, none, dot_only, dotdot_only or repeated. */
const char *ds_dots_name(size_t dots, size_t dotdots);

#endif

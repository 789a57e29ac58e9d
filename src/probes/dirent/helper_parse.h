/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What the 32-bit helper (m32/dirent_m32.c) writes on its stdout, and its
 * parser: small, strict and alone in its file so that it can be fuzzed.
 *
 *   abiwatch-dirent-m32 1        header and format version
 *   entries N                    getdents64 entries seen
 *   max_cookie 0xH               largest d_off but the last (unsigned)
 *   eof_cookie 0xH               d_off of the last entry
 *   negative 0|1                 some d_off was negative
 *   duplicates N                 entries whose d_off an earlier one had
 *   cycle none|0xH               a (name, d_off) pair seen twice: where
 *   capped 0|1                   stopped at the entry limit
 *   getdents_errno N             errno that ended the scan, 0 for none
 *   wide_ino N                   entries whose d_ino needs more than 32 bits
 *   wide_off N                   entries whose d_off does not fit a 32-bit long
 *   nonlfs_entries N             entries the non-LFS readdir(3) returned
 *   nonlfs_errno N               errno that ended it, 0 for none
 *   end
 *
 * or the header, "error TEXT" and "end" when the helper could not work.
 * Numbers are decimal or 0x hex, unsigned; each key once, in any order.
 */
#ifndef ABIWATCH_DIRENT_HELPER_PARSE_H
#define ABIWATCH_DIRENT_HELPER_PARSE_H

#include <stddef.h>
#include <stdint.h>

#define DH_HEADER "abiwatch-dirent-m32 1"
#define DH_MAX_LINE 256

struct dh_report {
	uint64_t entries, max_cookie, eof_cookie, duplicates, cycle_cookie, nonlfs_entries;
	uint64_t wide_ino, wide_off;
	uint64_t negative, capped, cycle, getdents_errno, nonlfs_errno;
	char error[DH_MAX_LINE]; /* non-empty: the helper's own failure */
};

/* 0 with *r filled, or -1 with why (a sentence) set. */
int dh_parse(const char *text, size_t len, struct dh_report *r, char *why, size_t whylen);
/* The report as the helper writes it (its canonical form), into buf;
 * returns the length it needs, as snprintf(). */
int dh_format(const struct dh_report *r, char *buf, size_t size);

#endif

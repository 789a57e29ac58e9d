/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The mm family's readers of kernel text: the VmFlags of one mapping in
 * /proc/PID/smaps, the table of /proc/PID/limits, the bracketed choice of a sysfs mode
 * file ("always [madvise] never") and one parameter of /proc/cmdline.
 * Pure functions on a buffer (not NUL-terminated: len says where it
 * ends), so that they are unit-tested and fuzzed (tests/fuzz/fuzz_mm.c)
 * and the 32-bit helper can use them too.
 */
#ifndef ABIWATCH_MM_PARSE_H
#define ABIWATCH_MM_PARSE_H

#include <stdbool.h>
#include <stddef.h>

/* The VmFlags tokens ("rd wr mr mw me ac nh") of the smaps block whose
 * range starts at addr, copied into flags (size bytes, NUL-terminated,
 * single spaces).  0; -ENOENT when no block starts at addr; -EINVAL
 * when that block has no VmFlags line before the next block or a flag
 * that is not printable ASCII; -ENOSPC
 * when the tokens do not fit. */
int mm_smaps_vmflags(const char *smaps, size_t len, unsigned long addr, char *flags, size_t size);
/* Whether the space-separated list holds token as a whole word. */
bool mm_has_token(const char *list, const char *token);

/* One row of /proc/PID/limits.  A value of "unlimited" is MM_UNLIMITED. */
#define MM_UNLIMITED (~0ULL)
struct mm_limit {
	char name[32];   /* "Max locked memory", single spaces */
	unsigned long long soft, hard;
	char unit[16];   /* "bytes", "" where the kernel prints none */
};
/* Read the whole table: its header line ("Limit ... Units") first, then
 * one row a line.  The number of rows (at most max are kept in rows),
 * or -1 with *bad_line (1-based) set when a line is not such a row. */
int mm_limits_parse(const char *text, size_t len, struct mm_limit *rows, size_t max,
		    size_t *bad_line);
/* The row called name, or NULL. */
const struct mm_limit *mm_limits_find(const struct mm_limit *rows, size_t n, const char *name);

/* The word in brackets of a sysfs choice file ("always [madvise] never"),
 * into word.  0; -EINVAL when there is not exactly one bracketed word;
 * -ENOSPC when it does not fit. */
int mm_bracketed_word(const char *text, size_t len, char *word, size_t size);

#endif

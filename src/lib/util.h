/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Allocation that aborts on exhaustion, escaping, time, the binary's directory:
 * what every part of abiwatch uses, knowing nothing of it. */
#ifndef ABIWATCH_UTIL_H
#define ABIWATCH_UTIL_H

#include <stdarg.h>
#include <stddef.h>

/* Out-of-memory is not an outcome a probe tool can report usefully:
 * these abort with a message instead of returning NULL. */
void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t n);
/* Room for element n of an array of n elements, each size bytes, grown
 * only through this: the block doubles when n is 0 or a power of two, so
 * that appending n elements costs O(n) even where realloc() always moves
 * the block (ASan's does).  Aborts on exhaustion, like xrealloc(). */
void *xgrow(void *array, size_t n, size_t size);
char *xstrdup(const char *s);
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
char *xvasprintf(const char *fmt, va_list ap);

/* Escape a value for a one-line format: backslash and newline become
 * "\\" and "\n", other control bytes "\xHH".  The result is malloc'd. */
char *aw_escape(const char *s);
/* The inverse; NULL when s holds a malformed escape. */
char *aw_unescape(const char *s);

/* Write all of buf, retrying on EINTR and short writes. 0 or -errno. */
int aw_write_all(int fd, const void *buf, size_t len);

/* The value of a hex digit of either case, or -1. */
int aw_hex_digit(int c);

#define AW_ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

double aw_now(void); /* CLOCK_MONOTONIC seconds */
/* The CPUs this process may run on (its affinity), at least 1. */
unsigned aw_cpus_usable(void);
/* The directory of the running binary (malloc'd), or NULL: where abiwatch
 * looks for what it ships (helpers, the static binary, the catalogue).
 * main() calls it first, before any namespace is made. */
char *aw_exe_dir(void);

#endif

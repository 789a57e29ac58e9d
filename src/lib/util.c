// SPDX-License-Identifier: GPL-2.0-or-later
#include "util.h"

#include <errno.h>
#include <sched.h>
#include <stdbool.h>
#include <stdint.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static void out_of_memory(void)
{
	fputs("abiwatch: out of memory\n", stderr);
	abort();
}

void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);
	if (!p)
		out_of_memory();
	return p;
}

void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);
	if (!p)
		out_of_memory();
	return p;
}

void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p)
		out_of_memory();
	return p;
}

void *xgrow(void *array, size_t n, size_t size)
{
	if (n & (n - 1)) /* between powers of two: the block has room */
		return array;
	size_t cap = n ? 2 * n : 1;
	if (cap < n || cap > SIZE_MAX / (size ? size : 1))
		out_of_memory();
	return xrealloc(array, cap * size);
}

char *xstrdup(const char *s)
{
	char *d = strdup(s);
	if (!d)
		out_of_memory();
	return d;
}

char *xvasprintf(const char *fmt, va_list ap)
{
	char *s;
	if (vasprintf(&s, fmt, ap) < 0)
		out_of_memory();
	return s;
}

char *xasprintf(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *s = xvasprintf(fmt, ap);
	va_end(ap);
	return s;
}

char *aw_escape(const char *s)
{
	char *out = xmalloc(strlen(s) * 4 + 1);
	char *o = out;
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (*p == '\\') {
			*o++ = '\\';
			*o++ = '\\';
		} else if (*p == '\n') {
			*o++ = '\\';
			*o++ = 'n';
		} else if (*p < 0x20 || *p == 0x7f) {
			o += sprintf(o, "\\x%02x", *p);
		} else {
			*o++ = (char)*p;
		}
	}
	*o = '\0';
	return out;
}

int aw_hex_digit(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* A digit of the lowercase hex aw_escape() writes, so the two round-trip. */
static int hexval(char c)
{
	return c >= 'A' && c <= 'F' ? -1 : aw_hex_digit(c);
}

char *aw_unescape(const char *s)
{
	char *out = xmalloc(strlen(s) + 1);
	char *o = out;
	for (const char *p = s; *p; p++) {
		if (*p != '\\') {
			*o++ = *p;
			continue;
		}
		p++;
		if (*p == '\\') {
			*o++ = '\\';
		} else if (*p == 'n') {
			*o++ = '\n';
		} else if (*p == 'x' && hexval(p[1]) >= 0 && hexval(p[2]) >= 0) {
			int v = hexval(p[1]) * 16 + hexval(p[2]);
			/* Only what aw_escape produces, so the two round-trip. */
			if (v == 0 || (v >= 0x20 && v != 0x7f) || v == '\n')
				goto bad;
			*o++ = (char)v;
			p += 2;
		} else {
			goto bad;
		}
	}
	*o = '\0';
	return out;
bad:
	free(out);
	return NULL;
}

int aw_write_all(int fd, const void *buf, size_t len)
{
	const char *p = buf;
	while (len) {
		ssize_t n = write(fd, p, len);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

double aw_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Read once, in the process abiwatch started as: seen from a probe's mount
 * namespace, /proc/self/exe names the file through the parent's mounts, so
 * in a chroot it would be the path outside it. */
char *aw_exe_dir(void)
{
	static char *dir;
	static bool known;
	if (!known) {
		char exe[PATH_MAX];
		ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
		if (n > 0) {
			exe[n] = '\0';
			dir = xstrdup(dirname(exe));
		}
		known = true;
	}
	return dir ? xstrdup(dir) : NULL;
}

unsigned aw_cpus_usable(void)
{
	cpu_set_t set;
	if (sched_getaffinity(0, sizeof(set), &set) == 0 && CPU_COUNT(&set) > 0)
		return (unsigned)CPU_COUNT(&set);
	long n = sysconf(_SC_NPROCESSORS_ONLN);
	return n > 0 ? (unsigned)n : 1;
}

// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The parts of /proc/self/fdinfo/N the family reads.  An epoll
 * descriptor lists each watched descriptor as
 *   tfd: %8d events: %8x data: %16llx  pos:%lli ino:%lx sdev:%x
 * (fs/eventpoll.c, the same on 6.1, 6.12 and 6.18): the events mask is
 * what the kernel kept of what epoll_ctl(2) asked for, which is how a
 * silently dropped EPOLLWAKEUP shows.  Other descriptors append their
 * own "key:\tvalue" lines after the generic pos, flags, mnt_id and ino;
 * eventfd's set of keys grew after 6.1.  Pure: no system call, so that
 * it can be unit-tested and fuzzed.
 */
#include "fdio.h"
#include "lib/util.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The next line of text[*pos..len): its start and length without '\n'. */
static bool next_line(const char *text, size_t len, size_t *pos, const char **line,
		      size_t *n)
{
	if (*pos >= len)
		return false;
	const char *start = text + *pos;
	const char *nl = memchr(start, '\n', len - *pos);
	*n = nl ? (size_t)(nl - start) : len - *pos;
	*line = start;
	*pos += *n + (nl ? 1 : 0);
	return true;
}

static bool starts_with(const char *s, size_t n, const char *prefix)
{
	size_t p = strlen(prefix);
	return n >= p && memcmp(s, prefix, p) == 0;
}

/* A decimal or hex field after blanks: its value and the rest of the
 * line, or false when there is no digit. */
static bool field(const char **s, const char *end, int base, unsigned long long *v)
{
	const char *p = *s;
	while (p < end && *p == ' ')
		p++;
	unsigned long long acc = 0;
	const char *digits = p;
	for (; p < end; p++) {
		int d = aw_hex_digit(*p);
		if (d < 0 || d >= base)
			break;
		if (acc > (~0ULL - (unsigned)d) / (unsigned)base)
			return false;
		acc = acc * (unsigned)base + (unsigned)d;
	}
	if (p == digits)
		return false;
	*v = acc;
	*s = p;
	return true;
}

static bool literal(const char **s, const char *end, const char *word)
{
	size_t n = strlen(word);
	if ((size_t)(end - *s) < n || memcmp(*s, word, n) != 0)
		return false;
	*s += n;
	return true;
}

int fdio_epoll_events(const char *text, size_t len, int tfd, unsigned *events)
{
	size_t pos = 0, n;
	const char *line;

	while (next_line(text, len, &pos, &line, &n)) {
		if (!starts_with(line, n, "tfd:"))
			continue;
		const char *s = line + 4, *end = line + n;
		unsigned long long fd, ev;
		if (!field(&s, end, 10, &fd) || !literal(&s, end, " events:") ||
		    !field(&s, end, 16, &ev) || ev > 0xffffffffULL || fd > 0x7fffffffULL ||
		    !literal(&s, end, " data:"))
			return -EINVAL;
		if ((int)fd == tfd) {
			*events = (unsigned)ev;
			return 0;
		}
	}
	return -ENOENT;
}

static bool generic_key(const char *key, size_t n)
{
	static const char *const generic[] = { "pos", "flags", "mnt_id", "ino" };
	for (size_t i = 0; i < sizeof(generic) / sizeof(generic[0]); i++)
		if (strlen(generic[i]) == n && memcmp(generic[i], key, n) == 0)
			return true;
	return false;
}

int fdio_fdinfo_keys(const char *text, size_t len, char *out, size_t outlen)
{
	size_t pos = 0, n, used = 0;
	const char *line;

	if (outlen == 0)
		return -ENOSPC;
	out[0] = '\0';
	while (next_line(text, len, &pos, &line, &n)) {
		const char *colon = memchr(line, ':', n);
		if (!colon || colon == line)
			return -EINVAL;
		size_t k = (size_t)(colon - line);
		for (size_t i = 0; i < k; i++)
			if (line[i] == ',' || line[i] == ' ' || line[i] == '\t' || line[i] == '\0')
				return -EINVAL;
		if (generic_key(line, k))
			continue;
		size_t need = k + (used ? 1 : 0);
		if (used + need + 1 > outlen)
			return -ENOSPC;
		if (used)
			out[used++] = ',';
		memcpy(out + used, line, k);
		used += k;
		out[used] = '\0';
	}
	return 0;
}

// SPDX-License-Identifier: GPL-2.0-or-later
/* Reading /proc/PID/maps (maps.h): each line is parsed whole, and a line
 * that is not a mapping's is passed by. */
#include "maps.h"
#include "util.h"

#include <errno.h>
#include <stdbool.h>
#include <string.h>

static bool is_space(char ch)
{
	return ch == ' ' || ch == '\t';
}

/* A hexadecimal number of line[*at..n) up to stop: true with *v. */
static bool hex_field(const char *line, size_t n, size_t *at, char stop, unsigned long *v)
{
	size_t i = *at, digits = 0;
	unsigned long x = 0;
	for (; i < n && aw_hex_digit(line[i]) >= 0; i++, digits++) {
		if (digits >= 2 * sizeof(unsigned long))
			return false;
		x = x << 4 | (unsigned long)aw_hex_digit(line[i]);
	}
	if (digits == 0 || i >= n || line[i] != stop)
		return false;
	*v = x;
	*at = i + 1;
	return true;
}

/* Skip one space-separated word of line[*at..n) and the spaces before
 * it: false when there is none. */
static bool skip_word(const char *line, size_t n, size_t *at)
{
	size_t i = *at;
	while (i < n && is_space(line[i]))
		i++;
	if (i >= n)
		return false;
	while (i < n && !is_space(line[i]))
		i++;
	*at = i;
	return true;
}

/* One maps line into *m: false when it is not one. */
static bool parse_line(const char *line, size_t n, struct aw_map *m)
{
	size_t at = 0;
	if (!hex_field(line, n, &at, '-', &m->start) || !hex_field(line, n, &at, ' ', &m->end))
		return false;
	if (at + 4 > n || (at + 4 < n && !is_space(line[at + 4])))
		return false;
	for (size_t i = 0; i < 4; i++)
		if ((unsigned char)line[at + i] <= ' ' || (unsigned char)line[at + i] >= 0x7f)
			return false;
	memcpy(m->perms, line + at, 4);
	m->perms[4] = '\0';
	at += 4;
	for (int f = 0; f < 3; f++) /* offset, device, inode */
		if (!skip_word(line, n, &at))
			return false;
	while (at < n && is_space(line[at]))
		at++;
	size_t end = n;
	while (end > at && is_space(line[end - 1]))
		end--;
	size_t nn = end - at < sizeof(m->name) - 1 ? end - at : sizeof(m->name) - 1;
	memcpy(m->name, line + at, nn);
	m->name[nn] = '\0';
	/* a name cut to fit never equals one aw_maps_by_name() takes */
	return true;
}

/* Call match on each mapping's line until it says true. */
static int find(const char *maps, size_t len, struct aw_map *m,
		bool (*match)(const struct aw_map *, size_t, const void *), const void *arg)
{
	size_t pos = 0;
	while (pos < len) {
		const char *line = maps + pos;
		const char *nl = memchr(line, '\n', len - pos);
		size_t n = nl ? (size_t)(nl - line) : len - pos;
		pos += n + (nl != NULL);
		struct aw_map cand;
		if (parse_line(line, n, &cand) && match(&cand, n, arg)) {
			*m = cand;
			return 0;
		}
	}
	return -ENOENT;
}

static bool name_is(const struct aw_map *c, size_t n, const void *arg)
{
	(void)n;
	return strcmp(c->name, arg) == 0;
}

static bool covers(const struct aw_map *c, size_t n, const void *arg)
{
	unsigned long addr = *(const unsigned long *)arg;
	(void)n;
	return c->start <= addr && addr < c->end;
}

int aw_maps_by_name(const char *maps, size_t len, const char *name, struct aw_map *m)
{
	if (!name[0] || strlen(name) >= sizeof(m->name) - 1) /* a cut name's length */
		return -ENOENT;
	return find(maps, len, m, name_is, name);
}

int aw_maps_by_addr(const char *maps, size_t len, unsigned long addr, struct aw_map *m)
{
	return find(maps, len, m, covers, &addr);
}

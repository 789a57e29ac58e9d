// SPDX-License-Identifier: GPL-2.0-or-later
/* Debian version order: see debver.h.  Written from deb-version(7). */
#include "debver.h"

#include <stddef.h>
#include <string.h>

/* One version's three parts, pointers into the string, each with its
 * length (a part is not NUL-terminated where the next one starts). */
struct part {
	const char *s;
	size_t len;
};

struct debver {
	struct part epoch, upstream, revision;
};

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static bool is_alpha(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

/* The epoch is the digits before the first ':', the revision what
 * follows the last '-'. */
static void split(const char *v, struct debver *d)
{
	const char *colon = strchr(v, ':');
	bool numeric = colon && colon > v;
	for (const char *p = v; numeric && p < colon; p++)
		numeric = is_digit(*p);
	d->epoch = (struct part){ v, numeric ? (size_t)(colon - v) : 0 };
	const char *up = numeric ? colon + 1 : v;
	const char *dash = strrchr(up, '-');
	size_t uplen = dash ? (size_t)(dash - up) : strlen(up);
	d->upstream = (struct part){ up, uplen };
	d->revision = dash ? (struct part){ dash + 1, strlen(dash + 1) } : (struct part){ "", 0 };
}

/* Where a character sorts within a non-digit run: '~' first, then the
 * end of the run, then letters, then everything else. */
static int weight(const struct part *p, size_t i)
{
	if (i >= p->len || is_digit(p->s[i]))
		return 0;
	char c = p->s[i];
	if (c == '~')
		return -1;
	if (is_alpha(c))
		return (unsigned char)c;
	return (unsigned char)c + 256;
}

/* Two digit runs as numbers of any length: leading zeros skipped, then
 * the longer is the greater, then the first digit that differs. */
static int cmp_digits(const struct part *a, size_t *i, const struct part *b, size_t *j)
{
	while (*i < a->len && a->s[*i] == '0')
		(*i)++;
	while (*j < b->len && b->s[*j] == '0')
		(*j)++;
	size_t ea = *i, eb = *j;
	while (ea < a->len && is_digit(a->s[ea]))
		ea++;
	while (eb < b->len && is_digit(b->s[eb]))
		eb++;
	int c = 0;
	if (ea - *i != eb - *j)
		c = ea - *i < eb - *j ? -1 : 1;
	else if (ea > *i)
		c = memcmp(a->s + *i, b->s + *j, ea - *i);
	*i = ea;
	*j = eb;
	return c;
}

static int cmp_part(const struct part *a, const struct part *b)
{
	size_t i = 0, j = 0;
	while (i < a->len || j < b->len) {
		while ((i < a->len && !is_digit(a->s[i])) || (j < b->len && !is_digit(b->s[j]))) {
			int wa = weight(a, i), wb = weight(b, j);
			if (wa != wb)
				return wa < wb ? -1 : 1;
			i += i < a->len;
			j += j < b->len;
		}
		int c = cmp_digits(a, &i, b, &j);
		if (c)
			return c < 0 ? -1 : 1;
	}
	return 0;
}

int aw_debver_cmp(const char *a, const char *b)
{
	struct debver x, y;
	split(a, &x);
	split(b, &y);
	size_t i = 0, j = 0;
	int c = cmp_digits(&x.epoch, &i, &y.epoch, &j);
	if (c)
		return c < 0 ? -1 : 1;
	c = cmp_part(&x.upstream, &y.upstream);
	return c ? c : cmp_part(&x.revision, &y.revision);
}

static bool allowed(const struct part *p, const char *extra)
{
	for (size_t i = 0; i < p->len; i++)
		if (!is_digit(p->s[i]) && !is_alpha(p->s[i]) && !strchr(extra, p->s[i]))
			return false;
	return true;
}

bool aw_debver_valid(const char *v)
{
	struct debver d;
	split(v, &d);
	if (strchr(v, ':') && d.epoch.len == 0)
		return false; /* a ':' with no numeric epoch before it */
	if (d.upstream.len == 0 || !is_digit(d.upstream.s[0]))
		return false;
	if (strchr(v, '-') && d.revision.len == 0)
		return false;
	return allowed(&d.upstream, ".+~-:") && allowed(&d.revision, ".+~");
}

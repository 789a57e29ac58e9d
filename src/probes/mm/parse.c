// SPDX-License-Identifier: GPL-2.0-or-later
/* The mm family's readers of kernel text (parse.h): each walks its
 * buffer line by line and never reads past len. */
#include "parse.h"
#include "lib/util.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

struct cursor {
	const char *text;
	size_t len, pos;
};

/* The next line (without '\n') or false at the end. */
static bool next_line(struct cursor *c, const char **line, size_t *n)
{
	if (c->pos >= c->len)
		return false;
	const char *start = c->text + c->pos;
	const char *nl = memchr(start, '\n', c->len - c->pos);
	*line = start;
	*n = nl ? (size_t)(nl - start) : c->len - c->pos;
	c->pos += *n + (nl != NULL);
	return true;
}

static bool is_space(char ch)
{
	return ch == ' ' || ch == '\t';
}

/* The next space-separated word of line[0..n) from *at: its start and
 * length, or false when none is left. */
static bool next_word(const char *line, size_t n, size_t *at, const char **w, size_t *wn)
{
	size_t i = *at;
	while (i < n && is_space(line[i]))
		i++;
	if (i >= n)
		return false;
	size_t start = i;
	while (i < n && !is_space(line[i]))
		i++;
	*w = line + start;
	*wn = i - start;
	*at = i;
	return true;
}

/* Printable ASCII but space: what the kernel's words are made of. */
static bool graphic(const char *w, size_t wn)
{
	for (size_t i = 0; i < wn; i++)
		if ((unsigned char)w[i] <= ' ' || (unsigned char)w[i] >= 0x7f)
			return false;
	return true;
}

/* A maps/smaps range line "START-END ...": true with the start. */
static bool range_start(const char *line, size_t n, unsigned long *start)
{
	unsigned long v = 0;
	size_t i = 0;
	for (; i < n && aw_hex_digit(line[i]) >= 0; i++) {
		if (i >= 2 * sizeof(unsigned long))
			return false;
		v = v << 4 | (unsigned long)aw_hex_digit(line[i]);
	}
	if (i == 0 || i >= n || line[i] != '-')
		return false;
	size_t j = ++i;
	while (i < n && aw_hex_digit(line[i]) >= 0)
		i++;
	if (i == j || i - j > 2 * sizeof(unsigned long) || i >= n || line[i] != ' ')
		return false;
	*start = v;
	return true;
}

/* Append the words of line[at..n) to out with single spaces. */
static int copy_words(const char *line, size_t n, size_t at, char *out, size_t size)
{
	const char *w;
	size_t wn, used = 0;

	if (size == 0)
		return -ENOSPC;
	out[0] = '\0';
	while (next_word(line, n, &at, &w, &wn)) {
		size_t need = wn + (used > 0);
		if (!graphic(w, wn))
			return -EINVAL;
		if (used + need + 1 > size)
			return -ENOSPC;
		if (used)
			out[used++] = ' ';
		memcpy(out + used, w, wn);
		used += wn;
		out[used] = '\0';
	}
	return 0;
}

int mm_smaps_vmflags(const char *smaps, size_t len, unsigned long addr, char *flags, size_t size)
{
	static const char key[] = "VmFlags:";
	struct cursor c = { smaps, len, 0 };
	const char *line;
	size_t n;
	bool in_block = false;
	unsigned long start;

	while (next_line(&c, &line, &n)) {
		if (range_start(line, n, &start)) {
			if (in_block)
				return -EINVAL;
			in_block = start == addr;
		} else if (in_block && n >= sizeof(key) - 1 && memcmp(line, key, sizeof(key) - 1) == 0) {
			return copy_words(line, n, sizeof(key) - 1, flags, size);
		}
	}
	return in_block ? -EINVAL : -ENOENT;
}

bool mm_has_token(const char *list, const char *token)
{
	size_t at = 0, n = strlen(list), tn = strlen(token), wn;
	const char *w;

	while (next_word(list, n, &at, &w, &wn))
		if (wn == tn && memcmp(w, token, tn) == 0)
			return true;
	return false;
}

/* A limits value word: "unlimited" or decimal digits that fit. */
static bool limit_value(const char *w, size_t wn, unsigned long long *v)
{
	if (wn == 9 && memcmp(w, "unlimited", 9) == 0) {
		*v = MM_UNLIMITED;
		return true;
	}
	if (wn == 0 || wn > 19)
		return false;
	unsigned long long x = 0;
	for (size_t i = 0; i < wn; i++) {
		if (w[i] < '0' || w[i] > '9')
			return false;
		x = x * 10 + (unsigned long long)(w[i] - '0');
	}
	*v = x;
	return true;
}

/* One row: name words up to the first value, soft, hard, at most one
 * unit word. */
static bool limits_row(const char *line, size_t n, struct mm_limit *row)
{
	const char *w;
	size_t at = 0, wn, used = 0;
	unsigned long long v;

	memset(row, 0, sizeof(*row));
	while (next_word(line, n, &at, &w, &wn) && !limit_value(w, wn, &v)) {
		if (!graphic(w, wn) || used + wn + (used > 0) + 1 > sizeof(row->name))
			return false;
		if (used)
			row->name[used++] = ' ';
		memcpy(row->name + used, w, wn);
		used += wn;
	}
	if (used == 0 || wn == 0 || !limit_value(w, wn, &row->soft))
		return false;
	if (!next_word(line, n, &at, &w, &wn) || !limit_value(w, wn, &row->hard))
		return false;
	if (next_word(line, n, &at, &w, &wn)) {
		if (wn + 1 > sizeof(row->unit) || !graphic(w, wn))
			return false;
		memcpy(row->unit, w, wn);
	}
	return !next_word(line, n, &at, &w, &wn);
}

int mm_limits_parse(const char *text, size_t len, struct mm_limit *rows, size_t max,
		    size_t *bad_line)
{
	struct cursor c = { text, len, 0 };
	const char *line;
	size_t n, lineno = 0;
	int count = 0;
	struct mm_limit row;

	while (next_line(&c, &line, &n)) {
		lineno++;
		if (lineno == 1) {
			if (n < 5 || memcmp(line, "Limit", 5) != 0 || (n > 5 && !is_space(line[5])))
				goto bad;
			continue;
		}
		if (!limits_row(line, n, &row))
			goto bad;
		if ((size_t)count < max)
			rows[count] = row;
		if (count == 1 << 20)
			goto bad;
		count++;
	}
	if (lineno == 0)
		goto bad;
	return count;
bad:
	*bad_line = lineno ? lineno : 1;
	return -1;
}

const struct mm_limit *mm_limits_find(const struct mm_limit *rows, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(rows[i].name, name) == 0)
			return &rows[i];
	return NULL;
}

int mm_bracketed_word(const char *text, size_t len, char *word, size_t size)
{
	const char *open = memchr(text, '[', len);
	if (!open)
		return -EINVAL;
	size_t rest = len - (size_t)(open - text) - 1;
	const char *close = memchr(open + 1, ']', rest);
	if (!close || close == open + 1)
		return -EINVAL;
	size_t wn = (size_t)(close - open - 1);
	if (!graphic(open + 1, wn) || memchr(open + 1, '[', wn))
		return -EINVAL;
	size_t after = len - (size_t)(close - text) - 1;
	if (memchr(close + 1, '[', after) || memchr(close + 1, ']', after))
		return -EINVAL;
	if (wn + 1 > size)
		return -ENOSPC;
	memcpy(word, open + 1, wn);
	word[wn] = '\0';
	return 0;
}


// SPDX-License-Identifier: GPL-2.0-or-later
/* docs/catalogue.md's headings and the parts of their bodies a page
 * embeds: see catalogue_doc.h. */
#include "catalogue_doc.h"
#include "lib/util.h"

#include <ctype.h>
#include <fnmatch.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* ---- a growing string ---- */

struct buf {
	char *s;
	size_t n;
};

static void buf_add(struct buf *b, const char *s, size_t n)
{
	b->s = xrealloc(b->s, b->n + n + 1);
	memcpy(b->s + b->n, s, n);
	b->n += n;
	b->s[b->n] = '\0';
}

/* A line of a block: joined to the last by one space, its indentation
 * dropped (Markdown folds a paragraph's lines). */
static void buf_join(struct buf *b, const char *line)
{
	while (*line == ' ' || *line == '\t')
		line++;
	size_t n = strlen(line);
	while (n && (line[n - 1] == ' ' || line[n - 1] == '\t' || line[n - 1] == '\r'))
		n--;
	if (b->n && n)
		buf_add(b, " ", 1);
	buf_add(b, line, n);
}

static char *buf_take(struct buf *b)
{
	char *s = b->s;
	*b = (struct buf){ 0 };
	return s;
}

/* ---- headings ---- */

char *aw_heading_anchor(const char *heading)
{
	char *a = xmalloc(strlen(heading) + 1), *p = a;
	for (const unsigned char *s = (const unsigned char *)heading; *s; s++) {
		if (isalnum(*s) || *s == '_' || *s == '-' || *s >= 0x80)
			*p++ = (char)tolower(*s);
		else if (*s == ' ')
			*p++ = '-';
	}
	*p = '\0';
	return a;
}

/* The number of '#'s of a heading line ("## x", "###"), 0 for any other. */
static int heading_level(const char *line)
{
	int h = 0;
	while (line[h] == '#')
		h++;
	return h && (line[h] == ' ' || line[h] == '\0') ? h : 0;
}

/* A name or a pattern of names as the catalogue's headings write them:
 * lower case first, then what names use
 * ("sysctl.knob.net.ipv4.tcp_[rw]mem.value"); a heading such as
 * "Coverage: what the peer suites check" names nothing. */
static bool name_like(const char *s)
{
	if (!islower((unsigned char)*s))
		return false;
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && !strchr("_.-*?[]", *s))
			return false;
	return true;
}

static void add_name(struct aw_catdoc_entry *e, char *name)
{
	if (!name_like(name)) {
		free(name);
		return;
	}
	e->names = xgrow(e->names, e->nnames, sizeof(*e->names));
	e->names[e->nnames++] = name;
}

/* The names a heading documents: the text before its title (": ...",
 * " (...)"), split at commas; a part that starts with '.' is the first
 * name's without its last component, then that part
 * ("mqueue.sysctl.msg_max.min, .max": mqueue.sysctl.msg_max.max). */
static void heading_names(struct aw_catdoc_entry *e)
{
	size_t end = 0;
	const char *h = e->heading;
	while (h[end] && h[end] != ':' && !(h[end] == ' ' && h[end + 1] == '('))
		end++;
	char *list = strndup(h, end), *save = NULL, *base = NULL;
	if (!list)
		abort();
	for (char *t = strtok_r(list, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		while (*t == ' ')
			t++;
		size_t n = strlen(t);
		while (n && t[n - 1] == ' ')
			t[--n] = '\0';
		if (!base) {
			base = xstrdup(t);
			char *dot = strrchr(base, '.');
			if (dot)
				*dot = '\0';
			add_name(e, xstrdup(t));
		} else {
			add_name(e, *t == '.' ? xasprintf("%s%s", base, t) : xstrdup(t));
		}
	}
	free(base);
	free(list);
}

/* An id unique in the document and safe in a URL's fragment: the first
 * name, other characters as '-', "~2" on for the second of a name. */
static char *make_id(const struct aw_catdoc *d, const char *name)
{
	char *base = xstrdup(name);
	for (char *p = base; *p; p++)
		if (!isalnum((unsigned char)*p) && !strchr("_.-*", *p))
			*p = '-';
	char *id = xstrdup(base);
	for (unsigned k = 2;; k++) {
		bool taken = false;
		for (size_t i = 0; i < d->n && !taken; i++)
			taken = strcmp(d->entries[i].id, id) == 0;
		if (!taken)
			break;
		free(id);
		id = xasprintf("%s~%u", base, k);
	}
	free(base);
	return id;
}

/* ---- bodies ---- */

enum block_kind { BLOCK_NONE, BLOCK_PARA, BLOCK_BULLET, BLOCK_LIST };

/* What the lines of one entry's body have given so far. */
struct body {
	enum block_kind kind;
	struct buf block;      /* the block being read */
	struct buf parts;      /* Means, Why programs care: one a line */
	char *first_para;      /* the first paragraph of prose */
	char *first_other;     /* the first bullet of another label */
	char *sources;
};

/* A bullet's label, "Means" of "Means: ...": a few words before a
 * colon, nothing else; its length, 0 for none. */
static size_t label_len(const char *s)
{
	size_t n = 0;
	while (s[n] && (isalpha((unsigned char)s[n]) || s[n] == ' ') && n < 48)
		n++;
	return n && s[n] == ':' ? n : 0;
}

static bool label_is(const char *s, size_t n, const char *label)
{
	return strlen(label) == n && strncmp(s, label, n) == 0;
}

static void end_bullet(struct body *b, char *text)
{
	size_t n = label_len(text);
	const char *value = text + n + (n ? 1 : 0);
	while (*value == ' ')
		value++;
	if (n && label_is(text, n, "Sources")) {
		if (!b->sources)
			b->sources = xstrdup(value);
	} else if (n && (label_is(text, n, "Means") || label_is(text, n, "Why programs care"))) {
		if (b->parts.n)
			buf_add(&b->parts, "\n", 1);
		buf_add(&b->parts, text, strlen(text));
	} else if (!b->first_other && !(n && (label_is(text, n, "Kind") || label_is(text, n, "Seen")))) {
		b->first_other = xstrdup(text);
	}
}

static void end_block(struct body *b)
{
	char *text = buf_take(&b->block);
	if (text && b->kind == BLOCK_BULLET)
		end_bullet(b, text);
	else if (text && b->kind == BLOCK_PARA && !b->first_para)
		b->first_para = xstrdup(text);
	free(text);
	b->kind = BLOCK_NONE;
}

/* "1. " and the like: a numbered list's item, not prose. */
static bool numbered(const char *line)
{
	size_t n = 0;
	while (isdigit((unsigned char)line[n]))
		n++;
	return n && line[n] == '.' && line[n + 1] == ' ';
}

static void body_line(struct body *b, const char *line)
{
	const char *t = line;
	while (*t == ' ' || *t == '\t' || *t == '\r')
		t++;
	if (!*t) {
		end_block(b);
		return;
	}
	/* A list item at the margin starts a block; an indented one (a
	 * nested list) and any other line go on with the open block. */
	bool bullet = (line[0] == '-' || line[0] == '*') && line[1] == ' ';
	if (bullet || numbered(line)) {
		end_block(b);
		b->kind = bullet ? BLOCK_BULLET : BLOCK_LIST;
		buf_join(&b->block, bullet ? line + 2 : line);
		return;
	}
	if (b->kind == BLOCK_NONE)
		b->kind = BLOCK_PARA;
	buf_join(&b->block, line);
}

/* The entry's text: an item's meaning and why programs care, a family's
 * or probe's first paragraph, else what there is. */
static void end_entry(struct aw_catdoc_entry *e, struct body *b)
{
	end_block(b);
	char *parts = buf_take(&b->parts);
	char *first = e->level == 4 ? (parts ? parts : b->first_other ? b->first_other : b->first_para)
				    : (b->first_para ? b->first_para : parts ? parts : b->first_other);
	e->text = first ? xstrdup(first) : NULL;
	e->sources = b->sources;
	free(parts);
	free(b->first_para);
	free(b->first_other);
	*b = (struct body){ 0 };
}

static void free_entry(struct aw_catdoc_entry *e)
{
	for (size_t i = 0; i < e->nnames; i++)
		free(e->names[i]);
	free(e->names);
	free(e->heading);
	free(e->id);
	free(e->text);
	free(e->sources);
}

/* A heading of a family, probe or item that names something, as the
 * last entry; false (and nothing kept) for any other heading. */
static bool start_entry(struct aw_catdoc *d, int level, const char *line)
{
	if (level < 2 || level > 4)
		return false;
	struct aw_catdoc_entry e = { .level = level };
	const char *h = line + level;
	while (*h == ' ')
		h++;
	e.heading = xstrdup(h);
	size_t n = strlen(e.heading);
	while (n && (e.heading[n - 1] == ' ' || e.heading[n - 1] == '\r'))
		e.heading[--n] = '\0';
	heading_names(&e);
	if (!e.nnames) {
		free_entry(&e);
		return false;
	}
	e.id = make_id(d, e.names[0]);
	d->entries = xgrow(d->entries, d->n, sizeof(*d->entries));
	d->entries[d->n++] = e;
	return true;
}

void aw_catdoc_parse(const char *text, size_t len, struct aw_catdoc *d)
{
	*d = (struct aw_catdoc){ 0 };
	/* A copy without NUL bytes, so that lines are C strings. */
	char *copy = xmalloc(len + 1);
	size_t n = 0;
	for (size_t i = 0; i < len; i++)
		if (text[i])
			copy[n++] = text[i];
	copy[n] = '\0';

	struct body b = { 0 };
	bool open = false, fence = false;
	/* Split by hand: blank lines end paragraphs. */
	for (char *line = copy, *next; line; line = next) {
		char *nl = strchr(line, '\n');
		next = nl ? nl + 1 : NULL;
		if (nl)
			*nl = '\0';
		if (strncmp(line, "```", 3) == 0)
			fence = !fence;
		int level = fence ? 0 : heading_level(line);
		if (level) {
			if (open)
				end_entry(&d->entries[d->n - 1], &b);
			open = start_entry(d, level, line);
		} else if (open && !fence && strncmp(line, "```", 3) != 0) {
			body_line(&b, line);
		}
	}
	if (open)
		end_entry(&d->entries[d->n - 1], &b);
	free(copy);
}

void aw_catdoc_free(struct aw_catdoc *d)
{
	for (size_t i = 0; i < d->n; i++)
		free_entry(&d->entries[i]);
	free(d->entries);
	*d = (struct aw_catdoc){ 0 };
}

/* ---- a part's lead ---- */

size_t aw_catdoc_lead(const char *part, size_t max, bool *cut)
{
	size_t len = strlen(part), sentence = 0, word = 0;
	*cut = len > max;
	if (!*cut)
		return len;
	bool code = false;
	for (size_t i = 0; i < max; i++) {
		if (part[i] == '`')
			code = !code;
		if (code || part[i + 1] != ' ')
			continue;
		/* A sentence's full stop is kept; a clause's ';' is not. */
		if (part[i] == '.')
			sentence = i + 1;
		else if (part[i] == ';')
			sentence = i;
		word = i + 1;
	}
	/* A lead of a few words says nothing: rather more of the sentence. */
	if (sentence >= max / 4)
		return sentence;
	if (word)
		return word;
	size_t n = max;
	while (n && ((unsigned char)part[n] & 0xc0) == 0x80)
		n--;
	return n;
}

/* ---- finding a name's entry ---- */

static bool is_pattern(const char *s)
{
	return strpbrk(s, "*?[") != NULL;
}

/* How much of a pattern is literal: a bracket expression counts one, a
 * '*' or '?' nothing. */
static size_t literal_len(const char *p)
{
	size_t n = 0;
	for (; *p; p++) {
		if (*p == '*' || *p == '?')
			continue;
		if (*p == '[') {
			const char *close = strchr(p + 1, ']');
			p = close ? close : p;
		}
		n++;
	}
	return n;
}

const struct aw_catdoc_entry *aw_catdoc_find(const struct aw_catdoc *d, const char *name, int level)
{
	const struct aw_catdoc_entry *best = NULL;
	size_t best_len = 0;
	for (size_t i = 0; i < d->n; i++) {
		const struct aw_catdoc_entry *e = &d->entries[i];
		for (size_t j = 0; (!level || e->level == level) && j < e->nnames; j++)
			if (!is_pattern(e->names[j]) && strcmp(e->names[j], name) == 0)
				return e;
	}
	for (size_t i = 0; i < d->n; i++) {
		const struct aw_catdoc_entry *e = &d->entries[i];
		for (size_t j = 0; (!level || e->level == level) && j < e->nnames; j++) {
			size_t l = literal_len(e->names[j]);
			if (is_pattern(e->names[j]) && (!best || l > best_len) &&
			    fnmatch(e->names[j], name, 0) == 0) {
				best = e;
				best_len = l;
			}
		}
	}
	return best;
}

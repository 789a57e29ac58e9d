/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * docs/catalogue.md read at run time, for the pages that carry the entries
 * of what they show (`abiwatch report`): each heading of a family (##), a
 * probe (###) or an item (####), the names it documents, and the part of
 * its body a reader needs beside a result: what the entry means and why
 * programs care, and its sources.  The file's layout is the catalogue's
 * own (its introduction says it); anything else in it is skipped, never
 * an error, so that a catalogue a newer abiwatch wrote still reads.
 */
#ifndef ABIWATCH_OUTPUT_CATALOGUE_DOC_H
#define ABIWATCH_OUTPUT_CATALOGUE_DOC_H

#include <stdbool.h>
#include <stddef.h>

struct aw_catdoc_entry {
	int level;       /* 2 a family's, 3 a probe's, 4 an item's (its '#'s) */
	char *heading;   /* as written, without the '#'s */
	char *id;        /* unique in the document: its first name, "~N"
			    appended to a name an earlier heading has */
	/* What the heading documents: exact names ("mqueue.noattr.maxmsg"),
	 * a group expanded ("fdio.pipe_setsz.rounding, .at_max": both in
	 * full) or fnmatch(3) patterns ("dirent.*.unique"). */
	char **names;
	size_t nnames;
	/* Parts, one a line: an item's "Means: ..." and "Why programs
	 * care: ..." (or its first part other than its kind, sources and
	 * what was seen), a family's or probe's first paragraph.  Markdown
	 * as written (`code` spans), lines joined.  NULL: none. */
	char *text;
	char *sources;   /* "Sources:"'s text, without the label; NULL: none */
};

struct aw_catdoc {
	struct aw_catdoc_entry *entries; /* in the file's order */
	size_t n;
};

/* Parse len bytes of text (NUL bytes end nothing: they are skipped). */
void aw_catdoc_parse(const char *text, size_t len, struct aw_catdoc *d);
void aw_catdoc_free(struct aw_catdoc *d);

/* The entry of level (0: any) that documents name: the first whose
 * names include it exactly, else of the patterns that match it the one
 * with the most literal characters (dirent.*.compat32.duplicates over
 * dirent.*.duplicates), the first of those.  NULL when none does. */
const struct aw_catdoc_entry *aw_catdoc_find(const struct aw_catdoc *d, const char *name, int level);

/* How much of a part of an entry's text to show in at most max bytes:
 * the whole when it fits, else its sentences ('.' or ';' then a space,
 * outside `code`) that do, else its words, else max bytes backed up to a
 * whole UTF-8 character.  *cut: whether that is less than the whole. */
size_t aw_catdoc_lead(const char *part, size_t max, bool *cut);

/* GitHub's anchor of a Markdown heading's text: lower case, only letters,
 * digits, '_', '-' and spaces kept, spaces as '-'.  malloc'd. */
char *aw_heading_anchor(const char *heading);

#endif

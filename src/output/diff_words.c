// SPDX-License-Identifier: GPL-2.0-or-later
/* The words of a diff that every writer shares: the summary line, a
 * cause's label, an object's and a change's line.  The text, KTAP and
 * JSON diffs and the HTML report all say them, so they are said once. */
#include "diff.h"
#include "core/status.h"
#include "lib/errname.h"
#include "lib/util.h"
#include "lib/words.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

/* What the items of a cause need, after "N ": "need i386 programs". */
static char *need_words(const char *cause, bool one)
{
	if (strcmp(cause, "probes") == 0)
		return xstrdup(one ? "belongs to a probe not run" : "belong to probes not run");
	return aw_cause_needs(cause, one);
}

char *aw_diff_group_label(const struct aw_diff_group *g)
{
	char *need = need_words(g->cause_key, g->n == 1);
	const char *side = g->new_side ? "new" : "old";
	const struct aw_cause *c = aw_cause_find(g->cause_key);
	bool size = c && c->sized;
	char *s = c && c->folded ? xasprintf("%s (%s)", need, c->folded)
		  : size ? xasprintf("%s (it differs)", need)
		  : strcmp(g->cause_key, "probes") == 0 ? xasprintf("%s on the %s side", need, side)
		  : xasprintf("%s (not on the %s side)", need, side);
	free(need);
	return s;
}

static const char *plural(size_t n, const char *many)
{
	return n == 1 ? "" : many;
}

/* "vfs 3, sysctl 1 + 46 appeared + 1 vanished" */
static char *families_line(const struct aw_diff *d)
{
	char *s = xstrdup("");
	for (size_t i = 0; i < d->nfamilies; i++) {
		const struct aw_diff_family *f = &d->families[i];
		char *more = xasprintf("%s%s%s", s, i ? ", " : "", f->name);
		free(s);
		s = more;
		const char *sep = " ";
		if (f->changed) {
			more = xasprintf("%s %zu", s, f->changed);
			free(s);
			s = more;
			sep = " + ";
		}
		if (f->appeared) {
			more = xasprintf("%s%s%zu appeared", s, sep, f->appeared);
			free(s);
			s = more;
			sep = " + ";
		}
		if (f->vanished) {
			more = xasprintf("%s%s%zu vanished", s, sep, f->vanished);
			free(s);
			s = more;
		}
	}
	return s;
}

char *aw_diff_summary(const struct aw_diff *d)
{
	size_t failures, kernel = aw_diff_kernel_changes(d, &failures), ng;
	size_t items = aw_diff_kernel_items(d);
	struct aw_diff_group *g = aw_diff_groups(d, &ng);
	char *fam = families_line(d);
	char *s = xasprintf("%zu kernel change%s, %zu new failure%s%s%s%s; %zu item%s not comparable",
			    kernel, plural(kernel, "s"), failures, plural(failures, "s"),
			    kernel ? " (" : "", fam, kernel ? ")" : "",
			    d->n - items, plural(d->n - items, "s"));
	free(fam);
	for (size_t i = 0; i < ng; i++) {
		char *label = aw_diff_group_label(&g[i]);
		char *more = xasprintf("%s%s %zu %s", s, i ? "," : ":", g[i].n, label);
		free(label);
		free(s);
		s = more;
	}
	aw_diff_groups_free(g, ng);
	return s;
}

bool aw_diff_formats_differ(const struct aw_diff *d)
{
	return d->old_major != d->new_major || d->old_minor != d->new_minor;
}

static char *formats_line(const struct aw_diff *d, const char *on, const char *nn)
{
	return xasprintf("formats differ: %s is format %u.%u, %s is %u.%u; both are format %u, "
			 "so they are compared, and keys only one format has show as added or removed",
			 on, d->old_major, d->old_minor, nn, d->new_major, d->new_minor, d->new_major);
}

/* "key: old -> new" or "key: lost x; gained y", escaped to one line. */
char *aw_diff_env_line(const struct aw_diff_env *e)
{
	if (e->summary)
		return xasprintf("%s: %s", e->key, e->summary);
	char *o = e->old_value ? aw_escape(e->old_value) : xstrdup("(absent)");
	char *n = e->new_value ? aw_escape(e->new_value) : xstrdup("(absent)");
	char *s = xasprintf("%s: %s -> %s", e->key, o, n);
	free(o);
	free(n);
	return s;
}

/* What changed, without the name: "pass -> fail: why", "= 63", "(was 63)". */
static char *change_detail(const struct aw_diff_change *c, size_t max)
{
	char *o = c->old_value ? aw_escape(c->old_value) : NULL;
	char *n = c->new_value ? aw_escape(c->new_value) : NULL;
	if (max && o && strlen(o) > max)
		strcpy(o + max - 3, "...");
	if (max && n && strlen(n) > max)
		strcpy(n + max - 3, "...");
	char *s = c->kind == AW_DIFF_ADDED     ? xasprintf("= %s", n)
		  : c->kind == AW_DIFF_REMOVED ? xasprintf("(was %s)", o)
					       : xasprintf("%s -> %s", o, n);
	free(o);
	free(n);
	return s;
}

/* What goes between an item's name and its values. */
static const char *detail_sep(const struct aw_diff_change *c)
{
	return c->kind == AW_DIFF_ADDED || c->kind == AW_DIFF_REMOVED ? " " : ": ";
}

/* A change's line with its values as detail (freed here). */
static char *change_line_of(const struct aw_diff_change *c, char *detail)
{
	char *s = xasprintf("%-9s %s%s%s%s%s", aw_diff_kind_name(c->kind), c->name, detail_sep(c),
			    detail, c->meaning ? " -- " : "", c->meaning ? c->meaning : "");
	free(detail);
	return s;
}

char *aw_diff_change_line(const struct aw_diff_change *c)
{
	return change_line_of(c, change_detail(c, 0));
}

const char *aw_diff_object_kind(const struct aw_diff *d, const struct aw_diff_object *o)
{
	if (o->shape == AW_SHAPE_APPEARED && o->n > 1)
		return "appeared";
	if (o->shape == AW_SHAPE_VANISHED && o->n > 1)
		return "vanished";
	enum aw_diff_kind k = d->changes[o->changes[0]].kind;
	for (size_t i = 1; i < o->n; i++)
		if (d->changes[o->changes[i]].kind != k)
			return "changed";
	return aw_diff_kind_name(k);
}

/* A change's item as seen from its object: "f_type" of obs.vfs.anon.pidfd.f_type. */
const char *aw_diff_item_in_object(const struct aw_diff_change *c)
{
	const char *name = strchr(c->name, '.'); /* past the class prefix */
	name = name && c->cls != AW_DIFF_OTHER ? name + 1 : c->name;
	size_t n = strlen(c->object);
	if (strncmp(name, c->object, n) == 0 && name[n] == '.')
		return name + n + 1;
	/* An object of the item's own (.object): past the components both
	 * share ("compat.flag" of zzsized.o.compat.flag in zzsized.o.flag). */
	const char *rest = name;
	for (size_t i = 0; name[i] && name[i] == c->object[i]; i++)
		if (name[i] == '.')
			rest = name + i + 1;
	return rest;
}

/* How much of each value an object's line of several changes shows:
 * the whole values are its changes' own lines (--verbose, JSON). */
#define PART_MAX 48
/* Elements of a set's change that an object's line names, at most. */
#define DELTA_SHOWN 8

/* "+x +y" then " -z", the first DELTA_SHOWN of what one side has and the
 * other lacks, appended to *out. */
static void delta_words(char **out, size_t *shown, size_t *hidden, char **a, size_t na,
			char **b, size_t nb, char sign)
{
	for (size_t i = 0; i < na; i++) {
		if (aw_words_have(b, nb, a[i]))
			continue;
		if (*shown >= DELTA_SHOWN) {
			(*hidden)++;
			continue;
		}
		char *more = xasprintf("%s%s%c%s", *out, **out ? " " : "", sign, a[i]);
		free(*out);
		*out = more;
		(*shown)++;
	}
}

/* A name in a comma list: a letter or '_' first, then letters, digits
 * and _ . - + /; numbers and tuples ("5,10") are no names. */
static bool is_name(const char *w)
{
	if (!(isalpha((unsigned char)*w) || *w == '_'))
		return false;
	for (; *w; w++)
		if (!isalnum((unsigned char)*w) && !strchr("_.-+/", *w))
			return false;
	return true;
}

/* "EPERM": an answer that says the question failed, not a set. */
static bool is_errno_name(const char *w)
{
	for (int e = 1; e < 4096 && w[0] == 'E'; e++)
		if (strcmp(aw_errname(e), w) == 0)
			return true;
	return false;
}

/* The probes' word for an empty set of names ("restrict_flags = none"). */
static const char EMPTY_SET[] = "none";

/* v as a comma list of names, "none" as no names; false when it is no
 * such list or is an errno's name ("EPERM": the question failed). */
static bool name_list(const char *v, char ***words, size_t *n)
{
	*words = NULL;
	*n = 0;
	if (strcmp(v, EMPTY_SET) == 0)
		return true;
	if (!*v || v[0] == ',' || v[strlen(v) - 1] == ',' || strstr(v, ",,"))
		return false;
	if (!strchr(v, ',') && is_errno_name(v))
		return false;
	*words = aw_words_split(v, ",", n);
	for (size_t i = 0; i < *n; i++)
		if (!is_name((*words)[i])) {
			aw_words_free(*words, *n);
			*words = NULL;
			*n = 0;
			return false;
		}
	return true;
}

/* Two value's words as what moved: "3 -> 4: +x -y", or in another order. */
static char *words_delta(char **a, size_t na, char **b, size_t nb)
{
	char *words = xstrdup("");
	size_t shown = 0, hidden = 0;
	delta_words(&words, &shown, &hidden, b, nb, a, na, '+');
	delta_words(&words, &shown, &hidden, a, na, b, nb, '-');
	char *out = !shown ? xasprintf("%zu -> %zu, the same names in another order", na, nb)
		    : hidden ? xasprintf("%zu -> %zu: %s and %zu more", na, nb, words, hidden)
		    : xasprintf("%zu -> %zu: %s", na, nb, words);
	free(words);
	return out;
}

/* Two comma lists of names of any size ("A,B,C" -> "A,C,D", "none" for
 * none) as what moved, so that no list is cut with "..."; NULL unless
 * both are such lists and one has two names or more (a single name on
 * each side reads best as itself: "EACCES -> ENOENT"). */
static char *list_delta(const char *o, const char *n)
{
	char **a, **b;
	size_t na, nb;
	char *out = NULL;
	if (!name_list(o, &a, &na))
		return NULL;
	if (name_list(n, &b, &nb)) {
		if (na >= 2 || nb >= 2)
			out = words_delta(a, na, b, nb);
		aw_words_free(b, nb);
	}
	aw_words_free(a, na);
	return out;
}

/* For two values that are sets of names, what moved instead of both:
 * "31 -> 33: +memory.peak +pids.peak -cgroup.x", or NULL when they are no
 * such sets.  Comma lists of names count at any size; space-separated
 * words only when long and four or more (a directory's files), since
 * short words ("fd 0777") are sentences more often than sets.  The whole
 * values stay in --verbose and JSON. */
char *aw_diff_set_delta(const char *o, const char *n)
{
	if (!o || !n)
		return NULL;
	char *list = list_delta(o, n);
	if (list || strlen(o) + strlen(n) <= 2 * PART_MAX)
		return list;
	const char *seps = strchr(o, ',') && strchr(n, ',') ? "," : " ";
	size_t na, nb;
	char **a = aw_words_split(o, seps, &na), **b = aw_words_split(n, seps, &nb);
	char *out = na >= 4 && nb >= 4 ? words_delta(a, na, b, nb) : NULL;
	aw_words_free(a, na);
	aw_words_free(b, nb);
	return out;
}

/* A change's values as an object's line shows them: what moved in a set,
 * else each value cut at max characters (0: whole). */
static char *line_detail(const struct aw_diff_change *c, size_t max)
{
	char *delta = c->kind == AW_DIFF_CHANGED ? aw_diff_set_delta(c->old_value, c->new_value) : NULL;
	return delta ? delta : change_detail(c, max);
}

char *aw_diff_object_line(const struct aw_diff *d, const struct aw_diff_object *o)
{
	if (o->n == 1) {
		const struct aw_diff_change *c = &d->changes[o->changes[0]];
		return change_line_of(c, line_detail(c, 0));
	}
	/* Items whose values moved alike share one part: "a, b, c: 0 ->
	 * EADDRINUSE", the first DELTA_SHOWN of them named. */
	char **details = xcalloc(o->n, sizeof(*details));
	size_t *first = xcalloc(o->n, sizeof(*first)); /* the part each joins */
	for (size_t i = 0; i < o->n; i++) {
		const struct aw_diff_change *c = &d->changes[o->changes[i]];
		char *detail = line_detail(c, PART_MAX);
		details[i] = xasprintf("%s%s", detail_sep(c), detail);
		free(detail);
		first[i] = i;
		for (size_t j = 0; j < i; j++)
			if (first[j] == j && strcmp(details[j], details[i]) == 0) {
				first[i] = j;
				break;
			}
	}
	char *s = xasprintf("%-9s %s:", aw_diff_object_kind(d, o), o->name);
	bool any = false;
	for (size_t i = 0; i < o->n; i++) {
		if (first[i] != i)
			continue;
		char *names = xstrdup(aw_diff_item_in_object(&d->changes[o->changes[i]]));
		size_t named = 1, more = 0;
		for (size_t j = i + 1; j < o->n; j++) {
			if (first[j] != i)
				continue;
			if (named++ >= DELTA_SHOWN) {
				more++;
				continue;
			}
			char *t = xasprintf("%s, %s", names, aw_diff_item_in_object(&d->changes[o->changes[j]]));
			free(names);
			names = t;
		}
		char *more_words = more ? xasprintf(" and %zu more", more) : xstrdup("");
		char *t = xasprintf("%s%s %s%s%s", s, any ? ";" : "", names, more_words, details[i]);
		free(s);
		free(names);
		free(more_words);
		s = t;
		any = true;
	}
	for (size_t i = 0; i < o->n; i++)
		free(details[i]);
	free(details);
	free(first);
	if (o->meaning) {
		char *more = xasprintf("%s -- %s", s, o->meaning);
		free(s);
		s = more;
	}
	return s;
}

/* What every format leads with: the summary line, and a word on formats
 * when they differ, each line after prefix. */
void aw_diff_put_lead(FILE *out, const struct aw_diff *d, const char *on, const char *nn,
		      const char *prefix)
{
	char *summary = aw_diff_summary(d);
	fprintf(out, "%s%s\n", prefix, summary);
	free(summary);
	if (aw_diff_formats_differ(d)) {
		char *f = formats_line(d, on, nn);
		fprintf(out, "%s%s\n", prefix, f);
		free(f);
	}
}

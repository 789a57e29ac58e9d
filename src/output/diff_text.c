// SPDX-License-Identifier: GPL-2.0-or-later
/* abiwatch diff's text: for people, the most telling first, folded. */
#include "diff.h"
#include "lib/util.h"

#include <stdlib.h>
#include <string.h>

/* How many names of a folded cause the text shows without --verbose. */
#define FIRST_NAMES 3

/* An object's line and, when verbose and it has several, its changes. */
static void text_object(FILE *out, const struct aw_diff *d, const struct aw_diff_object *o,
			bool verbose)
{
	/* Verbose: a change alone in its object with its whole values. */
	char *line = verbose && o->n == 1 ? aw_diff_change_line(&d->changes[o->changes[0]])
		     : aw_diff_object_line(d, o);
	fprintf(out, "  %s\n", line);
	free(line);
	for (size_t i = 0; verbose && o->n > 1 && i < o->n; i++) {
		line = aw_diff_change_line(&d->changes[o->changes[i]]);
		fprintf(out, "    %s\n", line);
		free(line);
	}
}

/* ---- sibling probes: one line for the same change on each ---- */

static bool same_text(const char *a, const char *b)
{
	return a == b || (a && b && strcmp(a, b) == 0);
}

/* The probe part of an object's name, without the family ("btrfs" of
 * "vfs.btrfs.flink_unprivileged"): its length, and where the rest starts. */
static size_t probe_part(const struct aw_diff_object *o, const char **rest)
{
	const char *p = o->name + strlen(o->family) + (o->name[strlen(o->family)] == '.');
	size_t n = strcspn(p, ".");
	*rest = p + n;
	return n;
}

/* Whether b is the object a on another probe of the family that changed
 * alike: the probes of one table (vfs.btrfs and vfs.ext4, one per
 * filesystem) or of twin tables (surface.syscalls and syscalls32), the
 * same rest of the name, and change for change the same item, kind,
 * values and meaning. */
static bool alike_on_sibling(const struct aw_diff *d, const struct aw_diff_object *a,
			     const struct aw_diff_object *b)
{
	const char *ra, *rb;
	size_t pa = probe_part(a, &ra), pb = probe_part(b, &rb);
	if (strcmp(a->family, b->family) != 0 || a->rank != b->rank || a->n != b->n ||
	    strcmp(ra, rb) != 0 || (pa == pb && strncmp(ra - pa, rb - pb, pa) == 0))
		return false;
	for (size_t i = 0; i < a->n; i++) {
		const struct aw_diff_change *x = &d->changes[a->changes[i]];
		const struct aw_diff_change *y = &d->changes[b->changes[i]];
		if (x->kind != y->kind || strcmp(aw_diff_item_in_object(x), aw_diff_item_in_object(y)) != 0 ||
		    !same_text(x->old_value, y->old_value) || !same_text(x->new_value, y->new_value) ||
		    !same_text(x->meaning, y->meaning))
			return false;
	}
	return true;
}

/* a's line with its probe named as the set of probes that changed alike:
 * "obs.vfs.{btrfs,ext4,xfs}.flink_unprivileged: ENOENT -> ok". */
static char *alike_line(const struct aw_diff *d, const struct aw_diff_object *a,
			const size_t *alike, size_t nalike)
{
	char *line = aw_diff_object_line(d, a);
	const char *rest;
	size_t plen = probe_part(a, &rest);
	char *set = xasprintf("%.*s", (int)plen, rest - plen);
	for (size_t k = 0; k < nalike; k++) {
		const struct aw_diff_object *b = &d->objects[alike[k]];
		const char *rb;
		size_t pb = probe_part(b, &rb);
		char *t = xasprintf("%s,%.*s", set, (int)pb, rb - pb);
		free(set);
		set = t;
	}
	/* The first "FAMILY.PROBE" of the line ends where the name goes on. */
	char *where = xasprintf("%.*s", (int)(rest - a->name), a->name), *at = line;
	size_t wlen = strlen(where);
	while ((at = strstr(at, where)) && at[wlen] != '.' && at[wlen] != ':' && at[wlen] != ' ')
		at += wlen;
	char *out = at ? xasprintf("%.*s%.*s{%s}%s", (int)(at - line), line,
				   (int)(wlen - plen), where, set, at + wlen)
		       : xstrdup(line);
	free(where);
	free(set);
	free(line);
	return out;
}

/* The kernel changes, ranked, an object a line; without --verbose the
 * same change on sibling probes shares the first one's line. */
static void text_kernel_changes(FILE *out, const struct aw_diff *d, bool verbose)
{
	bool header = false;
	bool *shown = xcalloc(d->nobjects + 1, sizeof(*shown));
	size_t *alike = xcalloc(d->nobjects + 1, sizeof(*alike));
	for (size_t i = 0; i < d->nobjects; i++) {
		const struct aw_diff_object *o = &d->objects[i];
		if (o->rank == AW_RANK_APPEARED || shown[i])
			continue;
		if (!header)
			fputs("kernel changes:\n", out);
		header = true;
		size_t nalike = 0;
		for (size_t j = i + 1; !verbose && j < d->nobjects; j++)
			if (!shown[j] && alike_on_sibling(d, o, &d->objects[j]))
				alike[nalike++] = j;
		if (!nalike) {
			text_object(out, d, o, verbose);
			continue;
		}
		char *line = alike_line(d, o, alike, nalike);
		fprintf(out, "  %s\n", line);
		free(line);
		for (size_t k = 0; k < nalike; k++)
			shown[alike[k]] = true;
	}
	free(shown);
	free(alike);
}

/* The width of a line of names of appeared interfaces. */
#define WRAP 100

/* What appeared, the names of a family wrapped (without the family, and
 * without the probe when all are of one), every one of them: a knob a
 * distribution must decide on (kernel.io_uring_disabled,
 * vm.memfd_noexec) is no less news for being the 40th; verbose: a line
 * per object, as the kernel changes. */
static void text_appeared(FILE *out, const struct aw_diff *d, bool verbose)
{
	size_t total = 0;
	for (size_t i = 0; i < d->nobjects; i++)
		total += d->objects[i].rank == AW_RANK_APPEARED;
	if (!total)
		return;
	fprintf(out, "interfaces that appeared (%zu, nothing that worked breaks):\n", total);
	for (size_t i = 0; i < d->nobjects;) {
		const struct aw_diff_object *o = &d->objects[i];
		size_t end = i;
		while (end < d->nobjects && d->objects[end].rank == AW_RANK_APPEARED &&
		       strcmp(d->objects[end].family, o->family) == 0)
			end++;
		if (end == i) {
			i++;
			continue;
		}
		if (verbose) {
			for (; i < end; i++)
				text_object(out, d, &d->objects[i], verbose);
			continue;
		}
		/* The probe, when every object is of the same one (and below
		 * it); else the family, when every object is below that. */
		size_t flen = strlen(o->family), plen = 0;
		const char *pdot = o->name[flen] == '.' ? strchr(o->name + flen + 1, '.') : NULL;
		if (pdot)
			plen = (size_t)(pdot - o->name);
		for (size_t j = i; j < end; j++) {
			const char *n = d->objects[j].name;
			if (plen && strncmp(n, o->name, plen + 1) != 0)
				plen = 0;
			if (n[flen] != '.')
				flen = 0;
		}
		char *head = plen ? xasprintf("%.*s", (int)plen, o->name) : xstrdup(o->family);
		size_t skip = plen ? plen + 1 : flen ? flen + 1 : 0;
		int col = fprintf(out, "  %s %zu:", head, end - i);
		int indent = col;
		for (size_t j = i; j < end; j++) {
			const char *name = d->objects[j].name + skip;
			int len = (int)strlen(name) + (j + 1 < end ? 1 : 0);
			if (col + 1 + len > WRAP && col > indent) {
				fprintf(out, "\n%*s", indent, "");
				col = indent;
			}
			col += fprintf(out, " %s%s", name, j + 1 < end ? "," : "");
		}
		fputc('\n', out);
		free(head);
		i = end;
	}
}

/* One line per cause: its count and first names; verbose adds every
 * change below it. */
static void text_group(FILE *out, const struct aw_diff *d, const struct aw_diff_group *g,
		       bool verbose)
{
	char *label = aw_diff_group_label(g);
	fprintf(out, "  %s: %zu %s", g->cause_key, g->n, label);
	for (size_t i = 0; !verbose && i < g->n && i < FIRST_NAMES; i++)
		fprintf(out, "%s%s", i ? ", " : ": ", d->changes[g->changes[i]].name);
	if (!verbose && g->n > FIRST_NAMES)
		fprintf(out, " and %zu more", g->n - FIRST_NAMES);
	fputc('\n', out);
	for (size_t i = 0; verbose && i < g->n; i++) {
		const struct aw_diff_change *c = &d->changes[g->changes[i]];
		char *line = aw_diff_change_line(c);
		fprintf(out, "    %s [%s]\n", line, c->cause);
		free(line);
	}
	free(label);
}

static void text_not_comparable(FILE *out, const struct aw_diff *d, bool verbose)
{
	size_t ng;
	struct aw_diff_group *g = aw_diff_groups(d, &ng);
	if (ng)
		fputs("not comparable, by cause (the environment, not the kernel):\n", out);
	for (size_t i = 0; i < ng; i++)
		text_group(out, d, &g[i], verbose);
	aw_diff_groups_free(g, ng);
}

/* The value cut to a line's worth: the environment comes last, shortly. */
static char *short_value(const char *v, bool verbose)
{
	enum { MAX = 72 };
	char *e = v ? aw_escape(v) : xstrdup("(absent)");
	if (!verbose && strlen(e) > MAX)
		strcpy(e + MAX - 3, "...");
	return e;
}

static void text_environment(FILE *out, const struct aw_diff *d, bool verbose)
{
	bool header = false;
	for (size_t i = 0; i < d->nenv; i++) {
		const struct aw_diff_env *e = &d->env[i];
		if (e->ignored)
			continue;
		if (!header)
			fputs("environment (not a kernel change):\n", out);
		header = true;
		if (e->summary) {
			fprintf(out, "  %s: %s\n", e->key, e->summary);
			continue;
		}
		char *o = short_value(e->old_value, verbose), *n = short_value(e->new_value, verbose);
		fprintf(out, "  %s: %s -> %s\n", e->key, o, n);
		free(o);
		free(n);
	}
}

static bool visible_env(const struct aw_diff *d)
{
	for (size_t i = 0; i < d->nenv; i++)
		if (!d->env[i].ignored)
			return true;
	return false;
}

void aw_diff_text(FILE *out, const struct aw_diff *d, const char *on, const char *nn,
		  bool verbose)
{
	if (!d->n && !aw_diff_formats_differ(d) && !visible_env(d))
		return; /* as diff(1): silence when the same */
	aw_diff_put_lead(out, d, on, nn, "");
	text_kernel_changes(out, d, verbose);
	text_appeared(out, d, verbose);
	text_not_comparable(out, d, verbose);
	text_environment(out, d, verbose);
}


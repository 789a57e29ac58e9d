// SPDX-License-Identifier: GPL-2.0-or-later
#include "registry.h"
#include "lib/util.h"

#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The linker collects every AW_FAMILY() pointer into this section. */
extern const struct aw_family *const __start_aw_families[] __attribute__((weak));
extern const struct aw_family *const __stop_aw_families[] __attribute__((weak));

static int by_name(const void *a, const void *b)
{
	const struct aw_family *fa = *(const struct aw_family *const *)a;
	const struct aw_family *fb = *(const struct aw_family *const *)b;
	return strcmp(fa->name, fb->name);
}

struct flat {
	const struct aw_family *family;
	const struct aw_probe **probes;
	size_t n;
};

static struct flat *flats;
static size_t nflats;

static void flatten(const struct aw_family *f, struct flat *out)
{
	out->family = f;
	for (const struct aw_probe *const *t = f->tables; t && *t; t++) {
		for (const struct aw_probe *p = *t; p->name; p++) {
			out->probes = xgrow(out->probes, out->n, sizeof(*out->probes));
			out->probes[out->n++] = p;
		}
	}
}

size_t aw_family_probes(const struct aw_family *f, const struct aw_probe *const **out)
{
	const struct aw_family *const *fams;
	aw_families(&fams);
	for (size_t i = 0; i < nflats; i++) {
		if (flats[i].family == f) {
			*out = flats[i].probes;
			return flats[i].n;
		}
	}
	*out = NULL;
	return 0;
}

size_t aw_families(const struct aw_family *const **out)
{
	static const struct aw_family **sorted;
	static size_t n;

	if (!sorted) {
		n = (size_t)(__stop_aw_families - __start_aw_families);
		sorted = xcalloc(n, sizeof(*sorted));
		memcpy(sorted, __start_aw_families, n * sizeof(*sorted));
		qsort(sorted, n, sizeof(*sorted), by_name);
		flats = xcalloc(n, sizeof(*flats));
		nflats = n;
		for (size_t i = 0; i < n; i++)
			flatten(sorted[i], &flats[i]);
	}
	*out = sorted;
	return n;
}

char *aw_probe_fullname(const struct aw_probe_ref *ref, char *buf, size_t len)
{
	snprintf(buf, len, "%s.%s", ref->family->name, ref->probe->name);
	return buf;
}

bool aw_glob_selects(const char *glob, const char *name)
{
	char prefix[512];
	size_t len = strlen(name);

	if (len >= sizeof(prefix))
		return false;
	/* Try the name, then each dot-bounded prefix of it, and the name as
	 * a prefix of the glob's subject (a check below this probe). */
	memcpy(prefix, name, len + 1);
	for (;;) {
		if (fnmatch(glob, prefix, 0) == 0)
			return true;
		char *dot = strrchr(prefix, '.');
		if (!dot)
			break;
		*dot = '\0';
	}
	size_t glen = strlen(glob);
	return glen > len && strncmp(glob, name, len) == 0 && glob[len] == '.' &&
	       !strpbrk(glob, "*?[");
}

static bool glob_selects_item(const char *glob, const char *probe_name,
			      const struct aw_probe *p)
{
	bool hit = false;
	for (const struct aw_item *it = p->items; it && it->name && !hit; it++) {
		char *full = xasprintf("%s.%s", probe_name, it->name);
		hit = fnmatch(glob, full, 0) == 0;
		free(full);
	}
	return hit;
}

bool aw_ref_selected(const char *glob, const struct aw_probe_ref *ref)
{
	char name[512];
	aw_probe_fullname(ref, name, sizeof(name));
	return aw_glob_selects(glob, name) || glob_selects_item(glob, name, ref->probe);
}

void aw_select_each(char *const *globs, size_t nglobs, struct aw_probe_ref **out,
		    size_t *count, bool *hit)
{
	const struct aw_catalogue_entry *cat;
	size_t ncat = aw_catalogue(&cat);
	struct aw_probe_ref *refs = NULL;
	size_t n = 0;

	memset(hit, 0, nglobs * sizeof(*hit));
	for (size_t e = 0; e < ncat; e++) {
		if (!aw_catalogue_is_probe(&cat[e]))
			continue;
		bool take = nglobs == 0;
		for (size_t g = 0; g < nglobs; g++) {
			if (aw_ref_selected(globs[g], &cat[e].ref)) {
				hit[g] = true;
				take = true;
			}
		}
		if (take) {
			refs = xgrow(refs, n, sizeof(*refs));
			refs[n++] = cat[e].ref;
		}
	}
	*out = refs;
	*count = n;
}

int aw_select(char *const *globs, size_t nglobs, struct aw_probe_ref **out,
	      size_t *count, size_t *unmatched)
{
	bool *hit = xcalloc(nglobs + 1, sizeof(bool));
	aw_select_each(globs, nglobs, out, count, hit);
	for (size_t g = 0; g < nglobs; g++) {
		if (!hit[g]) {
			*unmatched = g;
			free(hit);
			free(*out);
			*out = NULL;
			return -1;
		}
	}
	free(hit);
	return 0;
}

/* ---- the catalogue ---- */

static struct aw_catalogue_entry *entries;
static size_t nentries;
static const struct aw_catalogue_entry **by_entry_name; /* for bsearch */

static void add_entry(const struct aw_family *f, const struct aw_probe *p,
		      const struct aw_item *it, size_t rank, char *name, const char *summary)
{
	entries = xgrow(entries, nentries, sizeof(*entries));
	entries[nentries++] = (struct aw_catalogue_entry){
		.ref = { f, p }, .item = it, .name = name, .summary = summary, .rank = rank,
	};
}

static void add_family(const struct aw_family *f, size_t rank)
{
	const struct aw_probe *const *probes;
	size_t np = aw_family_probes(f, &probes);

	add_entry(f, NULL, NULL, rank, xstrdup(f->name), f->summary);
	for (size_t p = 0; p < np; p++) {
		add_entry(f, probes[p], NULL, p, xasprintf("%s.%s", f->name, probes[p]->name),
			  probes[p]->summary);
		for (size_t i = 0; probes[p]->items && probes[p]->items[i].name; i++)
			add_entry(f, probes[p], &probes[p]->items[i], i,
				  xasprintf("%s.%s.%s", f->name, probes[p]->name,
					    probes[p]->items[i].name),
				  probes[p]->items[i].summary);
	}
}

static int by_entry(const void *a, const void *b)
{
	return strcmp((*(const struct aw_catalogue_entry *const *)a)->name,
		      (*(const struct aw_catalogue_entry *const *)b)->name);
}

size_t aw_catalogue(const struct aw_catalogue_entry **out)
{
	if (!by_entry_name) {
		const struct aw_family *const *fams;
		size_t nfam = aw_families(&fams);
		for (size_t f = 0; f < nfam; f++)
			add_family(fams[f], f);
		by_entry_name = xcalloc(nentries + 1, sizeof(*by_entry_name));
		for (size_t i = 0; i < nentries; i++)
			by_entry_name[i] = &entries[i];
		qsort(by_entry_name, nentries, sizeof(*by_entry_name), by_entry);
	}
	*out = entries;
	return nentries;
}

/* "a.*.b" against "a.x.y.b", component by component: a "*" takes one
 * component of the name, then tries the rest of the pattern after each
 * further one. */
static bool components_match(const char *pat, const char *name)
{
	size_t plen = strcspn(pat, ".");
	if (plen == 1 && pat[0] == '*') {
		const char *rest = pat[1] ? pat + 2 : NULL;
		for (const char *n = name;;) {
			const char *end = strchr(n, '.');
			if (!end)
				return !rest;
			if (rest && components_match(rest, end + 1))
				return true;
			n = end + 1;
		}
	}
	size_t nlen = strcspn(name, ".");
	if (plen != nlen || strncmp(pat, name, plen) != 0)
		return false;
	if (!pat[plen] || !name[nlen])
		return !pat[plen] && !name[nlen];
	return components_match(pat + plen + 1, name + nlen + 1);
}

bool aw_item_is_pattern(const struct aw_item *it)
{
	return it->name[0] == '*' || strstr(it->name, ".*") != NULL;
}

bool aw_item_name_matches(const char *item_name, const char *name)
{
	size_t len = strlen(name);
	if (!len || strchr(name, '*') || strstr(name, "..") || name[0] == '.' || name[len - 1] == '.')
		return false;
	if (strcmp(item_name, name) == 0)
		return true;
	return strchr(item_name, '*') && components_match(item_name, name);
}

const struct aw_item *aw_probe_item(const struct aw_probe *p, const char *name)
{
	for (const struct aw_item *it = p->items; it && it->name; it++)
		if (aw_item_name_matches(it->name, name))
			return it;
	return NULL;
}

/* The entry of the pattern item that covers a reported name
 * "family.probe.item...".  A probe's items follow its own entry, in
 * table order. */
static const struct aw_catalogue_entry *pattern_entry(const char *name)
{
	const char *dot = strchr(name, '.');
	if (!dot || !strchr(dot + 1, '.'))
		return NULL; /* a family's or probe's name: no item to cover */
	const struct aw_catalogue_entry *probe = aw_catalogue_probe_of(name);
	if (!probe)
		return NULL;
	const struct aw_item *it = aw_probe_item(probe->ref.probe, name + strlen(probe->name) + 1);
	if (!it || !aw_item_is_pattern(it))
		return NULL;
	return probe + 1 + (it - probe->ref.probe->items);
}

const struct aw_catalogue_entry *aw_catalogue_find(const char *name)
{
	const struct aw_catalogue_entry *all, want = { .name = name }, *key = &want;
	if (aw_catalogue(&all) == 0)
		return NULL;
	const struct aw_catalogue_entry **hit =
		bsearch(&key, by_entry_name, nentries, sizeof(*by_entry_name), by_entry);
	return hit ? *hit : pattern_entry(name);
}

const struct aw_catalogue_entry *aw_catalogue_probe_of(const char *name)
{
	const char *dot = strchr(name, '.');
	const char *end = dot ? strchr(dot + 1, '.') : NULL;
	char *probe = end ? strndup(name, (size_t)(end - name)) : xstrdup(name);
	const struct aw_catalogue_entry *e = probe ? aw_catalogue_find(probe) : NULL;
	free(probe);
	return e && aw_catalogue_is_probe(e) ? e : NULL;
}

/* A probe made at run time (--path) reports items of a table its
 * registered siblings share: the item named, if it is the same one in
 * every probe of the family that has it. */
static const struct aw_item *shared_item(const char *fullname)
{
	const char *dot = strchr(fullname, '.');
	const char *item = dot ? strchr(dot + 1, '.') : NULL;
	const struct aw_catalogue_entry *cat;
	const struct aw_item *shared = NULL;
	size_t ncat = aw_catalogue(&cat);

	for (size_t e = 0; item && e < ncat; e++) {
		const struct aw_catalogue_entry *c = &cat[e];
		bool same_family = strncmp(c->name, fullname, (size_t)(dot - fullname) + 1) == 0;
		if (!c->item || !same_family || strcmp(c->item->name, item + 1) != 0)
			continue;
		if (shared && c->item != shared)
			return NULL;
		shared = c->item;
	}
	return shared;
}

const struct aw_item *aw_item_find(const char *fullname)
{
	const struct aw_catalogue_entry *e = aw_catalogue_find(fullname);
	if (e)
		return e->item;
	return shared_item(fullname);
}

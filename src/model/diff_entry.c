// SPDX-License-Identifier: GPL-2.0-or-later
/* One side's item as diff.c and causes.c both read it (diff_entry.h):
 * what the registry knows of it, what it is about, a value as a list.
 * Below both, so that diff.c asks causes.c and nothing asks back. */
#include "diff_entry.h"
#include "core/registry.h"
#include "lib/util.h"
#include "lib/words.h"

#include <stdlib.h>
#include <string.h>

/* The probe an item belongs to, and the item of the entry's kind (NULL
 * for a probe's own key, or one this binary does not declare). */
const struct aw_probe *aw_diff_known(const struct entry *e, const struct aw_item **item)
{
	const struct aw_catalogue_entry *probe =
		e->cls == AW_DIFF_OTHER ? NULL : aw_catalogue_probe_of(e->rec->name);

	*item = NULL;
	if (!probe || e->cls == AW_DIFF_PROBE)
		return probe ? probe->ref.probe : NULL;
	const struct aw_catalogue_entry *it = aw_catalogue_find(e->rec->name);
	enum aw_item_kind want = e->cls == AW_DIFF_CHECK ? AW_CHECK : AW_OBSERVATION;
	if (it && it->item && it->item->kind == want)
		*item = it->item;
	return probe->ref.probe;
}

/* A value as a list: comma-separated elements; "none" is the empty list
 * (env.caps without capabilities). */
char **aw_diff_list(const char *v, size_t *n)
{
	return aw_words_split(v && strcmp(v, "none") != 0 ? v : "", ",", n);
}

static char *cut(const char *s, size_t n)
{
	return xasprintf("%.*s", (int)n, s);
}

/* The length of the probe part of a name ("vfs.anon" of
 * "vfs.anon.pidfd.f_type"): the registered probe's, else the first two
 * components (a probe this binary does not know). */
static size_t probe_len(const struct entry *e)
{
	const char *name = e->rec->name;
	const struct aw_catalogue_entry *p =
		e->cls == AW_DIFF_OTHER ? NULL : aw_catalogue_probe_of(name);
	if (p)
		return strlen(p->name);
	const char *dot = strchr(name, '.');
	dot = dot ? strchr(dot + 1, '.') : NULL;
	return dot ? (size_t)(dot - name) : strlen(name);
}

/* FAMILY.PROBE.OBJECT: the item's .object, else its name without the
 * last component, else the probe.  A key of a newer format: the key
 * without its last component. */
char *aw_diff_object_of(const struct entry *e)
{
	const char *name = e->rec->name;
	if (e->cls == AW_DIFF_OTHER) {
		const char *dot = strrchr(name, '.');
		return dot ? cut(name, (size_t)(dot - name)) : xstrdup(name);
	}
	size_t plen = probe_len(e);
	if (e->cls == AW_DIFF_PROBE || name[plen] != '.')
		return cut(name, plen);
	const struct aw_item *it;
	(void)aw_diff_known(e, &it);
	if (it && it->object)
		return *it->object ? xasprintf("%.*s.%s", (int)plen, name, it->object) : cut(name, plen);
	const char *dot = strrchr(name + plen + 1, '.');
	return cut(name, dot ? (size_t)(dot - name) : plen);
}

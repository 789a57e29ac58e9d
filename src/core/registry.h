/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Every family linked into the binary, and selection by name glob. */
#ifndef ABIWATCH_REGISTRY_H
#define ABIWATCH_REGISTRY_H

#include "probe.h"

#include <stdbool.h>
#include <stddef.h>
#include <string.h>

/* A probe together with the family that declared it. */
struct aw_probe_ref {
	const struct aw_family *family;
	const struct aw_probe *probe;
};

/* Families sorted by name. */
size_t aw_families(const struct aw_family *const **out);
/* A family's probes, all its tables laid end to end. */
size_t aw_family_probes(const struct aw_family *f, const struct aw_probe *const **out);

/* "family.probe" into buf; returns buf. */
char *aw_probe_fullname(const struct aw_probe_ref *ref, char *buf, size_t len);

/* ---- the catalogue: family x probe x item, as one index built once ---- */

/* A family, a probe of it, or an item of that probe. */
struct aw_catalogue_entry {
	struct aw_probe_ref ref;    /* .probe is NULL for a family's own entry */
	const struct aw_item *item; /* NULL for a family's or probe's own entry */
	const char *name;           /* "family", "family.probe", "family.probe.item" */
	const char *summary;        /* the one line its table gives */
	size_t rank;                /* its place among its siblings, from 0 */
};

/* Every entry in declaration order: each family (by name), followed by
 * its probes in table order, each followed by its items in table order. */
size_t aw_catalogue(const struct aw_catalogue_entry **out);
/* The entry of a dotted name, or NULL.  A reported name that a pattern
 * item covers finds that item's entry. */
const struct aw_catalogue_entry *aw_catalogue_find(const char *name);
/* The probe a dotted name is of: "mqueue.noattr" for "mqueue.noattr" and
 * "mqueue.noattr.maxmsg".  NULL when no registered probe is. */
const struct aw_catalogue_entry *aw_catalogue_probe_of(const char *name);
static inline bool aw_catalogue_is_probe(const struct aw_catalogue_entry *e)
{
	return e->ref.probe && !e->item;
}

/* Pattern items: an item name may have "*" components ("knob.*.value"),
 * each matching one or more dot-separated components of a reported name
 * ("knob.net.ipv4.tcp_mem.value"), for families whose names are only
 * known at run time (every file under /proc/sys).  A name with a "*" of
 * its own matches nothing.  True when name is the item or one it covers. */
bool aw_item_name_matches(const char *item_name, const char *name);
/* The item of probe p that reports name (an item name, without
 * "family.probe."): the first in declaration order whose name is name or
 * covers it, so that a specific item declared before a pattern wins.
 * NULL when none does. */
const struct aw_item *aw_probe_item(const struct aw_probe *p, const char *name);

/* The declared item whose full name is "family.probe.item", or NULL.  For
 * a probe made at run time (dirent's --path), the item of that name its
 * family's probes share, if they share one. */
const struct aw_item *aw_item_find(const char *fullname);

/* True when the glob names this dotted name or one of its ancestors, so
 * that "mqueue" selects "mqueue.noattr" and everything below it, and a
 * check's full name selects the probe that reports it. */
bool aw_glob_selects(const char *glob, const char *name);

/* Whether the glob selects this probe: its name, an ancestor's, or the
 * name of one of its items. */
bool aw_ref_selected(const char *glob, const struct aw_probe_ref *ref);

/* The probes that any of the globs select (all when nglobs is 0), in family
 * then table order; hit[g] tells whether glob g selected any. */
void aw_select_each(char *const *globs, size_t nglobs, struct aw_probe_ref **out,
		    size_t *count, bool *hit);

/* The probes that any of the globs select (all when nglobs is 0), in
 * family then table order.  A glob that selects nothing is reported
 * through *unmatched (its index) and the call returns -1. */
int aw_select(char *const *globs, size_t nglobs, struct aw_probe_ref **out,
	      size_t *count, size_t *unmatched);

#endif

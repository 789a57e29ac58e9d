// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Causes a snapshot records beside the item (struct aw_item.witness): a
 * module that registers a knob and was there on one side only, a knob a
 * child network namespace shows on one side only, one read in a fresh
 * namespace that has a value of its own on one side only, a default a
 * distribution's patch set on one side only, a configuration option off
 * on one side only (for a whole item, or for the elements of a list of
 * names, whose explained part is folded apart from the kernel's).  The
 * family says what witnesses an item; this file weighs the witnesses of
 * both sides, and names no family or knob.  aw_diff_explain() and
 * aw_diff_explain_parts() ask it (causes.c).
 */
#include "diff_entry.h"
#include "lib/kmodule.h"
#include "lib/util.h"
#include "lib/words.h"

#include <stdlib.h>
#include <string.h>

struct side {
	const struct aw_snapshot *snap;
	const struct entry *entry; /* NULL: the key is missing */
	bool has;                  /* the item has a witness on this side */
	struct aw_witness w;
};

/* A witness's value in a snapshot: an env.* key, or an observation
 * made; NULL where the snapshot has none. */
static const char *witness_value(const struct aw_snapshot *s, const char *key)
{
	if (strncmp(key, "env.", 4) == 0)
		return aw_snapshot_get(s, key);
	const struct aw_record *r = aw_snapshot_observation(s, key);
	return r && r->cls == AW_KEY_OBS ? r->value : NULL;
}

static const char *side_name(int i)
{
	return i ? "new" : "old";
}

static void fold(struct aw_diff_change *c, const char *cause_key, bool new_side, char *cause)
{
	c->cause_key = xstrdup(cause_key);
	c->new_side = new_side;
	c->cause = cause;
}

/* The module's record itself (module.NAME) changed: what it records is
 * the environment of the knobs, not an interface. */
static bool module_record(struct aw_diff_change *c, const struct side s[2])
{
	const char *v[2] = { s[0].entry ? s[0].entry->rec->value : NULL,
			     s[1].entry ? s[1].entry->rec->value : NULL };
	enum aw_kmodule_state st[2] = { aw_kmodule_parse(v[0], NULL), aw_kmodule_parse(v[1], NULL) };
	int lacking = aw_kmodule_present(st[0]) ? 1 : 0;
	fold(c, s[lacking].w.cause, lacking, xasprintf("%s's state as the walk found it: %s -> %s",
						      s[lacking].w.cause, v[0] ? v[0] : "(not recorded)",
						      v[1] ? v[1] : "(not recorded)"));
	return true;
}

static const char *module_summary(enum aw_kmodule_state lacking, enum aw_kmodule_state present)
{
	if (lacking == AW_KMOD_NOT_LOADED && present == AW_KMOD_LOADED)
		return "loaded on one side only";
	if (lacking == AW_KMOD_NOT_LOADED && present == AW_KMOD_BUILT_IN)
		return "=m on one side, =y on the other";
	if (lacking == AW_KMOD_NOT_BUILT)
		return "built on one side only";
	return "there on one side only";
}

/* The side at index l lacks the knob, whose module was not there; the
 * other side had it there, or registers the knob without it. */
static bool by_module(struct aw_diff_change *c, const struct side s[2], int l)
{
	const struct side *L = &s[l], *P = &s[!l];
	const char *lv = witness_value(L->snap, L->w.key);
	enum aw_kmodule_state ls = aw_kmodule_parse(lv, NULL);
	if (ls == AW_KMOD_UNKNOWN || aw_kmodule_present(ls))
		return false;
	if (P->has && P->w.kind == AW_WITNESS_MODULE && strcmp(P->w.key, L->w.key) == 0) {
		const char *pv = witness_value(P->snap, P->w.key);
		enum aw_kmodule_state ps = aw_kmodule_parse(pv, NULL);
		if (!aw_kmodule_present(ps))
			return false;
		fold(c, L->w.cause, l, xasprintf("%s (%s), which registers it (%s): %s on the %s side, %s on the %s",
						 L->w.cause, module_summary(ls, ps), L->w.why, lv, side_name(l), pv,
						 side_name(!l)));
		return true;
	}
	fold(c, L->w.cause, l, xasprintf("%s registers it on the %s side (%s), where it was %s; the %s side's "
					 "kernel registers it without the module", L->w.cause, side_name(l),
					 L->w.why, lv, side_name(!l)));
	return true;
}

/* The value the side at index l recorded in the other namespace stands
 * in for the missing key: a default that moved is a kernel change, said
 * with where each side read it. */
static void moved_default(struct aw_diff_change *c, const struct side *L, int l, const char *there)
{
	char **v = l ? &c->new_value : &c->old_value;
	free(*v);
	*v = xstrdup(there);
	if (l)
		c->new_absent = false;
	else
		c->old_absent = false;
	c->kind = AW_DIFF_CHANGED;
	char *meaning = xasprintf("%s; the %s side's value is the initial network namespace's (%s), the only one "
				  "that showed the knob there, the other's a child one's: %s", c->meaning ? c->meaning : "",
				  side_name(l), L->w.key, L->w.why);
	free(c->meaning);
	c->meaning = meaning;
}

/* The side at index l lacks the key, and records the same knob as
 * another namespace showed it (w.key): the knob is visible in a child
 * network namespace on one side only.  A value that differs as well is
 * a default that moved, which stays a kernel change. */
static bool by_namespace_shown(struct aw_diff_change *c, const struct side s[2], int l)
{
	const struct side *L = &s[l], *P = &s[!l];
	const char *there = witness_value(L->snap, L->w.key);
	if (!there || !P->entry)
		return false;
	const char *pv = P->entry->rec->value, *name = P->entry->rec->name;
	size_t n = strlen(name);
	bool mode = n > 5 && strcmp(name + n - 5, ".mode") == 0;
	bool value = n > 6 && strcmp(name + n - 6, ".value") == 0;
	if (value && P->entry->rec->cls == AW_KEY_OBS && strcmp(there, pv) != 0 && !L->w.initial) {
		moved_default(c, L, l, there);
		return false;
	}
	bool read_only = mode && strncmp(pv, "04", 2) == 0;
	/* Which side a child namespace shows it on: the side lacking a
	 * child's reading, or the one lacking the initial one's. */
	bool now = (l == 0) != L->w.initial;
	/* One group whichever side lacks it, as for the machine's size. */
	fold(c, L->w.cause, true, xasprintf("%s visible in a child network namespace%s: the %s side records it as "
					    "%s = %s (%s)", now ? "now" : "no longer", read_only ? " (read-only)" : "",
					    side_name(l), L->w.key, there, L->w.why));
	return true;
}

/* Whether a configuration option (key, a kconfig probe's item) is off
 * on the lacking side's snapshot and on on the other's: "n", or
 * "absent", no option of that kernel (lib/kconfig.h), against "y" or
 * "m".  Then, in words, malloc'd, with why (the source). */
static char *config_explains(const struct aw_snapshot *lacking, const struct aw_snapshot *having,
			     const char *key, int l, const char *why)
{
	const char *lv = witness_value(lacking, key), *pv = witness_value(having, key);
	bool n = lv && strcmp(lv, "n") == 0, absent = lv && strcmp(lv, "absent") == 0;
	bool on = pv && (strcmp(pv, "y") == 0 || strcmp(pv, "m") == 0);
	if (!(n || absent) || !on)
		return NULL;
	if (n)
		return xasprintf("configured out on the %s side: %s = n there, %s on the %s (%s)", side_name(l), key,
				 pv, side_name(!l), why);
	/* Not a choice of n: the kernel has no such option to set (6.1 and
	 * X86_USER_SHADOW_STACK, 6.6), or its dependencies are unmet. */
	const char *opt = strrchr(key, '.');
	char *upper = xstrdup(opt ? opt + 1 : key);
	for (char *p = upper; *p; p++)
		if (*p >= 'a' && *p <= 'z')
			*p = (char)(*p - 'a' + 'A');
	char *words = xasprintf("on the %s side, CONFIG_%s is not an option of this kernel (%s = absent: its "
				"configuration does not name it; no such option, or its dependencies unmet), %s on "
				"the %s (%s)", side_name(l), upper, key, pv, side_name(!l), why);
	free(upper);
	return words;
}

/* The side at index l lacks the knob and has its option off; the other
 * side has it on. */
static bool by_config(struct aw_diff_change *c, const struct side s[2], int l)
{
	char *words = config_explains(s[l].snap, s[!l].snap, s[l].w.key, l, s[l].w.why);
	if (!words)
		return false;
	fold(c, s[l].w.cause, l, words);
	return true;
}

/* Read in a fresh namespace of the probe's: where the run's own
 * namespace (the machine's) has the same value on both sides and a side
 * read another in the fresh one, that namespace's value of its own made
 * the change. */
static bool by_namespace_read(struct aw_diff_change *c, const struct side s[2])
{
	const char *m0 = witness_value(s[0].snap, s[0].w.key), *m1 = witness_value(s[1].snap, s[1].w.key);
	const char *v0 = s[0].entry->rec->value, *v1 = s[1].entry->rec->value;
	if (!m0 || !m1 || strcmp(m0, m1) != 0 || strncmp(m0, "unknown", 7) == 0 ||
	    (strcmp(v0, m0) == 0 && strcmp(v1, m1) == 0))
		return false;
	fold(c, s[1].w.cause, true, xasprintf("read in the probe's fresh namespace, which has a value of its own "
					      "on one side only (%s): %s -> %s there; the machine's (%s, read in the "
					      "run's namespace) is %s on both sides", s[1].w.why, v0, v1, s[1].w.key, m0));
	return true;
}

/* A default a distribution's patch set on the side that carries it,
 * the configuration option that decides it alike on both. */
static bool by_patch(struct aw_diff_change *c, const struct side s[2])
{
	int p = s[0].has && s[0].w.kind == AW_WITNESS_PATCH ? 0 : 1;
	if (!s[p].has || s[p].w.kind != AW_WITNESS_PATCH ||
	    (s[!p].has && s[!p].w.kind == AW_WITNESS_PATCH))
		return false;
	const char *o0 = witness_value(s[0].snap, s[p].w.key), *o1 = witness_value(s[1].snap, s[p].w.key);
	if (!o0 || !o1 || strcmp(o0, o1) != 0)
		return false;
	fold(c, s[p].w.cause, p, xasprintf("the %s side's kernel carries a distribution's patch: %s; the option "
					   "is alike on both sides (%s = %s)", side_name(p), s[p].w.why,
					   s[p].w.key, o0));
	return true;
}

/* The side at index l lacks the knob; the other side's kernel carries
 * the distribution's patch that adds it, and this side's does not. */
static bool by_patch_added(struct aw_diff_change *c, const struct side s[2], int l)
{
	const struct side *P = &s[!l];
	if (s[l].has && s[l].w.kind == AW_WITNESS_PATCH_ADDED)
		return false;
	const char *lv = aw_snapshot_get(s[l].snap, "env.kernel.version");
	fold(c, P->w.cause, l, xasprintf("only the %s side's kernel carries a distribution's patch that adds it: "
					 "%s; the %s side's kernel is another's (%s)", side_name(!l), P->w.why,
					 side_name(l), lv ? lv : "no version recorded"));
	return true;
}

bool aw_diff_explain_by_witness(struct aw_diff_change *c, const struct entry *o, const struct entry *n,
				const struct aw_snapshot *old, const struct aw_snapshot *new)
{
	const struct entry *e = n ? n : o;
	const struct aw_item *it;
	(void)aw_diff_known(e, &it);
	if (!it || !it->witness || !it->witness->find || !old || !new)
		return false;
	struct side s[2] = { { .snap = old, .entry = o }, { .snap = new, .entry = n } };
	for (int i = 0; i < 2; i++)
		s[i].has = it->witness->find(e->rec->name, aw_snapshot_get(s[i].snap, "env.kernel.release"),
					     aw_snapshot_get(s[i].snap, "env.kernel.version"), &s[i].w);
	const struct side *any = s[1].has ? &s[1] : &s[0];
	if (!any->has)
		return false;
	if (any->w.kind == AW_WITNESS_MODULE && strcmp(any->w.key, e->rec->name) == 0)
		return module_record(c, s);
	if (c->old_absent != c->new_absent) {
		int l = c->old_absent ? 0 : 1;
		if (s[!l].has && s[!l].w.kind == AW_WITNESS_PATCH_ADDED)
			return by_patch_added(c, s, l);
		if (!s[l].has)
			return false;
		if (s[l].w.kind == AW_WITNESS_MODULE)
			return by_module(c, s, l);
		if (s[l].w.kind == AW_WITNESS_ELSEWHERE)
			return by_namespace_shown(c, s, l);
		if (s[l].w.kind == AW_WITNESS_CONFIG)
			return by_config(c, s, l);
		return false;
	}
	if (c->kind != AW_DIFF_CHANGED || !o || !n || o->rec->cls != AW_KEY_OBS || n->rec->cls != AW_KEY_OBS)
		return false;
	if (s[0].has && s[1].has && s[0].w.kind == AW_WITNESS_MACHINE && s[1].w.kind == AW_WITNESS_MACHINE)
		return by_namespace_read(c, s);
	return by_patch(c, s);
}

/* ---- the elements of a list ---- */

/* An element on one side only that its witness explains. */
struct explained {
	const char *element;
	int lacking; /* the side without it: 0 old, 1 new */
	struct aw_witness w;
	char *words;
};

/* A list as a value: names comma-joined, "none" for none (as the
 * probes write it). */
static char *join(char *const *v, size_t n)
{
	if (!n)
		return xstrdup("none");
	size_t len = 1;
	for (size_t i = 0; i < n; i++)
		len += strlen(v[i]) + 1;
	char *out = xcalloc(1, len);
	for (size_t i = 0; i < n; i++) {
		if (i)
			strcat(out, ",");
		strcat(out, v[i]);
	}
	return out;
}

/* cur with x taken out where the new side lacks it, or put in after
 * the nearest name before it on the new side (b) that cur has, so that
 * the order the new side gives stays.  cur has room for every element
 * explained. */
static void apply(char ***cur, size_t *n, const struct explained *x, char *const *b, size_t nb)
{
	if (x->lacking) {
		for (size_t i = 0; i < *n; i++)
			if (strcmp((*cur)[i], x->element) == 0) {
				free((*cur)[i]);
				memmove(*cur + i, *cur + i + 1, (*n - i - 1) * sizeof(**cur));
				(*n)--;
				return;
			}
		return;
	}
	size_t at = 0, j = 0;
	while (j < nb && strcmp(b[j], x->element) != 0)
		j++;
	for (size_t k = j; k-- > 0 && !at;)
		for (size_t i = 0; i < *n && !at; i++)
			if (strcmp((*cur)[i], b[k]) == 0)
				at = i + 1;
	memmove(*cur + at + 1, *cur + at, (*n - at) * sizeof(**cur));
	(*cur)[at] = xstrdup(x->element);
	(*n)++;
}

/* The elements on one side only (a's that b lacks when lacking is 1)
 * whose witness, a configuration option, explains them, added to *x. */
static void explain_side(const char *name, const struct aw_witness_rule *rule, char *const *a, size_t na,
			 char *const *b, size_t nb, int lacking, const struct aw_snapshot *snap[2],
			 struct explained **x, size_t *nx)
{
	for (size_t i = 0; i < na; i++) {
		struct aw_witness w;
		memset(&w, 0, sizeof(w));
		if (aw_words_have(b, nb, a[i]) || !rule->find_element(name, a[i], &w) || w.kind != AW_WITNESS_CONFIG)
			continue;
		char *words = config_explains(snap[lacking], snap[!lacking], w.key, lacking, w.why);
		if (!words)
			continue;
		*x = xgrow(*x, *nx, sizeof(**x));
		(*x)[(*nx)++] = (struct explained){ .element = a[i], .lacking = lacking, .w = w, .words = words };
	}
}

static struct aw_diff_change part_of_change(const struct aw_diff_change *c)
{
	struct aw_diff_change p = *c;
	p.name = xstrdup(c->name);
	p.meaning = c->meaning ? xstrdup(c->meaning) : NULL;
	p.object = xstrdup(c->object);
	p.old_value = p.new_value = p.cause = p.cause_key = NULL;
	return p;
}

/* The part of the change that one cause (x[0]'s) explains, from cur to
 * cur with that cause's elements of x applied. */
static struct aw_diff_change fold_part(const struct aw_diff_change *c, char ***cur, size_t *ncur,
				       const struct explained *x, size_t nx, char *const *b, size_t nb)
{
	struct aw_diff_change p = part_of_change(c);
	char *names = xstrdup("");
	p.old_value = join(*cur, *ncur);
	for (size_t i = 0; i < nx; i++) {
		if (strcmp(x[i].w.cause, x[0].w.cause) != 0)
			continue;
		apply(cur, ncur, &x[i], b, nb);
		char *more = xasprintf("%s%s%s", names, *names ? ", " : "", x[i].element);
		free(names);
		names = more;
	}
	p.new_value = join(*cur, *ncur);
	fold(&p, x[0].w.cause, x[0].lacking, xasprintf("%s: %s", names, x[0].words));
	free(names);
	return p;
}

/* What is left of c once its parts are folded: from rest (the old list
 * with every part applied) to the new list, the kernel's; nothing, when
 * rest is the new list, and then c is the first part.  The parts left
 * apart. */
static size_t settle(struct aw_diff_change *c, struct aw_diff_change *parts, size_t np, const char *rest,
		     const char *new_value)
{
	if (strcmp(rest, new_value) == 0) {
		free(c->name);
		free(c->old_value);
		free(c->new_value);
		free(c->meaning);
		free(c->object);
		*c = parts[0];
		memmove(parts, parts + 1, --np * sizeof(*parts));
		return np;
	}
	char *meaning = xasprintf("%s (the old side's list is shown as the new side's configuration would give it: "
				  "what options explain is folded under config:NAME)", c->meaning ? c->meaning : "");
	free(c->meaning);
	c->meaning = meaning;
	free(c->old_value);
	c->old_value = xstrdup(rest);
	return np;
}

size_t aw_diff_explain_elements(struct aw_diff_change *c, const struct entry *o, const struct entry *n,
				const struct aw_snapshot *old, const struct aw_snapshot *new,
				struct aw_diff_change **parts)
{
	const struct aw_item *it = NULL;
	*parts = NULL;
	if (c->cause || c->kind != AW_DIFF_CHANGED || !o || !n || o->rec->cls != AW_KEY_OBS ||
	    n->rec->cls != AW_KEY_OBS || !old || !new)
		return 0;
	(void)aw_diff_known(n, &it);
	if (!it || !it->witness || !it->witness->find_element)
		return 0;
	const struct aw_snapshot *snap[2] = { old, new };
	size_t na, nb, nx = 0, np = 0;
	char **a = aw_diff_list(o->rec->value, &na), **b = aw_diff_list(n->rec->value, &nb);
	struct explained *x = NULL;
	explain_side(n->rec->name, it->witness, a, na, b, nb, 1, snap, &x, &nx);
	explain_side(n->rec->name, it->witness, b, nb, a, na, 0, snap, &x, &nx);
	/* From the old list, one cause at a time, towards the new one: each
	 * part is what its option alone changes; what is left between the
	 * last step and the new list is the kernel's. */
	char **cur = xcalloc(na + nx + 1, sizeof(*cur));
	size_t ncur = na;
	for (size_t i = 0; i < na; i++)
		cur[i] = xstrdup(a[i]);
	for (size_t i = 0; i < nx; i++) {
		bool done = false;
		for (size_t j = 0; j < i && !done; j++)
			done = strcmp(x[j].w.cause, x[i].w.cause) == 0;
		if (done)
			continue;
		*parts = xgrow(*parts, np, sizeof(**parts));
		(*parts)[np++] = fold_part(c, &cur, &ncur, x + i, nx - i, b, nb);
	}
	char *rest = join(cur, ncur);
	if (np)
		np = settle(c, *parts, np, rest, n->rec->value);
	free(rest);
	for (size_t i = 0; i < nx; i++)
		free(x[i].words);
	free(x);
	aw_words_free(cur, ncur);
	aw_words_free(a, na);
	aw_words_free(b, nb);
	return np;
}

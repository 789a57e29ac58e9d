// SPDX-License-Identifier: GPL-2.0-or-later
/* Two snapshots compared (diff.h): the changes, their causes in the
 * environment (which causes.c finds), the objects they are about and
 * their ranks.  What they look like is output/'s (output/diff.h). */
#include "diff.h"
#include "diff_entry.h"
#include "core/registry.h"
#include "lib/util.h"
#include "lib/words.h"

#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>

/* ---- one side's items, by class and name ---- */


/* The key a change is named by: obs.X also for an observation not made. */
static char *change_key(const struct entry *e)
{
	enum aw_key_class cls = e->rec->cls == AW_KEY_UNOBSERVED ? AW_KEY_OBS : e->rec->cls;
	return xasprintf("%s%s", aw_key_class_prefix(cls), e->rec->name);
}

/* obs.X and unobserved.X are one observation X whose state changed. */
static enum aw_diff_class diff_class(enum aw_key_class cls)
{
	switch (cls) {
	case AW_KEY_PROBE: return AW_DIFF_PROBE;
	case AW_KEY_CHECK: return AW_DIFF_CHECK;
	case AW_KEY_OBS:
	case AW_KEY_UNOBSERVED: return AW_DIFF_OBS;
	case AW_KEY_ENV:
	case AW_KEY_OTHER: break;
	}
	return AW_DIFF_OTHER;
}

static int by_class_and_item(const void *a, const void *b)
{
	const struct entry *x = a, *y = b;
	if (x->cls != y->cls)
		return x->cls < y->cls ? -1 : 1;
	return strcmp(x->rec->name, y->rec->name);
}

/* Every record but env.*, sorted for merging. */
static struct entry *entries_of(const struct aw_snapshot *s, size_t *n)
{
	struct entry *e = xcalloc(s->n + 1, sizeof(*e));
	*n = 0;
	for (size_t i = 0; i < s->n; i++)
		if (s->records[i].cls != AW_KEY_ENV)
			e[(*n)++] = (struct entry){ diff_class(s->records[i].cls), &s->records[i] };
	qsort(e, *n, sizeof(*e), by_class_and_item);
	return e;
}

/* ---- what a change is ---- */

/* -1: no change, else the kind. */
static int change_kind(const struct entry *o, const struct entry *n)
{
	if (!o)
		return AW_DIFF_ADDED;
	if (!n)
		return AW_DIFF_REMOVED;
	/* Other keys have no status (NONE): only their values compare. */
	enum aw_status was = o->rec->status, is = n->rec->status;
	if (was == is && strcmp(o->rec->value, n->rec->value) == 0)
		return -1;
	if (was == is)
		return AW_DIFF_CHANGED;
	if (is == AW_ST_SKIP)
		return AW_DIFF_SKIPPED;
	if (was == AW_ST_SKIP)
		return AW_DIFF_UNSKIPPED;
	if (was == AW_ST_PASS && is != AW_ST_NONE)
		return AW_DIFF_REGRESSED;
	if (is == AW_ST_PASS && was != AW_ST_NONE)
		return AW_DIFF_RECOVERED;
	return AW_DIFF_CHANGED;
}

const char *aw_diff_kind_name(enum aw_diff_kind k)
{
	static const char *const names[] = {
		[AW_DIFF_CHANGED] = "changed", [AW_DIFF_ADDED] = "added",
		[AW_DIFF_REMOVED] = "removed", [AW_DIFF_REGRESSED] = "regressed",
		[AW_DIFF_RECOVERED] = "recovered", [AW_DIFF_SKIPPED] = "skipped",
		[AW_DIFF_UNSKIPPED] = "unskipped",
	};
	return names[k];
}

/* ---- the catalogue: meanings and needs of the items this binary knows ---- */

/* What the change means for programs: the item's .change, else its
 * summary; the probe's summary for a probe; NULL when unknown here. */
static char *meaning_of(const struct entry *e)
{
	const struct aw_item *it;
	const struct aw_probe *p = aw_diff_known(e, &it);

	if (e->cls == AW_DIFF_PROBE)
		return p ? xstrdup(p->summary) : NULL;
	if (!it)
		return NULL;
	return xstrdup(it->change ? it->change : it->summary);
}

/* ---- the environment ---- */

/* The elements of a that b lacks, comma-separated, or NULL. */
static char *lacking(char **a, size_t na, char **b, size_t nb)
{
	char *out = NULL;
	for (size_t i = 0; i < na; i++) {
		if (aw_words_have(b, nb, a[i]))
			continue;
		char *more = xasprintf("%s%s%s", out ? out : "", out ? ", " : "", a[i]);
		free(out);
		out = more;
	}
	return out;
}

/* The env.* keys whose values are lists: the rest ("env.i386 = no: a,
 * b") may hold commas in a reason. */
static bool is_list_key(const char *key)
{
	static const char *const lists[] = { "env.caps", "env.cpu_features", "env.fs", "env.probes" };
	for (size_t i = 0; i < AW_ARRAY_SIZE(lists); i++)
		if (strcmp(key, lists[i]) == 0)
			return true;
	return false;
}

/* What a change of an env.* key amounts to, in one line. */
static char *env_summary(const char *key, const char *ov, const char *nv)
{
	if (!ov || !nv || !is_list_key(key) || (!strchr(ov, ',') && !strchr(nv, ',')))
		return NULL; /* shown as OLD -> NEW */
	size_t no, nn;
	char **lo = aw_diff_list(ov, &no), **ln = aw_diff_list(nv, &nn);
	char *lost = lacking(lo, no, ln, nn), *gained = lacking(ln, nn, lo, no);
	char *s = xasprintf("%s%s%s%s%s", lost ? "lost " : "", lost ? lost : "",
			    lost && gained ? "; " : "", gained ? "gained " : "", gained ? gained : "");
	free(lost);
	free(gained);
	aw_words_free(lo, no);
	aw_words_free(ln, nn);
	return s;
}

/* The glob names the dotted name or one of its ancestors ("mqueue.rlimit"
 * leaves out everything below it).  Unlike run's selection, a check's
 * name does not take its probe along: only what is named is left out. */
static bool glob_covers(const char *glob, const char *name)
{
	char *copy = xstrdup(name);
	bool hit = false;
	for (char *dot = copy + strlen(copy); !hit && dot; dot = strrchr(copy, '.')) {
		*dot = '\0';
		hit = fnmatch(glob, copy, 0) == 0;
	}
	free(copy);
	return hit;
}

static bool ignored(const struct aw_diff_opts *o, const char *name, const char *key)
{
	for (size_t i = 0; o && i < o->nignore; i++)
		if (glob_covers(o->ignore[i], name) || fnmatch(o->ignore[i], key, 0) == 0)
			return true;
	return false;
}

static void add_env(struct aw_diff *d, const char *key, const char *ov, const char *nv,
		    bool hidden)
{
	d->env = xgrow(d->env, d->nenv, sizeof(*d->env));
	d->env[d->nenv++] = (struct aw_diff_env){
		.key = xstrdup(key), .old_value = ov ? xstrdup(ov) : NULL,
		.new_value = nv ? xstrdup(nv) : NULL, .summary = env_summary(key, ov, nv),
		.ignored = hidden,
	};
}

/* Every env.* key whose value differs, in key order. */
static void diff_env(const struct aw_snapshot *old, const struct aw_snapshot *new,
		     const struct aw_diff_opts *opts, struct aw_diff *d)
{
	const struct aw_snapshot *sides[2] = { old, new };
	for (int side = 0; side < 2; side++) {
		for (size_t i = 0; i < sides[side]->n; i++) {
			if (sides[side]->records[i].cls != AW_KEY_ENV)
				continue;
			const char *key = sides[side]->records[i].key;
			const char *ov = aw_snapshot_get(old, key), *nv = aw_snapshot_get(new, key);
			if ((side == 1 && ov) ||
			    (ov && nv && strcmp(ov, nv) == 0))
				continue;
			add_env(d, key, ov, nv, ignored(opts, key, key));
		}
	}
}

static int by_env_key(const void *a, const void *b)
{
	return strcmp(((const struct aw_diff_env *)a)->key, ((const struct aw_diff_env *)b)->key);
}

/* Not a key of any snapshot: the probes each side ran, as an env.* list. */

/* The probes a snapshot has a probe.* key for, comma-separated, "none"
 * for none (as env.caps).  Which probes ran (which filesystems, with
 * dirent's --fs) is the user's choice, not the kernel's. */
static char *probes_run(const struct aw_snapshot *s)
{
	char *out = NULL;
	for (size_t i = 0; i < s->n; i++) {
		if (s->records[i].cls != AW_KEY_PROBE)
			continue;
		char *more = xasprintf("%s%s%s", out ? out : "", out ? "," : "",
				       s->records[i].name);
		free(out);
		out = more;
	}
	return out ? out : xstrdup("none");
}

static void diff_probes_run(const struct aw_snapshot *old, const struct aw_snapshot *new,
			    const struct aw_diff_opts *opts, struct aw_diff *d)
{
	if (aw_snapshot_get(old, PROBES_RUN_KEY) || aw_snapshot_get(new, PROBES_RUN_KEY))
		return; /* a newer format's own key of that name wins */
	char *ov = probes_run(old), *nv = probes_run(new);
	if (strcmp(ov, nv) != 0)
		add_env(d, PROBES_RUN_KEY, ov, nv, ignored(opts, PROBES_RUN_KEY, PROBES_RUN_KEY));
	free(ov);
	free(nv);
}

/* Whether the interface is not there on a side: no key, or an
 * observation whose value the item declares to mean that (.absent). */
static bool absent_on(const struct entry *x)
{
	if (!x)
		return true;
	if (x->cls != AW_DIFF_OBS || x->rec->cls != AW_KEY_OBS)
		return false;
	const struct aw_item *it;
	(void)aw_diff_known(x, &it);
	for (const char *const *a = it ? it->absent : NULL; a && *a; a++)
		if (fnmatch(*a, x->rec->value, 0) == 0)
			return true;
	return false;
}

static bool failing(enum aw_status st)
{
	return st == AW_ST_FAIL || st == AW_ST_ERROR || st == AW_ST_TIMEOUT;
}

/* A change the catalogue gives a meaning of its own (not a pattern
 * item's shared line), or a new failure. */
static bool named_change(const struct aw_diff_change *c, const struct entry *e)
{
	if (failing(c->new_status) && c->old_status != c->new_status)
		return true;
	const struct aw_item *it;
	(void)aw_diff_known(e, &it);
	return it && it->change && !aw_item_is_pattern(it);
}

static void add_change(const struct aw_causes *k, struct aw_diff *d, enum aw_diff_kind kind,
		       const struct entry *o, const struct entry *n)
{
	const struct entry *e = n ? n : o;
	struct aw_diff_change c = {
		.cls = e->cls, .kind = kind,
		.name = change_key(e),
		.old_value = o ? xstrdup(o->rec->value) : NULL,
		.new_value = n ? xstrdup(n->rec->value) : NULL,
		.meaning = meaning_of(e),
		.old_status = o ? o->rec->status : AW_ST_NONE,
		.new_status = n ? n->rec->status : AW_ST_NONE,
		.object = aw_diff_object_of(e),
		.old_absent = absent_on(o),
		.new_absent = absent_on(n),
	};
	c.named = named_change(&c, e);
	aw_diff_explain(k, d, &c, o, n);
	struct aw_diff_change *parts = NULL;
	size_t np = c.cause ? 0 : aw_diff_explain_parts(k, &c, o, n, &parts);
	d->changes = xgrow(d->changes, d->n, sizeof(*d->changes));
	d->changes[d->n++] = c;
	for (size_t i = 0; i < np; i++) {
		d->changes = xgrow(d->changes, d->n, sizeof(*d->changes));
		d->changes[d->n++] = parts[i];
	}
	free(parts);
}

static bool entry_ignored(const struct aw_diff_opts *opts, const struct entry *e)
{
	char *key = change_key(e);
	bool hit = ignored(opts, e->rec->name, key);
	free(key);
	return hit;
}

/* Both sides skipped for the same cause of the machine: nothing to
 * compare, whatever else the reasons say (a release name in a path). */
static bool same_cause_skips(const struct entry *o, const struct entry *n)
{
	char a[AW_CAUSE_MAX], b[AW_CAUSE_MAX];
	return aw_diff_named_cause(o, a) && aw_diff_named_cause(n, b) && strcmp(a, b) == 0;
}

/* Merge the two sorted lists, recording each difference. */
static void diff_items(const struct aw_causes *k, const struct entry *o, size_t no,
		       const struct entry *n, size_t nn, const struct aw_diff_opts *opts,
		       struct aw_diff *d)
{
	size_t i = 0, j = 0;
	while (i < no || j < nn) {
		int cmp = i == no ? 1 : j == nn ? -1 : by_class_and_item(&o[i], &n[j]);
		const struct entry *a = cmp <= 0 ? &o[i++] : NULL;
		const struct entry *b = cmp >= 0 ? &n[j++] : NULL;
		int kind = change_kind(a, b);
		if (kind >= 0 && same_cause_skips(a, b))
			continue;
		if (kind >= 0 && !entry_ignored(opts, a ? a : b))
			add_change(k, d, (enum aw_diff_kind)kind, a, b);
	}
}

/* ---- the kernel changes by object, ranked ---- */

static size_t object_index(const struct aw_diff *d, const char *name)
{
	for (size_t i = d->nobjects; i-- > 0;) /* changes come in key order */
		if (strcmp(d->objects[i].name, name) == 0)
			return i;
	return (size_t)-1;
}

static struct aw_diff_family *family_of(struct aw_diff *d, const char *name)
{
	for (size_t i = 0; i < d->nfamilies; i++)
		if (strcmp(d->families[i].name, name) == 0)
			return &d->families[i];
	d->families = xgrow(d->families, d->nfamilies, sizeof(*d->families));
	d->families[d->nfamilies] = (struct aw_diff_family){ .name = xstrdup(name) };
	return &d->families[d->nfamilies++];
}

static size_t family_total(const struct aw_diff_family *f)
{
	return f->changed + f->appeared + f->vanished;
}

/* The most behaviour changes first (what appeared breaks nothing), then
 * the most changes of any kind. */
static int by_family_size(const void *a, const void *b)
{
	const struct aw_diff_family *x = a, *y = b;
	size_t bx = x->changed + x->vanished, by = y->changed + y->vanished;
	if (bx != by)
		return bx > by ? -1 : 1;
	size_t nx = family_total(x), ny = family_total(y);
	if (nx != ny)
		return nx > ny ? -1 : 1;
	return strcmp(x->name, y->name);
}

/* A family's place in d->families, for sorting objects. */
static size_t family_place(const struct aw_diff *d, const char *family)
{
	for (size_t i = 0; i < d->nfamilies; i++)
		if (strcmp(d->families[i].name, family) == 0)
			return i;
	return d->nfamilies;
}

/* qsort_r's comparison: the diff is its argument, not a file's state. */
static int by_rank(const void *a, const void *b, void *diff)
{
	const struct aw_diff *d = diff;
	const struct aw_diff_object *x = a, *y = b;
	if (x->rank != y->rank)
		return x->rank < y->rank ? -1 : 1;
	size_t fx = family_place(d, x->family), fy = family_place(d, y->family);
	if (fx != fy)
		return fx < fy ? -1 : 1;
	return strcmp(x->name, y->name);
}

/* Whether a value reads as an errno ("EINVAL"), as probes report one. */
static bool errno_value(const char *v)
{
	if (!v || v[0] != 'E' || !v[1])
		return false;
	for (const char *p = v + 1; *p; p++)
		if (!(*p >= 'A' && *p <= 'Z') && !(*p >= '0' && *p <= '9'))
			return false;
	return true;
}

/* How much a change can break, for the order of an object's meanings:
 * a new failure; then a break (what worked now answers an errno, or
 * vanished); then a call that answered an errno and now works (what the
 * object's other changes follow from: overlayfs's O_TMPFILE, before
 * what linking one does); then any other. */
static int severity(const struct aw_diff_change *c)
{
	if (failing(c->new_status) && c->old_status != c->new_status)
		return 3;
	if ((!c->old_absent && c->new_absent) || (!errno_value(c->old_value) && errno_value(c->new_value)))
		return 2;
	return errno_value(c->old_value) && !errno_value(c->new_value) ? 1 : 0;
}

/* The part of a change's item below its object ("write_16" of
 * fdio.eventfd), or the item's last component. */
static const char *part_of(const struct aw_diff_change *c, const char *object)
{
	const char *item = strchr(c->name, '.');
	item = item ? item + 1 : c->name;
	size_t n = strlen(object);
	if (strncmp(item, object, n) == 0 && item[n] == '.')
		return item + n + 1;
	const char *last = strrchr(item, '.');
	return last ? last + 1 : item;
}

static bool meaning_listed(const struct aw_diff_change *const *by, size_t n, const char *meaning)
{
	for (size_t k = 0; k < n; k++)
		if (strcmp(by[k]->meaning, meaning) == 0)
			return true;
	return false;
}

/* The meanings of an object's changes.  Where the catalogue names some
 * of them, each of those gives its own, once per distinct meaning, the
 * severest first (the one line of fdio.eventfd held write_16: 8 ->
 * EINVAL, a break, under the meaning of a field that moved); else the
 * first change that has a meaning (a pattern item's shared line) speaks
 * for all. */
static char *object_meaning(const struct aw_diff *d, const struct aw_diff_object *o, bool named)
{
	if (!named) {
		for (size_t i = 0; i < o->n; i++)
			if (d->changes[o->changes[i]].meaning)
				return xstrdup(d->changes[o->changes[i]].meaning);
		return NULL;
	}
	const struct aw_diff_change **by = xcalloc(o->n + 1, sizeof(*by));
	size_t n = 0;
	for (int sev = 3; sev >= 0; sev--)
		for (size_t i = 0; i < o->n; i++) {
			const struct aw_diff_change *c = &d->changes[o->changes[i]];
			if (c->named && c->meaning && severity(c) == sev && !meaning_listed(by, n, c->meaning))
				by[n++] = c;
		}
	char *out = n == 1 ? xstrdup(by[0]->meaning) : NULL;
	for (size_t k = 0; n > 1 && k < n; k++) {
		char *next = xasprintf("%s%s%s: %s", out ? out : "", out ? "; " : "", part_of(by[k], o->name),
				       by[k]->meaning);
		free(out);
		out = next;
	}
	free(by);
	return out;
}

/* Shape, rank and meaning of an object from its changes. */
static void judge_object(const struct aw_diff *d, struct aw_diff_object *o)
{
	bool appeared = true, vanished = true, named = false;
	for (size_t i = 0; i < o->n; i++) {
		const struct aw_diff_change *c = &d->changes[o->changes[i]];
		appeared = appeared && c->old_absent && !c->new_absent;
		vanished = vanished && !c->old_absent && c->new_absent;
		named = named || c->named;
	}
	o->shape = appeared ? AW_SHAPE_APPEARED : vanished ? AW_SHAPE_VANISHED : AW_SHAPE_CHANGED;
	o->rank = appeared ? AW_RANK_APPEARED : vanished || named ? AW_RANK_NAMED : AW_RANK_BEHAVIOUR;
	o->meaning = object_meaning(d, o, named);
}

static void build_objects(struct aw_diff *d)
{
	for (size_t i = 0; i < d->n; i++) {
		const struct aw_diff_change *c = &d->changes[i];
		if (c->cause)
			continue;
		size_t j = object_index(d, c->object);
		if (j == (size_t)-1) {
			d->objects = xgrow(d->objects, d->nobjects, sizeof(*d->objects));
			j = d->nobjects++;
			const char *dot = strchr(c->object, '.');
			d->objects[j] = (struct aw_diff_object){
				.name = xstrdup(c->object),
				.family = dot ? xasprintf("%.*s", (int)(dot - c->object), c->object) : xstrdup(c->object),
			};
		}
		struct aw_diff_object *o = &d->objects[j];
		o->changes = xgrow(o->changes, o->n, sizeof(*o->changes));
		o->changes[o->n++] = i;
	}
	for (size_t i = 0; i < d->nobjects; i++) {
		struct aw_diff_object *o = &d->objects[i];
		judge_object(d, o);
		struct aw_diff_family *f = family_of(d, o->family);
		if (o->shape == AW_SHAPE_APPEARED)
			f->appeared++;
		else if (o->shape == AW_SHAPE_VANISHED)
			f->vanished++;
		else
			f->changed++;
	}
	if (d->nfamilies)
		qsort(d->families, d->nfamilies, sizeof(*d->families), by_family_size);
	if (d->nobjects)
		qsort_r(d->objects, d->nobjects, sizeof(*d->objects), by_rank, d);
}

const char *aw_diff_rank_name(enum aw_diff_rank r)
{
	static const char *const names[] = {
		[AW_RANK_NAMED] = "named", [AW_RANK_BEHAVIOUR] = "behaviour",
		[AW_RANK_APPEARED] = "appeared",
	};
	return names[r];
}

void aw_diff_compute(const struct aw_snapshot *old, const struct aw_snapshot *new,
		     const struct aw_diff_opts *opts, struct aw_diff *d)
{
	size_t no, nn;
	struct entry *eo = entries_of(old, &no), *en = entries_of(new, &nn);

	memset(d, 0, sizeof(*d));
	d->fail_on = opts ? opts->fail_on : AW_GATE_BREAKING;
	d->old_major = old->major;
	d->old_minor = old->minor;
	d->new_major = new->major;
	d->new_minor = new->minor;
	diff_env(old, new, opts, d);
	diff_probes_run(old, new, opts, d);
	if (d->nenv) /* qsort's base must not be NULL, even for nothing */
		qsort(d->env, d->nenv, sizeof(*d->env), by_env_key);
	struct aw_causes *k = aw_diff_causes_begin(old, new, eo, no, en, nn);
	diff_items(k, eo, no, en, nn, opts, d);
	aw_diff_causes_end(k);
	build_objects(d);
	free(eo);
	free(en);
}

bool aw_diff_differs(const struct aw_diff *d)
{
	for (size_t i = 0; i < d->n; i++)
		if (!d->changes[i].cause)
			return true;
	return false;
}

/* A check or probe that did not pass and now does, or that was skipped
 * and now passes: nothing that worked stops working.  (An observation
 * that was not made and now is has a value whose meaning counts.) */
static bool now_works(const struct aw_diff_change *c)
{
	if (c->cls != AW_DIFF_CHECK && c->cls != AW_DIFF_PROBE)
		return false;
	return c->kind == AW_DIFF_RECOVERED ||
	       (c->kind == AW_DIFF_UNSKIPPED && c->new_status == AW_ST_PASS);
}

bool aw_diff_object_fails(const struct aw_diff *d, const struct aw_diff_object *ob)
{
	if (d->fail_on == AW_GATE_NONE)
		return false;
	if (d->fail_on == AW_GATE_ANY)
		return true;
	if (ob->rank == AW_RANK_APPEARED)
		return false;
	for (size_t i = 0; i < ob->n; i++)
		if (!now_works(&d->changes[ob->changes[i]]))
			return true;
	return false;
}

bool aw_diff_fails(const struct aw_diff *d)
{
	for (size_t i = 0; i < d->nobjects; i++)
		if (aw_diff_object_fails(d, &d->objects[i]))
			return true;
	return false;
}

static const char *const gate_names[] = {
	[AW_GATE_BREAKING] = "breaking", [AW_GATE_ANY] = "any", [AW_GATE_NONE] = "none",
};

const char *aw_diff_gate_name(enum aw_diff_gate g)
{
	return gate_names[g];
}

int aw_diff_gate_parse(const char *name, enum aw_diff_gate *g)
{
	for (size_t i = 0; i < sizeof(gate_names) / sizeof(gate_names[0]); i++) {
		if (strcmp(name, gate_names[i]) == 0) {
			*g = (enum aw_diff_gate)i;
			return 0;
		}
	}
	return -1;
}

void aw_diff_free(struct aw_diff *d)
{
	for (size_t i = 0; i < d->nenv; i++) {
		free(d->env[i].key);
		free(d->env[i].old_value);
		free(d->env[i].new_value);
		free(d->env[i].summary);
	}
	for (size_t i = 0; i < d->n; i++) {
		struct aw_diff_change *c = &d->changes[i];
		free(c->name);
		free(c->old_value);
		free(c->new_value);
		free(c->meaning);
		free(c->cause);
		free(c->cause_key);
		free(c->object);
	}
	for (size_t i = 0; i < d->nobjects; i++) {
		free(d->objects[i].name);
		free(d->objects[i].family);
		free(d->objects[i].meaning);
		free(d->objects[i].changes);
	}
	for (size_t i = 0; i < d->nfamilies; i++)
		free(d->families[i].name);
	free(d->objects);
	free(d->families);
	free(d->env);
	free(d->changes);
	memset(d, 0, sizeof(*d));
}

/* ---- the summary: kernel changes, and the rest folded by cause ---- */

size_t aw_diff_kernel_changes(const struct aw_diff *d, size_t *new_failures)
{
	*new_failures = 0;
	for (size_t i = 0; i < d->n; i++) {
		const struct aw_diff_change *c = &d->changes[i];
		if (!c->cause && failing(c->new_status) && c->old_status != c->new_status)
			(*new_failures)++;
	}
	return d->nobjects;
}

size_t aw_diff_kernel_items(const struct aw_diff *d)
{
	size_t n = 0;
	for (size_t i = 0; i < d->n; i++)
		n += !d->changes[i].cause;
	return n;
}

static int by_size_then_cause(const void *a, const void *b)
{
	const struct aw_diff_group *x = a, *y = b;
	if (x->n != y->n)
		return x->n > y->n ? -1 : 1;
	int c = strcmp(x->cause_key, y->cause_key);
	return c ? c : (int)x->new_side - (int)y->new_side;
}

struct aw_diff_group *aw_diff_groups(const struct aw_diff *d, size_t *n)
{
	struct aw_diff_group *g = NULL;
	*n = 0;
	for (size_t i = 0; i < d->n; i++) {
		const struct aw_diff_change *c = &d->changes[i];
		if (!c->cause)
			continue;
		const char *key = c->cause_key ? c->cause_key : "environment";
		size_t j = 0;
		while (j < *n && !(strcmp(g[j].cause_key, key) == 0 && g[j].new_side == c->new_side))
			j++;
		if (j == *n) {
			g = xgrow(g, *n, sizeof(*g));
			g[(*n)++] = (struct aw_diff_group){ .cause_key = key, .new_side = c->new_side };
		}
		g[j].changes = xgrow(g[j].changes, g[j].n, sizeof(*g[j].changes));
		g[j].changes[g[j].n++] = i;
	}
	if (*n)
		qsort(g, *n, sizeof(*g), by_size_then_cause);
	return g;
}

void aw_diff_groups_free(struct aw_diff_group *g, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(g[i].changes);
	free(g);
}

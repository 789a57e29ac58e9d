// SPDX-License-Identifier: GPL-2.0-or-later
/* Two snapshots compared (diff.h): the changes, their causes in the
 * environment, the objects they are about and their ranks.  What they
 * look like is output/'s (output/diff.h). */
#include "diff.h"
#include "core/registry.h"
#include "lib/util.h"
#include "lib/caps.h"
#include "lib/words.h"

#include <ctype.h>
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>

/* ---- one side's items, by class and name ---- */

struct entry {
	enum aw_diff_class cls;
	const struct aw_record *rec;
};

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

/* The probe an item belongs to, and the item of the entry's kind (NULL
 * for a probe's own key, or one this binary does not declare). */
static const struct aw_probe *find_known(const struct entry *e, const struct aw_item **item)
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

/* What the change means for programs: the item's .change, else its
 * summary; the probe's summary for a probe; NULL when unknown here. */
static char *meaning_of(const struct entry *e)
{
	const struct aw_item *it;
	const struct aw_probe *p = find_known(e, &it);

	if (e->cls == AW_DIFF_PROBE)
		return p ? xstrdup(p->summary) : NULL;
	if (!it)
		return NULL;
	return xstrdup(it->change ? it->change : it->summary);
}

/* ---- the environment ---- */

/* A value as a list: comma-separated elements; "none" is the empty list
 * (env.caps without capabilities). */
static char **split_list(const char *v, size_t *n)
{
	return aw_words_split(v && strcmp(v, "none") != 0 ? v : "", ",", n);
}

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
	char **lo = split_list(ov, &no), **ln = split_list(nv, &nn);
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

/* Does text name word as a whole word, ignoring case? */
static bool names_word(const char *text, const char *word)
{
	size_t n = strlen(word);
	if (!text || !n)
		return false;
	for (const char *p = text; (p = strcasestr(p, word)); p++) {
		bool left = p == text || !(isalnum((unsigned char)p[-1]) || p[-1] == '_');
		bool right = !(isalnum((unsigned char)p[n]) || p[n] == '_');
		if (left && right)
			return true;
	}
	return false;
}

/* Does the probe declare that it needs the capability called name? */
static bool probe_needs_cap(const struct aw_probe *p, const char *name)
{
	for (const int *c = p ? p->needs.caps : NULL; c && *c >= 0; c++)
		if (strcasecmp(aw_cap_name(*c), name) == 0)
			return true;
	return false;
}

/* A skip that appears or goes away is the environment's doing when the
 * skipping side lacks an element of an env.* list that the other side has
 * (a capability, a filesystem) and the skip names it, or when it is a
 * capability the probe declares it needs. */
static char *env_cause(const struct aw_diff *d, const struct entry *skipped,
		       bool new_side_skips, char **cause_key)
{
	const struct aw_item *it;
	const struct aw_probe *p = find_known(skipped, &it);
	char *cause = NULL;

	for (size_t i = 0; i < d->nenv && !cause; i++) {
		const struct aw_diff_env *e = &d->env[i];
		size_t nh, nl;
		char **has = split_list(new_side_skips ? e->old_value : e->new_value, &nh);
		char **lacks = split_list(new_side_skips ? e->new_value : e->old_value, &nl);
		for (size_t j = 0; j < nh && !cause; j++) {
			if (aw_words_have(lacks, nl, has[j]))
				continue;
			bool cap = strcmp(e->key, "env.caps") == 0 && probe_needs_cap(p, has[j]);
			if (cap || names_word(skipped->rec->value, has[j])) {
				cause = xasprintf("the %s environment lacks %s (%s)",
						  new_side_skips ? "new" : "old", has[j], e->key);
				*cause_key = strcmp(e->key, "env.fs") == 0 ? xasprintf("fs:%s", has[j])
					     : xstrdup(has[j]);
			}
		}
		aw_words_free(has, nh);
		aw_words_free(lacks, nl);
	}
	return cause;
}

/* ---- which probes each side ran ---- */

/* Not a key of any snapshot: the probes each side ran, as an env.* list. */
#define PROBES_RUN_KEY "env.probes"

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

/* A key that one side has only because that side ran its probe and the
 * other did not is no kernel change: say which probe. */
static char *unrun_cause(const struct aw_diff *d, const struct entry *e, bool new_side_lacks)
{
	const struct aw_diff_env *env = NULL;
	for (size_t i = 0; i < d->nenv; i++)
		if (strcmp(d->env[i].key, PROBES_RUN_KEY) == 0)
			env = &d->env[i];
	if (!env)
		return NULL;
	size_t nran, nlack;
	char **ran = split_list(new_side_lacks ? env->old_value : env->new_value, &nran);
	char **lack = split_list(new_side_lacks ? env->new_value : env->old_value, &nlack);
	char *cause = NULL;
	for (size_t i = 0; i < nran && !cause; i++) {
		size_t n = strlen(ran[i]);
		const char *item = e->rec->name;
		if (!aw_words_have(lack, nlack, ran[i]) && strncmp(item, ran[i], n) == 0 &&
		    (item[n] == '\0' || item[n] == '.'))
			cause = xasprintf("the %s snapshot did not run %s (%s)",
					  new_side_lacks ? "new" : "old", ran[i], PROBES_RUN_KEY);
	}
	aw_words_free(ran, nran);
	aw_words_free(lack, nlack);
	return cause;
}

static const struct aw_diff_env *find_env(const struct aw_diff *d, const char *key)
{
	for (size_t i = 0; i < d->nenv; i++)
		if (strcmp(d->env[i].key, key) == 0)
			return &d->env[i];
	return NULL;
}

/* The env.* key that records whether the machine has a cause's ability;
 * "probes" is diff's own: a probe one side did not run. */
static const char *cause_env_key(const char *cause)
{
	const struct aw_cause *c = aw_cause_find(cause);
	return c ? c->env_key : strcmp(cause, "probes") == 0 ? PROBES_RUN_KEY : "env";
}

/* The cause a side's skip names ("needs i386: ..."), into buf. */
static bool named_cause(const struct entry *e, char buf[AW_CAUSE_MAX])
{
	const char *why;
	return e && e->rec->status == AW_ST_SKIP && aw_reason_cause(e->rec->reason, buf, &why);
}

/* A side that skipped for want of something the machine lacked (a cause
 * of core/status.h) could not compare: never a kernel change, whatever
 * the other side saw.  The new side's cause wins when both name one. */
static bool explain_by_named_cause(struct aw_diff_change *c, const struct entry *o,
				   const struct entry *n)
{
	char buf[AW_CAUSE_MAX];
	bool new_side = named_cause(n, buf);
	if (!new_side && !named_cause(o, buf))
		return false;
	c->cause_key = xstrdup(buf);
	c->new_side = new_side;
	c->cause = xasprintf("the %s side needs %s (%s)", new_side ? "new" : "old", buf,
			     cause_env_key(buf));
	return true;
}

/* A snapshot before causes: a skip whose reason is the refusal env.i386
 * records ("no: REASON") on a side whose machine ran no i386 programs. */
static bool explain_by_i386(const struct aw_diff *d, struct aw_diff_change *c,
			    const struct entry *o, const struct entry *n)
{
	const struct aw_diff_env *e = find_env(d, "env.i386");
	for (int side = 1; e && side >= 0; side--) {
		const struct entry *x = side ? n : o;
		const char *v = side ? e->new_value : e->old_value;
		if (!x || x->rec->status != AW_ST_SKIP || !v || strncmp(v, "no: ", 4) != 0 ||
		    !x->rec->reason || !strstr(x->rec->reason, v + 4))
			continue;
		c->cause_key = xstrdup("i386");
		c->new_side = side;
		c->cause = xasprintf("the %s side runs no i386 programs (env.i386)",
				     side ? "new" : "old");
		return true;
	}
	return false;
}

static const struct aw_snapshot *compared[2]; /* old, new: during aw_diff_compute */

/* What a side recorded of the inputs of the values sized at boot
 * (struct aw_boot_inputs): false for a snapshot without them. */
static bool boot_inputs(const struct aw_snapshot *s, struct aw_boot_inputs *in)
{
	const char *mem = aw_snapshot_get(s, "env.memory"), *page = aw_snapshot_get(s, "env.page_size");
	char *end;
	if (!mem || !page)
		return false;
	unsigned long long bytes = strtoull(mem, &end, 10);
	if (*end || !isdigit((unsigned char)*mem))
		return false;
	in->page_size = strtoull(page, &end, 10);
	if (*end || !isdigit((unsigned char)*page) || in->page_size < 1024)
		return false;
	in->pages = bytes / in->page_size;
	return true;
}

enum sizing_verdict { SIZING_UNDECLARED, SIZING_FITS, SIZING_KERNEL };

/* A value the kernel sized at boot (.sizing): when the declared formula
 * gives both sides' values for what each side recorded, the same
 * formula had other inputs; when it cannot give one of them, the
 * formula changed, whatever the memory. */
static enum sizing_verdict explain_by_sizing(const struct aw_item *it, struct aw_diff_change *c,
					     const struct entry *o, const struct entry *n)
{
	struct aw_boot_inputs in[2];
	const struct entry *side[2] = { o, n };
	if (!it->sizing || !boot_inputs(compared[0], &in[0]) || !boot_inputs(compared[1], &in[1]))
		return SIZING_UNDECLARED;
	for (int i = 0; i < 2; i++)
		if (side[i]->rec->status != AW_ST_PASS || !it->sizing->fits(side[i]->rec->value, &in[i]))
			return SIZING_KERNEL;
	c->cause_key = xstrdup("sized");
	c->new_side = true;
	c->cause = xasprintf("sized at boot by the same formula from other inputs: %s; %s; both values "
			     "fit (%llu -> %llu pages of %llu B)", it->sizing->formula, it->sizing->unread,
			     in[0].pages, in[1].pages, in[1].page_size);
	return SIZING_FITS;
}

/* A side whose machine lacks what the item follows ("no: ..." in
 * env.pmu): the item shows the lack, not the kernel's interface. */
static bool explain_by_lack(struct aw_diff_change *c, const char *cause, const char *key)
{
	const struct aw_cause *ca = aw_cause_find(cause);
	for (int side = 1; ca && !ca->sized && side >= 0; side--) {
		const char *v = aw_snapshot_get(compared[side], key);
		if (!v || strncmp(v, "no", 2) != 0)
			continue;
		c->cause_key = xstrdup(cause);
		c->new_side = side;
		c->cause = xasprintf("the %s side's machine lacks what it follows (%s: %s)",
				     side ? "new" : "old", key, v);
		return true;
	}
	return false;
}

/* Where the part of the machine an item follows (env.PART) differs:
 * the machine's doing, said so in c. */
static bool explain_by_env(const struct aw_diff *d, struct aw_diff_change *c, const char *part)
{
	char *key = xasprintf("env.%s", part);
	const struct aw_diff_env *env = find_env(d, key);
	bool lacks = !env && explain_by_lack(c, part, key);
	free(key);
	if (lacks)
		return true;
	if (!env || !env->old_value || !env->new_value)
		return false;
	c->cause_key = xstrdup(part);
	c->new_side = true;
	c->cause = xasprintf("follows the machine's %s, which differs (%s: %s -> %s)",
			     part, env->key, env->old_value, env->new_value);
	return true;
}

/* An observation declared to follow the machine (.varies_with) changed
 * where that side of the machine differs, or one side lacks it: the
 * machine's doing.  One sized at boot by a declared formula follows the
 * formula instead; a value the formula cannot give may still be a
 * running machine's setting (env.setup). */
static bool explain_by_machine_size(const struct aw_diff *d, struct aw_diff_change *c,
				    const struct entry *o, const struct entry *n)
{
	const struct aw_item *it;
	const struct entry *e = n ? n : o;
	(void)find_known(e, &it);
	if (!it || !it->varies_with || c->kind != AW_DIFF_CHANGED || e->cls != AW_DIFF_OBS)
		return false;
	switch (explain_by_sizing(it, c, o, n)) {
	case SIZING_FITS:
		return true;
	case SIZING_KERNEL:
		return explain_by_env(d, c, "setup");
	case SIZING_UNDECLARED:
		break;
	}
	return explain_by_env(d, c, it->varies_with);
}

/* The objects each side skipped for a cause of the machine: a key of
 * one the side lacks, of a pattern item (whose names are known only
 * where it could be observed: cgroup.v2's child.*.value beside
 * child_files, skipped outside a guest), is that cause's doing, not an
 * interface that vanished. */
struct skipped_object {
	char *object;    /* or, for a probe skipped whole, the probe */
	bool whole_probe;
	char cause[AW_CAUSE_MAX];
};

struct skipped_objects {
	struct skipped_object *v;
	size_t n;
};

static struct skipped_objects skipped_by_side[2]; /* old, new: during aw_diff_compute */

static char *object_of(const struct entry *e);
static bool named_cause(const struct entry *e, char buf[AW_CAUSE_MAX]);

static void collect_skipped(const struct entry *e, size_t n, struct skipped_objects *out)
{
	char buf[AW_CAUSE_MAX];
	for (size_t i = 0; i < n; i++) {
		if (!named_cause(&e[i], buf))
			continue;
		out->v = xgrow(out->v, out->n, sizeof(*out->v));
		/* A probe the runner skipped whole (net.initns outside a VM
		 * guest) reported none of its pattern items' names. */
		out->v[out->n].whole_probe = e[i].cls == AW_DIFF_PROBE;
		out->v[out->n].object = e[i].cls == AW_DIFF_PROBE ? xstrdup(e[i].rec->name)
								 : object_of(&e[i]);
		memcpy(out->v[out->n].cause, buf, sizeof(buf));
		out->n++;
	}
}

static void free_skipped(struct skipped_objects *s)
{
	for (size_t i = 0; i < s->n; i++)
		free(s->v[i].object);
	free(s->v);
	memset(s, 0, sizeof(*s));
}

static const char *object_skip_cause(bool new_side, const char *object)
{
	const struct skipped_objects *s = &skipped_by_side[new_side];
	for (size_t i = 0; i < s->n; i++) {
		size_t len = strlen(s->v[i].object);
		if (strcmp(s->v[i].object, object) == 0 ||
		    (s->v[i].whole_probe && strncmp(s->v[i].object, object, len) == 0 &&
		     object[len] == '.'))
			return s->v[i].cause;
	}
	return NULL;
}

/* Why the environment, not the kernel, made the change; nothing when
 * the kernel did. */
static void explain(const struct aw_diff *d, struct aw_diff_change *c, const struct entry *o,
		    const struct entry *n)
{
	const struct entry *e = n ? n : o;
	/* An item one side has only because that side ran its probe: the
	 * run's doing first, whatever the other side's skip said. */
	if (c->kind == AW_DIFF_ADDED || c->kind == AW_DIFF_REMOVED) {
		c->new_side = c->kind == AW_DIFF_REMOVED;
		c->cause = unrun_cause(d, e, c->new_side);
		c->cause_key = c->cause ? xstrdup("probes") : NULL;
		if (c->cause)
			return;
		const struct aw_item *it;
		(void)find_known(e, &it);
		const char *why = it && aw_item_is_pattern(it) ? object_skip_cause(c->new_side, c->object)
							       : NULL;
		if (why) {
			c->cause_key = xstrdup(why);
			c->cause = xasprintf("the %s side skipped %s: it needs %s (%s)",
					     c->new_side ? "new" : "old", c->object, why, cause_env_key(why));
			return;
		}
	}
	if (explain_by_named_cause(c, o, n) || explain_by_i386(d, c, o, n) ||
	    explain_by_machine_size(d, c, o, n))
		return;
	if (c->kind == AW_DIFF_SKIPPED || c->kind == AW_DIFF_UNSKIPPED) {
		c->new_side = c->kind == AW_DIFF_SKIPPED;
		c->cause = env_cause(d, c->new_side ? n : o, c->new_side, &c->cause_key);
	}
}

/* ---- objects: what a change is about, and whether it is there ---- */

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
static char *object_of(const struct entry *e)
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
	(void)find_known(e, &it);
	if (it && it->object)
		return *it->object ? xasprintf("%.*s.%s", (int)plen, name, it->object) : cut(name, plen);
	const char *dot = strrchr(name + plen + 1, '.');
	return cut(name, dot ? (size_t)(dot - name) : plen);
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
	(void)find_known(x, &it);
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
	(void)find_known(e, &it);
	return it && it->change && !aw_item_is_pattern(it);
}

static void add_change(struct aw_diff *d, enum aw_diff_kind kind,
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
		.object = object_of(e),
		.old_absent = absent_on(o),
		.new_absent = absent_on(n),
	};
	c.named = named_change(&c, e);
	explain(d, &c, o, n);
	d->changes = xgrow(d->changes, d->n, sizeof(*d->changes));
	d->changes[d->n++] = c;
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
	return named_cause(o, a) && named_cause(n, b) && strcmp(a, b) == 0;
}

/* Merge the two sorted lists, recording each difference. */
static void diff_items(const struct entry *o, size_t no, const struct entry *n, size_t nn,
		       const struct aw_diff_opts *opts, struct aw_diff *d)
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
			add_change(d, (enum aw_diff_kind)kind, a, b);
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

/* The families in the order of d->families, for sorting objects. */
static const struct aw_diff *sorting;

static size_t family_place(const char *family)
{
	for (size_t i = 0; i < sorting->nfamilies; i++)
		if (strcmp(sorting->families[i].name, family) == 0)
			return i;
	return sorting->nfamilies;
}

static int by_rank(const void *a, const void *b)
{
	const struct aw_diff_object *x = a, *y = b;
	if (x->rank != y->rank)
		return x->rank < y->rank ? -1 : 1;
	size_t fx = family_place(x->family), fy = family_place(y->family);
	if (fx != fy)
		return fx < fy ? -1 : 1;
	return strcmp(x->name, y->name);
}

/* Shape, rank and meaning of an object from its changes. */
static void judge_object(const struct aw_diff *d, struct aw_diff_object *o)
{
	bool appeared = true, vanished = true, named = false;
	const struct aw_diff_change *best = NULL;
	for (size_t i = 0; i < o->n; i++) {
		const struct aw_diff_change *c = &d->changes[o->changes[i]];
		appeared = appeared && c->old_absent && !c->new_absent;
		vanished = vanished && !c->old_absent && c->new_absent;
		if (c->named && !named)
			best = c;
		named = named || c->named;
		if (!best && c->meaning)
			best = c;
	}
	o->shape = appeared ? AW_SHAPE_APPEARED : vanished ? AW_SHAPE_VANISHED : AW_SHAPE_CHANGED;
	o->rank = appeared ? AW_RANK_APPEARED : vanished || named ? AW_RANK_NAMED : AW_RANK_BEHAVIOUR;
	o->meaning = best ? best->meaning : NULL;
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
				.family = dot ? cut(c->object, (size_t)(dot - c->object)) : xstrdup(c->object),
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
	sorting = d;
	if (d->nobjects)
		qsort(d->objects, d->nobjects, sizeof(*d->objects), by_rank);
	sorting = NULL;
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
	d->old_major = old->major;
	d->old_minor = old->minor;
	d->new_major = new->major;
	d->new_minor = new->minor;
	diff_env(old, new, opts, d);
	diff_probes_run(old, new, opts, d);
	if (d->nenv) /* qsort's base must not be NULL, even for nothing */
		qsort(d->env, d->nenv, sizeof(*d->env), by_env_key);
	compared[0] = old;
	compared[1] = new;
	collect_skipped(eo, no, &skipped_by_side[0]);
	collect_skipped(en, nn, &skipped_by_side[1]);
	diff_items(eo, no, en, nn, opts, d);
	free_skipped(&skipped_by_side[0]);
	free_skipped(&skipped_by_side[1]);
	compared[0] = compared[1] = NULL;
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

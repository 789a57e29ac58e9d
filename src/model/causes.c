// SPDX-License-Identifier: GPL-2.0-or-later
/* Why a change is the environment's, not the kernel's: a cause a skip
 * names, i386 programs, a capability, a filesystem, the machine's size,
 * a probe one side did not run.  aw_diff_compute() asks each change. */
#include "diff_entry.h"
#include "core/registry.h"
#include "lib/util.h"
#include "lib/caps.h"
#include "lib/words.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

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
	const struct aw_probe *p = aw_diff_known(skipped, &it);
	char *cause = NULL;

	for (size_t i = 0; i < d->nenv && !cause; i++) {
		const struct aw_diff_env *e = &d->env[i];
		size_t nh, nl;
		char **has = aw_diff_list(new_side_skips ? e->old_value : e->new_value, &nh);
		char **lacks = aw_diff_list(new_side_skips ? e->new_value : e->old_value, &nl);
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
	char **ran = aw_diff_list(new_side_lacks ? env->old_value : env->new_value, &nran);
	char **lack = aw_diff_list(new_side_lacks ? env->new_value : env->old_value, &nlack);
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
bool aw_diff_named_cause(const struct entry *e, char buf[AW_CAUSE_MAX])
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
	bool new_side = aw_diff_named_cause(n, buf);
	if (!new_side && !aw_diff_named_cause(o, buf))
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

/* What one diff's questions read, from begin to end: each diff has its
 * own, so that two diffs in one process (a matrix's neighbours) share
 * nothing. */
struct aw_causes {
	const struct aw_snapshot *compared[2]; /* old, new */
	struct skipped_objects skipped[2];     /* old, new */
};

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
static enum sizing_verdict explain_by_sizing(const struct aw_causes *k, const struct aw_item *it, struct aw_diff_change *c,
					     const struct entry *o, const struct entry *n)
{
	struct aw_boot_inputs in[2];
	const struct entry *side[2] = { o, n };
	if (!it->sizing || !boot_inputs(k->compared[0], &in[0]) ||
	    !boot_inputs(k->compared[1], &in[1]))
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
static bool explain_by_lack(const struct aw_causes *k, struct aw_diff_change *c, const char *cause, const char *key)
{
	const struct aw_cause *ca = aw_cause_find(cause);
	for (int side = 1; ca && !ca->sized && side >= 0; side--) {
		const char *v = aw_snapshot_get(k->compared[side], key);
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
static bool explain_by_env(const struct aw_causes *k, const struct aw_diff *d,
			   struct aw_diff_change *c, const char *part)
{
	char *key = xasprintf("env.%s", part);
	const struct aw_diff_env *env = find_env(d, key);
	bool lacks = !env && explain_by_lack(k, c, part, key);
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
static bool explain_by_machine_size(const struct aw_causes *k, const struct aw_diff *d, struct aw_diff_change *c,
				    const struct entry *o, const struct entry *n)
{
	const struct aw_item *it;
	const struct entry *e = n ? n : o;
	(void)aw_diff_known(e, &it);
	if (!it || !it->varies_with || c->kind != AW_DIFF_CHANGED || e->cls != AW_DIFF_OBS)
		return false;
	switch (explain_by_sizing(k, it, c, o, n)) {
	case SIZING_FITS:
		return true;
	case SIZING_KERNEL:
		return explain_by_env(k, d, c, "setup");
	case SIZING_UNDECLARED:
		break;
	}
	return explain_by_env(k, d, c, it->varies_with);
}


static void collect_skipped(const struct entry *e, size_t n, struct skipped_objects *out)
{
	char buf[AW_CAUSE_MAX];
	for (size_t i = 0; i < n; i++) {
		if (!aw_diff_named_cause(&e[i], buf))
			continue;
		out->v = xgrow(out->v, out->n, sizeof(*out->v));
		/* A probe the runner skipped whole (net.initns outside a VM
		 * guest) reported none of its pattern items' names. */
		out->v[out->n].whole_probe = e[i].cls == AW_DIFF_PROBE;
		out->v[out->n].object = e[i].cls == AW_DIFF_PROBE ? xstrdup(e[i].rec->name)
								 : aw_diff_object_of(&e[i]);
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

static const char *object_skip_cause(const struct aw_causes *k, bool new_side, const char *object)
{
	const struct skipped_objects *s = &k->skipped[new_side];
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
void aw_diff_explain(const struct aw_causes *k, const struct aw_diff *d, struct aw_diff_change *c, const struct entry *o,
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
		(void)aw_diff_known(e, &it);
		const char *why = it && aw_item_is_pattern(it) ? object_skip_cause(k, c->new_side,
										  c->object)
							       : NULL;
		if (why) {
			c->cause_key = xstrdup(why);
			c->cause = xasprintf("the %s side skipped %s: it needs %s (%s)",
					     c->new_side ? "new" : "old", c->object, why, cause_env_key(why));
			return;
		}
	}
	if (explain_by_named_cause(c, o, n) || explain_by_i386(d, c, o, n) ||
	    aw_diff_explain_by_witness(c, o, n, k->compared[0], k->compared[1]) ||
	    explain_by_machine_size(k, d, c, o, n))
		return;
	if (c->kind == AW_DIFF_SKIPPED || c->kind == AW_DIFF_UNSKIPPED) {
		c->new_side = c->kind == AW_DIFF_SKIPPED;
		c->cause = env_cause(d, c->new_side ? n : o, c->new_side, &c->cause_key);
	}
}

size_t aw_diff_explain_parts(const struct aw_causes *k, struct aw_diff_change *c, const struct entry *o,
			     const struct entry *n, struct aw_diff_change **parts)
{
	return aw_diff_explain_elements(c, o, n, k->compared[0], k->compared[1], parts);
}

/* ---- objects: what a change is about, and whether it is there ---- */

struct aw_causes *aw_diff_causes_begin(const struct aw_snapshot *old, const struct aw_snapshot *new,
				       const struct entry *eo, size_t no, const struct entry *en,
				       size_t nn)
{
	struct aw_causes *k = xcalloc(1, sizeof(*k));
	k->compared[0] = old;
	k->compared[1] = new;
	collect_skipped(eo, no, &k->skipped[0]);
	collect_skipped(en, nn, &k->skipped[1]);
	return k;
}

void aw_diff_causes_end(struct aw_causes *k)
{
	free_skipped(&k->skipped[0]);
	free_skipped(&k->skipped[1]);
	free(k);
}

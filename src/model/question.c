// SPDX-License-Identifier: GPL-2.0-or-later
/* The question of a bisect, and each snapshot's answer (model/question.h). */
#include "question.h"
#include "core/registry.h"
#include "lib/util.h"

#include <stdlib.h>
#include <string.h>

static void add_probe(struct aw_question *q, const struct aw_probe_ref *ref)
{
	char buf[256];
	q->probes = xgrow(q->probes, q->nprobes, sizeof(*q->probes));
	q->probes[q->nprobes++] = xstrdup(aw_probe_fullname(ref, buf, sizeof(buf)));
}

/* The item a snapshot key names: "obs.sysctl.knob.x" as a snapshot
 * writes it, or "sysctl.knob.x" as the catalogue does.  *kind: the class
 * the prefix claims (0 for none, 'c' check, 'o' observation). */
static const char *item_of_key(const char *name, char *kind)
{
	static const struct {
		enum aw_key_class cls;
		char kind;
	} keys[] = { { AW_KEY_CHECK, 'c' }, { AW_KEY_OBS, 'o' }, { AW_KEY_UNOBSERVED, 'o' } };
	*kind = 0;
	for (size_t i = 0; i < AW_ARRAY_SIZE(keys); i++) {
		const char *prefix = aw_key_class_prefix(keys[i].cls);
		size_t n = strlen(prefix);
		if (strncmp(name, prefix, n) == 0 && aw_catalogue_find(name + n)) {
			*kind = keys[i].kind;
			return name + n;
		}
	}
	return name;
}

int aw_question_item(const char *key, struct aw_question *q, char **err)
{
	memset(q, 0, sizeof(*q));
	char claimed;
	const char *name = item_of_key(key, &claimed);
	if (strpbrk(name, "*?[")) {
		*err = xasprintf("'%s': name one item, not a pattern (an assumptions file can "
				 "quantify over several)", key);
		return -1;
	}
	const struct aw_catalogue_entry *e = aw_catalogue_find(name);
	if (!e) {
		*err = xasprintf("'%s': no such item (abiwatch list -v shows them)", key);
		return -1;
	}
	if (!e->item) {
		*err = xasprintf("'%s' is a %s, not an item: name one of its checks or "
				 "observations (abiwatch list -v %s)", name,
				 e->ref.probe ? "probe" : "family", name);
		return -1;
	}
	bool check = e->item->kind == AW_CHECK;
	if (claimed && check != (claimed == 'c')) {
		*err = xasprintf("'%s': %s is %s, its key is %s%s", key, name,
				 check ? "a check" : "an observation", check ? "check." : "obs.", name);
		return -1;
	}
	q->item = xstrdup(name);
	q->check = check;
	add_probe(q, &e->ref);
	return 0;
}

int aw_question_assumptions(const char *path, struct aw_question *q, char **err)
{
	memset(q, 0, sizeof(*q));
	if (aw_assume_load(path, &q->rules, err) != 0)
		return -1;
	q->assumptions = xstrdup(path);
	size_t n;
	struct aw_probe_ref *refs = aw_assume_probes(&q->rules, &n);
	for (size_t i = 0; i < n; i++)
		add_probe(q, &refs[i]);
	free(refs);
	if (q->nprobes == 0) {
		*err = xasprintf("%s: no rule names an item this abiwatch knows, so no kernel "
				 "could answer", path);
		aw_question_free(q);
		return -1;
	}
	return 0;
}

void aw_question_free(struct aw_question *q)
{
	free(q->item);
	if (q->assumptions)
		aw_assume_free(&q->rules);
	free(q->assumptions);
	for (size_t i = 0; i < q->nprobes; i++)
		free(q->probes[i]);
	free(q->probes);
	memset(q, 0, sizeof(*q));
}

char *aw_question_describe(const struct aw_question *q)
{
	if (q->item)
		return xasprintf("the %s %s", q->check ? "check" : "observation", q->item);
	return xasprintf("the assumptions in %s", q->assumptions);
}

/* Why the item is not in the snapshot: its probe's end, when that was
 * not a plain run. */
static char *missing_item(const struct aw_question *q, const struct aw_snapshot *s)
{
	const struct aw_record *p = aw_snapshot_find(s, AW_KEY_PROBE, q->probes[0]);
	if (!p)
		return xasprintf("the probe %s did not run", q->probes[0]);
	if (p->status != AW_ST_PASS)
		return xasprintf("the probe %s: %s", q->probes[0], p->value);
	return xstrdup("not reported");
}

static void item_answer(const struct aw_question *q, const struct aw_snapshot *s,
			struct aw_answer *a)
{
	const struct aw_record *r = q->check ? aw_snapshot_find(s, AW_KEY_CHECK, q->item)
					     : aw_snapshot_observation(s, q->item);
	if (!r) {
		a->value = missing_item(q, s);
		return;
	}
	a->value = xstrdup(r->value);
	if (q->check)
		a->known = r->status == AW_ST_PASS || r->status == AW_ST_FAIL;
	else
		a->known = r->cls == AW_KEY_OBS;
}

/* "FILE:LINE: condition", one line per rule of that verdict. */
static char *rules_of(const struct aw_question *q, const struct aw_rule_result *res,
		      enum aw_verdict v, size_t *count)
{
	char *text = NULL;
	*count = 0;
	for (size_t i = 0; i < q->rules.n; i++) {
		if (res[i].verdict != v)
			continue;
		const struct aw_rule *r = &q->rules.rules[i];
		const char *why = v == AW_UNKNOWN && res[i].ndetails ? res[i].details[0] : NULL;
		char *line = xasprintf("%s%s%s:%u: %s%s%s", text ? text : "", text ? "\n" : "",
				       q->assumptions, r->line, r->condition, why ? ": " : "",
				       why ? why : "");
		free(text);
		text = line;
		(*count)++;
	}
	return text;
}

/* Broken when a rule is, held when every rule is, else unknown: as the
 * exit status of `abiwatch check` (1, 0, 4). */
static void assumptions_answer(const struct aw_question *q, const struct aw_snapshot *s,
			       struct aw_answer *a)
{
	struct aw_rule_result *res = xcalloc(q->rules.n ? q->rules.n : 1, sizeof(*res));
	for (size_t i = 0; i < q->rules.n; i++)
		aw_rule_eval(&q->rules.rules[i], s, &res[i]);
	size_t broken, unknown;
	char *broken_rules = rules_of(q, res, AW_BROKEN, &broken);
	char *unknown_rules = rules_of(q, res, AW_UNKNOWN, &unknown);
	if (broken) {
		a->known = true;
		a->value = xstrdup("broken");
		a->detail = broken_rules;
		broken_rules = NULL;
	} else if (unknown) {
		a->value = xasprintf("%zu rule%s unknown: %s", unknown, unknown == 1 ? "" : "s",
				     unknown_rules);
	} else {
		a->known = true;
		a->value = xstrdup("held");
	}
	free(broken_rules);
	free(unknown_rules);
	for (size_t i = 0; i < q->rules.n; i++)
		aw_rule_result_free(&res[i]);
	free(res);
}

void aw_question_answer(const struct aw_question *q, const struct aw_snapshot *s,
			struct aw_answer *a)
{
	memset(a, 0, sizeof(*a));
	if (q->item)
		item_answer(q, s, a);
	else
		assumptions_answer(q, s, a);
}

bool aw_answer_same(const struct aw_answer *a, const struct aw_answer *b)
{
	return a->known && b->known && strcmp(a->value, b->value) == 0;
}

void aw_answer_free(struct aw_answer *a)
{
	free(a->value);
	free(a->detail);
	memset(a, 0, sizeof(*a));
}

bool aw_question_covered(const struct aw_question *q, const struct aw_snapshot *s)
{
	for (size_t i = 0; i < q->nprobes; i++)
		if (!aw_snapshot_find(s, AW_KEY_PROBE, q->probes[i]))
			return false;
	return true;
}

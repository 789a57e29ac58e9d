// SPDX-License-Identifier: GPL-2.0-or-later
#include "result.h"
#include "lib/util.h"

#include <stdlib.h>
#include <string.h>

static struct aw_item_result *add_result(struct aw_probe_result *r, const struct aw_item *item,
					 const char *name)
{
	r->items = xgrow(r->items, r->nitems, sizeof(*r->items));
	r->items[r->nitems] = (struct aw_item_result){
		.item = item, .fullname = xasprintf("%s.%s", r->fullname, name),
	};
	return &r->items[r->nitems++];
}

/* A slot for each specific item; a pattern item gets one per name it
 * covers, as they are reported. */
void aw_probe_result_init(struct aw_probe_result *r, const struct aw_probe_ref *ref)
{
	char name[512];

	memset(r, 0, sizeof(*r));
	r->ref = *ref;
	r->fullname = xstrdup(aw_probe_fullname(ref, name, sizeof(name)));
	for (const struct aw_item *it = ref->probe->items; it->name; it++)
		if (!aw_item_is_pattern(it))
			add_result(r, it, it->name);
}

struct aw_item_result *aw_probe_result_item(struct aw_probe_result *r,
					    const char *name)
{
	const struct aw_item *item = aw_probe_item(r->ref.probe, name);
	size_t plen = strlen(r->fullname);

	if (!item)
		return NULL;
	for (size_t i = 0; i < r->nitems; i++)
		if (r->items[i].item == item && strcmp(r->items[i].fullname + plen + 1, name) == 0)
			return &r->items[i];
	return aw_item_is_pattern(item) ? add_result(r, item, name) : NULL;
}

void aw_item_set(struct aw_item_result *it, enum aw_status st, const char *text)
{
	if (it->status != AW_ST_NONE && aw_status_worse(it->status, st) == it->status &&
	    it->status != st)
		return;
	free(it->text);
	it->status = st;
	it->text = text ? xstrdup(text) : NULL;
}

void aw_probe_result_note(struct aw_probe_result *r, const char *text)
{
	r->notes = xgrow(r->notes, r->nnotes, sizeof(*r->notes));
	r->notes[r->nnotes++] = xstrdup(text);
}

void aw_probe_result_settle(struct aw_probe_result *r, enum aw_status st,
			    const char *reason)
{
	for (size_t i = 0; i < r->nitems; i++)
		if (r->items[i].status == AW_ST_NONE)
			aw_item_set(&r->items[i], st, reason);
}

void aw_probe_result_void(struct aw_probe_result *r, const char *reason)
{
	for (size_t i = 0; i < r->nitems; i++)
		aw_item_set(&r->items[i], AW_ST_ERROR, reason);
	if (aw_status_worse(r->status, AW_ST_ERROR) == AW_ST_ERROR) {
		r->status = AW_ST_ERROR;
		free(r->reason);
		r->reason = xstrdup(reason);
	}
}

static void probe_result_free(struct aw_probe_result *r)
{
	for (size_t i = 0; i < r->nitems; i++) {
		free(r->items[i].fullname);
		free(r->items[i].text);
	}
	for (size_t i = 0; i < r->nnotes; i++)
		free(r->notes[i]);
	free(r->items);
	free(r->notes);
	free(r->fullname);
	free(r->reason);
}

void aw_probe_result_reset(struct aw_probe_result *r, const struct aw_probe_ref *ref)
{
	probe_result_free(r);
	aw_probe_result_init(r, ref);
}

void aw_run_free(struct aw_run *run)
{
	for (size_t i = 0; i < run->nprobes; i++)
		probe_result_free(&run->probes[i]);
	free(run->probes);
	aw_env_free(&run->env);
	memset(run, 0, sizeof(*run));
}

struct aw_totals aw_run_totals(const struct aw_run *run)
{
	struct aw_totals t = { 0 };
	for (size_t p = 0; p < run->nprobes; p++) {
		const struct aw_probe_result *r = &run->probes[p];
		for (size_t i = 0; i < r->nitems; i++) {
			const struct aw_item_result *it = &r->items[i];
			bool obs = it->item->kind == AW_OBSERVATION;
			switch (it->status) {
			case AW_ST_PASS: obs ? t.observed++ : t.pass++; break;
			case AW_ST_SKIP: t.skip++; break;
			case AW_ST_FAIL: t.fail++; break;
			case AW_ST_NONE:
			case AW_ST_ERROR:
			case AW_ST_TIMEOUT: t.error++; break;
			}
		}
	}
	return t;
}

int aw_run_exit_status(const struct aw_run *run)
{
	struct aw_totals t = aw_run_totals(run);
	bool broken = false;
	for (size_t p = 0; p < run->nprobes; p++)
		if (run->probes[p].status != AW_ST_PASS && run->probes[p].status != AW_ST_SKIP)
			broken = true;
	if (t.fail || t.error || broken)
		return AW_EXIT_FAIL;
	if (t.pass == 0 && t.observed == 0)
		return AW_EXIT_SKIP;
	return AW_EXIT_PASS;
}

// SPDX-License-Identifier: GPL-2.0-or-later
/* The run as JSON, written with json-c. */
#include "output.h"
#include "lib/util.h"

#include <json-c/json.h>
#include <string.h>

static void add_str(json_object *o, const char *key, const char *value)
{
	if (value)
		json_object_object_add(o, key, json_object_new_string(value));
}

static json_object *item_json(const struct aw_item_result *it)
{
	json_object *o = json_object_new_object();
	bool obs = it->item->kind == AW_OBSERVATION;
	add_str(o, "name", it->fullname);
	add_str(o, "kind", obs ? "observation" : "check");
	add_str(o, "status", aw_status_word(it->status, obs ? AW_OF_OBSERVATION : AW_OF_CHECK));
	add_str(o, obs && it->status == AW_ST_PASS ? "value" : "reason", it->text);
	return o;
}

static json_object *probe_json(const struct aw_probe_result *r)
{
	json_object *o = json_object_new_object();
	json_object *items = json_object_new_array();
	json_object *notes = json_object_new_array();

	add_str(o, "name", r->fullname);
	add_str(o, "summary", r->ref.probe->summary);
	add_str(o, "status", aw_status_word(r->status, AW_OF_PROBE));
	add_str(o, "reason", r->reason);
	json_object_object_add(o, "seconds", json_object_new_double(r->seconds));
	for (size_t i = 0; i < r->nitems; i++)
		json_object_array_add(items, item_json(&r->items[i]));
	for (size_t i = 0; i < r->nnotes; i++)
		json_object_array_add(notes, json_object_new_string(r->notes[i]));
	json_object_object_add(o, "items", items);
	json_object_object_add(o, "notes", notes);
	return o;
}

static json_object *totals_json(const struct aw_run *run)
{
	struct aw_totals t = aw_run_totals(run);
	json_object *o = json_object_new_object();
	json_object_object_add(o, "pass", json_object_new_int64((int64_t)t.pass));
	json_object_object_add(o, "fail", json_object_new_int64((int64_t)t.fail));
	json_object_object_add(o, "skip", json_object_new_int64((int64_t)t.skip));
	json_object_object_add(o, "error", json_object_new_int64((int64_t)t.error));
	json_object_object_add(o, "observed", json_object_new_int64((int64_t)t.observed));
	return o;
}

int aw_json_report(FILE *out, const struct aw_run *run)
{
	json_object *root = json_object_new_object();
	json_object *env = json_object_new_object();
	json_object *probes = json_object_new_array();

	json_object_object_add(root, "format", json_object_new_string("abiwatch-run-1"));
	for (size_t i = 0; i < run->env.n; i++)
		add_str(env, run->env.entries[i].key, run->env.entries[i].value);
	json_object_object_add(root, "environment", env);
	for (size_t p = 0; p < run->nprobes; p++)
		json_object_array_add(probes, probe_json(&run->probes[p]));
	json_object_object_add(root, "probes", probes);
	json_object_object_add(root, "totals", totals_json(run));
	json_object_object_add(root, "exit_status", json_object_new_int(aw_run_exit_status(run)));

	const char *s = json_object_to_json_string_ext(root, JSON_C_TO_STRING_PRETTY |
						       JSON_C_TO_STRING_NOSLASHESCAPE);
	int rc = fputs(s, out) < 0 || fputc('\n', out) == EOF ? -1 : 0;
	json_object_put(root);
	return rc;
}

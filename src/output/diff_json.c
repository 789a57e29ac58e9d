// SPDX-License-Identifier: GPL-2.0-or-later
/* abiwatch diff as JSON (abiwatch-diff-1), written with json-c. */
#include "diff.h"
#include "lib/util.h"

#include <json-c/json.h>
#include <stdint.h>
#include <stdlib.h>

static void put_str(json_object *o, const char *key, const char *value)
{
	json_object_object_add(o, key, value ? json_object_new_string(value) : NULL);
}

static json_object *side_json(const char *file, unsigned major, unsigned minor)
{
	json_object *o = json_object_new_object();
	char *f = xasprintf("%u.%u", major, minor);
	put_str(o, "file", file);
	put_str(o, "format", f);
	free(f);
	return o;
}

static json_object *change_json(const struct aw_diff_change *c)
{
	static const char *const classes[] = {
		[AW_DIFF_PROBE] = "probe", [AW_DIFF_CHECK] = "check",
		[AW_DIFF_OBS] = "observation", [AW_DIFF_OTHER] = "other",
	};
	json_object *o = json_object_new_object();
	put_str(o, "name", c->name);
	put_str(o, "class", classes[c->cls]);
	put_str(o, "change", aw_diff_kind_name(c->kind));
	put_str(o, "old", c->old_value);
	put_str(o, "new", c->new_value);
	put_str(o, "meaning", c->meaning);
	put_str(o, "explained_by_environment", c->cause);
	put_str(o, "cause", c->cause ? (c->cause_key ? c->cause_key : "environment") : NULL);
	put_str(o, "cause_side", c->cause ? (c->new_side ? "new" : "old") : NULL);
	put_str(o, "object", c->cause ? NULL : c->object);
	return o;
}

static const char *shape_name(enum aw_diff_shape s)
{
	return s == AW_SHAPE_APPEARED ? "appeared" : s == AW_SHAPE_VANISHED ? "vanished" : "changed";
}

/* An object: its rank, shape, meaning, line and the names of its changes. */
static json_object *object_json(const struct aw_diff *d, const struct aw_diff_object *o)
{
	json_object *j = json_object_new_object(), *names = json_object_new_array();
	char *line = aw_diff_object_line(d, o);
	put_str(j, "object", o->name);
	put_str(j, "family", o->family);
	put_str(j, "rank", aw_diff_rank_name(o->rank));
	put_str(j, "shape", shape_name(o->shape));
	put_str(j, "change", aw_diff_object_kind(d, o));
	put_str(j, "meaning", o->meaning);
	put_str(j, "line", line);
	json_object_object_add(j, "fails", json_object_new_boolean(aw_diff_object_fails(d, o)));
	for (size_t i = 0; i < o->n; i++)
		json_object_array_add(names, json_object_new_string(d->changes[o->changes[i]].name));
	json_object_object_add(j, "changes", names);
	free(line);
	return j;
}

/* The counts of the summary line, and one entry per cause and side. */
static json_object *summary_json(const struct aw_diff *d)
{
	json_object *o = json_object_new_object(), *causes = json_object_new_array();
	size_t failures, kernel = aw_diff_kernel_changes(d, &failures), ng;
	struct aw_diff_group *g = aw_diff_groups(d, &ng);
	char *line = aw_diff_summary(d);

	put_str(o, "line", line);
	json_object_object_add(o, "kernel_changes", json_object_new_int64((int64_t)kernel));
	json_object_object_add(o, "new_failures", json_object_new_int64((int64_t)failures));
	size_t items = aw_diff_kernel_items(d);
	json_object_object_add(o, "kernel_change_items", json_object_new_int64((int64_t)items));
	json_object_object_add(o, "not_comparable", json_object_new_int64((int64_t)(d->n - items)));
	json_object *fams = json_object_new_array();
	for (size_t i = 0; i < d->nfamilies; i++) {
		const struct aw_diff_family *f = &d->families[i];
		json_object *fo = json_object_new_object();
		put_str(fo, "family", f->name);
		json_object_object_add(fo, "changed", json_object_new_int64((int64_t)f->changed));
		json_object_object_add(fo, "appeared", json_object_new_int64((int64_t)f->appeared));
		json_object_object_add(fo, "vanished", json_object_new_int64((int64_t)f->vanished));
		json_object_array_add(fams, fo);
	}
	json_object_object_add(o, "families", fams);
	for (size_t i = 0; i < ng; i++) {
		json_object *c = json_object_new_object();
		char *label = aw_diff_group_label(&g[i]);
		put_str(c, "cause", g[i].cause_key);
		put_str(c, "side", g[i].new_side ? "new" : "old");
		json_object_object_add(c, "count", json_object_new_int64((int64_t)g[i].n));
		put_str(c, "label", label);
		json_object_array_add(causes, c);
		free(label);
	}
	json_object_object_add(o, "causes", causes);
	free(line);
	aw_diff_groups_free(g, ng);
	return o;
}

void aw_diff_json(FILE *out, const struct aw_diff *d, const char *on, const char *nn, bool verbose)
{
	(void)verbose;
	json_object *root = json_object_new_object();
	json_object *env = json_object_new_array(), *changes = json_object_new_array();

	put_str(root, "format", "abiwatch-diff-1");
	json_object_object_add(root, "old", side_json(on, d->old_major, d->old_minor));
	json_object_object_add(root, "new", side_json(nn, d->new_major, d->new_minor));
	for (size_t i = 0; i < d->nenv; i++) {
		if (d->env[i].ignored)
			continue;
		json_object *e = json_object_new_object();
		put_str(e, "key", d->env[i].key);
		put_str(e, "old", d->env[i].old_value);
		put_str(e, "new", d->env[i].new_value);
		put_str(e, "summary", d->env[i].summary);
		json_object_array_add(env, e);
	}
	for (size_t i = 0; i < d->n; i++)
		json_object_array_add(changes, change_json(&d->changes[i]));
	json_object_object_add(root, "environment", env);
	json_object_object_add(root, "changes", changes);
	json_object *objects = json_object_new_array();
	for (size_t i = 0; i < d->nobjects; i++)
		json_object_array_add(objects, object_json(d, &d->objects[i]));
	json_object_object_add(root, "objects", objects);
	json_object_object_add(root, "different", json_object_new_boolean(aw_diff_differs(d)));
	put_str(root, "fail_on", aw_diff_gate_name(d->fail_on));
	json_object_object_add(root, "fails", json_object_new_boolean(aw_diff_fails(d)));
	json_object_object_add(root, "summary", summary_json(d));
	const char *s = json_object_to_json_string_ext(root, JSON_C_TO_STRING_PRETTY |
						       JSON_C_TO_STRING_NOSLASHESCAPE);
	/* A write error shows in ferror(out), which the caller asks. */
	fputs(s, out);
	fputc('\n', out);
	json_object_put(root);
}


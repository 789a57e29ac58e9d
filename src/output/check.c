// SPDX-License-Identifier: GPL-2.0-or-later
/* What abiwatch check writes: each rule held, broken or unknown, as text
 * for people, KTAP for harnesses, JSON (abiwatch-check-1) for programs. */
#include "format.h"
#include "output.h"
#include "lib/util.h"

#include <json-c/json.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* "held", "broken", "unknown", or "unknown (i386)" when the machine
 * caused it (malloc'd). */
static char *verdict_words(const struct aw_rule_result *res)
{
	if (res->verdict == AW_UNKNOWN && res->cause)
		return xasprintf("unknown (%s)", res->cause);
	return xstrdup(aw_verdict_name(res->verdict));
}

static void text_rule(FILE *out, const char *file, const struct aw_rule *r,
		      const struct aw_rule_result *res)
{
	char *message = aw_escape(r->message); /* one line, whatever it holds */
	char *verdict = verdict_words(res);
	fprintf(out, "%-8s %s:%u: %s\n", verdict, file, r->line, r->condition);
	free(verdict);
	fprintf(out, "%9s%s\n", "", message);
	free(message);
	for (size_t i = 0; i < res->ndetails; i++)
		fprintf(out, "%9s%s\n", "", res->details[i]);
}

void aw_check_text(FILE *out, const struct aw_checked *c)
{
	size_t n = c->as->n;
	for (size_t i = 0; i < n; i++)
		text_rule(out, c->assumptions, &c->as->rules[i], &c->results[i]);
	fprintf(out, "%zu rule%s: %zu held, %zu broken, %zu unknown\n", n, n == 1 ? "" : "s",
		c->totals[AW_HELD], c->totals[AW_BROKEN], c->totals[AW_UNKNOWN]);
}

/* A KTAP name: the file's base name and the rule's line, space-free. */
static char *ktap_name(const char *file, unsigned line)
{
	const char *base = strrchr(file, '/') ? strrchr(file, '/') + 1 : file;
	char *name = xasprintf("%s:%u", base, line);
	for (char *c = name; *c; c++)
		if (*c == ' ' || *c == '#' || (unsigned char)*c < 0x21 || (unsigned char)*c > 0x7e)
			*c = '_';
	return name;
}

static void ktap_rule(FILE *out, const char *file, size_t no, const struct aw_rule *r,
		      const struct aw_rule_result *res)
{
	char *name = ktap_name(file, r->line), *message = aw_escape(r->message);
	fprintf(out, "# %s:%u: %s\n# %s\n", file, r->line, r->condition, message);
	free(message);
	for (size_t i = 0; i < res->ndetails; i++)
		fprintf(out, "# %s\n", res->details[i]);
	if (res->verdict == AW_HELD)
		fprintf(out, "ok %zu %s\n", no, name);
	else if (res->verdict == AW_BROKEN)
		fprintf(out, "not ok %zu %s\n", no, name);
	else
		fprintf(out, "ok %zu %s # SKIP unknown%s%s%s: %s\n", no, name, res->cause ? " (" : "",
			res->cause ? res->cause : "", res->cause ? ")" : "",
			res->ndetails ? res->details[0] : "");
	free(name);
}

void aw_check_ktap(FILE *out, const struct aw_checked *c)
{
	aw_ktap_header(out, c->as->n);
	for (size_t i = 0; i < c->as->n; i++)
		ktap_rule(out, c->assumptions, i + 1, &c->as->rules[i], &c->results[i]);
}

static json_object *rule_json(const struct aw_rule *r, const struct aw_rule_result *res)
{
	json_object *o = json_object_new_object(), *details = json_object_new_array();
	json_object_object_add(o, "line", json_object_new_int((int)r->line));
	json_object_object_add(o, "condition", json_object_new_string(r->condition));
	json_object_object_add(o, "message", json_object_new_string(r->message));
	json_object_object_add(o, "verdict", json_object_new_string(aw_verdict_name(res->verdict)));
	json_object_object_add(o, "cause", res->cause ? json_object_new_string(res->cause) : NULL);
	for (size_t i = 0; i < res->ndetails; i++)
		json_object_array_add(details, json_object_new_string(res->details[i]));
	json_object_object_add(o, "details", details);
	return o;
}

void aw_check_json(FILE *out, const struct aw_checked *c)
{
	json_object *root = json_object_new_object(), *tot = json_object_new_object();
	json_object *rules = json_object_new_array();
	for (size_t i = 0; i < c->as->n; i++)
		json_object_array_add(rules, rule_json(&c->as->rules[i], &c->results[i]));
	json_object_object_add(root, "format", json_object_new_string("abiwatch-check-1"));
	json_object_object_add(root, "assumptions", json_object_new_string(c->assumptions));
	json_object_object_add(root, "snapshot",
			       c->snapshot ? json_object_new_string(c->snapshot) : NULL);
	json_object_object_add(root, "rules", rules);
	for (int v = AW_HELD; v <= AW_UNKNOWN; v++)
		json_object_object_add(tot, aw_verdict_name((enum aw_verdict)v),
				       json_object_new_int64((int64_t)c->totals[v]));
	json_object_object_add(root, "totals", tot);
	json_object_object_add(root, "exit_status", json_object_new_int(c->exit_status));
	fprintf(out, "%s\n", json_object_to_json_string_ext(root, JSON_C_TO_STRING_PRETTY |
							    JSON_C_TO_STRING_NOSLASHESCAPE));
	json_object_put(root);
}

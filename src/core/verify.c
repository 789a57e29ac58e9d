// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The tables' consistency ("abiwatch list --verify", the unit tests):
 * families, probes, items and family options.  Above both the registry
 * (which finds the tables) and the family options (params.c, which spell
 * and check them), so that neither depends on the other both ways.
 */
#include "verify.h"
#include "registry.h"
#include "params.h"
#include "status.h"
#include "lib/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool valid_name(const char *s, bool dots_ok)
{
	if (!s || !*s || *s == '.')
		return false;
	for (const char *p = s; *p; p++) {
		bool star = dots_ok && *p == '*' && (p == s || p[-1] == '.') &&
			    (!p[1] || p[1] == '.');
		bool ok = (*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') ||
			  *p == '_' || *p == '-' || star ||
			  (dots_ok && *p == '.' && p[1] && p[1] != '.');
		if (!ok)
			return false;
	}
	return true;
}

/* A formula (.sizing) is checked against env.memory: the item must say
 * it follows memory, and the formula must be complete. */
static bool sizing_ok(const struct aw_item *a)
{
	const struct aw_sizing *z = a->sizing;
	return a->kind == AW_OBSERVATION && a->varies_with && strcmp(a->varies_with, "memory") == 0 &&
	       z->formula && *z->formula && z->unread && *z->unread && z->fits;
}

static int verify_probe(const struct aw_family *f, const struct aw_probe *p)
{
	int bad = 0;
	if (!valid_name(p->name, false) || !p->summary || !p->run || !p->items) {
		fprintf(stderr, "%s: probe '%s': bad name, summary, run or items\n",
			f->name, p->name ? p->name : "(null)");
		return 1;
	}
	const struct aw_param *scale = p->timeout_param ? aw_family_param(f, p->timeout_param) : NULL;
	if (p->timeout_param && (!scale || scale->type != AW_PARAM_INT || !scale->dflt ||
				 !(p->timeout_per_unit_s > 0))) {
		fprintf(stderr, "%s.%s: its timeout grows with '%s', which must be a number option "
			"of the family with a default, by a time per unit above 0\n", f->name,
			p->name, p->timeout_param);
		bad++;
	}
	for (const struct aw_item *a = p->items; a->name; a++) {
		if (a->unit && (a->kind != AW_OBSERVATION || !*a->unit)) {
			fprintf(stderr, "%s.%s: item '%s': a unit is for an observation, and not empty\n",
				f->name, p->name, a->name);
			bad++;
		}
		if (a->vm_guest && (!*a->vm_guest || aw_item_is_pattern(a))) {
			fprintf(stderr, "%s.%s: item '%s': a need of the VM guest says why, and is "
				"not for a pattern item (no name of its own to skip)\n",
				f->name, p->name, a->name);
			bad++;
		}
		if (a->sizing && !sizing_ok(a)) {
			fprintf(stderr, "%s.%s: item '%s': a formula is for an observation that "
				"follows memory, with its words, its unread input and fits()\n",
				f->name, p->name, a->name);
			bad++;
		}
		if (a->varies_with && !aw_cause_find(a->varies_with)) {
			fprintf(stderr, "%s.%s: item '%s': varies with '%s', no cause of core/status.c\n",
				f->name, p->name, a->name, a->varies_with);
			bad++;
		}
		if (!valid_name(a->name, true) || !a->summary || !*a->summary) {
			fprintf(stderr, "%s.%s: item '%s': bad name or no summary\n",
				f->name, p->name, a->name);
			bad++;
		}
		for (const struct aw_item *b = a + 1; b->name; b++) {
			if (strcmp(a->name, b->name) == 0 || aw_item_name_matches(a->name, b->name)) {
				fprintf(stderr, "%s.%s: item '%s' declared twice, or after "
					"'%s', which covers it\n", f->name, p->name, b->name, a->name);
				bad++;
			}
		}
	}
	return bad;
}

/* Whether the command-line spelling s (without "--") names an option
 * other than p of family f: a core option, another family option's
 * --FAMILY-NAME or alias. */
static bool spelling_taken(const char *s, const struct aw_family *f, const struct aw_param *p)
{
	static const char *const core[] = { "output", "format", "timeout", "help" };
	for (size_t i = 0; i < AW_ARRAY_SIZE(core); i++)
		if (strcmp(core[i], s) == 0)
			return true;
	const struct aw_family *const *fams;
	size_t nfam = aw_families(&fams);
	for (size_t g = 0; g < nfam; g++)
		for (const struct aw_param *q = fams[g]->params; q && q->name; q++) {
			if (q == p && fams[g] == f)
				continue;
			char *other = aw_param_spelling(fams[g], q);
			bool same = strcmp(other, s) == 0 || (q->alias && strcmp(q->alias, s) == 0);
			free(other);
			if (same)
				return true;
		}
	return false;
}

/* A family option must be documented, do one thing, and be the only
 * option of its spellings (--FAMILY-NAME and its alias) in the program. */
static int verify_params(const struct aw_family *f)
{
	int bad = 0;
	for (const struct aw_param *p = f->params; p && p->name; p++) {
		char *opt = aw_param_spelling(f, p), *why = NULL;
		if (!valid_name(p->name, false) || (p->alias && !valid_name(p->alias, false)) ||
		    !p->metavar || !p->help || (p->selects && p->instantiate)) {
			fprintf(stderr, "%s: option --%s: bad name or alias, no metavar or help, or "
				"both selects and instantiates\n", f->name, opt);
			bad++;
		} else if (spelling_taken(opt, f, p) || (p->alias && spelling_taken(p->alias, f, p))) {
			fprintf(stderr, "%s: option --%s (alias %s) is spelled like another option\n",
				f->name, opt, p->alias ? p->alias : "none");
			bad++;
		} else if (aw_param_check_declared(f, p, &why) != 0) {
			fprintf(stderr, "%s: %s\n", f->name, why);
			free(why);
			bad++;
		}
		free(opt);
	}
	return bad;
}

int aw_registry_verify(void)
{
	const struct aw_family *const *fams;
	size_t nfam = aw_families(&fams);
	int bad = 0;

	for (size_t f = 0; f < nfam; f++) {
		if (!valid_name(fams[f]->name, false) || !fams[f]->summary) {
			fprintf(stderr, "family '%s': bad name or no summary\n",
				fams[f]->name);
			bad++;
		}
		if (f > 0 && strcmp(fams[f - 1]->name, fams[f]->name) == 0) {
			fprintf(stderr, "family '%s' registered twice\n", fams[f]->name);
			bad++;
		}
		bad += verify_params(fams[f]);
		const struct aw_probe *const *probes;
		size_t np = aw_family_probes(fams[f], &probes);
		for (size_t p = 0; p < np; p++) {
			bad += verify_probe(fams[f], probes[p]);
			for (size_t q = p + 1; q < np; q++) {
				if (strcmp(probes[p]->name, probes[q]->name) == 0) {
					fprintf(stderr, "%s: probe '%s' declared twice\n",
						fams[f]->name, probes[p]->name);
					bad++;
				}
			}
		}
	}
	return bad;
}

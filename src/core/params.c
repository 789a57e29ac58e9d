// SPDX-License-Identifier: GPL-2.0-or-later
#include "params.h"
#include "context.h"
#include "util.h"

#include <errno.h>
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>

const struct aw_params *aw_current_params;

const struct aw_param *aw_param_find(const char *name, const struct aw_family **family)
{
	const struct aw_family *const *fams;
	size_t n = aw_families(&fams);
	for (size_t f = 0; f < n; f++) {
		for (const struct aw_param *p = fams[f]->params; p && p->name; p++) {
			if (strcmp(p->name, name) == 0) {
				*family = fams[f];
				return p;
			}
		}
	}
	return NULL;
}

int aw_params_add(struct aw_params *ps, const char *name, const char *value, char **why)
{
	const struct aw_family *fam;
	const struct aw_param *p = aw_param_find(name, &fam);
	if (!p) {
		*why = xasprintf("no family takes --%s", name);
		return -1;
	}
	if (p->check && p->check(value, why) != 0)
		return -1;
	ps->v = xrealloc(ps->v, (ps->n + 1) * sizeof(*ps->v));
	ps->v[ps->n++] = (struct aw_param_value){ fam, p, value };
	return 0;
}

const char *aw_params_get(const struct aw_params *ps, const char *name)
{
	for (size_t i = ps ? ps->n : 0; i-- > 0;)
		if (strcmp(ps->v[i].param->name, name) == 0)
			return ps->v[i].value;
	return NULL;
}

/* Does any comma-separated name in list name this probe? */
static bool listed(const char *list, const char *probe)
{
	char *copy = xstrdup(list), *save = NULL;
	bool hit = false;
	for (char *t = strtok_r(copy, ",", &save); t && !hit; t = strtok_r(NULL, ",", &save))
		hit = fnmatch(t, probe, 0) == 0;
	free(copy);
	return hit;
}

static bool family_selected(const struct aw_family *f, const struct aw_probe_ref *refs, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (refs[i].family == f)
			return true;
	return false;
}

/* Every name in the list must name one of the family's probes. */
static int check_listed(const struct aw_param_value *v, char **why)
{
	char *copy = xstrdup(v->value), *save = NULL;
	int rc = 0;
	for (char *t = strtok_r(copy, ",", &save); t && !rc; t = strtok_r(NULL, ",", &save)) {
		const struct aw_probe *const *probes;
		size_t np = aw_family_probes(v->family, &probes);
		bool found = false;
		for (size_t i = 0; i < np && !found; i++)
			found = fnmatch(t, probes[i]->name, 0) == 0;
		if (!found) {
			*why = xasprintf("--%s: the %s family has no probe '%s' (see 'abiwatch list %s')",
					 v->param->name, v->family->name, t, v->family->name);
			rc = -1;
		}
	}
	free(copy);
	return rc;
}

static void narrow(const struct aw_param_value *v, struct aw_probe_ref *refs, size_t *n)
{
	size_t kept = 0;
	for (size_t i = 0; i < *n; i++)
		if (refs[i].family != v->family || listed(v->value, refs[i].probe->name))
			refs[kept++] = refs[i];
	*n = kept;
}

/* Keep each family's probes together, in their order, families sorted:
 * the order KTAP's nesting needs. */
static void group_by_family(struct aw_probe_ref *refs, size_t n)
{
	for (size_t i = 1; i < n; i++) {
		struct aw_probe_ref r = refs[i];
		size_t j = i;
		while (j > 0 && strcmp(refs[j - 1].family->name, r.family->name) > 0) {
			refs[j] = refs[j - 1];
			j--;
		}
		refs[j] = r;
	}
}

/* Selecting options narrow the declared probes; the probes instantiating
 * ones make are added afterwards, so that the order of the options does
 * not matter and --fs never drops a --path probe. */
int aw_params_apply(struct aw_params *ps, struct aw_probe_ref **refs, size_t *n, char **why)
{
	for (size_t i = 0; i < ps->n; i++) {
		const struct aw_param_value *v = &ps->v[i];
		if (!v->param->selects)
			continue;
		if (!family_selected(v->family, *refs, *n)) {
			*why = xasprintf("--%s is an option of the %s family, which nothing "
					 "selected here runs", v->param->name, v->family->name);
			return -1;
		}
		if (check_listed(v, why) != 0)
			return -1;
		narrow(v, *refs, n);
	}
	for (size_t i = 0; i < ps->n; i++) {
		const struct aw_param_value *v = &ps->v[i];
		if (v->param->instantiate) {
			struct aw_probe *p = v->param->instantiate(v->value, why);
			if (!p)
				return -1;
			ps->made = xrealloc(ps->made, (ps->nmade + 1) * sizeof(*ps->made));
			ps->made[ps->nmade++] = (struct aw_made){ v->param, p };
			*refs = xrealloc(*refs, (*n + 1) * sizeof(**refs));
			(*refs)[(*n)++] = (struct aw_probe_ref){ v->family, p };
		}
	}
	group_by_family(*refs, *n);
	return 0;
}

void aw_params_free(struct aw_params *ps)
{
	for (size_t i = 0; i < ps->nmade; i++)
		if (ps->made[i].param->release)
			ps->made[i].param->release(ps->made[i].probe);
	free(ps->made);
	free(ps->v);
	memset(ps, 0, sizeof(*ps));
}

const char *aw_param(const struct aw_ctx *ctx, const char *name)
{
	(void)ctx;
	return aw_params_get(aw_current_params, name);
}

long long aw_param_long(const struct aw_ctx *ctx, const char *name, long long dflt)
{
	const char *v = aw_param(ctx, name);
	if (!v)
		return dflt;
	errno = 0;
	char *end;
	long long x = strtoll(v, &end, 0);
	return errno || end == v || *end ? dflt : x;
}

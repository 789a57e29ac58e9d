// SPDX-License-Identifier: GPL-2.0-or-later
/* Family options: see params.h and struct aw_param in probe.h. */
#include "params.h"
#include "context.h"
#include "lib/util.h"

#include <ctype.h>
#include <errno.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

char *aw_param_spelling(const struct aw_family *fam, const struct aw_param *p)
{
	return xasprintf("%s-%s", fam->name, p->name);
}

/* Whether spelling is --FAMILY-NAME of p, or its alias. */
static bool spelled(const char *spelling, const struct aw_family *fam, const struct aw_param *p)
{
	size_t fl = strlen(fam->name);
	return (strncmp(spelling, fam->name, fl) == 0 && spelling[fl] == '-' &&
		strcmp(spelling + fl + 1, p->name) == 0) ||
	       (p->alias && strcmp(spelling, p->alias) == 0);
}

const struct aw_param *aw_param_find(const char *spelling, const struct aw_family **family)
{
	const struct aw_family *const *fams;
	size_t n = aw_families(&fams);
	for (size_t f = 0; f < n; f++) {
		for (const struct aw_param *p = fams[f]->params; p && p->name; p++) {
			if (spelled(spelling, fams[f], p)) {
				*family = fams[f];
				return p;
			}
		}
	}
	return NULL;
}

const struct aw_param *aw_family_param(const struct aw_family *fam, const char *name)
{
	for (const struct aw_param *p = fam ? fam->params : NULL; p && p->name; p++)
		if (strcmp(p->name, name) == 0)
			return p;
	return NULL;
}

/* ---- checking a value against its declaration ---- */

/* "a, b or c", malloc'd. */
static char *word_list(const char *const *words)
{
	char *s = xstrdup("");
	for (size_t i = 0; words && words[i]; i++) {
		const char *sep = i == 0 ? "" : words[i + 1] ? ", " : " or ";
		char *t = xasprintf("%s%s%s", s, sep, words[i]);
		free(s);
		s = t;
	}
	return s;
}

/* The index of word (len bytes) in words, or -1. */
static int word_index(const char *const *words, const char *word, size_t len)
{
	for (int i = 0; words && words[i]; i++)
		if (strlen(words[i]) == len && strncmp(words[i], word, len) == 0)
			return i;
	return -1;
}

static int parse_int(const struct aw_param *p, const char *value, long long *num, char **why)
{
	/* Digits as written, maybe after a '-': no blanks, no '+', no hex. */
	const char *digits = value + (value[0] == '-');
	char *end = NULL;
	long long v = 0;
	errno = 0;
	if (isdigit((unsigned char)*digits))
		v = strtoll(value, &end, 10);
	if (!end || errno || *end || v < p->minval || v > p->maxval) {
		*why = xasprintf("expected a whole number from %lld to %lld", p->minval, p->maxval);
		return -1;
	}
	*num = v;
	return 0;
}

static int parse_enum(const struct aw_param *p, const char *value, long long *num, char **why)
{
	int i = word_index(p->words, value, strlen(value));
	if (i < 0) {
		char *words = word_list(p->words);
		*why = xasprintf("expected %s", words);
		free(words);
		return -1;
	}
	*num = i;
	return 0;
}

/* Whether name (len bytes) is a glob matching a probe of the family. */
static bool names_probe(const struct aw_family *fam, const char *name, size_t len)
{
	const struct aw_probe *const *probes;
	size_t np = aw_family_probes(fam, &probes);
	char *glob = xasprintf("%.*s", (int)len, name);
	bool found = false;
	for (size_t i = 0; i < np && !found; i++)
		found = fnmatch(glob, probes[i]->name, 0) == 0;
	free(glob);
	return found;
}

/* Each comma-separated name a glob of the family's probes. */
static int check_list(const struct aw_family *fam, const struct aw_param *p, const char *value,
		      char **why)
{
	for (const char *name = value;; name++) {
		size_t len = strcspn(name, ",");
		if (len == 0)
			*why = xasprintf("expected %s, without an empty name", p->metavar);
		else if (!names_probe(fam, name, len))
			*why = xasprintf("the %s family has no probe '%.*s' (see 'abiwatch list %s')",
					 fam->name, (int)len, name, fam->name);
		if (*why)
			return -1;
		name += len;
		if (!*name)
			return 0;
	}
}

static int check_value(const struct aw_family *fam, const struct aw_param *p, const char *value,
		       long long *num, char **why)
{
	*num = 0;
	*why = NULL;
	switch (p->type) {
	case AW_PARAM_INT:
		return parse_int(p, value, num, why);
	case AW_PARAM_ENUM:
		return parse_enum(p, value, num, why);
	case AW_PARAM_LIST:
		return check_list(fam, p, value, why);
	case AW_PARAM_TEXT:
		break;
	}
	return 0;
}

int aw_param_check_declared(const struct aw_family *fam, const struct aw_param *p, char **why)
{
	char *opt = aw_param_spelling(fam, p);
	long long num;
	*why = NULL;
	if (aw_family_param(fam, p->name) != p)
		*why = xasprintf("--%s: %s declares another option of that name first", opt, fam->name);
	else if (p->type == AW_PARAM_INT && p->minval > p->maxval)
		*why = xasprintf("--%s: an empty range", opt);
	else if (p->type == AW_PARAM_ENUM && !(p->words && p->words[0]))
		*why = xasprintf("--%s: no words", opt);
	else if (p->selects != (p->type == AW_PARAM_LIST))
		*why = xasprintf("--%s: a list, and only a list, selects probes", opt);
	else if (p->dflt && check_value(fam, p, p->dflt, &num, why) != 0) {
		char *bad = *why;
		*why = xasprintf("--%s: the default '%s': %s", opt, p->dflt, bad);
		free(bad);
	}
	free(opt);
	return *why ? -1 : 0;
}

/* ---- values given ---- */

/* Whether the family has a probe called name, declared or made already. */
static bool probe_taken(const struct aw_params *ps, const struct aw_family *fam, const char *name)
{
	if (names_probe(fam, name, strlen(name)))
		return true;
	for (size_t i = 0; i < ps->nmade; i++)
		if (ps->made[i].family == fam && strcmp(ps->made[i].probe->name, name) == 0)
			return true;
	return false;
}

static int make_probe(struct aw_params *ps, const struct aw_family *fam,
		      const struct aw_param *p, const char *value, char **why)
{
	struct aw_probe *made = p->instantiate(value, why);
	if (!made)
		return -1;
	if (probe_taken(ps, fam, made->name)) {
		*why = xasprintf("%s.%s exists already; choose another name", fam->name, made->name);
		if (p->release)
			p->release(made);
		return -1;
	}
	ps->made = xgrow(ps->made, ps->nmade, sizeof(*ps->made));
	ps->made[ps->nmade++] = (struct aw_made){ fam, p, made };
	return 0;
}

static int add(struct aw_params *ps, const char *name, const char *value, bool make, char **why)
{
	const struct aw_family *fam;
	const struct aw_param *p = aw_param_find(name, &fam);
	long long num;
	if (!p) {
		*why = xasprintf("no family takes --%s", name);
		return -1;
	}
	if (check_value(fam, p, value, &num, why) != 0 ||
	    (make && p->instantiate && make_probe(ps, fam, p, value, why) != 0))
		return -1;
	ps->v = xgrow(ps->v, ps->n, sizeof(*ps->v));
	ps->v[ps->n++] = (struct aw_param_value){ fam, p, value, num,
						  .unmade = !make && p->instantiate };
	return 0;
}

int aw_params_add(struct aw_params *ps, const char *name, const char *value, char **why)
{
	return add(ps, name, value, true, why);
}

int aw_params_add_elsewhere(struct aw_params *ps, const char *name, const char *value,
			    char **why)
{
	return add(ps, name, value, false, why);
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
 * ones made are added afterwards, so that the order of the options does
 * not matter and --fs never drops a --path probe. */
int aw_params_apply(struct aw_params *ps, struct aw_probe_ref **refs, size_t *n, char **why)
{
	for (size_t i = 0; i < ps->n; i++) {
		const struct aw_param_value *v = &ps->v[i];
		if (!v->param->selects)
			continue;
		if (!family_selected(v->family, *refs, *n)) {
			char *opt = aw_param_spelling(v->family, v->param);
			*why = xasprintf("--%s is an option of the %s family, which nothing "
					 "selected here runs", opt, v->family->name);
			free(opt);
			return -1;
		}
		narrow(v, *refs, n);
	}
	*refs = xrealloc(*refs, (*n + ps->nmade + 1) * sizeof(**refs));
	for (size_t i = 0; i < ps->nmade; i++)
		(*refs)[(*n)++] = (struct aw_probe_ref){ ps->made[i].family, ps->made[i].probe };
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

/* ---- what probes read ---- */

/* The declaration of the probe's family option name (NULL type: any):
 * a probe reading another is a bug of its family's, caught the first
 * time it runs. */
static const struct aw_param *declared(const struct aw_ctx *ctx, const char *name,
				       const enum aw_param_type *type)
{
	const struct aw_param *p = aw_family_param(ctx->family, name);
	if (!p || (type && p->type != *type)) {
		fprintf(stderr, "abiwatch: a probe of %s reads its option %s, which the family "
			"does not declare so\n", ctx->family ? ctx->family->name : "no family", name);
		abort();
	}
	return p;
}

/* The value given last for p, or NULL. */
static const struct aw_param_value *given(const struct aw_ctx *ctx, const struct aw_param *p)
{
	const struct aw_params *ps = ctx->params;
	for (size_t i = ps ? ps->n : 0; i-- > 0;)
		if (ps->v[i].param == p)
			return &ps->v[i];
	return NULL;
}

/* The value of name as a number (its declared default when not given). */
static long long number(const struct aw_ctx *ctx, const char *name, enum aw_param_type type)
{
	const struct aw_param *p = declared(ctx, name, &type);
	const struct aw_param_value *v = given(ctx, p);
	long long num;
	char *why = NULL;
	if (v)
		return v->num;
	if (!p->dflt || check_value(ctx->family, p, p->dflt, &num, &why) != 0) {
		fprintf(stderr, "abiwatch: %s's option %s has no default it takes: %s\n",
			ctx->family->name, name, why ? why : "none");
		abort();
	}
	return num;
}

long long aw_param_int(const struct aw_ctx *ctx, const char *name)
{
	return number(ctx, name, AW_PARAM_INT);
}

int aw_param_enum(const struct aw_ctx *ctx, const char *name)
{
	return (int)number(ctx, name, AW_PARAM_ENUM);
}

const char *aw_param_text(const struct aw_ctx *ctx, const char *name)
{
	const struct aw_param *p = declared(ctx, name, NULL);
	const struct aw_param_value *v = given(ctx, p);
	return v ? v->value : p->dflt;
}

double aw_params_timeout(const struct aw_params *ps, const struct aw_family *fam,
			 const struct aw_probe *p)
{
	double own = p->timeout_s ? (double)p->timeout_s : AW_DEFAULT_TIMEOUT_S;
	if (!p->timeout_param)
		return own;
	const struct aw_ctx ctx = { .family = fam, .params = ps };
	const struct aw_param *decl = declared(&ctx, p->timeout_param, NULL);
	long long beyond = aw_param_int(&ctx, p->timeout_param) - strtoll(decl->dflt, NULL, 10);
	return beyond > 0 ? own + (double)beyond * p->timeout_per_unit_s : own;
}

/* What ps's values add to probe p's timeout, beyond its own. */
static double extra_s(const struct aw_params *ps, const struct aw_family *fam,
		      const struct aw_probe *p)
{
	double own = p->timeout_s ? (double)p->timeout_s : AW_DEFAULT_TIMEOUT_S;
	return aw_params_timeout(ps, fam, p) - own;
}

/* The most they add to a probe of fam. */
static double costliest_extra_s(const struct aw_params *ps, const struct aw_family *fam)
{
	const struct aw_probe *const *probes;
	size_t np = aw_family_probes(fam, &probes);
	double most = 0;
	for (size_t i = 0; i < np; i++) {
		double e = extra_s(ps, fam, probes[i]);
		most = e > most ? e : most;
	}
	return most;
}

double aw_params_run_timeout(const struct aw_params *ps, const struct aw_probe_ref *refs,
			     size_t n, double base_s, double given_s)
{
	if (given_s > 0)
		return given_s;
	double t = base_s;
	for (size_t i = 0; i < n; i++)
		t += extra_s(ps, refs[i].family, refs[i].probe);
	for (size_t i = 0; i < ps->n; i++)
		if (ps->v[i].unmade)
			t += costliest_extra_s(ps, ps->v[i].family);
	return t;
}

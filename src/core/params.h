/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Values of the options families declare (struct aw_param): checked
 * against their declarations as they are given, what they do to the
 * selection of probes, and what probes read of them through their ctx. */
#ifndef ABIWATCH_PARAMS_H
#define ABIWATCH_PARAMS_H

#include "registry.h"

struct aw_param_value {
	const struct aw_family *family;
	const struct aw_param *param;
	const char *value;
	long long num;         /* AW_PARAM_INT: the number; AW_PARAM_ENUM: the word's index */
	bool unmade;           /* aw_params_add_elsewhere(): a probe it would make, not made */
};

struct aw_params {
	struct aw_param_value *v;
	size_t n;
	struct aw_made {
		const struct aw_family *family;
		const struct aw_param *param;
		struct aw_probe *probe;
	} *made;               /* probes instantiated from values */
	size_t nmade;
};

/* The family option spelled so on the command line: --FAMILY-NAME, or
 * its alias (without "--"); NULL when none is. */
const struct aw_param *aw_param_find(const char *spelling, const struct aw_family **family);
/* The option fam declares as name, or NULL. */
const struct aw_param *aw_family_param(const struct aw_family *fam, const char *name);
/* "FAMILY-NAME", malloc'd: how the command line spells p. */
char *aw_param_spelling(const struct aw_family *fam, const struct aw_param *p);
/* Whether a declaration is whole: a type's fields set, its default a
 * value it takes.  0, or -1 with *why (malloc'd). */
int aw_param_check_declared(const struct aw_family *fam, const struct aw_param *p, char **why);
/* Record a value of --SPELLING, checked against the declaration (and the
 * probe it makes made, its name unique in the family).  0, or -1 and
 * *why (malloc'd): what was expected. */
int aw_params_add(struct aw_params *ps, const char *spelling, const char *value, char **why);
/* The same for a run elsewhere (a guest's RUN-ARGS, read on the host):
 * checked alike, but no probe is made of it (a --path names a directory
 * of the guest's); aw_params_run_timeout() counts it as a probe. */
int aw_params_add_elsewhere(struct aw_params *ps, const char *spelling, const char *value,
			    char **why);
/* Narrow the selection by the selecting options and add the probes the
 * instantiating ones made.  0, or -1 with *why (malloc'd). */
int aw_params_apply(struct aw_params *ps, struct aw_probe_ref **refs, size_t *n, char **why);
void aw_params_free(struct aw_params *ps);
/* Probe p's own timeout for the work the run's options ps ask of it
 * (before the machine's slowness stretches it): its declared one (the
 * runner's default where 0), plus timeout_per_unit_s for each unit of
 * its timeout_param beyond that option's default. */
double aw_params_timeout(const struct aw_params *ps, const struct aw_family *fam,
			 const struct aw_probe *p);
/* The time limit of a whole run of the probes refs with the options ps
 * (abiwatch vm's and matrix's guest): given_s where it is above 0 (the
 * user's --timeout), else base_s, made for every option at its default,
 * plus what ps's values add to each probe's timeout (aw_params_timeout()
 * less its own), since the probes may run one after another; each value
 * aw_params_add_elsewhere() made no probe of adds what they add to the
 * costliest probe of its family, whose template such probes share. */
double aw_params_run_timeout(const struct aw_params *ps, const struct aw_probe_ref *refs,
			     size_t n, double base_s, double given_s);

#endif

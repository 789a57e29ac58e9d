/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Values of the options families declare (struct aw_param), and what they
 * do to the selection of probes. */
#ifndef ABIWATCH_PARAMS_H
#define ABIWATCH_PARAMS_H

#include "registry.h"

struct aw_param_value {
	const struct aw_family *family;
	const struct aw_param *param;
	const char *value;
};

struct aw_params {
	struct aw_param_value *v;
	size_t n;
	struct aw_made {
		const struct aw_param *param;
		struct aw_probe *probe;
	} *made;               /* probes instantiated from values */
	size_t nmade;
};

/* The family option called name, or NULL. */
const struct aw_param *aw_param_find(const char *name, const struct aw_family **family);
/* Record a value, after the parameter's own check.  0, or -1 and *why. */
int aw_params_add(struct aw_params *ps, const char *name, const char *value, char **why);
const char *aw_params_get(const struct aw_params *ps, const char *name);
/* Narrow the selection by the selecting options and add the probes the
 * instantiating ones make.  0, or -1 with *why (malloc'd). */
int aw_params_apply(struct aw_params *ps, struct aw_probe_ref **refs, size_t *n, char **why);
void aw_params_free(struct aw_params *ps);

/* The values the running probe sees; set by the runner. */
extern const struct aw_params *aw_current_params;

#endif

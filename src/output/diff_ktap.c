// SPDX-License-Identifier: GPL-2.0-or-later
/* abiwatch diff as KTAP: a result per kernel change, for test harnesses. */
#include "diff.h"
#include "output.h"
#include "lib/util.h"

#include <stdlib.h>

void aw_diff_ktap(FILE *out, const struct aw_diff *d, const char *on, const char *nn, bool verbose)
{
	(void)verbose;
	size_t items = aw_diff_kernel_items(d);
	aw_ktap_header(out, d->nobjects + d->n - items);
	char *o = aw_escape(on), *n = aw_escape(nn);
	fprintf(out, "# abiwatch diff %s %s\n", o, n);
	free(o);
	free(n);
	aw_diff_put_lead(out, d, on, nn, "# ");
	for (size_t i = 0; i < d->nenv; i++) {
		if (d->env[i].ignored)
			continue;
		char *line = aw_diff_env_line(&d->env[i]);
		fprintf(out, "# environment: %s\n", line);
		free(line);
	}
	fprintf(out, "# fail on: %s\n", aw_diff_gate_name(d->fail_on));
	/* A result per kernel change (per object, named by its key when it
	 * has one change), not ok when it fails the gate (--fail-on: by
	 * default what can break a program that worked, not an interface
	 * that appeared); then one per change the environment explains, ok
	 * with SKIP. */
	size_t t = 0;
	for (size_t i = 0; i < d->nobjects; i++) {
		const struct aw_diff_object *ob = &d->objects[i];
		char *line = aw_diff_object_line(d, ob);
		fprintf(out, "# %s\n", line);
		fprintf(out, "%s %zu %s\n", aw_diff_object_fails(d, ob) ? "not ok" : "ok", ++t,
			ob->n == 1 ? d->changes[ob->changes[0]].name : ob->name);
		free(line);
	}
	for (size_t i = 0; i < d->n; i++) {
		const struct aw_diff_change *c = &d->changes[i];
		if (!c->cause)
			continue;
		char *line = aw_diff_change_line(c);
		fprintf(out, "# %s\n", line);
		fprintf(out, "ok %zu %s # SKIP needs %s: explained by the environment: %s\n",
			++t, c->name, c->cause_key ? c->cause_key : "environment", c->cause);
		free(line);
	}
}


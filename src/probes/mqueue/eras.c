// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Eras: for the message-queue behaviours whose history is known, which
 * documented behaviour this kernel is on, so that one run tells a user
 * whether a program written for 2.6.28 or for 3.5 meets what it expects.
 * Each table maps an observed value to "behaviour (kernels, commit)";
 * the history is in docs/catalogue.md and ../shared/notes.
 */
#include "mq_util.h"

#include <string.h>

const struct mqu_era mqu_noattr_eras[] = {
	{ "fixed", "fixed (before 2.6.28)" },
	{ "maxima", "maxima (2.6.28 to 3.4, b231cca4381e)" },
	{ "default_knobs", "default_knobs (3.5 and later, cef0184c115e)" },
	{ NULL, NULL },
};

const struct mqu_era mqu_charge_eras[] = {
	{ "pointer", "pointer_per_message (before 3.5)" },
	{ "structs", "msg_msg_and_tree_node (3.5 and later, ce2d52cc1364)" },
	{ NULL, NULL },
};

const struct mqu_era mqu_qsize_eras[] = {
	{ "user_bytes", "user_bytes (before 3.5, and 4.2 and later, de54b9ac2537)" },
	{ "overhead", "with_kernel_overhead (3.5 to 4.1)" },
	{ NULL, NULL },
};

const struct mqu_era mqu_ceiling_eras[] = {
	{ "none", "no_ceiling (3.14 and later, f3713fd9cff7; 3.5.x-3.13.x stable)" },
	{ "1024", "hard_1024 (3.5 to 3.13, 93e6f119c0ce and 02967ea08ede)" },
	{ NULL, NULL },
};

const char *mqu_era_of(const struct mqu_era *table, const char *value)
{
	for (const struct mqu_era *e = table; e->value; e++)
		if (strcmp(e->value, value) == 0)
			return e->era;
	return NULL;
}

void mqu_observe_era(struct aw_ctx *ctx, const char *obs, const struct mqu_era *table,
		     const char *value)
{
	const char *era = mqu_era_of(table, value);
	if (era)
		aw_observe(ctx, obs, "%s", era);
	else
		aw_observe(ctx, obs, "none_known (%s matches no documented behaviour)", value);
}

// SPDX-License-Identifier: GPL-2.0-or-later
/* aw_report_kconfig(): the options a probe declares, with their values. */
#include "probe.h"
#include "lib/kconfig.h"

#include <stdlib.h>

void aw_report_kconfig(struct aw_ctx *ctx, const struct aw_item *items)
{
	struct aw_kconfig cfg;
	aw_kconfig_load(&cfg);
	if (!cfg.text) {
		/* The machine's doing (a host without /boot, a guest given
		 * no config): cause kconfig, so that diff folds it whatever
		 * release the paths name. */
		aw_skip_rest_cause(ctx, "kconfig", "no kernel configuration: %s", cfg.source);
		aw_kconfig_free(&cfg);
		return;
	}
	aw_observe(ctx, items[0].name, "%s", cfg.source);
	for (const struct aw_item *it = items + 1; it->name; it++) {
		char *v = aw_kconfig_option(&cfg, it->name);
		aw_observe(ctx, it->name, "%s", v);
		free(v);
	}
	aw_kconfig_free(&cfg);
}

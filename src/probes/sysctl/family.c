// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The sysctl family: every knob under /proc/sys, the control surface that
 * `sysctl -p`, systemd and container runtimes depend on: a knob that
 * vanishes, or a default that moves, breaks them with no change in their
 * code (docs/catalogue.md).
 */
#include "sysctl.h"

static const struct aw_probe *const sysctl_tables[] = {
	sc_machine_probes, sc_config_probes, sc_knob_probes, sc_scopes_probes, NULL,
};

static const struct aw_family sysctl_family = {
	.name = "sysctl",
	.summary = "every /proc/sys knob: presence, mode, default value, write-back; the configuration behind them",
	.tables = sysctl_tables,
};

AW_FAMILY(sysctl_family);

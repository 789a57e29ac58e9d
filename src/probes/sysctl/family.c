// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Two families in one folder, because they share the configuration
 * reading and the safety rules: sysctl (every knob under /proc/sys) and
 * cgroup (what container runtimes write under /sys/fs/cgroup).  Both are
 * the control surface that `sysctl -p`, systemd and container runtimes
 * depend on: a knob or cgroup file that vanishes, or a default that
 * moves, breaks them with no change in their code (docs/catalogue.md).
 */
#include "sysctl.h"

static const struct aw_probe *const sysctl_tables[] = {
	sc_machine_probes, sc_config_probes, sc_knob_probes, NULL,
};

static const struct aw_family sysctl_family = {
	.name = "sysctl",
	.summary = "every /proc/sys knob: presence, mode, default value, write-back; the configuration behind them",
	.tables = sysctl_tables,
};

AW_FAMILY(sysctl_family);

static const struct aw_probe *const cgroup_tables[] = {
	cg_v2_probes, cg_v1_probes, NULL,
};

static const struct aw_family cgroup_family = {
	.name = "cgroup",
	.summary = "cgroup v2 controllers and a fresh child's files; v1 hierarchies and memory.kmem (in a VM guest)",
	.tables = cgroup_tables,
};

AW_FAMILY(cgroup_family);

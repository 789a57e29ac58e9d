/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The mm family (family.c): the probe tables of its files, and what
 * they share. */
#ifndef ABIWATCH_MM_H
#define ABIWATCH_MM_H

#include "core/probe.h"

#include <stddef.h>

extern const struct aw_probe mm_thp_probes[];
extern const struct aw_probe mm_map_stack_probes[];
extern const struct aw_probe mm_memfd_probes[];
extern const struct aw_probe mm_guard_gap_probes[];
extern const struct aw_probe mm_rlimit_probes[];
extern const struct aw_probe mm_vsyscall_probes[];
extern const struct aw_probe mm_limits_probes[];

#define MM_HELPER "abiwatch-mm-m32"

/* Observe the value of the kernel parameter name on /proc/cmdline as
 * item, or "none" when it is not there. */
void mm_observe_boot_param(struct aw_ctx *ctx, const char *item, const char *name);

#endif

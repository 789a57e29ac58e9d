// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The mm family: the process address space as JVMs, CRIU and sandboxes
 * rely on it.  Where anonymous mappings land (THP alignment, 6.8,
 * and not for 32-bit callers), what MAP_STACK marks, memfd's exec
 * control (6.3), the stack guard gap (4.12), the rlimits a fresh init
 * gets, the vsyscall page, and the vm.* limits with the errno of what
 * they refuse (docs/catalogue.md).  Each file declares its probes in a
 * table; this lists them in order and holds what they share.
 */
#include "mm.h"
#include "parse.h"
#include "lib/errname.h"
#include "lib/proc.h"
#include "lib/procfs.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

void mm_observe_boot_param(struct aw_ctx *ctx, const char *item, const char *name)
{
	char *cmdline = NULL, *value = NULL;
	size_t len = 0;
	int rc = aw_kernel_cmdline(&cmdline, &len);
	if (rc == 0)
		rc = aw_cmdline_param(cmdline, len, name, &value);
	free(cmdline);

	if (rc && rc != -ENOENT)
		aw_error(ctx, item, "reading %s= of /proc/cmdline: %s", name, aw_errname(rc));
	else
		aw_observe(ctx, item, "%s", rc ? "none" : value);
	free(value);
}

static const struct aw_probe *const tables[] = {
	mm_thp_probes, mm_map_stack_probes, mm_memfd_probes, mm_guard_gap_probes,
	mm_rlimit_probes, mm_vsyscall_probes, mm_limits_probes, NULL,
};

static const struct aw_family mm_family = {
	.name = "mm",
	.summary = "the address space: THP alignment, MAP_STACK, memfd exec control, stack guard gap, init rlimits, vsyscall, vm limits",
	.tables = tables,
	.helper32 = MM_HELPER,
};

AW_FAMILY(mm_family);

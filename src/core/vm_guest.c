// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Whether this run is abiwatch vm's guest (core/guest.h says how host and
 * guest agree on it).  Neither the environment variable nor the kernel's
 * command line alone: a user's environment or another initramfs could
 * fake one.
 */
#include "vm_guest.h"
#include "guest.h"
#include "lib/procfs.h"

#include <stdlib.h>
#include <string.h>

bool aw_in_vm_guest(void)
{
	const char *env = getenv(AW_GUEST_ENV);
	char *cmdline;
	size_t len;
	if (!env || strcmp(env, "1") != 0 || aw_kernel_cmdline(&cmdline, &len) != 0)
		return false;
	bool booted_so = aw_cmdline_has(cmdline, len, AW_GUEST_RDINIT);
	free(cmdline);
	return booted_so;
}

double aw_guest_budget(void)
{
	const char *budget = getenv(AW_GUEST_BUDGET_ENV);
	if (!budget || !aw_in_vm_guest())
		return 0;
	char *end;
	double b = strtod(budget, &end);
	return end != budget && *end == '\0' && b > 0 ? b : 0;
}

// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Finding a family's 32-bit helper, and the wording of why it cannot run:
 * apart from the helper's runner and reader (helper.c), so that the i386
 * check (i386.c), which helper.c asks, needs only these.
 */
#include "helper_path.h"
#include "lib/errname.h"
#include "lib/util.h"

#include <errno.h>
#include <stdlib.h>
#include <unistd.h>

char *aw_helper_path(const char *name)
{
	const char *env = getenv("ABIWATCH_HELPER_DIR");
	char *dir = aw_exe_dir();
	char *candidates[] = {
		env ? xasprintf("%s/%s", env, name) : NULL,
		dir ? xasprintf("%s/build/m32/%s", dir, name) : NULL,
		/* build/asan/abiwatch and build/static/abiwatch */
		dir ? xasprintf("%s/../m32/%s", dir, name) : NULL,
		dir ? xasprintf("%s/../libexec/abiwatch/%s", dir, name) : NULL,
	};
	char *found = NULL;
	for (size_t i = 0; i < AW_ARRAY_SIZE(candidates); i++) {
		if (!found && candidates[i] && access(candidates[i], X_OK) == 0)
			found = candidates[i];
		else
			free(candidates[i]);
	}
	free(dir);
	return found;
}

char *aw_helper_missing(const char *name)
{
	return xasprintf("the helper %s is not installed (or not executable): it belongs in build/m32/ of the source "
			 "tree ('make m32', which needs gcc-multilib), in ../libexec/abiwatch/ of "
			 "the binary, or in $ABIWATCH_HELPER_DIR", name);
}

char *aw_helper_exec_failed(const char *path, int err)
{
	if (err == ENOEXEC)
		return xasprintf("this kernel runs no i386 programs: exec of %s failed with ENOEXEC "
				 "(CONFIG_IA32_EMULATION off, or ia32_emulation=0)", path);
	return xasprintf("exec of %s failed with %s", path, aw_errname(err));
}

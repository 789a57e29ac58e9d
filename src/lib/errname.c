// SPDX-License-Identifier: GPL-2.0-or-later
#include "errname.h"

#include <stdio.h>
#include <string.h>

const char *aw_errname(int err)
{
	static __thread char unknown[24];

	if (err == 0)
		return "success";
	if (err < 0)
		err = -err;
	const char *name = strerrorname_np(err);
	if (name)
		return name;
	snprintf(unknown, sizeof(unknown), "errno %d", err);
	return unknown;
}

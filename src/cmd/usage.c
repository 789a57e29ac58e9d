// SPDX-License-Identifier: GPL-2.0-or-later
#include "commands.h"
#include "core/util.h"

#include <stdarg.h>
#include <stdio.h>

int usage_error(const char *cmd, const char *fmt, ...)
{
	va_list ap;
	fprintf(stderr, "abiwatch%s%s: ", cmd ? " " : "", cmd ? cmd : "");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, " (see 'abiwatch %s%s--help')\n", cmd ? cmd : "", cmd ? " " : "");
	return AW_EXIT_USAGE;
}

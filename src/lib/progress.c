// SPDX-License-Identifier: GPL-2.0-or-later
/* Progress lines on standard error (progress.h). */
#include "progress.h"
#include "util.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

bool aw_progress_wanted(bool asked, bool quiet)
{
	return asked || (!quiet && isatty(STDERR_FILENO));
}

void aw_say(const struct aw_progress *p, const char *fmt, ...)
{
	if (!p->on)
		return;
	va_list ap;
	va_start(ap, fmt);
	char *text = xvasprintf(fmt, ap);
	va_end(ap);
	char *line = xasprintf("%s: %s\n", p->who, text);
	/* Progress is not worth failing for: a full disk or a closed
	 * terminal loses the line, not the work. */
	(void)aw_write_all(STDERR_FILENO, line, strlen(line));
	free(line);
	free(text);
}

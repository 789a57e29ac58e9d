// SPDX-License-Identifier: GPL-2.0-or-later
/* What every session shares (session.h): the usage error, and the files
 * and directories a command writes, checked before anything runs, so
 * that each is refused in the same words everywhere. */
#include "session.h"
#include "core/status.h"
#include "lib/util.h"

#include <errno.h>
#include <libgen.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

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

int check_writable(const char *cmd, const char *what, const char *path)
{
	char *copy = xstrdup(path);
	const char *dir = dirname(copy);
	int rc = 0;
	if (access(dir, W_OK | X_OK) != 0 || (access(path, F_OK) == 0 && access(path, W_OK) != 0))
		rc = usage_error(cmd, "cannot write %s%s'%s': %s", what ? what : "", what ? " " : "",
				 path, strerror(errno));
	free(copy);
	return rc;
}

/* mkdir -p */
static int mkdir_p(const char *dir)
{
	char *copy = xstrdup(dir);
	int rc = 0;
	for (char *p = copy + 1; rc == 0 && *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(copy, 0777) != 0 && errno != EEXIST)
			rc = -1;
		*p = '/';
	}
	if (rc == 0 && mkdir(copy, 0777) != 0 && errno != EEXIST)
		rc = -1;
	free(copy);
	return rc;
}

int prepare_output_dir(const char *cmd, const char *dir)
{
	if (mkdir_p(dir) != 0)
		return usage_error(cmd, "cannot make '%s': %s", dir, strerror(errno));
	if (access(dir, W_OK | X_OK) != 0)
		return usage_error(cmd, "cannot write in '%s': %s", dir, strerror(errno));
	return 0;
}

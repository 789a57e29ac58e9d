// SPDX-License-Identifier: GPL-2.0-or-later
/* What every command's command line shares: the usage error, and the
 * parsing of values several commands take (--format, seconds, a file to
 * write), so that each is refused in the same words everywhere. */
#include "commands.h"
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

/* "a, b or c" of a NULL-terminated list, malloc'd. */
static char *one_of(const char *const *names)
{
	char *out = xstrdup(names[0]);
	for (size_t i = 1; names[i]; i++) {
		char *more = xasprintf("%s%s%s", out, names[i + 1] ? ", " : " or ", names[i]);
		free(out);
		out = more;
	}
	return out;
}

int parse_choice(const char *cmd, const char *option, const char *arg, const char *const *names,
		 int *choice)
{
	for (int i = 0; names[i]; i++) {
		if (strcmp(arg, names[i]) == 0) {
			*choice = i;
			return 0;
		}
	}
	char *list = one_of(names);
	int rc = usage_error(cmd, "%s takes %s, not '%s'", option, list, arg);
	free(list);
	return rc;
}

int parse_format(const char *cmd, const char *arg, enum aw_format_op op,
		 const struct aw_format **format)
{
	char *names = NULL;
	const struct aw_format *f = aw_format_find(arg, op, &names);
	if (f) {
		*format = f;
		return 0;
	}
	int rc = usage_error(cmd, "--format takes %s, not '%s'", names, arg);
	free(names);
	return rc;
}

int parse_seconds(const char *cmd, const char *option, const char *arg, double *seconds)
{
	char *end;
	errno = 0;
	double v = strtod(arg, &end);
	if (errno || end == arg || *end || !(v > 0) || v > 86400)
		return usage_error(cmd, "%s takes seconds in (0, 86400], not '%s'", option, arg);
	*seconds = v;
	return 0;
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

int parse_count(const char *cmd, const char *option, const char *arg, unsigned min,
		unsigned max, const char *what, unsigned *value)
{
	char *end;
	errno = 0;
	long n = strtol(arg, &end, 10);
	if (errno || *end || end == arg || n < (long)min || n > (long)max)
		return usage_error(cmd, "%s takes %s in [%u, %u], not '%s'", option, what, min, max, arg);
	*value = (unsigned)n;
	return 0;
}

int parse_jobs(const char *cmd, const char *arg, unsigned *jobs)
{
	return parse_count(cmd, "--jobs", arg, 1, 256, "a number", jobs);
}

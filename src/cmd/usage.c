// SPDX-License-Identifier: GPL-2.0-or-later
/* What every command's command line shares: the parsing of values several
 * commands take (--format, seconds, counts), so that each is refused in the
 * same words everywhere (the usage error itself is session/session.c's). */
#include "commands.h"
#include "lib/util.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

int command_parsed(int rc, void *o, void (*free_opts)(void *), void **opts)
{
	*opts = NULL;
	if (rc == 0) {
		*opts = o;
		return 0;
	}
	free_opts(o);
	return rc < 0 ? AW_EXIT_PASS : rc;
}

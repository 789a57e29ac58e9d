// SPDX-License-Identifier: GPL-2.0-or-later
/* Snapshot arguments of the commands that read several (report, kcidb). */
#include "commands.h"
#include "lib/util.h"

#include <dirent.h>
#include <errno.h>
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static void add_file(char ***files, size_t *n, char *path)
{
	*files = xrealloc(*files, (*n + 1) * sizeof(**files));
	(*files)[(*n)++] = path;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int add_dir(const char *cmd, const char *dir, char ***files, size_t *n)
{
	DIR *d = opendir(dir);
	if (!d)
		return usage_error(cmd, "%s: %s", dir, strerror(errno));
	size_t first = *n;
	struct dirent *e;
	while ((e = readdir(d)))
		if (e->d_name[0] != '.' && fnmatch("*.snapshot", e->d_name, 0) == 0)
			add_file(files, n, xasprintf("%s/%s", dir, e->d_name));
	closedir(d);
	if (*n == first)
		return usage_error(cmd, "%s holds no *.snapshot file", dir);
	qsort(*files + first, *n - first, sizeof(**files), by_name);
	return 0;
}

int snapshot_args(const char *cmd, char *const *args, size_t nargs, char ***files, size_t *nfiles)
{
	for (size_t i = 0; i < nargs; i++) {
		struct stat st;
		if (stat(args[i], &st) == 0 && S_ISDIR(st.st_mode)) {
			int rc = add_dir(cmd, args[i], files, nfiles);
			if (rc)
				return rc;
		} else {
			add_file(files, nfiles, xstrdup(args[i]));
		}
	}
	return 0;
}

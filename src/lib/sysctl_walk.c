// SPDX-License-Identifier: GPL-2.0-or-later
/* A walk of /proc/sys: see sysctl_walk.h. */
#include "sysctl_walk.h"
#include "errname.h"
#include "util.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct walk {
	aw_sysctl_visit visit;
	void *arg;
	dev_t dev; /* the root's: no other filesystem is entered */
};

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The names in d but . and .., sorted: readdir's order is the
 * filesystem's, and a walk must give the same order each time. */
static char **sorted_names(DIR *d, size_t *n)
{
	char **names = NULL;
	struct dirent *de;
	*n = 0;
	while ((de = readdir(d))) {
		if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
			continue;
		names = xgrow(names, *n, sizeof(*names));
		names[(*n)++] = xstrdup(de->d_name);
	}
	if (*n)
		qsort(names, *n, sizeof(*names), by_name);
	return names;
}

static void walk_dir(const struct walk *w, int fd, const char *knob, const char *path, int depth);

/* The visitor told the walk to enter e's directory. */
static void enter(const struct walk *w, struct aw_sysctl_entry *e, int depth)
{
	char why[64];
	int fd = depth < AW_SYSCTL_WALK_DEPTH
		? openat(e->dirfd, e->name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC) : -1;
	if (fd >= 0) {
		walk_dir(w, fd, e->knob, e->path, depth + 1); /* closes fd */
		return;
	}
	snprintf(why, sizeof(why), "open: %s",
		 depth < AW_SYSCTL_WALK_DEPTH ? aw_errname(errno) : "too deep");
	e->st = NULL;
	e->why = why;
	w->visit(e, w->arg);
}

static void visit_name(const struct walk *w, int dirfd, const char *knob, const char *path,
		       const char *name, int depth)
{
	char why[64];
	struct stat st;
	char *k = *knob ? xasprintf("%s.%s", knob, name) : xstrdup(name);
	char *p = xasprintf("%s/%s", path, name);
	struct aw_sysctl_entry e = { .knob = k, .path = p, .name = name, .dirfd = dirfd };

	if (fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW | AT_NO_AUTOMOUNT) != 0) {
		snprintf(why, sizeof(why), "stat: %s", aw_errname(errno));
		e.why = why;
		w->visit(&e, w->arg);
	} else if (st.st_dev != w->dev) {
		e.why = "another filesystem is mounted there, not entered";
		w->visit(&e, w->arg);
	} else {
		e.st = &st;
		if (w->visit(&e, w->arg) && S_ISDIR(st.st_mode))
			enter(w, &e, depth);
	}
	free(k);
	free(p);
}

static void walk_dir(const struct walk *w, int fd, const char *knob, const char *path, int depth)
{
	DIR *d = fdopendir(fd);
	size_t n;
	if (!d) {
		close(fd);
		return;
	}
	char **names = sorted_names(d, &n);
	for (size_t i = 0; i < n; i++) {
		visit_name(w, dirfd(d), knob, path, names[i], depth);
		free(names[i]);
	}
	free(names);
	closedir(d);
}

int aw_sysctl_walk(const char *root, const char *prefix, aw_sysctl_visit visit, void *arg)
{
	struct stat st;
	int fd = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &st) != 0) {
		int err = errno;
		if (fd >= 0)
			close(fd);
		return -err;
	}
	struct walk w = { .visit = visit, .arg = arg, .dev = st.st_dev };
	walk_dir(&w, fd, prefix, root, 0);
	return 0;
}

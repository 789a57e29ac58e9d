// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * "#!" lines longer than the kernel reads (BINPRM_BUF_SIZE, 256 bytes
 * since 5.1, 6eb3c3d0a52d): an interpreter path cut by the buffer is
 * refused with ENOEXEC (b5372fe5dc84), while an optional argument cut by
 * it is passed truncated, after 5.0's attempt to refuse both
 * (8099b047ecc4) broke NixOS's long perl lines and was reverted.
 *
 * The interpreter is a symlink to this program, at the end of a chain of
 * directories in the probe's scratch tmpfs, so that its path has any
 * length; the script calls execve() directly (a C library or shell would
 * run /bin/sh on ENOEXEC).  Whether the exec worked comes back through a
 * close-on-exec pipe; the interpreter itself (abiwatch, with arguments it
 * refuses) only exits.
 */
#include "vfs.h"
#include "lib/util.h"
#include "lib/child.h"
#include "lib/errname.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define SB_LINE_MIN 64   /* a "#!" line every kernel runs */
#define SB_LINE_MAX 512  /* one no kernel does */
#define ARG_LEN 300   /* the long optional argument */
#define MAX_NAMES 8

static const struct aw_item shebang_items[] = {
	AW_OBS_ITEM("max_line", "the longest \"#!\" + interpreter path that execve() runs",
		    .change = "scripts with long interpreter paths (Nix store paths, deep "
		    "virtualenvs) stop running, or start", .unit = "B"),
	AW_OBS_ITEM("long_path", "execve() of a script whose interpreter path is cut by the "
		    "buffer: the errno (ENOEXEC) or runs",
		    .change = "a truncated interpreter path runs the wrong program, or no longer "
		    "runs"),
	AW_OBS_ITEM("long_argument", "execve() of a script whose optional argument is cut by the "
		    "buffer: runs (truncated) or the errno",
		    .change = "scripts with long #! arguments (NixOS perl -I lines) stop running"),
	AW_ITEMS_END
};

struct shebang {
	char *base;   /* the chain's first directory */
	char *target; /* the interpreter the symlinks point to */
	char *script;
};

/* The interpreter's path of exactly len bytes, made on disk (directories
 * and a symlink at the end); malloc'd, or NULL with errno. */
static char *interpreter_of(const struct shebang *s, size_t len)
{
	size_t lens[MAX_NAMES];
	size_t n = vfs_shebang_layout(strlen(s->base), len, lens, MAX_NAMES);
	if (n == 0) {
		errno = ENAMETOOLONG;
		return NULL;
	}
	char *path = xstrdup(s->base);
	for (size_t i = 0; i < n; i++) {
		char name[VFS_SHEBANG_DIR_LEN + 1];
		memset(name, i + 1 < n ? 'd' : 'i', lens[i]);
		name[lens[i]] = '\0';
		char *next = xasprintf("%s/%s", path, name);
		free(path);
		path = next;
		if (i + 1 < n && mkdir(path, 0755) != 0 && errno != EEXIST)
			break;
	}
	if (symlink(s->target, path) != 0 && errno != EEXIST) {
		free(path);
		return NULL;
	}
	return path;
}

/* Write the script "#!" interp [" " arg] "\n", mode 0755.  0 or -errno. */
static int write_script(const char *path, const char *interp, const char *arg)
{
	(void)unlink(path);
	int fd = open(path, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0755);
	if (fd < 0)
		return -errno;
	char *text = xasprintf("#!%s%s%s\n", interp, arg ? " " : "", arg ? arg : "");
	size_t len = strlen(text);
	int rc = write(fd, text, len) == (ssize_t)len ? 0 : -errno;
	free(text);
	close(fd);
	return rc;
}

/* execve() the script in a child: 0 when it ran, else the -errno. */
static int exec_script(const char *script)
{
	int p[2];
	if (pipe2(p, O_CLOEXEC) != 0)
		return -errno;
	pid_t pid = fork();
	if (pid == 0) {
		int null = open("/dev/null", O_RDWR);
		dup2(null, 0);
		dup2(null, 1);
		dup2(null, 2);
		char *const argv[] = { (char *)script, NULL }, *const envp[] = { NULL };
		execve(script, argv, envp);
		int err = errno;
		(void)!write(p[1], &err, sizeof(err));
		_exit(127);
	}
	close(p[1]);
	int err = 0;
	ssize_t n = pid < 0 ? 0 : read(p[0], &err, sizeof(err));
	if (pid < 0)
		err = errno;
	close(p[0]);
	if (pid > 0)
		(void)aw_child_wait(pid, 10000);
	return n == sizeof(err) || pid < 0 ? -err : 0;
}

/* Whether a "#!" line of len bytes runs: 0, or the -errno. */
static int line_runs(const struct shebang *s, size_t len, const char *arg)
{
	char *interp = interpreter_of(s, len - 2);
	if (!interp)
		return -errno;
	int rc = write_script(s->script, interp, arg);
	free(interp);
	return rc ? rc : exec_script(s->script);
}

/* The longest line in [SB_LINE_MIN, SB_LINE_MAX) that runs, by bisection (the
 * kernel runs every line up to its limit and none beyond), or -errno. */
static long longest_line(const struct shebang *s, int *err_beyond)
{
	int rc = line_runs(s, SB_LINE_MIN, NULL);
	if (rc)
		return rc;
	if ((*err_beyond = line_runs(s, SB_LINE_MAX, NULL)) == 0)
		return SB_LINE_MAX;
	size_t good = SB_LINE_MIN, bad = SB_LINE_MAX;
	while (bad - good > 1) {
		size_t mid = good + (bad - good) / 2;
		rc = line_runs(s, mid, NULL);
		if (rc == 0)
			good = mid;
		else
			bad = mid;
	}
	return (long)good;
}

static void shebang_run(struct aw_ctx *ctx)
{
	char self[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	struct shebang s = {
		.base = xasprintf("%s/sb", aw_tmpdir(ctx)),
		.script = xasprintf("%s/script", aw_tmpdir(ctx)),
	};
	if (n < 0 || mkdir(s.base, 0755) != 0) {
		aw_error_rest(ctx, "%s: %s", n < 0 ? "readlink /proc/self/exe" : s.base, strerror(errno));
		goto out;
	}
	self[n] = '\0';
	s.target = self;
	int beyond = 0;
	long max = longest_line(&s, &beyond);
	if (max < 0) {
		aw_unobserved(ctx, "max_line", "a %d-byte #! line does not run: %s", SB_LINE_MIN,
			      aw_errname((int)max));
		aw_skip_rest(ctx, "no #! line runs here");
		goto out;
	}
	aw_observe_long(ctx, "max_line", max);
	aw_observe(ctx, "long_path", "%s", beyond ? aw_errname(beyond) : "runs");
	/* A path 30 bytes short of the limit, then a long argument. */
	char *arg = xcalloc(1, ARG_LEN + 1);
	memset(arg, 'A', ARG_LEN);
	int rc = line_runs(&s, (size_t)max - 30, arg);
	aw_observe(ctx, "long_argument", "%s", rc ? aw_errname(rc) : "runs");
	free(arg);
out:
	free(s.base);
	free(s.script);
}

static const char *const shebang_tags[] = {
	"linux-git:6eb3c3d0a52d", "linux-git:b5372fe5dc84", "linux-git:8099b047ecc4",
	"linux-git:ccbb18b67323", "man:execve(2)", NULL,
};

const struct aw_probe vfs_shebang_probes[] = {
	{
		.name = "shebang",
		.summary = "#! lines longer than the kernel's buffer: the limit, and what is cut",
		.run = shebang_run,
		.items = shebang_items,
		.tags = shebang_tags,
	},
	AW_PROBES_END,
};

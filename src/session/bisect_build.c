// SPDX-License-Identifier: GPL-2.0-or-later
/* abiwatch bisect --git: building the commit a step is at (bisect_build.h):
 * the user's --build command, or the kernel's own build with the user's
 * configuration, out of the tree. */
#include "bisect_build.h"
#include "lib/proc.h"
#include "lib/procfs.h"
#include "lib/util.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static void chdir_to(void *dir)
{
	if (chdir(dir) != 0)
		_exit(127);
}

/* The last non-empty line of text, as a path relative to dir when it is
 * not absolute (malloc'd), or NULL. */
static char *last_line_path(const char *text, const char *dir)
{
	const char *end = text + strlen(text);
	while (end > text && (end[-1] == '\n' || end[-1] == ' '))
		end--;
	const char *start = end;
	while (start > text && start[-1] != '\n')
		start--;
	if (start == end)
		return NULL;
	if (*start == '/')
		return xasprintf("%.*s", (int)(end - start), start);
	return xasprintf("%s/%.*s", dir, (int)(end - start), start);
}

/* --build CMD: the kernel it named, or NULL with *why. */
static char *build_by_command(const struct bisect *b, const char *commit, int log, char **why)
{
	char *env_commit = xasprintf("ABIWATCH_BISECT_COMMIT=%s", commit);
	const char *env[] = { env_commit, NULL };
	const char *argv[] = { "sh", "-c", b->build, NULL };
	struct aw_spawn how = { .in = -1, .err = log, .env = env, .before_exec = chdir_to,
				.before_exec_arg = (void *)b->git };
	struct aw_capture cap = { .out = true, .max = 1 << 20, .keep_tail = true };
	char *kernel = NULL;
	if (aw_capture(argv, &how, &cap) != 0) {
		*why = xasprintf("cannot run sh: %s", strerror(errno));
	} else {
		(void)aw_write_all(log, cap.text, cap.len);
		if (!WIFEXITED(cap.status) || WEXITSTATUS(cap.status) != 0)
			*why = xasprintf("--build ended with status %d", WIFEXITED(cap.status)
					 ? WEXITSTATUS(cap.status) : 128 + WTERMSIG(cap.status));
		else if (!(kernel = last_line_path(cap.text, b->git)))
			*why = xstrdup("--build printed no kernel");
		free(cap.text);
	}
	free(env_commit);
	return kernel;
}

static bool config_has_modules(const char *config)
{
	char *text = NULL;
	size_t len;
	bool yes = aw_file_slurp(config, &text, &len) == 0 && strstr(text, "\nCONFIG_MODULES=y\n");
	free(text);
	return yes;
}

/* make -C TREE O=BUILD [CC=ccache gcc] ARGS...: 0 when it succeeded. */
static int make(const struct bisect *b, const char *build, int log, const char *const *args)
{
	char *o = xasprintf("O=%s", build), *jobs = xasprintf("-j%u", b->jobs);
	char *ccache = aw_which("ccache");
	const char *argv[16] = { "make", "-C", b->git, o, jobs };
	size_t n = 5;
	if (ccache)
		argv[n++] = "CC=ccache gcc";
	for (; *args && n < 15; args++)
		argv[n++] = *args;
	argv[n] = NULL;
	int rc = aw_run_wait(argv, -1, log, NULL) == 0 ? 0 : -1;
	free(ccache);
	free(o);
	free(jobs);
	return rc;
}

#define MAKE(b, build, log, ...) make((b), (build), (log), (const char *const[]){ __VA_ARGS__, NULL })

/* The default build: the user's configuration, olddefconfig, bzImage and
 * the modules it has, out of the tree.  The kernel, or NULL with *why. */
static char *build_by_config(const struct bisect *b, int log, char **why)
{
	char *build = xasprintf("%s/build", b->out), *config = xasprintf("%s/.config", build);
	char *text = NULL, *kernel = NULL;
	size_t len;
	mkdir(build, 0777);
	int fd = -1;
	if (aw_file_slurp(b->config, &text, &len) != 0 ||
	    (fd = open(config, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644)) < 0 ||
	    aw_write_all(fd, text, len) != 0) {
		*why = xasprintf("cannot copy %s to %s: %s", b->config, config, strerror(errno));
		goto out;
	}
	bool modules = false;
	if (MAKE(b, build, log, "olddefconfig") != 0 ||
	    ((modules = config_has_modules(config)) ? MAKE(b, build, log, "bzImage", "modules")
						      : MAKE(b, build, log, "bzImage")) != 0) {
		*why = xstrdup("make failed");
		goto out;
	}
	char *image = xasprintf("%s/arch/x86/boot/bzImage", build);
	if (!modules) {
		kernel = image;
		goto out;
	}
	char *root = xasprintf("%s/modroot", build), *path = xasprintf("INSTALL_MOD_PATH=%s", root);
	const char *rm[] = { "rm", "-rf", root, NULL };
	if (aw_run_wait(rm, -1, log, NULL) != 0 ||
	    MAKE(b, build, log, path, "INSTALL_MOD_STRIP=1", "modules_install") != 0)
		*why = xstrdup("make modules_install failed");
	else
		kernel = xasprintf("%s:%s", image, root);
	free(image);
	free(root);
	free(path);
out:
	if (fd >= 0)
		close(fd);
	free(text);
	free(config);
	free(build);
	return kernel;
}

char *bisect_build(const struct bisect *b, const char *commit, char **why)
{
	char *logpath = xasprintf("%s/commits/%s.build.log", b->out, commit), *kernel = NULL;
	int log = open(logpath, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (log < 0)
		*why = xasprintf("%s: %s", logpath, strerror(errno));
	else if (b->build)
		kernel = build_by_command(b, commit, log, why);
	else
		kernel = build_by_config(b, log, why);
	if (!kernel && log >= 0) {
		char *w = xasprintf("%s (%s)", *why, logpath);
		free(*why);
		*why = w;
	}
	if (log >= 0)
		close(log);
	free(logpath);
	return kernel;
}

// SPDX-License-Identifier: GPL-2.0-or-later
/* Finding and running the programs backends need (mkfs.*), with fork and
 * exec rather than a shell, their output kept for error messages. */
#include "backend.h"
#include "core/util.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define KEEP_OUTPUT 4096

char *aw_find_program(const char *name)
{
	const char *path = getenv("PATH");
	/* mkfs lives in sbin, which a user's PATH often lacks. */
	char *dirs = xasprintf("%s:/usr/local/sbin:/usr/sbin:/sbin", path && *path ? path : "/usr/bin:/bin");
	char *save = NULL, *found = NULL;

	if (strchr(name, '/')) {
		free(dirs);
		return access(name, X_OK) == 0 ? xstrdup(name) : NULL;
	}
	for (char *d = strtok_r(dirs, ":", &save); d && !found; d = strtok_r(NULL, ":", &save)) {
		char *cand = xasprintf("%s/%s", *d ? d : ".", name);
		if (access(cand, X_OK) == 0)
			found = cand;
		else
			free(cand);
	}
	free(dirs);
	return found;
}

/* Keep the last KEEP_OUTPUT bytes read. */
static void keep(char *buf, size_t *len, const char *data, size_t n)
{
	if (n >= KEEP_OUTPUT) {
		memcpy(buf, data + n - KEEP_OUTPUT, KEEP_OUTPUT);
		*len = KEEP_OUTPUT;
		return;
	}
	if (*len + n > KEEP_OUTPUT) {
		size_t drop = *len + n - KEEP_OUTPUT;
		memmove(buf, buf + drop, *len - drop);
		*len -= drop;
	}
	memcpy(buf + *len, data, n);
	*len += n;
}

int aw_run_capture(const char *const argv[], char **output)
{
	return aw_run_capture_env(argv, NULL, output);
}

int aw_run_capture_env(const char *const argv[], const char *const env[], char **output)
{
	int out[2], status_pipe[2];
	char *buf = xcalloc(1, KEEP_OUTPUT + 1);
	size_t len = 0;

	*output = NULL;
	if (pipe2(out, O_CLOEXEC) != 0) {
		free(buf);
		return -1;
	}
	if (pipe2(status_pipe, O_CLOEXEC) != 0) {
		int e = errno;
		close(out[0]);
		close(out[1]);
		free(buf);
		errno = e;
		return -1;
	}
	fflush(NULL);
	pid_t pid = fork();
	if (pid < 0) {
		int e = errno;
		close(out[0]);
		close(out[1]);
		close(status_pipe[0]);
		close(status_pipe[1]);
		free(buf);
		errno = e;
		return -1;
	}
	if (pid == 0) {
		int null = open("/dev/null", O_RDONLY);
		if (null >= 0)
			dup2(null, STDIN_FILENO);
		dup2(out[1], STDOUT_FILENO);
		dup2(out[1], STDERR_FILENO);
		/* Messages in English, whatever the caller's locale. */
		setenv("LC_ALL", "C", 1);
		for (size_t i = 0; env && env[i]; i++)
			putenv((char *)env[i]);
		execv(argv[0], (char *const *)argv);
		int e = errno;
		(void)!write(status_pipe[1], &e, sizeof(e));
		_exit(127);
	}
	close(out[1]);
	close(status_pipe[1]);

	char data[4096];
	ssize_t n;
	for (;;) {
		n = read(out[0], data, sizeof(data));
		if (n > 0)
			keep(buf, &len, data, (size_t)n);
		else if (n == 0 || errno != EINTR)
			break;
	}
	close(out[0]);

	int exec_errno = 0;
	while ((n = read(status_pipe[0], &exec_errno, sizeof(exec_errno))) < 0 && errno == EINTR)
		;
	close(status_pipe[0]);

	int status;
	while (waitpid(pid, &status, 0) < 0) {
		if (errno != EINTR) {
			free(buf);
			return -1;
		}
	}
	buf[len] = '\0';
	*output = buf;
	if (n == (ssize_t)sizeof(exec_errno)) {
		free(buf);
		*output = xasprintf("cannot execute %s: %s", argv[0], strerror(exec_errno));
		errno = exec_errno;
		return -1;
	}
	if (WIFSIGNALED(status)) {
		free(buf);
		*output = xasprintf("%s killed by signal %d", argv[0], WTERMSIG(status));
		errno = EINTR;
		return -1;
	}
	return WEXITSTATUS(status);
}

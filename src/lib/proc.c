// SPDX-License-Identifier: GPL-2.0-or-later
/* Children that die with abiwatch, and anonymous files: see proc.h. */
#include "proc.h"
#include "core/util.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#ifndef CLOSE_RANGE_CLOEXEC
#define CLOSE_RANGE_CLOEXEC (1U << 2)
#endif

char *aw_which(const char *name)
{
	if (strchr(name, '/'))
		return access(name, X_OK) == 0 ? xstrdup(name) : NULL;
	const char *path = getenv("PATH");
	char *dirs = xstrdup(path && *path ? path : "/usr/local/bin:/usr/bin:/bin");
	char *save = NULL, *found = NULL;
	for (char *d = strtok_r(dirs, ":", &save); d && !found; d = strtok_r(NULL, ":", &save)) {
		char *cand = xasprintf("%s/%s", *d ? d : ".", name);
		struct stat st;
		if (access(cand, X_OK) == 0 && stat(cand, &st) == 0 && S_ISREG(st.st_mode))
			found = cand;
		else
			free(cand);
	}
	free(dirs);
	return found;
}

static __attribute__((noreturn)) void child(const char *const argv[], const struct aw_spawn *how,
					    pid_t parent, int report_fd)
{
	int e;
	if (how->own_pgrp)
		setpgid(0, 0);
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	/* The parent died before the line above: nobody would kill us. */
	if (getppid() != parent)
		_exit(127);

	sigset_t none;
	sigemptyset(&none);
	for (int sig = 1; sig < NSIG; sig++)
		if (sig != SIGKILL && sig != SIGSTOP)
			signal(sig, SIG_DFL);
	sigprocmask(SIG_SETMASK, &none, NULL);

	int fds[3] = { how->in, how->out, how->err };
	for (int i = 0; i < 3; i++) {
		if (fds[i] < 0)
			fds[i] = open("/dev/null", i == 0 ? O_RDONLY : O_WRONLY);
		/* Out of the way of 0..2 first, so that dup2 order does not matter. */
		if (fds[i] >= 0 && fds[i] < 3)
			fds[i] = fcntl(fds[i], F_DUPFD, 3);
	}
	for (int i = 0; i < 3; i++)
		if (fds[i] >= 0)
			dup2(fds[i], i);
	/* Nothing else leaks into the program but what was asked for. */
	(void)syscall(SYS_close_range, 3U, ~0U, CLOSE_RANGE_CLOEXEC);
	for (const int *k = how->keep; k && *k >= 0; k++)
		fcntl(*k, F_SETFD, 0);
	for (const char *const *v = how->env; v && *v; v++)
		putenv((char *)*v);

	char *path = aw_which(argv[0]);
	if (path)
		execv(path, (char *const *)argv);
	e = path ? errno : ENOENT;
	(void)!write(report_fd, &e, sizeof(e));
	_exit(127);
}

pid_t aw_spawn(const char *const argv[], const struct aw_spawn *how)
{
	int report[2];
	pid_t parent = getpid();

	if (pipe2(report, O_CLOEXEC) != 0)
		return -1;
	fflush(NULL);
	pid_t pid = fork();
	if (pid < 0) {
		int e = errno;
		close(report[0]);
		close(report[1]);
		errno = e;
		return -1;
	}
	if (pid == 0) {
		close(report[0]);
		child(argv, how, parent, report[1]);
	}
	close(report[1]);
	if (how->own_pgrp)
		setpgid(pid, pid); /* also here: no window in which it is in ours */
	int exec_errno = 0;
	ssize_t n;
	while ((n = read(report[0], &exec_errno, sizeof(exec_errno))) < 0 && errno == EINTR)
		;
	close(report[0]);
	if (n == (ssize_t)sizeof(exec_errno)) {
		while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
			;
		errno = exec_errno;
		return -1;
	}
	return pid;
}

int aw_wait_until(pid_t pid, double deadline, int *status)
{
	int pidfd = (int)syscall(SYS_pidfd_open, pid, 0);
	int rc = 0;
	for (;;) {
		pid_t w = waitpid(pid, status, WNOHANG);
		if (w == pid) {
			rc = 1;
			break;
		}
		if (w < 0 && errno != EINTR) {
			*status = 0;
			rc = -1;
			break;
		}
		double left = deadline > 0 ? deadline - aw_now() : 1.0;
		if (left <= 0)
			break;
		int ms = (int)(left * 1000) + 1;
		if (pidfd < 0 && ms > 20)
			ms = 20;
		if (ms > 1000)
			ms = 1000;
		struct pollfd p = { .fd = pidfd, .events = POLLIN };
		(void)poll(&p, pidfd >= 0 ? 1 : 0, ms);
	}
	if (pidfd >= 0) {
		int e = errno;
		close(pidfd);
		errno = e;
	}
	return rc;
}

void aw_kill_reap(pid_t pid)
{
	if (pid <= 0)
		return;
	kill(-pid, SIGKILL);
	kill(pid, SIGKILL);
	while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
		;
}

int aw_run_wait(const char *const argv[], int in, int out, char **err_text)
{
	int err_fd = -1;
	if (err_text) {
		*err_text = NULL;
		err_fd = aw_anon_file("stderr");
		if (err_fd < 0)
			return -1;
	}
	struct aw_spawn how = { .in = in, .out = out, .err = err_fd, .own_pgrp = true };
	pid_t pid = aw_spawn(argv, &how);
	if (pid < 0) {
		int e = errno;
		if (err_text)
			*err_text = xasprintf("cannot run %s: %s", argv[0], strerror(e));
		if (err_fd >= 0)
			close(err_fd);
		errno = e;
		return -1;
	}
	int status = 0;
	aw_wait_until(pid, 0, &status);
	if (err_text) {
		char *text;
		size_t len;
		if (aw_fd_slurp(err_fd, &text, &len) == 0) {
			if (len > 4096)
				memmove(text, text + len - 4096, 4097);
			*err_text = text;
		}
		close(err_fd);
	}
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	if (err_text) {
		char *old = *err_text;
		*err_text = xasprintf("%s%s killed by signal %d", old ? old : "", argv[0],
				      WTERMSIG(status));
		free(old);
	}
	return -1;
}

int aw_anon_file(const char *name)
{
	int fd = memfd_create(name, MFD_CLOEXEC);
	if (fd >= 0)
		return fd;
	const char *tmp = getenv("TMPDIR");
	return open(tmp && *tmp ? tmp : "/tmp", O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
}

char *aw_fd_path(int fd)
{
	return xasprintf("/proc/self/fd/%d", fd);
}

int aw_fd_slurp(int fd, char **data, size_t *len)
{
	struct stat st;
	if (fstat(fd, &st) != 0)
		return -1;
	size_t cap = (size_t)st.st_size + 1, n = 0;
	char *buf = xmalloc(cap);
	for (;;) {
		if (n + 1 >= cap) {
			cap *= 2;
			buf = xrealloc(buf, cap);
		}
		ssize_t r = pread(fd, buf + n, cap - n - 1, (off_t)n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			int e = errno;
			free(buf);
			errno = e;
			return -1;
		}
		if (r == 0)
			break;
		n += (size_t)r;
	}
	buf[n] = '\0';
	*data = buf;
	*len = n;
	return 0;
}

int aw_file_slurp(const char *path, char **data, size_t *len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	int rc = aw_fd_slurp(fd, data, len);
	int e = errno;
	close(fd);
	errno = e;
	return rc;
}

int aw_fd_copy(int out, int in, off_t off, size_t len)
{
	char buf[65536];
	while (len > 0) {
		size_t want = len < sizeof(buf) ? len : sizeof(buf);
		ssize_t r = pread(in, buf, want, off);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0) {
			if (r == 0)
				errno = EIO;
			return -1;
		}
		if (aw_write_all(out, buf, (size_t)r) != 0)
			return -1;
		off += r;
		len -= (size_t)r;
	}
	return 0;
}

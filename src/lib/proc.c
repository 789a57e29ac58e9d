// SPDX-License-Identifier: GPL-2.0-or-later
/* Children that die with abiwatch, and anonymous files: see proc.h. */
#include "proc.h"
#include "util.h"
#include "steady.h"

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
	char *dirs = xasprintf("%s:/usr/local/sbin:/usr/sbin:/sbin",
			       path && *path ? path : "/usr/local/bin:/usr/bin:/bin");
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
	if (path && how->before_exec)
		how->before_exec(how->before_exec_arg);
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

/* SIGKILL pid's process group (if it leads one) and pid, and reap it. */
static void kill_wait(pid_t pid, int *status)
{
	kill(-pid, SIGKILL);
	kill(pid, SIGKILL);
	while (waitpid(pid, status, 0) < 0 && errno == EINTR)
		;
}

void aw_kill_reap(pid_t pid)
{
	if (pid > 0)
		kill_wait(pid, NULL);
}

/* Add n bytes of output to what cap keeps. */
static void keep_output(struct aw_capture *cap, const char *data, size_t n)
{
	size_t room = cap->max - cap->len;
	if (n > room && !cap->keep_tail) {
		cap->overflowed = true;
		n = room;
	}
	cap->text = xrealloc(cap->text, cap->len + n + 1);
	memcpy(cap->text + cap->len, data, n);
	cap->len += n;
	if (cap->len > cap->max) {
		size_t drop = cap->len - cap->max;
		memmove(cap->text, cap->text + drop, cap->max);
		cap->len = cap->max;
		cap->overflowed = true;
	}
	cap->text[cap->len] = '\0';
}

/* Read fd into cap until EOF, the deadline (cap->timed_out) or, when
 * only the first bytes are kept, more output than max. */
static void read_output(int fd, double deadline, struct aw_capture *cap)
{
	char chunk[4096];
	for (;;) {
		double left = deadline > 0 ? deadline - aw_now() : -1;
		struct pollfd p = { .fd = fd, .events = POLLIN };
		if (deadline > 0 && (left <= 0 || poll(&p, 1, (int)(left * 1000) + 1) == 0)) {
			cap->timed_out = true;
			return;
		}
		ssize_t n = read(fd, chunk, sizeof(chunk));
		if (n < 0 && (errno == EINTR || errno == EAGAIN))
			continue;
		if (n <= 0)
			return;
		keep_output(cap, chunk, (size_t)n);
		if (cap->overflowed && !cap->keep_tail)
			return;
	}
}

int aw_capture(const char *const argv[], const struct aw_spawn *how, struct aw_capture *cap)
{
	int pipefd[2];
	struct aw_spawn h = *how;
	double deadline = cap->timeout_s > 0 ? aw_now() + cap->timeout_s * aw_deadline_stretch() : 0;

	cap->text = NULL;
	cap->len = 0;
	cap->status = 0;
	cap->timed_out = cap->overflowed = false;
	if (pipe2(pipefd, O_CLOEXEC) != 0)
		return -1;
	if (cap->out)
		h.out = pipefd[1];
	if (cap->err)
		h.err = pipefd[1];
	pid_t pid = aw_spawn(argv, &h);
	int e = errno;
	close(pipefd[1]);
	if (pid < 0) {
		close(pipefd[0]);
		errno = e;
		return -1;
	}
	cap->text = xcalloc(1, 1);
	read_output(pipefd[0], deadline, cap);
	close(pipefd[0]);
	bool stop = cap->timed_out || (cap->overflowed && !cap->keep_tail);
	if (!stop && aw_wait_until(pid, deadline, &cap->status) == 0)
		stop = cap->timed_out = true;
	if (stop)
		kill_wait(pid, &cap->status);
	return 0;
}

int aw_run_wait(const char *const argv[], int in, int out, char **err_text)
{
	struct aw_spawn how = { .in = in, .out = out, .err = -1, .own_pgrp = true };
	struct aw_capture cap = { .err = err_text != NULL, .max = 4096, .keep_tail = true };

	if (aw_capture(argv, &how, &cap) != 0) {
		int e = errno;
		if (err_text)
			*err_text = xasprintf("cannot run %s: %s", argv[0], strerror(e));
		errno = e;
		return -1;
	}
	if (WIFEXITED(cap.status) || !err_text) {
		if (err_text)
			*err_text = cap.text;
		else
			free(cap.text);
		return WIFEXITED(cap.status) ? WEXITSTATUS(cap.status) : -1;
	}
	*err_text = xasprintf("%s%s killed by signal %d", cap.text, argv[0], WTERMSIG(cap.status));
	free(cap.text);
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

#define SPARSE_BLOCK 65536

static bool all_zero(const char *buf, size_t n)
{
	return n == 0 || (buf[0] == 0 && memcmp(buf, buf + 1, n - 1) == 0);
}

/* pread() of up to want bytes, again on EINTR: how many, or -1 with
 * errno (EIO for an end of file before off). */
static ssize_t pread_some(int in, char *buf, size_t want, off_t off)
{
	for (;;) {
		ssize_t r = pread(in, buf, want, off);
		if (r < 0 && errno == EINTR)
			continue;
		if (r == 0)
			errno = EIO;
		return r > 0 ? r : -1;
	}
}

/* The data of in from off to end, but its blocks of zeros, into out. */
static int copy_extent(int out, int in, off_t off, off_t end)
{
	char buf[SPARSE_BLOCK];
	while (off < end) {
		size_t want = end - off < SPARSE_BLOCK ? (size_t)(end - off) : SPARSE_BLOCK;
		ssize_t r = pread_some(in, buf, want, off);
		if (r < 0)
			return -1;
		for (ssize_t done = 0; !all_zero(buf, (size_t)r) && done < r;) {
			ssize_t w = pwrite(out, buf + done, (size_t)(r - done), off + done);
			if (w < 0 && errno != EINTR)
				return -1;
			done += w > 0 ? w : 0;
		}
		off += r;
	}
	return 0;
}

int aw_copy_sparse(int out, int in)
{
	struct stat st;
	if (fstat(in, &st) != 0)
		return -1;
	if (!S_ISREG(st.st_mode)) {
		errno = EINVAL;
		return -1;
	}
	off_t off = 0;
	while (off < st.st_size) {
		off_t data = lseek(in, off, SEEK_DATA);
		if (data < 0 && errno == ENXIO)
			break; /* a hole to the end */
		if (data < 0)
			data = off; /* no SEEK_DATA here: all of it is data */
		off_t hole = lseek(in, data, SEEK_HOLE);
		if (hole < 0)
			hole = st.st_size;
		if (copy_extent(out, in, data, hole) != 0)
			return -1;
		off = hole;
	}
	return ftruncate(out, st.st_size);
}

int aw_fd_copy(int out, int in, off_t off, size_t len)
{
	char buf[65536];
	while (len > 0) {
		size_t want = len < sizeof(buf) ? len : sizeof(buf);
		ssize_t r = pread_some(in, buf, want, off);
		if (r < 0 || aw_write_all(out, buf, (size_t)r) != 0)
			return -1;
		off += r;
		len -= (size_t)r;
	}
	return 0;
}

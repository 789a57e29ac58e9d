// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A probe's scratch subdirectory in a host directory, and the janitor
 * that removes it (see hostdir.h for why a process of its own).
 */
#include "hostdir.h"
#include "lib/util.h"
#include "lib/tree.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

/* Descriptors the janitor keeps: the host directory and the pipes. */
#define JANITOR_PARENT_FD 3
#define JANITOR_HOLD_FD 4
#define JANITOR_REPLY_FD 5

static int make_unique_dir(int parent, char **name)
{
	for (int tries = 0; tries < 16; tries++) {
		uint64_t r = 0;
		if (getrandom(&r, sizeof(r), 0) != (ssize_t)sizeof(r))
			r = (uint64_t)getpid() * 2654435761u + (uint64_t)tries;
		char *n = xasprintf(".abiwatch-%012llx", (unsigned long long)(r & 0xffffffffffffULL));
		if (mkdirat(parent, n, 0700) == 0) {
			*name = n;
			return 0;
		}
		int e = errno;
		free(n);
		if (e != EEXIST)
			return -e;
	}
	return -EEXIST;
}

/* Remove name below parent: its contents, then itself, bounded (a
 * listing that never ends, a daemon that never answers: lib/tree.h).  A
 * directory that someone else removed already is not an error. */
static int remove_subdir(int parent, const char *name, double deadline)
{
	int fd = openat(parent, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return errno == ENOENT ? 0 : -errno;
	struct aw_tree_limits lim = AW_TREE_LIMITS_DEFAULT;
	lim.deadline = deadline;
	int r = aw_remove_tree(fd, &lim);
	close(fd);
	if (r)
		return r;
	if (unlinkat(parent, name, AT_REMOVEDIR) != 0 && errno != ENOENT)
		return -errno;
	return 0;
}

static volatile sig_atomic_t orphaned;

static void on_parent_death(int sig)
{
	(void)sig;
	orphaned = 1;
}

/* Out of reach of the signals a terminal or a supervisor sends to
 * abiwatch's process group (the janitor must outlive them), holding
 * nothing of abiwatch's but its three descriptors, and told when
 * abiwatch dies (SIGUSR1), since from then on it must end by itself. */
static void detach_janitor(int parent, int hold_rd, int reply_wr, pid_t runner)
{
	signal(SIGINT, SIG_IGN);
	signal(SIGTERM, SIG_IGN);
	signal(SIGHUP, SIG_IGN);
	signal(SIGQUIT, SIG_IGN);
	signal(SIGPIPE, SIG_IGN);
	struct sigaction sa = { .sa_handler = on_parent_death };
	sigaction(SIGUSR1, &sa, NULL);
	prctl(PR_SET_PDEATHSIG, SIGUSR1);
	if (getppid() != runner)
		orphaned = 1;
	(void)setsid();
	sigset_t none;
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	/* Nothing else of abiwatch's (the result pipes of later probes,
	 * stdout's pipe) may stay open because of us. */
	int keep[3] = { fcntl(parent, F_DUPFD, 10), fcntl(hold_rd, F_DUPFD, 10),
			 fcntl(reply_wr, F_DUPFD, 10) };
	for (int i = 0; i < 3; i++)
		if (keep[i] < 0 || dup2(keep[i], JANITOR_PARENT_FD + i) < 0)
			_exit(1);
	close_range(JANITOR_REPLY_FD + 1, ~0U, 0);
	int null = open("/dev/null", O_RDWR | O_CLOEXEC);
	if (null >= 0) {
		dup2(null, STDIN_FILENO);
		dup2(null, STDOUT_FILENO);
		close(null);
	}
}

/* Until the hold pipe has no writer left: true.  Once abiwatch is dead,
 * for AW_HOSTDIR_ORPHAN_S at most: false when the probe's processes
 * outlive that (stuck in the kernel on a filesystem that hangs). */
static bool wait_release(void)
{
	double deadline = 0;
	for (;;) {
		if (orphaned && deadline == 0)
			deadline = aw_now() + AW_HOSTDIR_ORPHAN_S;
		int ms = -1;
		if (deadline > 0) {
			double left = deadline - aw_now();
			if (left <= 0)
				return false;
			ms = (int)(left * 1000) + 1;
		}
		struct pollfd pfd = { .fd = JANITOR_HOLD_FD, .events = POLLIN };
		if (poll(&pfd, 1, ms) <= 0)
			continue;
		char c;
		ssize_t n = read(JANITOR_HOLD_FD, &c, 1);
		if (n == 0 || (n < 0 && errno != EINTR))
			return true;
	}
}

/* The removal, in a child the janitor can SIGKILL: a process waiting on a
 * FUSE daemon that never answers wakes only for a fatal signal.  0, or
 * -errno (-ETIMEDOUT when it took longer than AW_HOSTDIR_REMOVE_S). */
static int remove_in_time(const char *name)
{
	double deadline = aw_now() + AW_HOSTDIR_REMOVE_S;
	pid_t pid = fork();
	if (pid < 0)
		return -errno;
	if (pid == 0) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		signal(SIGUSR1, SIG_DFL);
		int r = remove_subdir(JANITOR_PARENT_FD, name, deadline);
		_exit(r < 0 && -r < 255 ? -r : r ? 255 : 0);
	}
	int pidfd = (int)syscall(SYS_pidfd_open, pid, 0);
	int status = 0;
	for (;;) {
		pid_t w = waitpid(pid, &status, WNOHANG);
		if (w == pid)
			break;
		double left = deadline - aw_now();
		if (left <= 0) {
			kill(pid, SIGKILL);
			/* Killable waits end now; one that is not is the kernel's. */
			struct pollfd pfd = { .fd = pidfd, .events = POLLIN };
			if (pidfd < 0 || poll(&pfd, 1, 1000) > 0)
				waitpid(pid, NULL, WNOHANG);
			if (pidfd >= 0)
				close(pidfd);
			return -ETIMEDOUT;
		}
		struct pollfd pfd = { .fd = pidfd, .events = POLLIN };
		if (pidfd < 0 || poll(&pfd, 1, (int)(left * 1000) + 1) < 0)
			usleep(10000);
	}
	if (pidfd >= 0)
		close(pidfd);
	if (WIFSIGNALED(status))
		return -EINTR;
	return -WEXITSTATUS(status);
}

/* The janitor: out of reach of abiwatch's signals, it makes the
 * subdirectory itself, so that no moment exists at which the directory is
 * there and nobody will remove it; tells its name (or the errno) on reply;
 * waits for the hold pipe to have no writer left; removes it within its
 * budget; and tells how that went ("R 0", "R errno reason") on reply, or,
 * abiwatch being dead, on its standard error. */
static __attribute__((noreturn)) void janitor(int parent, int hold_rd, int reply_wr,
					      const char *path, pid_t runner)
{
	detach_janitor(parent, hold_rd, reply_wr, runner);
	char *name = NULL;
	int r = make_unique_dir(JANITOR_PARENT_FD, &name);
	char *reply = r ? xasprintf("E %d\n", -r) : xasprintf("D %s\n", name);
	(void)aw_write_all(JANITOR_REPLY_FD, reply, strlen(reply));
	free(reply);
	if (r)
		_exit(1);
	const char *why = NULL;
	if (!wait_release()) {
		r = -EBUSY;
		why = "the probe's processes outlived abiwatch (stuck in the kernel)";
	} else if ((r = remove_in_time(name)) == -ETIMEDOUT) {
		why = "its removal did not end in time (a listing that never ends, or a "
		      "filesystem that does not answer)";
	}
	char *line = r ? xasprintf("R %d %s\n", -r, why ? why : strerror(-r)) : xstrdup("R 0\n");
	if (aw_write_all(JANITOR_REPLY_FD, line, strlen(line)) != 0 || orphaned) {
		if (r)
			fprintf(stderr, "abiwatch: left the scratch directory %s/%s: %s\n", path, name,
				why ? why : strerror(-r));
	}
	free(line);
	free(name);
	_exit(r ? 1 : 0);
}

/* The janitor's reply: 0 and *name, or -errno. */
static int read_reply(int fd, char **name)
{
	char buf[128];
	size_t len = 0;
	ssize_t n;
	/* One byte at a time: the pipe stays open for the janitor's last
	 * word, which must not be read here. */
	while (len < sizeof(buf) - 1 && !memchr(buf, '\n', len) &&
	       ((n = read(fd, buf + len, 1)) > 0 || (n < 0 && errno == EINTR)))
		if (n > 0)
			len += (size_t)n;
	buf[len] = '\0';
	char *nl = strchr(buf, '\n');
	int err;
	if (!nl)
		return -EIO; /* the janitor died before it could say */
	*nl = '\0';
	if (buf[0] == 'D' && buf[1] == ' ') {
		*name = xstrdup(buf + 2);
		return 0;
	}
	return sscanf(buf, "E %d", &err) == 1 && err > 0 ? -err : -EIO;
}

int aw_hostdir_make(const char *host_path, struct aw_hostdir *h, char **why)
{
	int hold[2] = { -1, -1 }, reply[2] = { -1, -1 };
	*why = NULL;
	*h = (struct aw_hostdir){ .dirfd = -1, .hold_fd = -1, .reply_fd = -1, .janitor = -1 };
	int parent = open(host_path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (parent < 0) {
		*why = xasprintf("%s: %s", host_path, strerror(errno));
		return -1;
	}
	if (pipe2(hold, O_CLOEXEC) != 0 || pipe2(reply, O_CLOEXEC) != 0) {
		*why = xasprintf("pipe: %s", strerror(errno));
		goto out;
	}
	/* Blocked across fork, so that a ^C cannot kill the janitor before
	 * it ignores SIGINT. */
	sigset_t all, old;
	sigfillset(&all);
	sigprocmask(SIG_BLOCK, &all, &old);
	fflush(NULL);
	pid_t runner = getpid();
	h->janitor = fork();
	if (h->janitor == 0)
		janitor(parent, hold[0], reply[1], host_path, runner);
	int e = errno;
	sigprocmask(SIG_SETMASK, &old, NULL);
	close(reply[1]);
	reply[1] = -1;
	if (h->janitor < 0) {
		*why = xasprintf("fork: %s", strerror(e));
		goto out;
	}
	h->hold_fd = hold[1];
	hold[1] = -1;
	int r = read_reply(reply[0], &h->name);
	h->reply_fd = reply[0];
	reply[0] = -1;
	if (r == 0 && (h->dirfd = openat(parent, h->name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
					 O_CLOEXEC)) < 0)
		r = -errno;
	if (r) {
		*why = xasprintf("making a scratch subdirectory in %s: %s", host_path, strerror(-r));
		free(aw_hostdir_release(h, true));
	}
out:
	for (int i = 0; i < 2; i++) {
		if (hold[i] >= 0)
			close(hold[i]);
		if (reply[i] >= 0)
			close(reply[i]);
	}
	close(parent);
	return *why ? -1 : 0;
}

char *aw_hostdir_lost(const char *host_path, const struct aw_hostdir *h)
{
	struct stat st;
	if (h->dirfd < 0 || fstat(h->dirfd, &st) != 0 || st.st_nlink > 0)
		return NULL;
	return xasprintf("the scratch directory %s/%s was removed by someone else during the "
			 "run, so no result of this probe can be trusted", host_path, h->name);
}

/* The janitor's last word, "R 0" or "R errno why", read until a little
 * after its own budget: NULL, or what was left and why. */
static char *read_outcome(const struct aw_hostdir *h)
{
	char buf[512];
	size_t len = 0;
	double deadline = aw_now() + AW_HOSTDIR_REMOVE_S + 1;
	for (;;) {
		double left = deadline - aw_now();
		struct pollfd pfd = { .fd = h->reply_fd, .events = POLLIN };
		if (left <= 0 || len == sizeof(buf) - 1)
			break;
		if (poll(&pfd, 1, (int)(left * 1000) + 1) <= 0)
			continue;
		ssize_t n = read(h->reply_fd, buf + len, sizeof(buf) - 1 - len);
		if (n == 0 || (n < 0 && errno != EINTR))
			break;
		if (n > 0)
			len += (size_t)n;
		if (memchr(buf, '\n', len))
			break;
	}
	buf[len] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	int err = 0, at = 0;
	if (sscanf(buf, "R %d %n", &err, &at) >= 1 && err == 0)
		return NULL;
	if (err > 0 && at > 0)
		return xasprintf("%s was left: %s", h->name, buf + at);
	return xasprintf("%s may be left: its janitor %s", h->name,
			 len ? "gave an unreadable answer" : "did not answer in time");
}

char *aw_hostdir_release(struct aw_hostdir *h, bool wait)
{
	char *left = NULL;
	if (h->dirfd >= 0)
		close(h->dirfd);
	if (h->hold_fd >= 0)
		close(h->hold_fd);
	if (wait && h->janitor > 0 && h->reply_fd >= 0) {
		left = read_outcome(h);
		/* It exits right after its answer; without one, it is left to
		 * end by itself (its removal has a budget of its own). */
		if (!left || !strstr(left, "did not answer"))
			while (waitpid(h->janitor, NULL, 0) < 0 && errno == EINTR)
				;
	}
	if (h->reply_fd >= 0)
		close(h->reply_fd);
	free(h->name);
	*h = (struct aw_hostdir){ .dirfd = -1, .hold_fd = -1, .reply_fd = -1, .janitor = -1 };
	return left;
}

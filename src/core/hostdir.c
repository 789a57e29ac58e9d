// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A probe's scratch subdirectory in a host directory, and the janitor
 * that removes it (see hostdir.h for why a process of its own).
 */
#include "hostdir.h"
#include "backends/backend.h"
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
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

/* Remove name below parent: its contents, then itself.  A directory that
 * someone else removed already is not an error. */
static int remove_subdir(int parent, const char *name)
{
	int fd = openat(parent, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return errno == ENOENT ? 0 : -errno;
	int r = aw_remove_tree(fd);
	close(fd);
	if (r)
		return r;
	if (unlinkat(parent, name, AT_REMOVEDIR) != 0 && errno != ENOENT)
		return -errno;
	return 0;
}

/* Out of reach of the signals a terminal or a supervisor sends to
 * abiwatch's process group (the janitor must outlive them), holding
 * nothing of abiwatch's but its three descriptors. */
static void detach_janitor(int parent, int hold_rd, int reply_wr)
{
	signal(SIGINT, SIG_IGN);
	signal(SIGTERM, SIG_IGN);
	signal(SIGHUP, SIG_IGN);
	signal(SIGQUIT, SIG_IGN);
	signal(SIGPIPE, SIG_IGN);
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

/* The janitor: out of reach of abiwatch's signals, it makes the
 * subdirectory itself, so that no moment exists at which the directory is
 * there and nobody will remove it; tells its name (or the errno) on reply;
 * waits for the hold pipe to have no writer left; and removes it. */
static __attribute__((noreturn)) void janitor(int parent, int hold_rd, int reply_wr,
					      const char *path)
{
	detach_janitor(parent, hold_rd, reply_wr);
	char *name = NULL;
	int r = make_unique_dir(JANITOR_PARENT_FD, &name);
	char *reply = r ? xasprintf("E %d\n", -r) : xasprintf("D %s\n", name);
	(void)aw_write_all(JANITOR_REPLY_FD, reply, strlen(reply));
	close(JANITOR_REPLY_FD);
	free(reply);
	if (r)
		_exit(1);
	for (;;) {
		char c;
		ssize_t n = read(JANITOR_HOLD_FD, &c, 1);
		if (n == 0 || (n < 0 && errno != EINTR))
			break;
	}
	r = remove_subdir(JANITOR_PARENT_FD, name);
	if (r)
		fprintf(stderr, "abiwatch: removing the scratch directory %s/%s: %s\n", path, name,
			strerror(-r));
	free(name);
	_exit(r ? 1 : 0);
}

/* The janitor's reply: 0 and *name, or -errno. */
static int read_reply(int fd, char **name)
{
	char buf[128];
	size_t len = 0;
	ssize_t n;
	while (len < sizeof(buf) - 1 &&
	       ((n = read(fd, buf + len, sizeof(buf) - 1 - len)) > 0 || (n < 0 && errno == EINTR)))
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
	*h = (struct aw_hostdir){ .dirfd = -1, .hold_fd = -1, .janitor = -1 };
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
	h->janitor = fork();
	if (h->janitor == 0)
		janitor(parent, hold[0], reply[1], host_path);
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
	if (r == 0 && (h->dirfd = openat(parent, h->name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
					 O_CLOEXEC)) < 0)
		r = -errno;
	if (r) {
		*why = xasprintf("making a scratch subdirectory in %s: %s", host_path, strerror(-r));
		aw_hostdir_release(h, 1);
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

void aw_hostdir_release(struct aw_hostdir *h, int wait)
{
	if (h->dirfd >= 0)
		close(h->dirfd);
	if (h->hold_fd >= 0)
		close(h->hold_fd);
	if (wait && h->janitor > 0)
		while (waitpid(h->janitor, NULL, 0) < 0 && errno == EINTR)
			;
	free(h->name);
	*h = (struct aw_hostdir){ .dirfd = -1, .hold_fd = -1, .janitor = -1 };
}

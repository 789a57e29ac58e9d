// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * pidfds, clone3 and subreapers, what service managers (systemd),
 * container runtimes (crun, runc) and language runtimes use to start and
 * reap children without pid races (pidfd_open(2), pidfd_send_signal(2),
 * pidfd_getfd(2), clone3 in clone(2), PR_SET_CHILD_SUBREAPER in
 * prctl(2)):
 * - pidfd_send_signal (3eb39f47934f, 5.1);
 * - PIDFD_NONBLOCK (5.10, "pidfd: support PIDFD_NONBLOCK in
 *   pidfd_open()"): waitid(P_PIDFD) on a running
 *   child fails with EAGAIN instead of blocking;
 * - pidfd_getfd (5.6);
 * - PIDFD_THREAD (64bef697d33b, 6.9): a pidfd of one thread;
 * - clone3's CLONE_INTO_CGROUP (ef2c41cf38a7, 5.7), told known by the
 *   EBADF of a descriptor that is none rather than EINVAL, so that no
 *   process is made in any cgroup; CLONE_CLEAR_SIGHAND (b612e5df4587,
 *   5.5): the child's handlers are reset to the default;
 * - an orphan's new parent: the nearest subreaper (3.4),
 *   else the PID namespace's init.
 */
#include "process.h"
#include "lib/child.h"
#include "lib/errname.h"
#include "lib/uapi.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#ifndef P_PIDFD
#define P_PIDFD 3
#endif
#define PIDFD_THREAD_ O_EXCL
#ifndef CLONE_INTO_CGROUP
#define CLONE_INTO_CGROUP 0x200000000ULL
#endif
#ifndef SYS_pidfd_getfd
#define SYS_pidfd_getfd 438
#endif

static const char *const refused[] = { "ENOSYS", "EINVAL", NULL };

static const struct aw_item pidfd_items[] = {
	AW_OBS_ITEM("send_signal", "pidfd_send_signal(SIGTERM) to a child through its pidfd: how the child ends, or the errno",
		    .change = "ENOSYS: no pidfd_send_signal (before 5.1); service managers fall back to kill() and its pid races",
		    .object = "pidfd", .absent = refused),
	AW_OBS_ITEM("nonblock", "waitid(P_PIDFD) on a running child's pidfd opened with PIDFD_NONBLOCK: the errno",
		    .change = "EINVAL: no PIDFD_NONBLOCK (before 5.10); event loops waiting on pidfds block", .object = "pidfd",
		    .absent = refused),
	AW_OBS_ITEM("getfd", "pidfd_getfd() of a child's pipe descriptor: the same file, or the errno",
		    .change = "ENOSYS: no pidfd_getfd (before 5.6); supervisors cannot take a child's sockets",
		    .object = "pidfd", .absent = refused),
	AW_OBS_ITEM("thread", "pidfd_open(PIDFD_THREAD) of a child: ok, or the errno",
		    .change = "EINVAL: no thread pidfds (before 6.9); runtimes signal threads by tid, with its races",
		    .object = "pidfd", .absent = refused),
	AW_OBS_ITEM("clone3.into_cgroup", "clone3(CLONE_INTO_CGROUP) with a cgroup descriptor that is none: the errno (EBADF: the flag is known)",
		    .change = "EINVAL: no CLONE_INTO_CGROUP (before 5.7); systemd and crun move children after the fact",
		    .object = "clone3", .absent = refused),
	AW_OBS_ITEM("clone3.clear_sighand", "clone3(CLONE_CLEAR_SIGHAND): the child's SIGUSR1 handler, or the errno",
		    .change = "EINVAL: no CLONE_CLEAR_SIGHAND (before 5.5); spawners reset handlers one by one",
		    .object = "clone3", .absent = refused),
	AW_OBS_ITEM("subreaper.orphan", "an orphan's parent after its parent exits, under a PR_SET_CHILD_SUBREAPER ancestor",
		    .change = "supervisors (tini, systemd --user, containerd-shim) stop receiving their orphans", .object = "subreaper"),
	AW_OBS_ITEM("subreaper.none", "an orphan's parent with no subreaper above it but the PID namespace's init",
		    .object = "subreaper"),
	AW_ITEMS_END
};

static struct aw_ctx *pctx;

/* A child that waits until its stdin-like pipe closes; its pid. */
static pid_t idle_child(int keep_fd, int wait_fd)
{
	fflush(NULL);
	pid_t pid = fork();
	if (pid == 0) {
		char c;
		(void)keep_fd;
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		(void)!read(wait_fd, &c, 1);
		_exit(0);
	}
	return pid;
}

static void pidfd_items_run(struct aw_ctx *ctx)
{
	int p[2];
	char buf[48];
	if (pipe(p) != 0) {
		aw_error_rest(ctx, "pipe: %s", aw_errname(errno));
		return;
	}
	pid_t pid = idle_child(p[1], p[0]);
	if (pid < 0) {
		aw_error_rest(ctx, "fork: %s", aw_errname(errno));
		return;
	}
	int fd = (int)syscall(SYS_pidfd_open, pid, 0);
	if (fd < 0) {
		int e = errno;
		aw_observe(ctx, "send_signal", "%s", aw_errname(e));
		aw_observe(ctx, "getfd", "%s", aw_errname(e));
	} else {
		int got = (int)syscall(SYS_pidfd_getfd, fd, p[0], 0);
		struct stat a, b;
		if (got < 0)
			aw_observe(ctx, "getfd", "%s", aw_errname(errno));
		else
			aw_observe(ctx, "getfd", "%s", fstat(got, &a) == 0 && fstat(p[0], &b) == 0 && a.st_ino == b.st_ino ?
				   "the same file" : "another file");
		if (got >= 0)
			close(got);
	}
	int nb = (int)syscall(SYS_pidfd_open, pid, PIDFD_NONBLOCK);
	if (nb < 0) {
		aw_observe(ctx, "nonblock", "%s", aw_errname(errno));
	} else {
		siginfo_t si;
		memset(&si, 0, sizeof(si));
		int rc = waitid((idtype_t)P_PIDFD, (id_t)nb, &si, WEXITED);
		aw_observe(ctx, "nonblock", "%s", rc == 0 ? "reaped a running child" : aw_errname(errno));
		close(nb);
	}
	int th = (int)syscall(SYS_pidfd_open, pid, PIDFD_THREAD_);
	aw_observe(ctx, "thread", "%s", th >= 0 ? "ok" : aw_errname(errno));
	if (th >= 0)
		close(th);
	if (fd >= 0) {
		if (syscall(SYS_pidfd_send_signal, fd, SIGTERM, NULL, 0) != 0) {
			aw_observe(ctx, "send_signal", "%s", aw_errname(errno));
		} else {
			int status;
			if (process_waitpid(pid, &status, 0, PROCESS_CHILD_MS) == 1)
				aw_observe(ctx, "send_signal", "%s", process_status_word(status, buf, sizeof(buf)));
			else
				aw_observe(ctx, "send_signal", "the child did not end");
		}
		close(fd);
	}
	close(p[1]);
	close(p[0]);
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
}

struct clone_args_ {
	uint64_t flags, pidfd, child_tid, parent_tid, exit_signal, stack, stack_size, tls;
	uint64_t set_tid, set_tid_size, cgroup;
};

static volatile sig_atomic_t usr1;

static void on_usr1(int sig)
{
	(void)sig;
	usr1 = 1;
}

static void clone3_items(struct aw_ctx *ctx)
{
	struct clone_args_ args = { .flags = CLONE_INTO_CGROUP, .exit_signal = SIGCHLD, .cgroup = 1000000 };
	long rc = syscall(SYS_clone3, &args, sizeof(args));
	if (rc == 0)
		_exit(0); /* cannot be: no such descriptor */
	if (rc > 0) {
		waitpid((pid_t)rc, NULL, 0);
		aw_observe(ctx, "clone3.into_cgroup", "a child was made");
	} else {
		aw_observe(ctx, "clone3.into_cgroup", "%s", aw_errname(errno));
	}

	struct sigaction sa = { .sa_handler = on_usr1 }, old;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGUSR1, &sa, &old);
	int p[2];
	if (pipe(p) != 0) {
		aw_error(ctx, "clone3.clear_sighand", "pipe: %s", aw_errname(errno));
		return;
	}
	fflush(NULL);
	memset(&args, 0, sizeof(args));
	args.flags = CLONE_CLEAR_SIGHAND;
	args.exit_signal = SIGCHLD;
	rc = syscall(SYS_clone3, &args, sizeof(args));
	if (rc == 0) {
		struct sigaction now;
		sigaction(SIGUSR1, NULL, &now);
		char c = now.sa_handler == SIG_DFL ? 'd' : now.sa_handler == on_usr1 ? 'h' : 'o';
		(void)!write(p[1], &c, 1);
		_exit(0);
	}
	close(p[1]);
	if (rc < 0) {
		aw_observe(ctx, "clone3.clear_sighand", "%s", aw_errname(errno));
	} else {
		char c = 0;
		(void)!read(p[0], &c, 1);
		waitpid((pid_t)rc, NULL, 0);
		aw_observe(ctx, "clone3.clear_sighand", "%s", c == 'd' ? "SIG_DFL" : c == 'h' ? "inherited" : "other");
	}
	close(p[0]);
	sigaction(SIGUSR1, &old, NULL);
}

/* Bounds against a hang, generous: A's exit takes a millisecond idle. */
#define ORPHAN_WAIT_MS 5000
#define ORPHAN_CHILD_MS (ORPHAN_WAIT_MS + 3000)

/* In a child: optionally become a subreaper, fork A, A forks B and
 * exits; B says who its parent is. */
static int orphan_child(void *arg)
{
	bool subreaper = arg != NULL;
	const char *item = subreaper ? "subreaper.orphan" : "subreaper.none";
	int p[2];
	if (pipe(p) != 0 || (subreaper && prctl(PR_SET_CHILD_SUBREAPER, 1) != 0)) {
		aw_error(pctx, item, "pipe or PR_SET_CHILD_SUBREAPER: %s", aw_errname(errno));
		return 0;
	}
	pid_t me = getpid(), a = fork();
	if (a == 0) {
		pid_t self = getpid(), b = fork();
		if (b == 0) {
			/* Wait until A is gone (its exit reparents B), then report
			 * the parent: who adopted B, never who B had when a loaded
			 * machine had not yet run A's exit ('t': a reason). */
			for (int i = 0; i < ORPHAN_WAIT_MS && getppid() == self; i++)
				usleep(1000);
			pid_t pp = getppid();
			char c = pp == self ? 't' : pp == me ? 's' : pp == 1 ? 'i' : 'o';
			(void)!write(p[1], &c, 1);
			_exit(0);
		}
		_exit(0);
	}
	close(p[1]);
	char c = 0;
	(void)!read(p[0], &c, 1);
	waitpid(a, NULL, 0);
	if (subreaper)
		while (waitpid(-1, NULL, WNOHANG) > 0)
			;
	if (c == 't')
		aw_error(pctx, item, "the orphan's parent had not exited after %d s", ORPHAN_WAIT_MS / 1000);
	else
		aw_observe(pctx, item, "%s", c == 's' ? "the subreaper" : c == 'i' ?
			   "the namespace's init" : c == 'o' ? "another process" : "no answer");
	return 0;
}

static void pidfd_run(struct aw_ctx *ctx)
{
	pctx = ctx;
	pidfd_items_run(ctx);
	clone3_items(ctx);
	int rc = aw_child_run(orphan_child, (void *)1, ORPHAN_CHILD_MS);
	if (rc && !aw_reported(ctx, "subreaper.orphan"))
		aw_error(ctx, "subreaper.orphan", "the child ended with %d", rc);
	rc = aw_child_run(orphan_child, NULL, ORPHAN_CHILD_MS);
	if (rc && !aw_reported(ctx, "subreaper.none"))
		aw_error(ctx, "subreaper.none", "the child ended with %d", rc);
}

static const char *const pidfd_tags[] = {
	"linux-git:3eb39f47934f",
	"linux-git:64bef697d33b", "linux-git:ef2c41cf38a7", "linux-git:b612e5df4587",
	"man:pidfd_open(2)", "man:pidfd_getfd(2)", "man:clone(2)", "man:prctl(2)", NULL,
};

const struct aw_probe process_pidfd_probes[] = {
	{
		.name = "pidfd",
		.summary = "pidfd_send_signal, PIDFD_NONBLOCK, pidfd_getfd, PIDFD_THREAD, clone3 flags, subreapers",
		.run = pidfd_run,
		.items = pidfd_items,
		.tags = pidfd_tags,
	},
	AW_PROBES_END,
};

// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Job control that shells rely on, on a pty slave of the probe's own
 * instance, in sessions made by the probe's children (credentials(7),
 * ioctl_tty(2), POSIX "General Terminal Interface" 11.1.3-11.1.4):
 *
 *   - TIOCSCTTY makes the slave the controlling terminal of a session
 *     leader without one; another session's leader gets EPERM.
 *   - TIOCNOTTY by the session leader sends SIGHUP and SIGCONT to the
 *     foreground process group; the leader's exit sends SIGHUP
 *     (disassociate_ctty() in drivers/tty/tty_jobctrl.c: on exit a pty
 *     gets kill_pgrp(SIGHUP), other ttys a vhangup).  The foreground
 *     group's process blocks both and reads what is pending, so no timing
 *     decides what it saw.
 *   - tcsetpgrp(3) from a background group: SIGTTOU stops it; with
 *     SIGTTOU ignored it succeeds; from an orphaned group it gives EIO
 *     (__tty_check_change()).  A background read gets SIGTTIN, a
 *     background write with TOSTOP SIGTTOU.
 */
#include "tty.h"
#include "lib/child.h"
#include "lib/errname.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>

#define WAIT_MS 3000

static const struct aw_item jobctl_items[] = {
	AW_OBS_ITEM("sctty", "TIOCSCTTY on the slave by a session leader without a controlling "
		    "terminal", .object = "sctty"),
	AW_OBS_ITEM("sctty.other_session", "TIOCSCTTY on the same slave by another session's "
		    "leader, argument 0", .object = "sctty"),
	AW_OBS_ITEM("notty", "TIOCNOTTY by the session leader", .object = "notty"),
	AW_OBS_ITEM("notty.fg_signals", "signals the foreground group got from that (blocked, "
		    "then read as pending)", .object = "notty",
		    .change = "shells and job managers that detach with TIOCNOTTY see their "
		    "foreground job get other signals"),
	AW_OBS_ITEM("exit.fg_signals", "signals the foreground group got when the session leader "
		    "exited", .object = "exit", .change = "jobs of a closed terminal session "
		    "(nohup, tmux, a dead ssh) survive or die otherwise"),
	AW_OBS_ITEM("bg.tcsetpgrp", "tcsetpgrp from a background group, SIGTTOU default: the "
		    "signal that stopped it, or its result", .object = "bg",
		    .change = "shells that take the terminal back from a background job hang or fail"),
	AW_OBS_ITEM("bg.tcsetpgrp_ignored", "the same with SIGTTOU ignored", .object = "bg"),
	AW_OBS_ITEM("bg.tcsetpgrp_orphaned", "the same from an orphaned process group",
		    .object = "bg"),
	AW_OBS_ITEM("bg.read", "read from a background group", .object = "bg"),
	AW_OBS_ITEM("bg.write_tostop", "write from a background group with TOSTOP set",
		    .object = "bg"),
	AW_ITEMS_END
};

static int g_slave;

static const char *sig_result(int status, long long rc, int err, char *buf, size_t len)
{
	if (WIFSTOPPED(status))
		snprintf(buf, len, "stopped by %s", sigabbrev_np(WSTOPSIG(status)) ?
			 sigabbrev_np(WSTOPSIG(status)) : "?");
	else if (WIFSIGNALED(status))
		snprintf(buf, len, "killed by %s", sigabbrev_np(WTERMSIG(status)) ?
			 sigabbrev_np(WTERMSIG(status)) : "?");
	else if (rc < 0)
		snprintf(buf, len, "%s", aw_errname(err));
	else
		snprintf(buf, len, "%lld", rc);
	return buf;
}

enum bg_op { BG_TCSETPGRP, BG_TCSETPGRP_IGN, BG_READ, BG_WRITE };

/* In a background group of the leader's session: the operation, its
 * result in *res (rc, errno). */
static void bg_do(enum bg_op op, long long res[2])
{
	char c;
	signal(SIGTTOU, op == BG_TCSETPGRP_IGN ? SIG_IGN : SIG_DFL);
	signal(SIGTTIN, SIG_DFL);
	switch (op) {
	case BG_TCSETPGRP:
	case BG_TCSETPGRP_IGN:
		res[0] = tcsetpgrp(g_slave, getpgrp());
		break;
	case BG_READ:
		res[0] = read(g_slave, &c, 1);
		break;
	case BG_WRITE:
		res[0] = write(g_slave, "bg", 2);
		break;
	}
	res[1] = errno;
}

/* Fork a child into a group of its own that does op; the text of what
 * happened to it (stopped by a signal, or the call's result). */
static const char *bg_case(enum bg_op op, long long *shared, char *buf, size_t len)
{
	shared[0] = shared[1] = 0;
	pid_t pid = fork();
	if (pid == 0) {
		setpgid(0, 0);
		bg_do(op, shared);
		_exit(0);
	}
	if (pid < 0)
		return aw_errname(errno);
	setpgid(pid, pid);
	int status = 0;
	waitpid(pid, &status, WUNTRACED);
	if (WIFSTOPPED(status)) {
		kill(pid, SIGKILL);
		int ignored;
		waitpid(pid, &ignored, 0);
	}
	return sig_result(status, shared[0], (int)shared[1], buf, len);
}

/* The state letter of /proc/PID/stat (R, S, T ...), or 0. */
static char proc_state(pid_t pid)
{
	char path[64], line[512];
	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	FILE *f = fopen(path, "re");
	char *end = f && fgets(line, sizeof(line), f) ? strrchr(line, ')') : NULL;
	if (f)
		fclose(f);
	return end && end[1] == ' ' ? end[2] : 0;
}

/* The orphaned case: a grandchild whose parent exits makes a group of
 * its own, whose members have no parent in this session.  Its answer,
 * or NULL with why there is none in buf: the grandchild reports only
 * once its parent is gone, so a loaded machine delays the answer but
 * cannot change it, and one that never comes is a value only when the
 * grandchild is seen stopped (/proc), else a reason. */
static const char *orphaned_case(long long *shared, char *buf, size_t len)
{
	int sync[2];
	shared[0] = shared[1] = 0;
	if (pipe(sync) != 0)
		return aw_errname(errno);
	pid_t mid = fork();
	if (mid == 0) {
		pid_t self = getpid();
		pid_t g = fork();
		if (g == 0) {
			close(sync[0]);
			for (int i = 0; i < WAIT_MS && getppid() == self; i++)
				usleep(1000);
			if (getppid() == self)
				_exit(write(sync[1], "t", 1) != 1);
			setpgid(0, 0);
			bg_do(BG_TCSETPGRP, shared);
			if (write(sync[1], "d", 1) != 1)
				_exit(1);
			_exit(0);
		}
		/* Its pid first, for the parent to look at if no answer comes. */
		_exit(g < 0 || write(sync[1], &g, sizeof(g)) != sizeof(g));
	}
	close(sync[1]);
	int status;
	waitpid(mid, &status, 0);
	pid_t g = 0;
	struct pollfd p = { .fd = sync[0], .events = POLLIN };
	char c = 0;
	bool got = read(sync[0], &g, sizeof(g)) == sizeof(g) && poll(&p, 1, WAIT_MS) == 1 &&
		   read(sync[0], &c, 1) == 1;
	close(sync[0]);
	if (got && c == 'd')
		return sig_result(0, shared[0], (int)shared[1], buf, len);
	if (!got && g > 0 && proc_state(g) == 'T')
		return "the orphaned child never reported (stopped)";
	snprintf(buf, len, c == 't' ? "its parent had not exited after %d s" :
		 "the orphaned child did not report within %d s", WAIT_MS / 1000);
	return NULL;
}

/* The foreground group's process: blocks SIGHUP, SIGCONT and SIGUSR1,
 * says it is ready, waits for SIGUSR1, then writes the pending signals. */
static void fg_member(int ready, char *out, size_t len)
{
	sigset_t set, pending;
	sigemptyset(&set);
	sigaddset(&set, SIGHUP);
	sigaddset(&set, SIGCONT);
	sigaddset(&set, SIGUSR1);
	sigprocmask(SIG_BLOCK, &set, NULL);
	if (write(ready, "r", 1) != 1)
		_exit(1);
	sigset_t usr1;
	sigemptyset(&usr1);
	sigaddset(&usr1, SIGUSR1);
	int sig;
	sigwait(&usr1, &sig);
	sigpending(&pending);
	out[0] = '\0';
	if (sigismember(&pending, SIGHUP))
		strncat(out, "SIGHUP", len - 1);
	if (sigismember(&pending, SIGCONT))
		strncat(out, out[0] ? ",SIGCONT" : "SIGCONT", len - strlen(out) - 1);
	if (!out[0])
		strncat(out, "none", len - 1);
	_exit(0);
}

struct shared {
	long long res[2];
	char signals[64];
};

/* A session leader with the slave as its controlling terminal and a
 * foreground group of one process; detach (TIOCNOTTY) or exit, then
 * read what the foreground process got. */
static void session(struct aw_ctx *ctx, bool by_exit, struct shared *sh)
{
	int ready[2];
	const char *item = by_exit ? "exit.fg_signals" : "notty.fg_signals";
	if (pipe(ready) != 0) {
		aw_error(ctx, item, "pipe: %s", aw_errname(errno));
		return;
	}
	memset(sh->signals, 0, sizeof(sh->signals));
	pid_t fg = -1;
	pid_t leader = fork();
	if (leader == 0) {
		if (setsid() < 0 || ioctl(g_slave, TIOCSCTTY, 0) != 0) {
			aw_error(ctx, item, "a session with the slave: %s", aw_errname(errno));
			_exit(1);
		}
		if (!by_exit)
			aw_observe(ctx, "sctty", "0");
		pid_t b = fork();
		if (b == 0) {
			setpgid(0, 0);
			fg_member(ready[1], sh->signals, sizeof(sh->signals));
		}
		setpgid(b, b);
		signal(SIGTTOU, SIG_IGN);
		if (tcsetpgrp(g_slave, b) != 0)
			aw_note(ctx, "tcsetpgrp: %s", aw_errname(errno));
		char c;
		if (read(ready[0], &c, 1) != 1)
			_exit(1);
		if (!by_exit) {
			/* another session's leader tries to take the terminal */
			pid_t o = fork();
			if (o == 0) {
				setsid();
				int r = ioctl(g_slave, TIOCSCTTY, 0);
				tty_observe_res(ctx, "sctty.other_session", r, errno);
				_exit(0);
			}
			int st;
			waitpid(o, &st, 0);
			int r = ioctl(g_slave, TIOCNOTTY);
			tty_observe_res(ctx, "notty", r, errno);
			kill(b, SIGUSR1);
			waitpid(b, &st, 0);
			_exit(0);
		}
		/* write the foreground pid for the probe, then exit */
		_exit(write(ready[1], &b, sizeof(b)) == sizeof(b) ? 0 : 1);
	}
	int st = 0;
	waitpid(leader, &st, 0);
	if (by_exit) {
		struct pollfd p = { .fd = ready[0], .events = POLLIN };
		if (poll(&p, 1, 0) == 1 && read(ready[0], &fg, sizeof(fg)) == sizeof(fg)) {
			kill(fg, SIGUSR1);
			/* fg is reparented to the namespace's init; wait for its answer */
			for (int i = 0; i < WAIT_MS && !sh->signals[0]; i++)
				usleep(1000);
		}
	}
	close(ready[0]);
	close(ready[1]);
	if (sh->signals[0])
		aw_observe(ctx, item, "%s", sh->signals);
	else if (!aw_reported(ctx, item))
		aw_error(ctx, item, "the foreground process never reported (leader status %#x)", st);
}

/* A session whose leader runs the background cases. */
static void background(struct aw_ctx *ctx, struct shared *sh)
{
	pid_t leader = fork();
	if (leader == 0) {
		char buf[64];
		if (setsid() < 0 || ioctl(g_slave, TIOCSCTTY, 0) != 0) {
			aw_error_rest(ctx, "a session with the slave: %s", aw_errname(errno));
			_exit(1);
		}
		aw_observe(ctx, "bg.tcsetpgrp", "%s", bg_case(BG_TCSETPGRP, sh->res, buf, sizeof(buf)));
		aw_observe(ctx, "bg.tcsetpgrp_ignored", "%s",
			   bg_case(BG_TCSETPGRP_IGN, sh->res, buf, sizeof(buf)));
		/* take the terminal back for the leader's group */
		signal(SIGTTOU, SIG_IGN);
		if (tcsetpgrp(g_slave, getpgrp()) != 0)
			aw_note(ctx, "tcsetpgrp back: %s", aw_errname(errno));
		aw_observe(ctx, "bg.read", "%s", bg_case(BG_READ, sh->res, buf, sizeof(buf)));
		struct termios t;
		if (tcgetattr(g_slave, &t) == 0) {
			t.c_lflag |= TOSTOP;
			tcsetattr(g_slave, TCSANOW, &t);
		}
		aw_observe(ctx, "bg.write_tostop", "%s", bg_case(BG_WRITE, sh->res, buf, sizeof(buf)));
		const char *orphaned = orphaned_case(sh->res, buf, sizeof(buf));
		if (orphaned)
			aw_observe(ctx, "bg.tcsetpgrp_orphaned", "%s", orphaned);
		else
			aw_error(ctx, "bg.tcsetpgrp_orphaned", "%s", buf);
		_exit(0);
	}
	int st;
	waitpid(leader, &st, 0);
}

static void jobctl_run(struct aw_ctx *ctx)
{
	int m, s;

	if (tty_pair(ctx, 0, &m, &s) != 0)
		return;
	struct shared *sh = aw_shared_alloc(sizeof(*sh));
	if (!sh) {
		aw_error_rest(ctx, "shared memory: %s", aw_errname(errno));
		return;
	}
	g_slave = s;
	session(ctx, false, sh);
	session(ctx, true, sh);
	background(ctx, sh);
	aw_error_rest(ctx, "a child of the probe ended before reporting this");
	aw_shared_free(sh, sizeof(*sh));
	close(m);
	close(s);
}

static const char *const jobctl_tags[] = {
	"man:credentials(7)", "man:ioctl_tty(2)", "man:tcsetpgrp(3)", "posix:tcsetpgrp", NULL,
};

const struct aw_probe tty_jobctl_probes[] = {
	{ .name = "jobctl", .summary = "controlling terminal and job control: TIOCSCTTY, "
	  "TIOCNOTTY, the session leader's exit, background groups", .run = jobctl_run,
	  .items = jobctl_items, .tags = jobctl_tags },
	AW_PROBES_END
};

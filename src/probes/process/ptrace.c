// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * wait and ptrace as debuggers and init systems use them (wait(2),
 * ptrace(2)):
 * - waitid() by a tracer that is also the parent: it reaps its traced
 *   child with P_ALL and WEXITED, and takes __WALL, since Oleg Nesterov's
 *   change in 4.7 ("wait/ptrace: assume __WALL if the child is traced", "wait:
 *   allow sys_waitid() to accept __WNOTHREAD/__WCLONE/__WALL"), which his changelog calls an ABI
 *   change that might break something (LWN 688624);
 * - waitid(P_PIDFD) (5.4);
 * - PTRACE_GET_SYSCALL_INFO (201766a20e30, 5.3): its size at a
 *   syscall-entry stop, the call's number and the tracee's arch;
 * - PTRACE_O_EXITKILL (3.8): the tracee dies with its
 *   tracer;
 * - PTRACE_GET_RSEQ_CONFIGURATION (90f093fa8ea4, 5.13), for CRIU and
 *   checkpointing: its size, or EIO where the request is unknown;
 * - Yama's kernel.yama.ptrace_scope (Documentation/admin-guide/LSM/Yama.rst),
 *   which decides whether a debugger may attach to a non-child.
 */
#include "process.h"
#include "lib/child.h"
#include "lib/errname.h"
#include "lib/procfs.h"

#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#ifndef P_PIDFD
#define P_PIDFD 3
#endif
#define PTRACE_GET_RSEQ_CONFIGURATION_ 0x420f
#ifndef PTRACE_O_EXITKILL
#define PTRACE_O_EXITKILL 0x100000
#endif

static const char *const absent_words[] = { "absent", NULL };
static const char *const unknown_request[] = { "EIO", NULL };
static const char *const refused_flag[] = { "EINVAL", NULL };

static const struct aw_item ptrace_items[] = {
	AW_OBS_ITEM("wait.tracer_parent", "waitid(P_ALL, WEXITED) by the parent that traces the child: what it reaps",
		    .change = "a debugger that is also the parent stops seeing its child's exit, or starts to", .object = "wait"),
	AW_OBS_ITEM("wait.wall", "waitid(P_ALL, WEXITED | __WALL) for such a child: what it reaps, or the errno",
		    .change = "EINVAL: waitid() refuses __WALL (before 4.7)", .object = "wait", .absent = refused_flag),
	AW_OBS_ITEM("wait.pidfd", "waitid(P_PIDFD, pidfd_open(child), WEXITED): what it reaps, or the errno",
		    .change = "EINVAL: no P_PIDFD (before 5.4); service managers fall back to racy pid waits",
		    .object = "wait", .absent = refused_flag),
	AW_OBS_ITEM("syscall_info.entry", "PTRACE_GET_SYSCALL_INFO at the syscall-entry stop of getpid(): op, size, whether nr is getpid's",
		    .change = "strace and debuggers reading the syscall info get another layout, or EIO (before 5.3)",
		    .object = "syscall_info", .absent = unknown_request),
	AW_OBS_ITEM("exitkill", "a tracee with PTRACE_O_EXITKILL when its tracer exits: how it ends",
		    .change = "tracees outlive a crashed debugger or sandbox supervisor, or no longer", .object = "exitkill"),
	AW_OBS_ITEM("rseq_configuration", "PTRACE_GET_RSEQ_CONFIGURATION on a stopped child: the size returned, or the errno",
		    .change = "CRIU cannot checkpoint the rseq area (EIO: the request is unknown, before 5.13)",
		    .object = "rseq_configuration", .absent = unknown_request),
	AW_OBS_ITEM("yama.ptrace_scope", "kernel.yama.ptrace_scope, or absent",
		    .change = "debuggers attaching to processes that are not their children are refused, or allowed",
		    .object = "yama", .absent = absent_words),
	AW_ITEMS_END
};

/* A child that stops itself under PTRACE_TRACEME, then calls getpid()
 * and exits with 7; its pid, stopped, or -errno. */
static pid_t traced_child(void)
{
	fflush(NULL);
	pid_t pid = fork();
	if (pid == 0) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (ptrace(PTRACE_TRACEME, 0, 0, 0) != 0)
			_exit(90);
		raise(SIGSTOP);
		syscall(SYS_getpid);
		_exit(7);
	}
	if (pid < 0)
		return -errno;
	int status;
	if (process_waitpid(pid, &status, 0, PROCESS_CHILD_MS) != 1 || !WIFSTOPPED(status)) {
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
		return -ECHILD;
	}
	return pid;
}

static void finish(pid_t pid)
{
	kill(pid, SIGKILL);
	waitpid(pid, NULL, __WALL);
}

/* waitid() with WNOHANG polled, bounded: 0 with *si, or -errno. */
static int waitid_bounded(idtype_t type, id_t id, siginfo_t *si, int options)
{
	for (int i = 0; i < PROCESS_CHILD_MS; i++) {
		memset(si, 0, sizeof(*si));
		if (waitid(type, id, si, options | WNOHANG) != 0)
			return -errno;
		if (si->si_pid)
			return 0;
		usleep(1000);
	}
	return -ETIMEDOUT;
}

static void observe_waitid(struct aw_ctx *ctx, const char *item, int extra, bool by_pidfd)
{
	pid_t pid = traced_child();
	if (pid < 0) {
		aw_error(ctx, item, "a traced child: %s", aw_errname(pid));
		return;
	}
	ptrace(PTRACE_CONT, pid, 0, 0);
	siginfo_t si;
	int rc;
	if (by_pidfd) {
		int fd = (int)syscall(SYS_pidfd_open, pid, 0);
		rc = fd < 0 ? -EBADF : waitid_bounded((idtype_t)P_PIDFD, (id_t)fd, &si, WEXITED | extra);
		if (fd < 0) {
			aw_unobserved(ctx, item, "pidfd_open: %s", aw_errname(errno));
			finish(pid);
			return;
		}
		close(fd);
	} else {
		rc = waitid_bounded(P_ALL, 0, &si, WEXITED | extra);
	}
	if (rc == -ETIMEDOUT)
		aw_observe(ctx, item, "nothing reaped");
	else if (rc)
		aw_observe(ctx, item, "%s", aw_errname(rc));
	else
		aw_observe(ctx, item, "%s %d%s", si.si_code == CLD_EXITED ? "exit" : "code", si.si_status,
			   si.si_pid == pid ? "" : " of another pid");
	finish(pid);
}

static void observe_syscall_info(struct aw_ctx *ctx)
{
	const char *item = "syscall_info.entry";
	pid_t pid = traced_child();
	if (pid < 0) {
		aw_error(ctx, item, "a traced child: %s", aw_errname(pid));
		aw_error(ctx, "rseq_configuration", "a traced child: %s", aw_errname(pid));
		return;
	}
	unsigned char rseq[64];
	long n = ptrace((enum __ptrace_request)PTRACE_GET_RSEQ_CONFIGURATION_, pid, sizeof(rseq), rseq);
	if (n < 0)
		aw_observe(ctx, "rseq_configuration", "%s", aw_errname(errno));
	else /* the size alone: the area's address is the C library's */
		aw_observe(ctx, "rseq_configuration", "%ld B", n);
	ptrace(PTRACE_SETOPTIONS, pid, 0, PTRACE_O_TRACESYSGOOD | PTRACE_O_EXITKILL);
	for (int stops = 0; stops < 16; stops++) {
		int status;
		if (ptrace(PTRACE_SYSCALL, pid, 0, 0) != 0 || process_waitpid(pid, &status, 0, PROCESS_CHILD_MS) != 1 ||
		    !WIFSTOPPED(status)) {
			aw_error(ctx, item, "the child did not reach getpid()");
			break;
		}
		if (WSTOPSIG(status) != (SIGTRAP | 0x80))
			continue;
		struct process_syscall_info info;
		memset(&info, 0, sizeof(info));
		long size = ptrace((enum __ptrace_request)PROCESS_PTRACE_GET_SYSCALL_INFO, pid, sizeof(info), &info);
		if (size < 0) {
			aw_observe(ctx, item, "%s", aw_errname(errno));
			break;
		}
		if (info.op == 1 /* PTRACE_SYSCALL_INFO_ENTRY */ && info.nr == SYS_getpid) {
			aw_observe(ctx, item, "op entry, %ld B, nr getpid", size);
			break;
		}
		/* the exit of an earlier call, or a call of the C library's own */
	}
	if (!aw_reported(ctx, item))
		aw_error(ctx, item, "no syscall-entry stop of getpid() in 16 stops");
	finish(pid);
}

static void observe_exitkill(struct aw_ctx *ctx)
{
	int p[2];
	if (pipe(p) != 0 || prctl(PR_SET_CHILD_SUBREAPER, 1) != 0) {
		aw_error(ctx, "exitkill", "pipe or PR_SET_CHILD_SUBREAPER: %s", aw_errname(errno));
		return;
	}
	fflush(NULL);
	pid_t tracer = fork();
	if (tracer == 0) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		close(p[0]);
		pid_t t = traced_child();
		if (t > 0 && ptrace(PTRACE_SETOPTIONS, t, 0, PTRACE_O_EXITKILL) != 0)
			t = -errno;
		(void)!write(p[1], &t, sizeof(t));
		_exit(0); /* without detaching: the tracee is still stopped */
	}
	close(p[1]);
	pid_t t = -1;
	ssize_t n = tracer > 0 ? read(p[0], &t, sizeof(t)) : -1;
	close(p[0]);
	if (tracer > 0)
		waitpid(tracer, NULL, 0);
	if (n != sizeof(t) || t <= 0) {
		aw_error(ctx, "exitkill", "a tracer with a tracee: %s", aw_errname(t < 0 ? t : -ECHILD));
	} else {
		int status;
		char buf[48];
		/* the tracee is ours now, as the subreaper */
		if (process_waitpid(t, &status, __WALL, 1000) == 1)
			aw_observe(ctx, "exitkill", "%s", process_status_word(status, buf, sizeof(buf)));
		else
			aw_observe(ctx, "exitkill", "survives");
		finish(t);
	}
	prctl(PR_SET_CHILD_SUBREAPER, 0);
}

static void ptrace_run(struct aw_ctx *ctx)
{
	observe_waitid(ctx, "wait.tracer_parent", 0, false);
	observe_waitid(ctx, "wait.wall", __WALL, false);
	observe_waitid(ctx, "wait.pidfd", 0, true);
	observe_syscall_info(ctx);
	observe_exitkill(ctx);
	long long scope;
	int rc = aw_read_ll("/proc/sys/kernel/yama/ptrace_scope", &scope);
	/* Yama built but not started restricts nothing: the set-up's doing */
	if (rc == -ENOENT) {
		if (!aw_skip_unless_lsm(ctx, "yama.ptrace_scope", "yama"))
			aw_observe(ctx, "yama.ptrace_scope", "absent");
	}
	else if (rc)
		aw_error(ctx, "yama.ptrace_scope", "reading it: %s", aw_errname(rc));
	else
		aw_observe_long(ctx, "yama.ptrace_scope", scope);
}

static const char *const ptrace_tags[] = {
	"linux-git:201766a20e30", "linux-git:90f093fa8ea4",
	"man:wait(2)", "man:ptrace(2)", NULL,
};

const struct aw_probe process_ptrace_probes[] = {
	{
		.name = "ptrace",
		.summary = "waitid() by a tracing parent, __WALL, P_PIDFD; PTRACE_GET_SYSCALL_INFO, EXITKILL, GET_RSEQ_CONFIGURATION; Yama",
		.run = ptrace_run,
		.items = ptrace_items,
		.tags = ptrace_tags,
	},
	AW_PROBES_END,
};

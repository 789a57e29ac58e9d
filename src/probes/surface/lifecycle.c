// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * surface.lifecycle: the system calls surface.syscalls never makes,
 * because they end, copy or suspend their caller or never return: exit,
 * exit_group, fork, vfork, pause and rt_sigreturn (x86_64.tbl marks them
 * NS).  Each is made here by a child of the probe and the probe observes
 * what became of it, so that a kernel that drops one (fork and vfork are
 * the kind of call an architecture without them never had: arm64 has
 * only clone) or changes what it does shows as a diff line.  Who breaks:
 * every C library and language runtime that calls them by number (Go's
 * and Rust's standard libraries, static binaries, seccomp profiles that
 * allow them by name).
 *
 *   NAME.present  "yes", or "no" when the call answered ENOSYS
 *   NAME.result   what became of the child:
 *     exit, exit_group  "exit N": the child called it with 7 and the
 *                       parent's waitpid saw status 7 (exit(2),
 *                       exit_group(2))
 *     fork, vfork       "ok": the call returned a pid in the child, whose
 *                       own child exited 0 and was reaped (fork(2),
 *                       vfork(2)), or the errno
 *     pause             "EINTR": the child slept in pause until the
 *                       parent sent it SIGUSR1, caught by a handler
 *                       (pause(2): "returns only when a signal was
 *                       caught and the signal-catching function
 *                       returned ... -1 ... EINTR"); the parent waits
 *                       until /proc/PID/syscall shows the call, so that
 *                       no time decides it
 *     rt_sigreturn      the signal that ended a child that called it with
 *                       no signal frame on its stack (sigreturn(2):
 *                       "calling it directly ... will almost certainly
 *                       result in a crash"): the kernel takes what is on
 *                       the stack for a frame, and a bad one is SIGSEGV
 *                       (arch/x86/kernel/signal_64.c: badframe)
 */
#include "surface.h"
#include "lib/child.h"
#include "lib/errname.h"
#include "lib/util.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

/* Each child ends at once: 10 s (stretched) is for a loaded machine.  The
 * child of fork_child and vfork_child has half, so that its parent still
 * answers within its own. */
#define LIFECYCLE_CHILD_MS 10000
#define LIFECYCLE_GRANDCHILD_MS 5000

#define LIFECYCLE_CALLS(X) X(exit) X(exit_group) X(fork) X(vfork) X(pause) X(rt_sigreturn)

static const char *const present_absent[] = { "no", NULL };
static const char *const result_absent[] = { "ENOSYS", NULL };

#define CALL_ITEMS(n)                                                                                \
	AW_OBS_ITEM(#n ".present", #n ": yes, or no when it answered ENOSYS", .object = #n,         \
		    .change = "the call appeared or vanished: programs and runtimes calling it by number fail", \
		    .absent = present_absent),                                                          \
	AW_OBS_ITEM(#n ".result", "what became of a child that called " #n " (exit N, ok, EINTR, a signal, or the errno)", \
		    .object = #n, .change = "the call does something else to its caller", .absent = result_absent),

static const struct aw_item lifecycle_items[] = {
	LIFECYCLE_CALLS(CALL_ITEMS)
	AW_ITEMS_END
};

static int exit_child(void *unused)
{
	(void)unused;
	syscall(SYS_exit, 7);
	return errno; /* it returned: refused */
}

static int exit_group_child(void *unused)
{
	(void)unused;
	syscall(SYS_exit_group, 7);
	return errno;
}

static int fork_child(void *unused)
{
	(void)unused;
	long pid = syscall(SYS_fork);
	if (pid == 0)
		_exit(0);
	if (pid < 0)
		return errno;
	return aw_child_end_ok(aw_child_reap((pid_t)pid, LIFECYCLE_GRANDCHILD_MS)) ? 0 : ECHILD;
}

/* vfork through the C library: a raw syscall() would return into a
 * frame the child has already changed, and glibc's vfork() is the system
 * call of that number with nothing on the stack between. */
static int vfork_child(void *unused)
{
	(void)unused;
	pid_t pid = vfork();
	if (pid == 0)
		_exit(0);
	if (pid < 0)
		return errno;
	return aw_child_end_ok(aw_child_reap(pid, LIFECYCLE_GRANDCHILD_MS)) ? 0 : ECHILD;
}

static void caught(int sig)
{
	(void)sig;
}

static int pause_child(void *unused)
{
	(void)unused;
	struct sigaction sa = { .sa_handler = caught }; /* no SA_RESTART */
	sigaction(SIGUSR1, &sa, NULL);
	long r = syscall(SYS_pause);
	return r < 0 ? errno : 0;
}

static int rt_sigreturn_child(void *unused)
{
	(void)unused;
	/* It dies of a signal: no core file for the host's core pattern. */
	struct rlimit none = { 0, 0 };
	setrlimit(RLIMIT_CORE, &none);
	prctl(PR_SET_DUMPABLE, 0);
	syscall(SYS_rt_sigreturn);
	return errno;
}

/* What the child's status st (aw_child_wait()) says of call: exit N,
 * ok, the errno (exit code 1..127 of a call that returned), or a signal. */
static void report(struct aw_ctx *ctx, const char *call, int st, bool exits)
{
	char present[48], result[48];
	snprintf(present, sizeof(present), "%s.present", call);
	snprintf(result, sizeof(result), "%s.result", call);
	if (st < 0) {
		aw_error(ctx, present, "the child: %s", aw_errname(-st));
		aw_error(ctx, result, "the child: %s", aw_errname(-st));
		return;
	}
	aw_observe(ctx, present, "%s", st == ENOSYS ? "no" : "yes");
	if (st >= 128) {
		const char *abbrev = sigabbrev_np(st - 128);
		aw_observe(ctx, result, "SIG%s", abbrev ? abbrev : "?");
	} else if (exits && st == 7) {
		aw_observe(ctx, result, "exit 7");
	} else {
		aw_observe(ctx, result, "%s", st ? aw_errname(st) : "ok");
	}
}

static void observe_pause(struct aw_ctx *ctx)
{
	pid_t pid = aw_child_start(pause_child, NULL);
	if (pid < 0) {
		report(ctx, "pause", pid, false);
		return;
	}
	int rc = aw_wait_blocked(pid, SYS_pause, LIFECYCLE_CHILD_MS);
	if (rc != 0) {
		kill(pid, SIGKILL);
		aw_child_wait(pid, -1);
		aw_error(ctx, "pause.present", "the child never slept in pause: %s", aw_errname(-rc));
		aw_error(ctx, "pause.result", "the child never slept in pause: %s", aw_errname(-rc));
		return;
	}
	kill(pid, SIGUSR1);
	report(ctx, "pause", aw_child_wait(pid, LIFECYCLE_CHILD_MS), false);
}

static void lifecycle_run(struct aw_ctx *ctx)
{
	report(ctx, "exit", aw_child_run(exit_child, NULL, LIFECYCLE_CHILD_MS), true);
	report(ctx, "exit_group", aw_child_run(exit_group_child, NULL, LIFECYCLE_CHILD_MS), true);
	report(ctx, "fork", aw_child_run(fork_child, NULL, LIFECYCLE_CHILD_MS), false);
	report(ctx, "vfork", aw_child_run(vfork_child, NULL, LIFECYCLE_CHILD_MS), false);
	observe_pause(ctx);
	report(ctx, "rt_sigreturn", aw_child_run(rt_sigreturn_child, NULL, LIFECYCLE_CHILD_MS), false);
}

static const char *const tags[] = {
	"man:exit(2)", "man:fork(2)", "man:vfork(2)", "man:pause(2)", "man:sigreturn(2)", NULL,
};

const struct aw_probe surface_lifecycle_probes[] = {
	{
		.name = "lifecycle",
		.summary = "the calls that end, copy or suspend their caller (exit, fork, vfork, pause, rt_sigreturn), each made by a child",
		.run = lifecycle_run,
		.items = lifecycle_items,
		.tags = tags,
	},
	AW_PROBES_END,
};

// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * POSIX timers (timer_create(2), timer_getoverrun(2)) through the raw
 * system calls, so that the ids are the kernel's.  CRIU restores a
 * process's timers by creating them again in order and relies on the
 * kernel handing out ids 0, 1, 2 ... per process, never reusing one;
 * when the id allocation was reworked, 6.15 kept that and added
 * prctl(PR_TIMER_CREATE_RESTORE_IDS) (ec2d0c04624b), with which
 * timer_create takes the id wanted from *timerid (LWN 1012490).  Observed:
 * the first ids of a fresh process, the id after a delete, the first id
 * in a forked child, the prctl and whether it restores an id; how many
 * timers a process gets with RLIMIT_SIGPENDING 16 (each timer holds a
 * preallocated signal counted against it), in a user namespace of its
 * own so that no other process of the uid counts.  Checks: a timer that
 * fires every ms while its signal is blocked for 30 ms reports an
 * overrun of at least one, the same in si_overrun and timer_getoverrun;
 * SIGEV_THREAD_ID delivers to the thread named and refuses a thread of
 * another process (EINVAL, timer_create(2)).  The first id after an
 * exec: a child holding timers 0, 1 and 2 execs a program the probe
 * writes itself (lib/tinyelf.h), whose exit status is its first id (the
 * 32-bit helper measures the same through the compat calls).
 */
#include "time.h"
#include "lib/child.h"
#include "lib/errname.h"
#include "lib/tinyelf.h"
#include "lib/util.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#define PR_TIMER_CREATE_RESTORE_IDS_ 77
#define RESTORE_IDS_OFF 0
#define RESTORE_IDS_ON 1
#define RESTORE_IDS_GET 2
#define SIGEV_THREAD_ID_ 4
#define LIMIT 16
#define LIMIT_TRIES 64
#define CHILD_MS 5000

/* The kernel's struct sigevent (64 bytes on x86-64). */
struct ksigevent {
	union sigval value;
	int signo;
	int notify;
	int tid;
	int pad[11];
};
_Static_assert(sizeof(struct ksigevent) == 64, "the kernel's sigevent is 64 bytes");

static const char *const timer_absent[] = { "EINVAL", NULL };

static const struct aw_item timer_items[] = {
	AW_OBS_ITEM("ids.first", "the ids of three timer_create calls in a fresh process",
		    .object = "ids", .change = "CRIU's restore, which recreates timers in order "
		    "expecting the same ids, breaks"),
	AW_OBS_ITEM("ids.after_delete", "timers 0, 1, 2, timer 1 deleted: the id of the next "
		    "timer_create (3: never reused)", .object = "ids",
		    .change = "ids are reused: CRIU's restore of a process that deleted a timer breaks"),
	AW_OBS_ITEM("ids.child", "the first id of a forked child of a process holding timers",
		    .object = "ids", .change = "a child's timer ids no longer start afresh"),
	AW_OBS_ITEM("ids.after_exec", "the first id of a program exec'd by a process that held "
		    "timers 0, 1 and 2 (exec deletes them)", .object = "ids",
		    .change = "CRIU's restore of a task that exec'd gets other timer ids"),
	AW_OBS_ITEM("restore_ids", "prctl(PR_TIMER_CREATE_RESTORE_IDS, GET): the setting, or the "
		    "errno (EINVAL before 6.15, ec2d0c04624b)", .object = "restore_ids",
		    .absent = timer_absent,
		    .change = "CRIU can (or can no longer) ask for the timer ids it restores"),
	AW_OBS_ITEM("restore_ids.create_42", "with PR_TIMER_CREATE_RESTORE_IDS on, timer_create "
		    "with *timerid 42: the id given", .object = "restore_ids", .absent = timer_absent),
	AW_OBS_ITEM("limit", "timers a process gets with RLIMIT_SIGPENDING 16 in a user namespace of "
		    "its own (of 64 tried), or the errno of the first refusal after them",
		    .object = "limit", .change = "programs holding many timers hit a limit elsewhere"),
	AW_OBS_ITEM("limit.errno", "the errno of the first timer_create refused there (\"none\")",
		    .object = "limit"),
	AW_CHECK_ITEM("overrun_counted", "a 1 ms timer whose signal stays blocked for 30 ms is "
		      "delivered with si_overrun >= 1, equal to timer_getoverrun (timer_getoverrun(2))",
		      .object = "overrun"),
	AW_OBS_ITEM("thread_id.self", "timer_create(SIGEV_THREAD_ID) naming the calling thread",
		    .object = "thread_id", .absent = timer_absent),
	AW_OBS_ITEM("thread_id.other_process", "timer_create(SIGEV_THREAD_ID) naming a thread of "
		    "another process", .object = "thread_id"),
	AW_CHECK_ITEM("thread_id_delivered", "a SIGEV_THREAD_ID timer's signal reaches the thread "
		      "named, with si_code SI_TIMER (timer_create(2))", .object = "thread_id"),
	AW_CHECK_ITEM("thread_id_other_refused", "SIGEV_THREAD_ID naming a thread of another "
		      "process fails with EINVAL (timer_create(2))", .object = "thread_id"),
	AW_ITEMS_END
};

static long tcreate(clockid_t clk, struct ksigevent *ev, int *id)
{
	return syscall(SYS_timer_create, clk, ev, id);
}

/* A SIGEV_NONE timer's id, or -errno. */
static int make_timer(void)
{
	struct ksigevent ev = { .notify = SIGEV_NONE };
	int id = -1;
	if (tcreate(CLOCK_MONOTONIC, &ev, &id) != 0)
		return -errno;
	return id;
}

static void ids(struct aw_ctx *ctx)
{
	int a = make_timer(), b = make_timer(), c = make_timer();
	if (a < 0 || b < 0 || c < 0) {
		int e = a < 0 ? a : b < 0 ? b : c;
		aw_observe(ctx, "ids.first", "%s", aw_errname(e));
		aw_skip(ctx, "ids.after_delete", "timer_create: %s", aw_errname(e));
		aw_skip(ctx, "ids.child", "timer_create: %s", aw_errname(e));
		return;
	}
	aw_observe(ctx, "ids.first", "%d,%d,%d", a, b, c);
	if (syscall(SYS_timer_delete, b) != 0) {
		aw_error(ctx, "ids.after_delete", "timer_delete: %s", aw_errname(errno));
	} else {
		int d = make_timer();
		if (d < 0)
			aw_observe(ctx, "ids.after_delete", "%s", aw_errname(d));
		else
			aw_observe_long(ctx, "ids.after_delete", d);
	}
}

static struct aw_ctx *child_ctx;

static int child_ids(void *arg)
{
	(void)arg;
	int a = make_timer();
	if (a < 0)
		aw_observe(child_ctx, "ids.child", "%s", aw_errname(a));
	else
		aw_observe_long(child_ctx, "ids.child", a);
	return 0;
}

/* Timers 0, 1 and 2, then the exec: its exit status is the answer. */
static int child_exec(void *path)
{
	for (int i = 0; i < 3; i++)
		make_timer();
	char *argv[] = { "timer-id", NULL }, *envp[] = { NULL };
	execve(path, argv, envp);
	aw_error(child_ctx, "ids.after_exec", "execve: %s", aw_errname(errno));
	return 0;
}

static void ids_after_exec(struct aw_ctx *ctx)
{
	if (!aw_tinyelf_supported()) {
		aw_skip(ctx, "ids.after_exec", "abiwatch writes programs for x86_64 only");
		return;
	}
	/* A program whose exit status is the id of its first timer_create. */
	const struct aw_tinyelf_spec spec = { .base = 0x400000, .code = AW_TINYELF_TIMER_ID };
	char *path = xasprintf("%s/timer-id", aw_tmpdir(ctx));
	int rc = aw_tinyelf_write(&spec, path);
	if (rc != 0) {
		aw_error(ctx, "ids.after_exec", "%s: %s", path, aw_errname(rc));
	} else {
		/* 0..127 an id; 128 + errno when timer_create failed (an
		 * unarmed timer sends no signal that could end it so). */
		int st = aw_child_run(child_exec, path, CHILD_MS);
		if (aw_reported(ctx, "ids.after_exec"))
			;
		else if (st < 0)
			aw_error(ctx, "ids.after_exec", "the child: %s", aw_errname(st));
		else if (st >= 128)
			aw_observe(ctx, "ids.after_exec", "%s", aw_errname(-(st - 128)));
		else
			aw_observe_long(ctx, "ids.after_exec", st);
	}
	free(path);
}

static void restore_ids(struct aw_ctx *ctx)
{
	long r = prctl(PR_TIMER_CREATE_RESTORE_IDS_, RESTORE_IDS_GET, 0, 0, 0);
	if (r < 0) {
		int e = errno;
		aw_observe(ctx, "restore_ids", "%s", aw_errname(e));
		aw_observe(ctx, "restore_ids.create_42", "%s", aw_errname(e));
		return;
	}
	aw_observe_long(ctx, "restore_ids", r);
	if (prctl(PR_TIMER_CREATE_RESTORE_IDS_, RESTORE_IDS_ON, 0, 0, 0) != 0) {
		aw_observe(ctx, "restore_ids.create_42", "ON: %s", aw_errname(errno));
		return;
	}
	struct ksigevent ev = { .notify = SIGEV_NONE };
	int id = 42;
	if (tcreate(CLOCK_MONOTONIC, &ev, &id) != 0)
		aw_observe(ctx, "restore_ids.create_42", "%s", aw_errname(errno));
	else
		aw_observe_long(ctx, "restore_ids.create_42", id);
	prctl(PR_TIMER_CREATE_RESTORE_IDS_, RESTORE_IDS_OFF, 0, 0, 0);
}

static int child_limit(void *arg)
{
	(void)arg;
	struct aw_ctx *ctx = child_ctx;
	int rc = aw_enter_userns(0);
	if (rc != 0) {
		aw_skip_cause(ctx, "limit", "userns", "unshare(CLONE_NEWUSER): %s", aw_errname(rc));
		aw_skip_cause(ctx, "limit.errno", "userns", "unshare(CLONE_NEWUSER): %s", aw_errname(rc));
		return 0;
	}
	struct rlimit rl = { LIMIT, LIMIT };
	if (setrlimit(RLIMIT_SIGPENDING, &rl) != 0) {
		aw_error(ctx, "limit", "setrlimit: %s", aw_errname(errno));
		aw_error(ctx, "limit.errno", "setrlimit: %s", aw_errname(errno));
		return 0;
	}
	int n = 0, err = 0;
	for (; n < LIMIT_TRIES; n++) {
		struct ksigevent ev = { .notify = SIGEV_SIGNAL, .signo = SIGRTMIN };
		int id;
		if (tcreate(CLOCK_MONOTONIC, &ev, &id) != 0) {
			err = errno;
			break;
		}
	}
	aw_observe_long(ctx, "limit", n);
	aw_observe(ctx, "limit.errno", "%s", err ? aw_errname(err) : "none");
	return 0;
}

static void overrun(struct aw_ctx *ctx)
{
	sigset_t set;
	sigemptyset(&set);
	sigaddset(&set, SIGRTMIN);
	sigprocmask(SIG_BLOCK, &set, NULL);
	struct ksigevent ev = { .notify = SIGEV_SIGNAL, .signo = SIGRTMIN };
	int id;
	if (tcreate(CLOCK_MONOTONIC, &ev, &id) != 0) {
		aw_error(ctx, "overrun_counted", "timer_create: %s", aw_errname(errno));
		return;
	}
	struct itimerspec its = { .it_value = { 0, 1000000 }, .it_interval = { 0, 1000000 } };
	if (syscall(SYS_timer_settime, id, 0, &its, NULL) != 0) {
		aw_error(ctx, "overrun_counted", "timer_settime: %s", aw_errname(errno));
		return;
	}
	struct timespec nap = { 0, 30000000 };
	while (nanosleep(&nap, &nap) != 0 && errno == EINTR)
		;
	siginfo_t si;
	struct timespec wait = { 5, 0 };
	int sig = sigtimedwait(&set, &si, &wait);
	if (sig != SIGRTMIN) {
		aw_fail(ctx, "overrun_counted", "no signal within 5 s: %s", aw_errname(errno));
		return;
	}
	long over = syscall(SYS_timer_getoverrun, id);
	aw_expect(ctx, "overrun_counted", si.si_overrun >= 1 && over == si.si_overrun,
		  "si_overrun %d, timer_getoverrun %ld", si.si_overrun, over);
	syscall(SYS_timer_delete, id);
}

static void thread_id(struct aw_ctx *ctx)
{
	int sig = SIGRTMIN + 1;
	sigset_t set;
	sigemptyset(&set);
	sigaddset(&set, sig);
	sigprocmask(SIG_BLOCK, &set, NULL);
	struct ksigevent ev = { .notify = SIGEV_THREAD_ID_ | SIGEV_SIGNAL, .signo = sig, .tid = gettid() };
	int id;
	if (tcreate(CLOCK_MONOTONIC, &ev, &id) != 0) {
		aw_observe(ctx, "thread_id.self", "%s", aw_errname(errno));
		aw_skip(ctx, "thread_id_delivered", "timer_create: %s", aw_errname(errno));
	} else {
		aw_observe(ctx, "thread_id.self", "ok");
		struct itimerspec its = { .it_value = { 0, 1 } };
		siginfo_t si;
		struct timespec wait = { 5, 0 };
		int got = syscall(SYS_timer_settime, id, 0, &its, NULL) == 0 ? sigtimedwait(&set, &si, &wait) : -1;
		aw_expect(ctx, "thread_id_delivered", got == sig && si.si_code == SI_TIMER,
			  "sigtimedwait: %s, si_code %d", got == sig ? "the signal" : aw_errname(errno),
			  got == sig ? si.si_code : 0);
		syscall(SYS_timer_delete, id);
	}

	/* A waiting child: a thread of another process. */
	int gate;
	const char *what = "";
	pid_t pid = time_waiting_child(&gate, &what);
	if (pid < 0) {
		aw_error(ctx, "thread_id.other_process", "%s: %s", what, aw_errname(pid));
		return;
	}
	ev.tid = pid;
	long rc = tcreate(CLOCK_MONOTONIC, &ev, &id);
	int err = errno;
	aw_observe(ctx, "thread_id.other_process", "%s", time_ok(rc, err));
	aw_expect(ctx, "thread_id_other_refused", rc != 0 && err == EINVAL, "timer_create: %s",
		  time_ok(rc, err));
	if (rc == 0)
		syscall(SYS_timer_delete, id);
	time_child_release(pid, gate);
}

static void run_timers(struct aw_ctx *ctx)
{
	child_ctx = ctx;
	/* Each part in a process of its own, whose ids start afresh. */
	pid_t pid = fork();
	if (pid == 0) {
		ids(ctx);
		int st = aw_child_run(child_ids, NULL, CHILD_MS);
		if (st != 0 && !aw_reported(ctx, "ids.child"))
			aw_error(ctx, "ids.child", "the child ended with status %d", st);
		_exit(0);
	}
	if (pid > 0)
		waitpid(pid, NULL, 0);
	ids_after_exec(ctx);
	restore_ids(ctx);
	int st = aw_child_run(child_limit, NULL, CHILD_MS);
	if (st != 0 && !aw_reported(ctx, "limit"))
		aw_error(ctx, "limit", "the child ended with status %d", st);
	overrun(ctx);
	thread_id(ctx);
	aw_error_rest(ctx, "not reached");
}

static const char *const timer_tags[] = {
	"man:timer_create(2)", "man:timer_getoverrun(2)", "posix:timer_create",
	"linux-git:ec2d0c04624b", NULL,
};

static const char *const timer_kconfig[] = { "CONFIG_POSIX_TIMERS", "CONFIG_USER_NS", NULL };

const struct aw_probe time_timer_probes[] = {
	{ .name = "timers", .summary = "posix timer ids (CRIU), PR_TIMER_CREATE_RESTORE_IDS, the "
	  "limit, overruns, SIGEV_THREAD_ID", .run = run_timers, .items = timer_items,
	  .tags = timer_tags, .needs = { .kconfig = timer_kconfig } },
	AW_PROBES_END
};

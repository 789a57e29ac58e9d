// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * mq_notify() registrations: one process at a time (EBUSY), removed by
 * mq_notify(NULL) from their owner and when the owner closes the queue or
 * exits, SIGEV_NONE (a registration that sends nothing), SIGEV_THREAD
 * (glibc starts a thread, through the kernel's netlink notification),
 * and the argument errors.  POSIX mq_notify(), mq_notify(3).
 */
#include "mq_util.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define QNAME "/aw_notifyreg"
/* A signal that must not come is looked for as pending, not waited
 * for: the kernel queues it within mq_send (see notify.c). */
#define QUIET_MS 0

static const struct aw_item notifyreg_items[] = {
	AW_CHECK_ITEM("ebusy_other_process", "while another process is registered, mq_notify fails with EBUSY"),
	AW_OBS_ITEM("unregister_by_other", "what mq_notify(NULL) does to another process's registration: ignored, removed, or an errno"),
	AW_CHECK_ITEM("owner_exit_unregisters", "when the registered process exits, another process can register"),
	AW_OBS_ITEM("ebusy_same_process", "errno when the registered process registers again, or success"),
	AW_CHECK_ITEM("close_unregisters", "mq_close of the descriptor a process registered through removes its registration"),
	AW_OBS_ITEM("close_other_fd_unregisters", "yes when closing another descriptor of the queue (not the one registered through) removes the registration"),
	AW_CHECK_ITEM("unregister_null", "mq_notify(NULL) by the owner removes the registration: no signal, and another process can register"),
	AW_CHECK_ITEM("sigev_none_no_signal", "SIGEV_NONE registers (with a sigev_signo set) and no signal is delivered on arrival"),
	AW_OBS_ITEM("sigev_none_consumed", "yes when a message arriving removes a SIGEV_NONE registration"),
	AW_OBS_ITEM("signo_zero", "result of SIGEV_SIGNAL with sigev_signo 0: accepted, or the errno"),
	AW_CHECK_ITEM("einval_bad_sigevent", "sigev_notify 99 and SIGEV_SIGNAL with signal 65 fail with EINVAL"),
	AW_CHECK_ITEM("ebadf", "mq_notify on -1 and on a pipe fails with EBADF"),
	AW_CHECK_ITEM("sigev_thread", "SIGEV_THREAD runs the function in a new thread with the sigev_value"),
	AW_ITEMS_END
};

static int notify_kind(mqd_t q, int kind, int signo)
{
	struct sigevent ev = { .sigev_notify = kind, .sigev_signo = signo };

	return (int)mqu_rc(mq_notify(q, &ev));
}

/* A child that registers SIGEV_NONE and stays until told to go. */
struct holder {
	pid_t pid;
	int ready[2], go[2];
};

static int holder_child(void *arg)
{
	struct holder *h = arg;
	int rc;
	char c;

	mqd_t q = mq_open(QNAME, O_RDONLY);
	rc = q == (mqd_t)-1 ? -errno : notify_kind(q, SIGEV_NONE, 0);
	if (write(h->ready[1], &rc, sizeof(rc)) != sizeof(rc))
		return 1;
	return read(h->go[0], &c, 1) == 1 ? 0 : 1;
}

/* Start the holder; 0 once it is registered, or -errno. */
static int holder_start(struct holder *h)
{
	int rc;

	if (pipe(h->ready) != 0)
		return -errno;
	if (pipe(h->go) != 0) {
		rc = -errno;
		close(h->ready[0]);
		close(h->ready[1]);
		return rc;
	}
	h->pid = aw_child_start(holder_child, h);
	if (h->pid < 0)
		return (int)h->pid;
	struct pollfd p = { .fd = h->ready[0], .events = POLLIN };
	if (poll(&p, 1, MQU_BOUND_MS) != 1 || read(h->ready[0], &rc, sizeof(rc)) != sizeof(rc))
		rc = -ETIMEDOUT;
	return rc;
}

/* Let the holder exit and reap it: its exit status or -errno. */
static int holder_stop(struct holder *h)
{
	int status = -ECHILD;

	if (h->pid > 0) {
		if (write(h->go[1], "g", 1) != 1)
			kill(h->pid, SIGKILL);
		status = aw_child_wait(h->pid, MQU_BOUND_MS);
	}
	close(h->ready[0]);
	close(h->ready[1]);
	close(h->go[0]);
	close(h->go[1]);
	return status;
}

static void check_other_process(struct aw_ctx *ctx, mqd_t q)
{
	struct holder h = { .pid = -1 };
	int rc = holder_start(&h);

	if (rc) {
		aw_error(ctx, "ebusy_other_process", "the registering child: %s", aw_errname(rc));
		aw_unobserved(ctx, "unregister_by_other", "the registering child failed");
		aw_error(ctx, "owner_exit_unregisters", "the registering child failed");
		holder_stop(&h);
		return;
	}
	int busy = notify_kind(q, SIGEV_SIGNAL, SIGUSR1);
	aw_expect(ctx, "ebusy_other_process", busy == -EBUSY, "another process is registered: %s",
		  aw_errname(busy));
	int un = (int)mqu_rc(mq_notify(q, NULL));
	int after = notify_kind(q, SIGEV_SIGNAL, SIGUSR1);
	if (un == 0 && after == -EBUSY)
		aw_observe(ctx, "unregister_by_other", "ignored");
	else if (un == 0 && after == 0)
		aw_observe(ctx, "unregister_by_other", "removed");
	else
		aw_observe(ctx, "unregister_by_other", "%s", aw_errname(un ? un : after));
	if (after == 0)
		mq_notify(q, NULL);
	int status = holder_stop(&h);
	int mine = status ? status : notify_kind(q, SIGEV_SIGNAL, SIGUSR1);
	aw_expect(ctx, "owner_exit_unregisters", mine == 0,
		  "after the registered child exited (status %d), registering: %s", status,
		  aw_errname(mine));
	mq_notify(q, NULL);
}

/* A child that tries to register: exit status 0 when it could. */
static int register_child(void *arg)
{
	(void)arg;
	mqd_t q = mq_open(QNAME, O_RDONLY);

	return q != (mqd_t)-1 && notify_kind(q, SIGEV_NONE, 0) == 0 ? 0 : 1;
}

static void check_own_registration(struct aw_ctx *ctx, mqd_t q)
{
	siginfo_t si;
	int rc = notify_kind(q, SIGEV_SIGNAL, SIGUSR1);
	int twice = rc ? rc : notify_kind(q, SIGEV_SIGNAL, SIGUSR1);

	if (rc)
		aw_unobserved(ctx, "ebusy_same_process", "registering: %s", aw_errname(rc));
	else
		aw_observe(ctx, "ebusy_same_process", "%s", aw_errname(twice));
	int un = (int)mqu_rc(mq_notify(q, NULL));
	int sent = mqu_send(q, "u", 1, 0);
	int sig = sent ? sent : aw_wait_signal(SIGUSR1, QUIET_MS, &si);
	int other = aw_child_run(register_child, NULL, MQU_BOUND_MS);
	aw_expect(ctx, "unregister_null", rc == 0 && un == 0 && sig == 0 && other == 0,
		  "register %s, mq_notify(NULL) %s, then a message: %s, another process "
		  "registering: %s", aw_errname(rc), aw_errname(un), sig == 1 ? "signal" :
		  sig == 0 ? "nothing" : aw_errname(sig), other == 0 ? "success" : "failed");
	mqu_drain(q);
	aw_flush_signal(SIGUSR1);
}

static void check_close_unregisters(struct aw_ctx *ctx)
{
	int q = (int)mqu_rc(mq_open(QNAME, O_RDONLY));
	int rc = q < 0 ? q : notify_kind(q, SIGEV_NONE, 0);
	int busy = rc ? rc : aw_child_run(register_child, NULL, MQU_BOUND_MS);

	if (q >= 0)
		mq_close(q);
	int after = rc ? rc : aw_child_run(register_child, NULL, MQU_BOUND_MS);
	if (rc)
		aw_error(ctx, "close_unregisters", "registering: %s", aw_errname(rc));
	else
		aw_expect(ctx, "close_unregisters", busy != 0 && after == 0,
			  "another process registering while this one is: %s; after mq_close: %s",
			  busy == 0 ? "succeeded" : "refused", after == 0 ? "succeeded" : "refused");
}

static void observe_close_other(struct aw_ctx *ctx)
{
	int a = (int)mqu_rc(mq_open(QNAME, O_RDONLY));
	int b = (int)mqu_rc(mq_open(QNAME, O_RDONLY));
	int rc = a < 0 ? a : b < 0 ? b : notify_kind(a, SIGEV_NONE, 0);

	if (b >= 0)
		mq_close(b);
	int other = rc ? rc : aw_child_run(register_child, NULL, MQU_BOUND_MS);
	if (rc)
		aw_unobserved(ctx, "close_other_fd_unregisters", "registering: %s", aw_errname(rc));
	else
		aw_observe(ctx, "close_other_fd_unregisters", "%s", other == 0 ? "yes" : "no");
	if (a >= 0) {
		mq_notify(a, NULL);
		mq_close(a);
	}
}

static void check_none(struct aw_ctx *ctx, mqd_t q)
{
	siginfo_t si;
	/* sigev_signo is meaningless with SIGEV_NONE; setting it must not
	 * make a signal appear. */
	int rc = notify_kind(q, SIGEV_NONE, SIGUSR1);
	int sent = rc ? rc : mqu_send(q, "n", 1, 0);
	int sig = sent ? sent : aw_wait_signal(SIGUSR1, QUIET_MS, &si);

	aw_expect(ctx, "sigev_none_no_signal", rc == 0 && sig == 0,
		  "SIGEV_NONE: %s, then a message: %s", aw_errname(rc),
		  sig == 1 ? "SIGUSR1 came" : sig == 0 ? "nothing" : aw_errname(sig));
	if (sig == 0) {
		int other = aw_child_run(register_child, NULL, MQU_BOUND_MS);
		aw_observe(ctx, "sigev_none_consumed", "%s", other == 0 ? "yes" : "no");
	} else {
		aw_unobserved(ctx, "sigev_none_consumed", "the SIGEV_NONE registration failed");
	}
	mq_notify(q, NULL);
	mqu_drain(q);
	aw_flush_signal(SIGUSR1);
	rc = notify_kind(q, SIGEV_SIGNAL, 0);
	aw_observe(ctx, "signo_zero", "%s", rc == 0 ? "accepted" : aw_errname(rc));
	mq_notify(q, NULL);
}

static void check_errors(struct aw_ctx *ctx, mqd_t q)
{
	int p[2];
	int a = notify_kind(q, 99, SIGUSR1);
	int b = notify_kind(q, SIGEV_SIGNAL, 65);

	aw_expect(ctx, "einval_bad_sigevent", a == -EINVAL && b == -EINVAL,
		  "sigev_notify 99: %s, signal 65: %s", aw_errname(a), aw_errname(b));
	mq_notify(q, NULL);
	if (pipe(p) != 0) {
		aw_error(ctx, "ebadf", "pipe: %s", aw_errname(errno));
		return;
	}
	int c = notify_kind(-1, SIGEV_NONE, 0), d = notify_kind(p[0], SIGEV_NONE, 0);
	aw_expect(ctx, "ebadf", c == -EBADF && d == -EBADF, "on -1: %s, on a pipe: %s",
		  aw_errname(c), aw_errname(d));
	close(p[0]);
	close(p[1]);
}

static int thread_pipe[2] = { -1, -1 };

struct thread_report {
	pid_t tid;
	void *value;
};

static void thread_fn(union sigval v)
{
	struct thread_report r;

	memset(&r, 0, sizeof(r)); /* no uninitialised padding goes out */
	r.tid = gettid();
	r.value = v.sival_ptr;

	/* Nothing to do if it fails: the probe sees no report and says so. */
	if (write(thread_pipe[1], &r, sizeof(r)) != sizeof(r))
		return;
}

static void check_thread(struct aw_ctx *ctx, mqd_t q)
{
	static int marker;
	struct sigevent ev = { .sigev_notify = SIGEV_THREAD, .sigev_notify_function = thread_fn };
	struct thread_report r = { 0, NULL };

	if (pipe(thread_pipe) != 0) {
		aw_error(ctx, "sigev_thread", "pipe: %s", aw_errname(errno));
		return;
	}
	ev.sigev_value.sival_ptr = &marker;
	int rc = (int)mqu_rc(mq_notify(q, &ev));
	if (rc == 0)
		rc = mqu_send(q, "t", 1, 0);
	struct pollfd p = { .fd = thread_pipe[0], .events = POLLIN };
	if (rc == 0 && (poll(&p, 1, MQU_BOUND_MS) != 1 || read(thread_pipe[0], &r, sizeof(r)) != sizeof(r)))
		rc = -ETIMEDOUT;
	if (rc)
		aw_fail(ctx, "sigev_thread", "registering, or waiting %d s for the function: %s",
			MQU_BOUND_MS / 1000, aw_errname(rc));
	else
		aw_expect(ctx, "sigev_thread", r.value == &marker && r.tid != gettid(),
			  "the function %s", r.value != &marker ? "got another sigev_value" :
			  "ran in the thread that sent the message");
	mqu_drain(q);
	/* The helper thread glibc started may still write: keep the pipe. */
}

static void notifyreg_run(struct aw_ctx *ctx)
{
	int rc = aw_block_signal(SIGUSR1);
	int q = rc ? rc : mqu_open_new(QNAME, O_RDWR, 0600, &(struct mqu_shape){ 4, 32 });

	if (q < 0 || rc) {
		aw_error_rest(ctx, "blocking SIGUSR1 or creating the queue: %s",
			      aw_errname(q < 0 ? q : rc));
		return;
	}
	check_other_process(ctx, q);
	check_own_registration(ctx, q);
	check_close_unregisters(ctx);
	observe_close_other(ctx);
	check_none(ctx, q);
	check_errors(ctx, q);
	/* Last: glibc's notification thread stays for the rest of the run. */
	check_thread(ctx, q);
	mq_close(q);
	mq_unlink(QNAME);
}

static const char *const notifyreg_tags[] = {
	"posix:mq_notify", "man:mq_notify(3)", "man:sigevent(7)", NULL
};

const struct aw_probe mq_notifyreg_probes[] = {
	{
		.name = "notifyreg",
		.summary = "mq_notify registrations: EBUSY, removal, SIGEV_NONE, SIGEV_THREAD, errors",
		.run = notifyreg_run,
		.items = notifyreg_items,
		.needs = { .kconfig = mqu_kconfig },
		.tags = notifyreg_tags,
	},
	AW_PROBES_END,
};

// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * mq_send() and mq_receive(): the order messages come out in (highest
 * priority first, FIFO within a priority), the priority range, the size
 * and access errors, O_NONBLOCK on full and empty queues, zero-length
 * messages, bad buffers, and blocking until another process makes room
 * or sends.  POSIX mq_send()/mq_receive(), mq_send(3), mq_receive(3).
 */
#include "mq_util.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <sys/syscall.h>
#include <unistd.h>

#define QNAME "/aw_sendrecv"
#define MAXMSG 8
#define MSGSIZE 64

static const struct aw_item sendrecv_items[] = {
	AW_CHECK_ITEM("priority_order", "messages come out highest priority first, with their contents intact"),
	AW_CHECK_ITEM("fifo_within_priority", "messages of one priority come out in the order they were sent"),
	AW_CHECK_ITEM("receive_reports_priority", "mq_receive stores each message's priority in *msg_prio"),
	AW_OBS_ITEM("prio_max", "sysconf(_SC_MQ_PRIO_MAX)", .unit = "priorities"),
	AW_CHECK_ITEM("highest_priority_accepted", "priority MQ_PRIO_MAX - 1 is accepted"),
	AW_CHECK_ITEM("einval_prio_at_max", "priority MQ_PRIO_MAX and UINT_MAX fail with EINVAL"),
	AW_CHECK_ITEM("emsgsize_send", "a message of mq_msgsize + 1 bytes fails with EMSGSIZE; mq_msgsize bytes is accepted"),
	AW_CHECK_ITEM("emsgsize_receive_short_buffer", "mq_receive with a buffer shorter than mq_msgsize fails with EMSGSIZE, even for a short message"),
	AW_CHECK_ITEM("emsgsize_receive_keeps_message", "after that EMSGSIZE the message is still in the queue"),
	AW_CHECK_ITEM("eagain_send_full", "with O_NONBLOCK, mq_send on a full queue fails with EAGAIN and queues nothing"),
	AW_CHECK_ITEM("eagain_receive_empty", "with O_NONBLOCK, mq_receive on an empty queue fails with EAGAIN"),
	AW_CHECK_ITEM("ebadf_wrong_mode", "mq_send on an O_RDONLY descriptor and mq_receive on an O_WRONLY one fail with EBADF"),
	AW_CHECK_ITEM("ebadf_not_a_queue", "mq_send and mq_receive on -1 and on a pipe fail with EBADF"),
	AW_CHECK_ITEM("zero_length_message", "a message of 0 bytes is sent and received as 0 bytes with its priority"),
	AW_CHECK_ITEM("efault", "a message buffer the process cannot access fails with EFAULT, for mq_send and mq_receive"),
	AW_OBS_ITEM("efault_receive_consumes", "yes when an mq_receive failing with EFAULT took the message off the queue"),
	AW_CHECK_ITEM("receive_blocks_until_send", "a blocked mq_receive returns the message another process then sends"),
	AW_CHECK_ITEM("send_blocks_until_receive", "a blocked mq_send on a full queue completes when another process receives"),
	AW_OBS_ITEM("receiver_wakeup_order", "which of two blocked receivers gets a message: the one of higher priority (nice 0, blocked second) or the longest waiting (nice 10)"),
	AW_ITEMS_END
};

static const struct mqu_shape shape = { MAXMSG, MSGSIZE };

/* Priorities with repeats, the highest allowed among them. */
static const unsigned prios[MAXMSG] = { 3, 0, 7, 3, 32767, 0, 7, 1 };

static const char *const order_checks[] = {
	"priority_order", "fifo_within_priority", "receive_reports_priority",
};

static void order_error(struct aw_ctx *ctx, const char *what, size_t i, long rc)
{
	for (size_t k = 0; k < AW_ARRAY_SIZE(order_checks); k++)
		aw_error(ctx, order_checks[k], "%s %zu: %s", what, i, aw_errname((int)rc));
}

/* Send MAXMSG messages "m<i>" and read them back; report the order. */
static void check_order(struct aw_ctx *ctx, mqd_t q)
{
	size_t order[MAXMSG];
	char buf[MSGSIZE], want[8];
	unsigned prio;
	bool order_ok = true, fifo_ok = true, prio_ok = true;

	for (size_t i = 0; i < MAXMSG; i++) {
		snprintf(want, sizeof(want), "m%zu", i);
		int rc = mqu_send(q, want, strlen(want) + 1, prios[i]);
		if (rc) {
			order_error(ctx, "mq_send of message", i, rc);
			mqu_drain(q);
			return;
		}
	}
	mqu_expected_order(prios, MAXMSG, order);
	for (size_t k = 0; k < MAXMSG; k++) {
		long n = mqu_recv(q, buf, sizeof(buf), &prio);
		size_t i = order[k];
		snprintf(want, sizeof(want), "m%zu", i);
		if (n < 0) {
			order_error(ctx, "mq_receive of message", k, n);
			mqu_drain(q);
			return;
		}
		bool same = (size_t)n == strlen(want) + 1 && memcmp(buf, want, (size_t)n) == 0;
		if (!same) {
			/* Another message of the same priority: FIFO is broken;
			 * of another priority: the order is. */
			unsigned got_i = 0;
			if (sscanf(buf, "m%u", &got_i) == 1 && got_i < MAXMSG &&
			    prios[got_i] == prios[i])
				fifo_ok = false;
			else
				order_ok = false;
			aw_note(ctx, "message %zu out: expected \"%s\" (priority %u), got \"%.*s\" "
				"(priority %u)", k, want, prios[i], (int)(n > 0 ? n - 1 : 0), buf, prio);
		}
		if (prio != prios[i] && same)
			prio_ok = false;
	}
	aw_expect(ctx, "priority_order", order_ok, "a message came out before one of higher priority (see notes)");
	aw_expect(ctx, "fifo_within_priority", fifo_ok, "messages of one priority came out of order (see notes)");
	aw_expect(ctx, "receive_reports_priority", prio_ok, "a received priority differs from the one sent");
}

static void check_prio_range(struct aw_ctx *ctx, mqd_t q)
{
	long max = sysconf(_SC_MQ_PRIO_MAX);
	char buf[MSGSIZE];

	if (max <= 0) {
		aw_unobserved(ctx, "prio_max", "sysconf(_SC_MQ_PRIO_MAX): %ld", max);
		aw_skip(ctx, "highest_priority_accepted", "MQ_PRIO_MAX is unknown");
		aw_skip(ctx, "einval_prio_at_max", "MQ_PRIO_MAX is unknown");
		return;
	}
	aw_observe_long(ctx, "prio_max", max);
	int top = mqu_send(q, "top", 3, (unsigned)(max - 1));
	unsigned prio = 0;
	long n = top ? top : mqu_recv(q, buf, sizeof(buf), &prio);
	aw_expect(ctx, "highest_priority_accepted", top == 0 && n == 3 && prio == (unsigned)(max - 1),
		  "priority %ld: mq_send %s, received priority %u", max - 1, aw_errname(top), prio);
	int at = mqu_send(q, "x", 1, (unsigned)max);
	int huge = mqu_send(q, "x", 1, UINT_MAX);
	aw_expect(ctx, "einval_prio_at_max", at == -EINVAL && huge == -EINVAL,
		  "priority %ld: %s, priority UINT_MAX: %s (expected EINVAL for both)", max,
		  aw_errname(at), aw_errname(huge));
	mqu_drain(q);
}

static void check_sizes(struct aw_ctx *ctx, mqd_t q)
{
	char buf[MSGSIZE + 1];
	struct mq_attr a = { 0 };

	memset(buf, 'z', sizeof(buf));
	int over = mqu_send(q, buf, MSGSIZE + 1, 0);
	int exact = mqu_send(q, buf, MSGSIZE, 0);
	aw_expect(ctx, "emsgsize_send", over == -EMSGSIZE && exact == 0,
		  "%d bytes: %s (expected EMSGSIZE), %d bytes: %s", MSGSIZE + 1,
		  aw_errname(over), MSGSIZE, aw_errname(exact));
	mqu_drain(q);
	mqu_send(q, "s", 1, 0);
	long n = mqu_recv(q, buf, MSGSIZE - 1, NULL);
	aw_expect(ctx, "emsgsize_receive_short_buffer", n == -EMSGSIZE,
		  "a %d-byte buffer for a 1-byte message: %s", MSGSIZE - 1,
		  n < 0 ? aw_errname((int)n) : "success");
	int rc = mqu_getattr(q, &a);
	aw_expect(ctx, "emsgsize_receive_keeps_message", rc == 0 && a.mq_curmsgs == 1,
		  "mq_curmsgs %ld after the failed receive (expected 1)", (long)a.mq_curmsgs);
	mqu_drain(q);
}

static void check_nonblock(struct aw_ctx *ctx)
{
	char buf[MSGSIZE];
	int q = (int)mqu_rc(mq_open(QNAME, O_RDWR | O_NONBLOCK));
	int rc = 0;

	if (q < 0) {
		aw_error(ctx, "eagain_send_full", "mq_open(O_NONBLOCK): %s", aw_errname(q));
		aw_error(ctx, "eagain_receive_empty", "mq_open(O_NONBLOCK): %s", aw_errname(q));
		return;
	}
	long n = mqu_recv(q, buf, sizeof(buf), NULL);
	aw_expect(ctx, "eagain_receive_empty", n == -EAGAIN, "empty queue: %s",
		  n < 0 ? aw_errname((int)n) : "success");
	for (int i = 0; i < MAXMSG && rc == 0; i++)
		rc = mqu_send(q, "f", 1, 0);
	int full = rc ? rc : mqu_send(q, "f", 1, 0);
	struct mq_attr a = { 0 };
	mqu_getattr(q, &a);
	aw_expect(ctx, "eagain_send_full", full == -EAGAIN && a.mq_curmsgs == MAXMSG,
		  "message %d of a %d-message queue: %s, mq_curmsgs %ld afterwards", MAXMSG + 1,
		  MAXMSG, aw_errname(full), (long)a.mq_curmsgs);
	mqu_drain(q);
	mq_close(q);
}

static void check_ebadf(struct aw_ctx *ctx)
{
	char buf[MSGSIZE];
	int ro = (int)mqu_rc(mq_open(QNAME, O_RDONLY));
	int wo = (int)mqu_rc(mq_open(QNAME, O_WRONLY));
	int p[2] = { -1, -1 };

	int s = ro < 0 ? ro : mqu_send(ro, "b", 1, 0);
	long r = wo < 0 ? wo : mqu_recv(wo, buf, sizeof(buf), NULL);
	aw_expect(ctx, "ebadf_wrong_mode", s == -EBADF && r == -EBADF,
		  "mq_send on O_RDONLY: %s, mq_receive on O_WRONLY: %s", aw_errname(s),
		  r < 0 ? aw_errname((int)r) : "success");
	if (pipe(p) != 0) {
		aw_error(ctx, "ebadf_not_a_queue", "pipe: %s", aw_errname(errno));
	} else {
		int a = mqu_send(-1, "b", 1, 0), b = mqu_send(p[1], "b", 1, 0);
		long c = mqu_recv(-1, buf, sizeof(buf), NULL), d = mqu_recv(p[0], buf, sizeof(buf), NULL);
		aw_expect(ctx, "ebadf_not_a_queue", a == -EBADF && b == -EBADF && c == -EBADF && d == -EBADF,
			  "mq_send on -1: %s, on a pipe: %s; mq_receive on -1: %s, on a pipe: %s",
			  aw_errname(a), aw_errname(b), aw_errname((int)c), aw_errname((int)d));
		close(p[0]);
		close(p[1]);
	}
	if (ro >= 0)
		mq_close(ro);
	if (wo >= 0)
		mq_close(wo);
}

static void check_zero_length(struct aw_ctx *ctx, mqd_t q)
{
	char buf[MSGSIZE];
	unsigned prio = 0;
	int rc = mqu_send(q, "", 0, 5);
	long n = rc ? rc : mqu_recv(q, buf, sizeof(buf), &prio);

	aw_expect(ctx, "zero_length_message", rc == 0 && n == 0 && prio == 5,
		  "mq_send of 0 bytes: %s; mq_receive: %ld bytes, priority %u (expected 0, 5)",
		  aw_errname(rc), n, prio);
}

/* A page the kernel cannot copy to or from: a shared mapping of an
 * empty memfd, wholly beyond the end of its file.  (Unlike a PROT_NONE
 * page, memory checkers such as valgrind see a mapped, valid buffer, so
 * the deliberate EFAULT is the kernel's answer alone.) */
static char *unbacked_page(void)
{
	int fd = memfd_create("aw-efault", MFD_CLOEXEC);

	if (fd < 0)
		return NULL;
	char *p = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	close(fd);
	return p == MAP_FAILED ? NULL : p;
}

static void check_efault(struct aw_ctx *ctx, mqd_t q)
{
	struct mq_attr a = { 0 };
	char *bad = unbacked_page();

	if (!bad) {
		aw_error(ctx, "efault", "memfd_create or mmap: %s", aw_errname(errno));
		aw_unobserved(ctx, "efault_receive_consumes", "memfd_create or mmap failed");
		return;
	}
	int s = (int)mqu_rc(mq_send(q, bad, 1, 0));
	mqu_send(q, "f", 1, 0);
	long r = mqu_recv(q, bad, MSGSIZE, NULL);
	aw_expect(ctx, "efault", s == -EFAULT && r == -EFAULT,
		  "mq_send from a page beyond the end of its file: %s, mq_receive into it: %s",
		  aw_errname(s), r < 0 ? aw_errname((int)r) : "success");
	if (r == -EFAULT && mqu_getattr(q, &a) == 0)
		aw_observe(ctx, "efault_receive_consumes", "%s", a.mq_curmsgs == 0 ? "yes" : "no");
	else
		aw_unobserved(ctx, "efault_receive_consumes", "mq_receive did not fail with EFAULT");
	mqu_drain(q);
	munmap(bad, 4096);
}

struct blocker {
	mqd_t q;
	bool send; /* block in mq_send (else mq_receive) */
};

/* 0 when the blocked call completed as expected. */
static int blocker_child(void *arg)
{
	const struct blocker *b = arg;
	char buf[MSGSIZE];

	if (b->send)
		return mqu_send(b->q, "late", 4, 0) == 0 ? 0 : 1;
	long n = mqu_recv(b->q, buf, sizeof(buf), NULL);
	return n == 4 && memcmp(buf, "wake", 4) == 0 ? 0 : 1;
}

/* A child blocks in one call; this process makes it complete. */
static void check_blocking(struct aw_ctx *ctx, mqd_t q, bool send)
{
	const char *c = send ? "send_blocks_until_receive" : "receive_blocks_until_send";
	struct blocker b = { q, send };
	char buf[MSGSIZE];
	int rc = 0;

	for (int i = 0; send && i < MAXMSG && rc == 0; i++)
		rc = mqu_send(q, "f", 1, 0);
	pid_t pid = rc ? rc : aw_child_start(blocker_child, &b);
	if (pid < 0) {
		aw_error(ctx, c, "filling the queue or forking: %s", aw_errname((int)pid));
		mqu_drain(q);
		return;
	}
	rc = aw_wait_blocked(pid, send ? SYS_mq_timedsend : SYS_mq_timedreceive, MQU_BOUND_MS);
	if (rc == 0)
		rc = send ? (int)mqu_recv(q, buf, sizeof(buf), NULL) : mqu_send(q, "wake", 4, 0);
	int status = aw_child_wait(pid, MQU_BOUND_MS);
	if (rc < 0)
		aw_fail(ctx, c, "the child did not block, or the call that should end it failed: %s",
			aw_errname(rc));
	else
		aw_expect(ctx, c, status == 0, "the blocked child %s (bound %d s)",
			  status == -ETIMEDOUT ? "was still blocked" : "ended without the expected result",
			  MQU_BOUND_MS / 1000);
	mqu_drain(q);
}

struct waiter {
	mqd_t q;
	int nice;
};

static int waiter_child(void *arg)
{
	const struct waiter *w = arg;
	char buf[MSGSIZE];

	if (w->nice && setpriority(PRIO_PROCESS, 0, w->nice) != 0)
		return 2;
	return mqu_recv(w->q, buf, sizeof(buf), NULL) >= 0 ? 0 : 1;
}

/* The exit status of pid if it has ended (reaped), else -1. */
static int ended(pid_t pid)
{
	int st;

	if (pid <= 0 || waitpid(pid, &st, WNOHANG) != pid)
		return -1;
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128;
}

/* Two receivers block, the one at nice 10 first; one message comes.
 * Which one ends (within MQU_BOUND_MS), while the other still waits? */
static void observe_wakeup_order(struct aw_ctx *ctx, mqd_t q)
{
	const char *o = "receiver_wakeup_order";
	struct waiter low = { q, 10 }, high = { q, 0 };
	int sa = -1, sb = -1;
	pid_t a = aw_child_start(waiter_child, &low);
	int rc = a < 0 ? (int)a : aw_wait_blocked(a, SYS_mq_timedreceive, MQU_BOUND_MS);
	pid_t b = rc ? rc : aw_child_start(waiter_child, &high);

	rc = b < 0 ? (int)b : aw_wait_blocked(b, SYS_mq_timedreceive, MQU_BOUND_MS);
	if (rc == 0)
		rc = mqu_send(q, "1", 1, 0);
	for (int ms = 0; rc == 0 && sa < 0 && sb < 0 && ms < MQU_BOUND_MS; ms++) {
		sa = ended(a);
		sb = ended(b);
		if (sa < 0 && sb < 0)
			aw_sleep_ms(1);
	}
	if (rc == 0) {
		aw_sleep_ms(10);
		if (sa < 0)
			sa = ended(a);
		if (sb < 0)
			sb = ended(b);
	}
	if (rc)
		aw_unobserved(ctx, o, "starting the receivers: %s", aw_errname(rc));
	else if (sa == 0 && sb < 0)
		aw_observe(ctx, o, "longest_waiting");
	else if (sb == 0 && sa < 0)
		aw_observe(ctx, o, "higher_priority");
	else
		aw_unobserved(ctx, o, "after one message: the first receiver's status %d, the "
			      "second's %d (-1: still waiting)", sa, sb);
	/* Release and reap whoever still waits. */
	for (int i = 0; i < 2; i++) {
		pid_t p = i ? b : a;
		if (p > 0 && (i ? sb : sa) < 0) {
			mqu_send(q, "2", 1, 0);
			aw_child_wait(p, MQU_BOUND_MS);
		}
	}
	mqu_drain(q);
}

static void sendrecv_run(struct aw_ctx *ctx)
{
	int q = mqu_open_new(QNAME, O_RDWR, 0600, &shape);

	if (q < 0) {
		aw_error_rest(ctx, "creating a %dx%d queue: %s", MAXMSG, MSGSIZE, aw_errname(q));
		return;
	}
	check_order(ctx, q);
	check_prio_range(ctx, q);
	check_sizes(ctx, q);
	check_nonblock(ctx);
	check_ebadf(ctx);
	check_zero_length(ctx, q);
	check_efault(ctx, q);
	check_blocking(ctx, q, false);
	check_blocking(ctx, q, true);
	observe_wakeup_order(ctx, q);
	mq_close(q);
	mq_unlink(QNAME);
}

static const char *const sendrecv_tags[] = {
	"posix:mq_send", "posix:mq_receive", "man:mq_send(3)", "man:mq_receive(3)",
	"man:mq_overview(7)", NULL
};

const struct aw_probe mq_sendrecv_probes[] = {
	{
		.name = "sendrecv",
		.summary = "mq_send and mq_receive: order, priorities, sizes, access, blocking",
		.run = sendrecv_run,
		.items = sendrecv_items,
		.needs = { .kconfig = mqu_kconfig },
		.tags = sendrecv_tags,
	},
	AW_PROBES_END,
};

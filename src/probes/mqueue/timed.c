// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * mq_timedsend() and mq_timedreceive(): the absolute CLOCK_REALTIME
 * deadline (ETIMEDOUT in the past and shortly ahead, never before it),
 * EINVAL for a tv_nsec out of range, EINTR when a handler without
 * SA_RESTART runs, restarting with SA_RESTART (signal(7)), and deadlines
 * far in the future.  On x86_64 there is one entry point of each, with
 * a 64-bit time_t; the 32-bit legacy and time64 entry points are the
 * compat32 probe's.
 */
#include "mq_util.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>

#define QNAME "/aw_timed"
#define NEAR_MS 30

static const struct aw_item timed_items[] = {
	AW_CHECK_ITEM("etimedout_past_receive", "mq_timedreceive on an empty queue with a deadline in the past fails with ETIMEDOUT"),
	AW_CHECK_ITEM("etimedout_past_send", "mq_timedsend on a full queue with a deadline in the past fails with ETIMEDOUT"),
	AW_CHECK_ITEM("etimedout_near_receive", "mq_timedreceive with a deadline 30 ms ahead fails with ETIMEDOUT, not before the deadline"),
	AW_CHECK_ITEM("etimedout_near_send", "mq_timedsend with a deadline 30 ms ahead fails with ETIMEDOUT, not before the deadline"),
	AW_CHECK_ITEM("einval_nsec_range", "a call that would block with tv_nsec -1 or 1000000000 fails with EINVAL"),
	AW_OBS_ITEM("invalid_timeout_when_not_blocking", "errno of mq_timedreceive with tv_nsec 1000000000 on a non-empty queue, or success"),
	AW_OBS_ITEM("invalid_timeout_when_room", "errno of mq_timedsend with tv_nsec 1000000000 on a queue with room, or success"),
	AW_OBS_ITEM("negative_tv_sec", "errno of mq_timedreceive with tv_sec -1 on an empty queue"),
	AW_CHECK_ITEM("eintr_receive", "a blocked mq_timedreceive fails with EINTR when a handler without SA_RESTART runs"),
	AW_CHECK_ITEM("eintr_send", "a blocked mq_timedsend fails with EINTR when a handler without SA_RESTART runs"),
	AW_CHECK_ITEM("restart_with_sa_restart", "with SA_RESTART the interrupted mq_timedreceive goes on and ends with ETIMEDOUT at its deadline"),
	AW_CHECK_ITEM("far_future_deadline", "a deadline 2^62 s after the epoch is valid: the call blocks (until a signal)"),
	AW_ITEMS_END
};

static const struct mqu_shape shape = { 2, 16 };

static long timed_recv(mqd_t q, const struct timespec *t)
{
	char buf[16];

	return mqu_rc(mq_timedreceive(q, buf, sizeof(buf), NULL, t));
}

static int timed_send(mqd_t q, const struct timespec *t)
{
	return (int)mqu_rc(mq_timedsend(q, "t", 1, 0, t));
}

static int fill(mqd_t q)
{
	int rc = 0;

	for (long i = 0; i < shape.maxmsg && rc == 0; i++)
		rc = mqu_send(q, "f", 1, 0);
	return rc;
}

static void check_past(struct aw_ctx *ctx, mqd_t q)
{
	struct timespec past = aw_deadline_ms(-1000);
	long r = timed_recv(q, &past);

	aw_expect(ctx, "etimedout_past_receive", r == -ETIMEDOUT, "empty queue, deadline 1 s ago: %s",
		  aw_errname((int)r));
	int rc = fill(q);
	int s = rc ? rc : timed_send(q, &past);
	aw_expect(ctx, "etimedout_past_send", s == -ETIMEDOUT, "full queue, deadline 1 s ago: %s",
		  aw_errname(s));
	mqu_drain(q);
}

static void check_near(struct aw_ctx *ctx, mqd_t q)
{
	struct timespec t = aw_deadline_ms(NEAR_MS);
	long r = timed_recv(q, &t);
	bool late = aw_realtime_reached(&t);

	aw_expect(ctx, "etimedout_near_receive", r == -ETIMEDOUT && late,
		  "empty queue, deadline %d ms ahead: %s, %s the deadline", NEAR_MS,
		  aw_errname((int)r), late ? "at or after" : "before");
	int rc = fill(q);
	t = aw_deadline_ms(NEAR_MS);
	int s = rc ? rc : timed_send(q, &t);
	late = aw_realtime_reached(&t);
	aw_expect(ctx, "etimedout_near_send", s == -ETIMEDOUT && late,
		  "full queue, deadline %d ms ahead: %s, %s the deadline", NEAR_MS,
		  aw_errname(s), late ? "at or after" : "before");
	mqu_drain(q);
}

static void check_invalid(struct aw_ctx *ctx, mqd_t q)
{
	const long nsecs[] = { -1, 1000000000 };
	struct timespec t = aw_deadline_ms(1000);
	long got[4];

	for (size_t i = 0; i < 2; i++) {
		t.tv_nsec = nsecs[i];
		got[i] = timed_recv(q, &t);
	}
	int rc = fill(q);
	for (size_t i = 0; i < 2; i++) {
		t.tv_nsec = nsecs[i];
		got[2 + i] = rc ? rc : timed_send(q, &t);
	}
	mqu_drain(q);
	aw_expect(ctx, "einval_nsec_range", got[0] == -EINVAL && got[1] == -EINVAL &&
		  got[2] == -EINVAL && got[3] == -EINVAL,
		  "tv_nsec -1 / 1000000000: mq_timedreceive %s / %s, mq_timedsend %s / %s",
		  aw_errname((int)got[0]), aw_errname((int)got[1]), aw_errname((int)got[2]),
		  aw_errname((int)got[3]));
	/* POSIX: "The validity of the abs_timeout need not be checked" when
	 * the call does not block. */
	mqu_send(q, "m", 1, 0);
	t.tv_nsec = 1000000000;
	long r = timed_recv(q, &t);
	aw_observe(ctx, "invalid_timeout_when_not_blocking", "%s", aw_errname(r < 0 ? (int)r : 0));
	mqu_drain(q);
	aw_observe(ctx, "invalid_timeout_when_room", "%s", aw_errname(timed_send(q, &t)));
	mqu_drain(q);
	t = (struct timespec){ -1, 0 };
	aw_observe(ctx, "negative_tv_sec", "%s", aw_errname((int)timed_recv(q, &t)));
}

/* Block in the call (on a full queue when send) while SIGALRM arrives
 * every 20 ms, with the deadline *t (set ms ahead once the alarm runs,
 * so that however slow the machine, or valgrind, the first alarm comes
 * before it; ms 0 keeps *t); its result, handler runs in *runs. */
static long interrupted(mqd_t q, bool send, struct timespec *t, long ms, int flags, int *runs)
{
	struct sigaction dfl = { .sa_handler = SIG_DFL };
	int rc = aw_count_signal(SIGALRM, flags);

	if (rc == 0 && send)
		rc = fill(q);
	if (rc == 0)
		rc = aw_alarm_ms(20);
	if (ms > 0)
		*t = aw_deadline_ms(ms);
	long r = rc ? rc : send ? timed_send(q, t) : timed_recv(q, t);
	aw_alarm_cancel();
	*runs = aw_signal_count;
	sigemptyset(&dfl.sa_mask);
	sigaction(SIGALRM, &dfl, NULL);
	mqu_drain(q);
	return r;
}

static void check_eintr(struct aw_ctx *ctx, mqd_t q)
{
	static const char *const checks[] = { "eintr_receive", "eintr_send" };
	int runs;

	for (int send = 0; send < 2; send++) {
		struct timespec t;
		long r = interrupted(q, send, &t, 2000, 0, &runs);
		aw_expect(ctx, checks[send], r == -EINTR && runs >= 1,
			  "SIGALRM every 20 ms, deadline 2 s: %s, handler ran %d times",
			  r < 0 ? aw_errname((int)r) : "success", runs);
	}
}

static void check_restart(struct aw_ctx *ctx, mqd_t q)
{
	struct timespec t;
	int runs;
	long r = interrupted(q, false, &t, 80, SA_RESTART, &runs);
	bool late = aw_realtime_reached(&t);

	aw_expect(ctx, "restart_with_sa_restart", r == -ETIMEDOUT && runs >= 1 && late,
		  "SIGALRM (SA_RESTART) every 20 ms, deadline 80 ms: %s %s the deadline, "
		  "handler ran %d times (expected ETIMEDOUT, after at least one)",
		  r < 0 ? aw_errname((int)r) : "success", late ? "at or after" : "before", runs);
}

static void check_far_future(struct aw_ctx *ctx, mqd_t q)
{
	struct timespec far = { (time_t)1 << 62, 0 };
	int runs;
	long r = interrupted(q, false, &far, 0, 0, &runs);

	aw_expect(ctx, "far_future_deadline", r == -EINTR && runs >= 1,
		  "empty queue, tv_sec 2^62: %s (expected EINTR from the SIGALRM after 20 ms)",
		  r < 0 ? aw_errname((int)r) : "success");
}

static void timed_run(struct aw_ctx *ctx)
{
	int q = mqu_open_new(QNAME, O_RDWR, 0600, &shape);

	if (q < 0) {
		aw_error_rest(ctx, "creating the queue: %s", aw_errname(q));
		return;
	}
	check_past(ctx, q);
	check_near(ctx, q);
	check_invalid(ctx, q);
	check_eintr(ctx, q);
	check_restart(ctx, q);
	check_far_future(ctx, q);
	mq_close(q);
	mq_unlink(QNAME);
}

static const char *const timed_tags[] = {
	"posix:mq_timedsend", "posix:mq_timedreceive", "man:mq_send(3)", "man:mq_receive(3)",
	"man:signal(7)", NULL
};

const struct aw_probe mq_timed_probes[] = {
	{
		.name = "timed",
		.summary = "deadlines, invalid timeouts and signals in mq_timedsend and mq_timedreceive",
		.run = timed_run,
		.items = timed_items,
		.needs = { .kconfig = mqu_kconfig },
		.tags = timed_tags,
	},
	AW_PROBES_END,
};

// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The clock-adjustment interfaces (adjtimex(2), clock_adjtime(2),
 * settimeofday(2)).  On a host only what reads: adjtimex with
 * ADJ_OFFSET_SS_READ (which changes nothing), clock_adjtime with modes 0
 * on each clock (which clocks take it; the others are EOPNOTSUPP or
 * EINVAL), the tick; and, as an unprivileged uid, a write of the tick it
 * already has, which must fail with EPERM before the kernel looks at it
 * (no CAP_SYS_TIME).  The NTP state (synchronised or not) is the
 * machine's and is not recorded.  Setting the clock happens only in the
 * VM guest (settime): settimeofday one day ahead must move
 * CLOCK_REALTIME and leave CLOCK_MONOTONIC and CLOCK_BOOTTIME alone
 * (clock_gettime(2)), and a timerfd armed with TFD_TIMER_CANCEL_ON_SET
 * (timerfd_create(2), 99ee5315dac6) reports ECANCELED, which is how
 * systemd notices a clock jump.
 */
#include "time.h"
#include "lib/child.h"
#include "lib/errname.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/timerfd.h>
#include <sys/timex.h>
#include <unistd.h>

#define CHILD_MS 5000
#define JUMP_NS (86400 * 1000000000LL) /* what settimeofday adds: a day */
#ifndef TFD_TIMER_CANCEL_ON_SET
#define TFD_TIMER_CANCEL_ON_SET (1 << 1)
#endif

static const char *const adj_absent[] = { "EINVAL", "EOPNOTSUPP", "ENOSYS", NULL };

#define ADJ_ITEM(n, what)                                                                        \
	AW_OBS_ITEM("clock_adjtime." n, "clock_adjtime(" what ", modes 0): ok or the errno",       \
		    .object = "clock_adjtime", .absent = adj_absent)

static const struct aw_item adjust_items[] = {
	AW_OBS_ITEM("ss_read", "adjtimex(ADJ_OFFSET_SS_READ): ok (a clock state) or the errno",
		    .object = "adjtimex", .absent = adj_absent,
		    .change = "ntpd/chrony's read of the adjtime offset fails"),
	AW_OBS_ITEM("tick", "the tick adjtimex reports, us", .object = "adjtimex", .unit = "us"),
	ADJ_ITEM("realtime", "CLOCK_REALTIME"), ADJ_ITEM("monotonic", "CLOCK_MONOTONIC"),
	ADJ_ITEM("boottime", "CLOCK_BOOTTIME"), ADJ_ITEM("tai", "CLOCK_TAI"),
	ADJ_ITEM("process_cputime", "CLOCK_PROCESS_CPUTIME_ID"), ADJ_ITEM("bad_id", "clock id 99"),
	AW_OBS_ITEM("unprivileged_write", "adjtimex(ADJ_TICK, the tick it has) as uid nobody",
		    .object = "adjtimex"),
	AW_CHECK_ITEM("write_needs_cap", "a write through adjtimex without CAP_SYS_TIME fails with "
		      "EPERM (adjtimex(2))", .object = "adjtimex"),
	AW_ITEMS_END
};

static struct aw_ctx *adj_ctx;
static long tick_now;

static int unprivileged(void *arg)
{
	(void)arg;
	struct timex tx = { .modes = ADJ_TICK, .tick = tick_now };
	int r = adjtimex(&tx);
	int err = errno;
	aw_observe(adj_ctx, "unprivileged_write", "%s", r >= 0 ? "ok" : aw_errname(err));
	aw_expect(adj_ctx, "write_needs_cap", r < 0 && err == EPERM, "adjtimex: %s",
		  r >= 0 ? "ok" : aw_errname(err));
	return 0;
}

static void run_adjust(struct aw_ctx *ctx)
{
	struct timex tx;
	memset(&tx, 0, sizeof(tx));
	tx.modes = ADJ_OFFSET_SS_READ;
	int r = adjtimex(&tx);
	aw_observe(ctx, "ss_read", "%s", r >= 0 ? "ok" : aw_errname(errno));
	memset(&tx, 0, sizeof(tx));
	r = adjtimex(&tx);
	if (r < 0)
		aw_observe(ctx, "tick", "%s", aw_errname(errno));
	else
		aw_observe_long(ctx, "tick", tx.tick);
	tick_now = tx.tick;

	static const struct { const char *item; clockid_t id; } clocks[] = {
		{ "clock_adjtime.realtime", CLOCK_REALTIME }, { "clock_adjtime.monotonic", CLOCK_MONOTONIC },
		{ "clock_adjtime.boottime", CLOCK_BOOTTIME }, { "clock_adjtime.tai", CLOCK_TAI },
		{ "clock_adjtime.process_cputime", CLOCK_PROCESS_CPUTIME_ID },
		{ "clock_adjtime.bad_id", 99 },
	};
	for (size_t i = 0; i < sizeof(clocks) / sizeof(clocks[0]); i++) {
		memset(&tx, 0, sizeof(tx));
		long rc = syscall(SYS_clock_adjtime, clocks[i].id, &tx);
		aw_observe(ctx, clocks[i].item, "%s", rc >= 0 ? "ok" : aw_errname(errno));
	}

	adj_ctx = ctx;
	if (r < 0) {
		aw_skip(ctx, "unprivileged_write", "no tick to write back");
		aw_skip(ctx, "write_needs_cap", "no tick to write back");
		return;
	}
	int refused = 0;
	int st = aw_child_run_as(AW_NOBODY, AW_NOBODY, unprivileged, NULL, CHILD_MS, &refused);
	if (refused) {
		aw_skip(ctx, "unprivileged_write", "%s", aw_become_user_why(refused));
		aw_skip(ctx, "write_needs_cap", "%s", aw_become_user_why(refused));
	} else if (st != 0) {
		aw_error_rest(ctx, "the unprivileged child ended with status %d", st);
	}
}

/* ---- settimeofday, in the VM guest only ---- */

static const struct aw_item settime_items[] = {
	AW_OBS_ITEM("realtime_jump", "how far settimeofday(now + 86400 s) moved CLOCK_REALTIME: "
		    "its move across the call less CLOCK_MONOTONIC's, nearest whole second",
		    .object = "settimeofday", .unit = "s"),
	AW_CHECK_ITEM("monotonic_unaffected", "CLOCK_MONOTONIC and CLOCK_BOOTTIME do not take the "
		      "jump: each moves forward by less than half of it (clock_gettime(2))",
		      .object = "settimeofday"),
	AW_CHECK_ITEM("cancel_on_set", "a CLOCK_REALTIME timerfd armed absolute with "
		      "TFD_TIMER_CANCEL_ON_SET reads ECANCELED after the jump (timerfd_create(2))",
		      .object = "settimeofday"),
	AW_ITEMS_END
};

static void run_settime(struct aw_ctx *ctx)
{
	struct timespec r0, m0, b0, r1, m1, b1;
	int fd = timerfd_create(CLOCK_REALTIME, TFD_CLOEXEC | TFD_NONBLOCK);
	clock_gettime(CLOCK_REALTIME, &r0);
	struct itimerspec far = { .it_value = { r0.tv_sec + 10 * 86400, 0 } };
	if (fd < 0 || timerfd_settime(fd, TFD_TIMER_ABSTIME | TFD_TIMER_CANCEL_ON_SET, &far, NULL) != 0)
		aw_note(ctx, "timerfd: %s", aw_errname(errno));
	clock_gettime(CLOCK_MONOTONIC, &m0);
	clock_gettime(CLOCK_BOOTTIME, &b0);
	clock_gettime(CLOCK_REALTIME, &r0);
	struct timeval tv = { .tv_sec = r0.tv_sec + JUMP_NS / 1000000000LL,
			      .tv_usec = r0.tv_nsec / 1000 };
	if (settimeofday(&tv, NULL) != 0) {
		aw_error_rest(ctx, "settimeofday: %s", aw_errname(errno));
		return;
	}
	clock_gettime(CLOCK_REALTIME, &r1);
	clock_gettime(CLOCK_MONOTONIC, &m1);
	clock_gettime(CLOCK_BOOTTIME, &b1);
	/* MONOTONIC's move is the time the calls took, however long a loaded
	 * machine made it: taken from REALTIME's, what is left is the jump;
	 * and a clock that took the jump moved by a day, not by that time. */
	long long dm = time_ns(&m1) - time_ns(&m0), db = time_ns(&b1) - time_ns(&b0);
	aw_observe_long(ctx, "realtime_jump", time_secs(time_ns(&r1) - time_ns(&r0) - dm));
	aw_expect(ctx, "monotonic_unaffected", dm >= 0 && dm < JUMP_NS / 2 && db >= 0 &&
		  db < JUMP_NS / 2, "MONOTONIC moved %lld ns, BOOTTIME %lld ns", dm, db);
	uint64_t n;
	ssize_t got = fd >= 0 ? read(fd, &n, sizeof(n)) : -1;
	int err = errno;
	aw_expect(ctx, "cancel_on_set", got < 0 && err == ECANCELED, "read: %s",
		  got < 0 ? aw_errname(err) : "a count");
	/* Put the clock back: the guest's snapshot carries times too. */
	clock_gettime(CLOCK_REALTIME, &r1);
	tv.tv_sec = r1.tv_sec - JUMP_NS / 1000000000LL;
	tv.tv_usec = r1.tv_nsec / 1000;
	settimeofday(&tv, NULL);
	if (fd >= 0)
		close(fd);
}

static const char *const adjust_tags[] = {
	"man:adjtimex(2)", "man:clock_adjtime(2)", NULL,
};
static const char *const settime_tags[] = {
	"man:settimeofday(2)", "man:timerfd_create(2)", "linux-git:99ee5315dac6", NULL,
};

const struct aw_probe time_adjust_probes[] = {
	{ .name = "adjtimex", .summary = "adjtimex and clock_adjtime, read only", .run = run_adjust,
	  .items = adjust_items, .tags = adjust_tags },
	{ .name = "settime", .summary = "settimeofday against CLOCK_MONOTONIC and a cancel-on-set "
	  "timerfd", .run = run_settime, .items = settime_items, .tags = settime_tags,
	  .needs = { .vm_guest = "it sets the machine's clock" },
	  .alone = "it sets CLOCK_REALTIME, the whole machine's, which other probes' timeouts "
		   "and timestamps read" },
	AW_PROBES_END
};

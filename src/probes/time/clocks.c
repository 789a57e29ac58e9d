// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The clocks (clock_gettime(2), clock_getres(2), clock_nanosleep(2),
 * timerfd_create(2); uapi/linux/time.h).  For every clock id 0..15, by
 * the system call itself (not the vDSO, which vdso.c watches): whether
 * clock_gettime and clock_getres accept it, the resolution, whether
 * timerfd_create takes it and whether clock_nanosleep(TIMER_ABSTIME)
 * to a moment already past returns at once (so no item waits).  The
 * alarm clocks need an RTC that can wake the machine and CAP_WAKE_ALARM
 * (alarmtimer.c): without such an RTC (env.rtc) they are skips of cause
 * rtc, since the kernel's answer would be the machine's.  Then the dynamic CPU
 * clocks (clock_getcpuclockid(3): ~pid << 3 | CPUCLOCK_SCHED, bit 2 for a
 * thread) of this process, this thread, a child, a thread of another
 * process and a reaped pid; CLOCK_BOOTTIME - CLOCK_MONOTONIC, which
 * d6ed449afdb3 (4.17-rc1) made 0 for good by letting MONOTONIC count
 * suspend, until a3ed0e4393d6 reverted it because systemd's watchdogs
 * fired after every resume: a bucket, "under 1 s" on a machine that never
 * slept; CLOCK_TAI - CLOCK_REALTIME in whole seconds (what adjtimex's tai
 * field says, 0 until ntpd sets it).  The checks: MONOTONIC, MONOTONIC_RAW
 * and the coarse clocks never go backwards within a bounded number of
 * reads (POSIX: CLOCK_MONOTONIC "cannot be set" and does not jump
 * backwards), and BOOTTIME is never behind MONOTONIC (clock_gettime(2)).
 */
#include "time.h"
#include "lib/child.h"
#include "lib/errname.h"

#include <errno.h>
#include <glob.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <sys/syscall.h>
#include <sys/timerfd.h>
#include <sys/wait.h>
#include <unistd.h>

#define TIGHT_READS 20000
#define CPUCLOCK_SCHED 2
#define CPUCLOCK_PERTHREAD 4
#define PROCESS_CLOCK(pid) ((clockid_t)((~(unsigned)(pid) << 3) | CPUCLOCK_SCHED))
#define THREAD_CLOCK(tid) ((clockid_t)((~(unsigned)(tid) << 3) | CPUCLOCK_SCHED | CPUCLOCK_PERTHREAD))

#define CLOCK_ITEMS(n, what)                                                                    \
	AW_OBS_ITEM("clock." n ".gettime", "clock_gettime(" what ") by the system call: ok or the errno", \
		    .object = "clock." n, .absent = time_absent,                                 \
		    .change = "programs reading this clock get an error, or a clock appeared"),      \
	AW_OBS_ITEM("clock." n ".getres", "clock_getres(" what "): the resolution in ns, or the errno", \
		    .object = "clock." n, .unit = "ns", .absent = time_absent,                   \
		    .change = "programs sizing timeouts by the resolution see another granularity"), \
	AW_OBS_ITEM("clock." n ".timerfd", "timerfd_create(" what "): ok or the errno",          \
		    .object = "clock." n, .absent = time_absent,                                 \
		    .change = "event loops that make timerfds on this clock fail or start working"), \
	AW_OBS_ITEM("clock." n ".nanosleep_abs", "clock_nanosleep(" what ", TIMER_ABSTIME) to a "  \
		    "moment already past: ok or the errno", .object = "clock." n, .absent = time_absent, \
		    .change = "absolute sleeps on this clock fail or start working")

static const char *const time_absent[] = { "EINVAL", "EOPNOTSUPP", "ENOTSUP", NULL };

static const struct aw_item clock_items[] = {
	CLOCK_ITEMS("realtime", "CLOCK_REALTIME"),
	CLOCK_ITEMS("monotonic", "CLOCK_MONOTONIC"),
	CLOCK_ITEMS("process_cputime", "CLOCK_PROCESS_CPUTIME_ID"),
	CLOCK_ITEMS("thread_cputime", "CLOCK_THREAD_CPUTIME_ID"),
	CLOCK_ITEMS("monotonic_raw", "CLOCK_MONOTONIC_RAW"),
	CLOCK_ITEMS("realtime_coarse", "CLOCK_REALTIME_COARSE"),
	CLOCK_ITEMS("monotonic_coarse", "CLOCK_MONOTONIC_COARSE"),
	CLOCK_ITEMS("boottime", "CLOCK_BOOTTIME"),
	CLOCK_ITEMS("realtime_alarm", "CLOCK_REALTIME_ALARM"),
	CLOCK_ITEMS("boottime_alarm", "CLOCK_BOOTTIME_ALARM"),
	CLOCK_ITEMS("sgi_cycle", "clock id 10, CLOCK_SGI_CYCLE (removed)"),
	CLOCK_ITEMS("tai", "CLOCK_TAI"),
	CLOCK_ITEMS("12", "clock id 12, unassigned"),
	CLOCK_ITEMS("13", "clock id 13, unassigned"),
	CLOCK_ITEMS("14", "clock id 14, unassigned"),
	CLOCK_ITEMS("15", "clock id 15, unassigned"),
	AW_OBS_ITEM("cpuclock.self_process", "clock_gettime of this process's CPU clock "
		    "(clock_getcpuclockid(getpid())): ok or the errno", .object = "cpuclock",
		    .absent = time_absent),
	AW_OBS_ITEM("cpuclock.self_process.getres", "clock_getres of this process's CPU clock, ns",
		    .object = "cpuclock", .unit = "ns", .absent = time_absent),
	AW_OBS_ITEM("cpuclock.self_thread", "clock_gettime of this thread's CPU clock "
		    "(pthread_getcpuclockid)", .object = "cpuclock", .absent = time_absent),
	AW_OBS_ITEM("cpuclock.other_thread", "clock_gettime of the CPU clock of another thread of "
		    "this process", .object = "cpuclock", .absent = time_absent),
	AW_OBS_ITEM("cpuclock.child_process", "clock_gettime of a live child's process CPU clock",
		    .object = "cpuclock", .absent = time_absent,
		    .change = "tools reading other processes' CPU time (ps-like, profilers) break"),
	AW_OBS_ITEM("cpuclock.child_thread", "clock_gettime of a live child's thread CPU clock "
		    "(a thread of another process)", .object = "cpuclock",
		    .change = "reading the CPU clock of another process's thread is allowed, or no longer"),
	AW_OBS_ITEM("cpuclock.reaped", "clock_gettime of the process CPU clock of a reaped child",
		    .object = "cpuclock"),
	AW_OBS_ITEM("boottime_minus_monotonic", "CLOCK_BOOTTIME - CLOCK_MONOTONIC, a bucket: "
		    "\"under 1 s\" where the machine never slept, \"1 s or more\" after a suspend, "
		    "\"negative\"", .object = "boottime", .varies_with = "clock",
		    .change = "MONOTONIC counts suspend (as in 4.17-rc1, d6ed449afdb3): watchdogs "
		    "fire after resume"),
	AW_OBS_ITEM("tai_offset", "CLOCK_TAI - CLOCK_REALTIME in whole seconds (0 until ntpd "
		    "sets the TAI offset)", .object = "tai", .unit = "s", .varies_with = "clock"),
	AW_CHECK_ITEM("monotonic_forward", "20000 CLOCK_MONOTONIC reads in a row never go "
		      "backwards (clock_gettime(2))", .object = "monotonic"),
	AW_CHECK_ITEM("monotonic_raw_forward", "20000 CLOCK_MONOTONIC_RAW reads never go backwards",
		      .object = "monotonic_raw"),
	AW_CHECK_ITEM("monotonic_coarse_forward", "20000 CLOCK_MONOTONIC_COARSE reads never go "
		      "backwards", .object = "monotonic_coarse"),
	AW_CHECK_ITEM("boottime_not_behind", "CLOCK_BOOTTIME read after CLOCK_MONOTONIC is never "
		      "smaller (clock_gettime(2): BOOTTIME is MONOTONIC plus the time suspended)",
		      .object = "boottime"),
	AW_ITEMS_END
};

static long sys_gettime(clockid_t id, struct timespec *ts)
{
	return syscall(SYS_clock_gettime, id, ts);
}

/* Whether an RTC can wake the machine (the alarm clocks need one, with
 * CAP_WAKE_ALARM): as env.rtc decides it. */
static bool have_rtc(void)
{
	glob_t g;
	int rc = glob("/sys/class/rtc/rtc*/wakealarm", 0, NULL, &g);
	bool yes = rc == 0 && g.gl_pathc > 0;
	if (rc == 0)
		globfree(&g);
	return yes;
}

static void one_clock(struct aw_ctx *ctx, int id)
{
	char item[64], buf[TIME_RES_LEN];
	const char *n = time_clock_names[id];
	struct timespec ts;

	if ((id == CLOCK_REALTIME_ALARM || id == CLOCK_BOOTTIME_ALARM) && !have_rtc()) {
		static const char *const parts[] = { "gettime", "getres", "timerfd", "nanosleep_abs" };
		for (size_t i = 0; i < 4; i++) {
			snprintf(item, sizeof(item), "clock.%s.%s", n, parts[i]);
			aw_skip_cause(ctx, item, "rtc", "the alarm clocks need an RTC that can wake "
				      "the machine (alarmtimer.c)");
		}
		return;
	}

	long rc = sys_gettime(id, &ts);
	snprintf(item, sizeof(item), "clock.%s.gettime", n);
	aw_observe(ctx, item, "%s", time_ok(rc, errno));
	bool readable = rc == 0;

	rc = syscall(SYS_clock_getres, id, &ts);
	snprintf(item, sizeof(item), "clock.%s.getres", n);
	aw_observe(ctx, item, "%s", time_res(buf, rc == 0 ? time_ns(&ts) : -1, errno));

	int fd = timerfd_create(id, TFD_CLOEXEC | TFD_NONBLOCK);
	snprintf(item, sizeof(item), "clock.%s.timerfd", n);
	aw_observe(ctx, item, "%s", time_ok(fd < 0 ? -1 : 0, errno));
	if (fd >= 0)
		close(fd);

	/* A moment past: now on that clock (1 s earlier when it is that
	 * far along), or the epoch for a clock that cannot be read. */
	struct timespec past = { 0, 0 };
	if (readable && sys_gettime(id, &past) == 0 && past.tv_sec > 1)
		past.tv_sec -= 1;
	int err = clock_nanosleep(id, TIMER_ABSTIME, &past, NULL);
	snprintf(item, sizeof(item), "clock.%s.nanosleep_abs", n);
	aw_observe(ctx, item, "%s", time_ok(err ? -1 : 0, err));
}

static void observe_cpuclock(struct aw_ctx *ctx, const char *item, clockid_t id)
{
	struct timespec ts;
	long rc = sys_gettime(id, &ts);
	aw_observe(ctx, item, "%s", time_ok(rc, errno));
}

static void *idle_thread(void *arg)
{
	time_wait_readable(*(int *)arg);
	return NULL;
}

static void cpuclocks(struct aw_ctx *ctx)
{
	struct timespec ts;
	char buf[TIME_RES_LEN];
	observe_cpuclock(ctx, "cpuclock.self_process", PROCESS_CLOCK(getpid()));
	long rc = syscall(SYS_clock_getres, PROCESS_CLOCK(getpid()), &ts);
	aw_observe(ctx, "cpuclock.self_process.getres", "%s",
		   time_res(buf, rc == 0 ? time_ns(&ts) : -1, errno));
	observe_cpuclock(ctx, "cpuclock.self_thread", THREAD_CLOCK(gettid()));

	/* Another thread of this process, blocked on a pipe. */
	int fds[2];
	pthread_t th;
	if (pipe(fds) != 0) {
		aw_error(ctx, "cpuclock.other_thread", "pipe: %s", aw_errname(errno));
	} else {
		clockid_t cid;
		if (pthread_create(&th, NULL, idle_thread, fds) != 0) {
			aw_error(ctx, "cpuclock.other_thread", "pthread_create failed");
		} else {
			int e = pthread_getcpuclockid(th, &cid);
			if (e)
				aw_observe(ctx, "cpuclock.other_thread", "%s", aw_errname(e));
			else
				observe_cpuclock(ctx, "cpuclock.other_thread", cid);
			if (write(fds[1], "x", 1) != 1)
				aw_note(ctx, "waking the thread: %s", aw_errname(errno));
			pthread_join(th, NULL);
		}
		close(fds[0]);
		close(fds[1]);
	}

	/* A child that waits: its pid is also its main thread's id. */
	int gate;
	const char *what = "";
	pid_t pid = time_waiting_child(&gate, &what);
	if (pid < 0) {
		aw_error(ctx, "cpuclock.child_process", "%s: %s", what, aw_errname(pid));
		return;
	}
	observe_cpuclock(ctx, "cpuclock.child_process", PROCESS_CLOCK(pid));
	observe_cpuclock(ctx, "cpuclock.child_thread", THREAD_CLOCK(pid));
	time_child_release(pid, gate);
	observe_cpuclock(ctx, "cpuclock.reaped", PROCESS_CLOCK(pid));
}

/* Whether TIGHT_READS reads of id never go backwards; the first step
 * back in *why. */
static bool forward(clockid_t id, char *why, size_t len)
{
	struct timespec ts;
	if (sys_gettime(id, &ts) != 0) {
		snprintf(why, len, "clock_gettime: %s", aw_errname(errno));
		return false;
	}
	long long prev = time_ns(&ts);
	for (int i = 0; i < TIGHT_READS; i++) {
		/* The C library's call: the vDSO where it serves the clock,
		 * which is what programs read. */
		clock_gettime(id, &ts);
		long long now = time_ns(&ts);
		if (now < prev) {
			snprintf(why, len, "read %d went back %lld ns", i + 1, prev - now);
			return false;
		}
		prev = now;
	}
	return true;
}

static void clock_checks(struct aw_ctx *ctx)
{
	static const struct { const char *check; clockid_t id; } fw[] = {
		{ "monotonic_forward", CLOCK_MONOTONIC },
		{ "monotonic_raw_forward", CLOCK_MONOTONIC_RAW },
		{ "monotonic_coarse_forward", CLOCK_MONOTONIC_COARSE },
	};
	char why[128] = "";
	for (size_t i = 0; i < sizeof(fw) / sizeof(fw[0]); i++)
		aw_expect(ctx, fw[i].check, forward(fw[i].id, why, sizeof(why)), "%s", why);

	struct timespec mono, boot, real, tai, real2;
	bool behind = false;
	long long least = 0;
	for (int i = 0; i < 1000; i++) {
		clock_gettime(CLOCK_MONOTONIC, &mono);
		clock_gettime(CLOCK_BOOTTIME, &boot);
		long long d = time_ns(&boot) - time_ns(&mono);
		if (i == 0 || d < least)
			least = d;
		behind |= d < 0;
	}
	aw_expect(ctx, "boottime_not_behind", !behind, "BOOTTIME was %lld ns behind MONOTONIC", -least);
	aw_observe(ctx, "boottime_minus_monotonic", "%s",
		   least < 0 ? "negative" : least < 1000000000LL ? "under 1 s" : "1 s or more");

	if (clock_gettime(CLOCK_REALTIME, &real) != 0 || clock_gettime(CLOCK_TAI, &tai) != 0 ||
	    clock_gettime(CLOCK_REALTIME, &real2) != 0) {
		aw_observe(ctx, "tai_offset", "%s", aw_errname(errno));
		return;
	}
	long long mid = (time_ns(&real) + time_ns(&real2)) / 2;
	long long off = time_ns(&tai) - mid;
	aw_observe_long(ctx, "tai_offset", time_secs(off));
}

static void run_clocks(struct aw_ctx *ctx)
{
	for (int id = 0; id < TIME_NCLOCKS; id++)
		one_clock(ctx, id);
	cpuclocks(ctx);
	clock_checks(ctx);
}

static const char *const clock_tags[] = {
	"man:clock_gettime(2)", "man:clock_nanosleep(2)", "man:timerfd_create(2)",
	"posix:clock_getres", "linux-git:d6ed449afdb3", "linux-git:a3ed0e4393d6", NULL,
};

const struct aw_probe time_clock_probes[] = {
	{ .name = "clocks", .summary = "every clock id 0..15, the dynamic CPU clocks, BOOTTIME - "
	  "MONOTONIC, the TAI offset, monotonicity", .run = run_clocks, .items = clock_items,
	  .tags = clock_tags },
	AW_PROBES_END
};

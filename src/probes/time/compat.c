// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The time family's 32-bit caller (m32/time_m32.c): clock_gettime and the
 * time64 calls, the compat struct sigevent of timer_create, the 32-bit
 * vDSO's symbols, and the first posix timer id after an exec: the
 * process the helper runs in creates three timers before it execs it,
 * so that the id shows whether exec (which deletes the timers) starts
 * the process's ids afresh, as CRIU's restore of an exec'd task
 * assumes.
 */
#include "time.h"

#include <signal.h>
#include <sys/syscall.h>
#include <unistd.h>

static const char *const c_absent[] = { "ENOSYS", "absent", NULL };

#define VSYM(n) AW_OBS_ITEM("vdso.sym." n, "the version of the 32-bit vDSO's " n ", or absent", \
			    .object = "vdso", .absent = c_absent)

static const struct aw_item compat_items[] = {
	AW_OBS_ITEM("after_exec_first_id", "the first timer id of a program exec'd by a process "
		    "that held timers 0, 1 and 2", .object = "timer_ids",
		    .change = "CRIU's restore of a task that exec'd gets other timer ids"),
	AW_OBS_ITEM("timer_create.thread_id", "i386 timer_create(SIGEV_THREAD_ID) with the 32-bit "
		    "sigevent: ok or the errno", .object = "timer_create", .absent = c_absent),
	AW_CHECK_ITEM("sigevent_delivered", "its signal reaches the thread with SI_TIMER and the "
		      "32-bit sigval intact (timer_create(2))", .object = "timer_create"),
	AW_OBS_ITEM("clock_gettime", "i386 clock_gettime (265, 32-bit time_t)", .object = "clocks",
		    .absent = c_absent),
	AW_OBS_ITEM("clock_gettime64", "i386 clock_gettime64 (403)", .object = "clocks",
		    .absent = c_absent),
	AW_OBS_ITEM("clock_getres_time64", "i386 clock_getres_time64 (406) of CLOCK_MONOTONIC, ns",
		    .object = "clocks", .unit = "ns", .absent = c_absent),
	AW_CHECK_ITEM("time64_agrees", "clock_gettime64 reads what clock_gettime read, within 5 s",
		      .object = "clocks"),
	AW_OBS_ITEM("vdso.image", "the 32-bit vDSO as the ELF reader sees it", .object = "vdso"),
	VSYM("__vdso_clock_gettime"), VSYM("__vdso_clock_gettime64"), VSYM("__vdso_gettimeofday"),
	VSYM("__vdso_time"), VSYM("__vdso_clock_getres"),
	AW_OBS_ITEM("vdso.sym.__vdso_getcpu", "the version of the 32-bit vDSO's __vdso_getcpu, or absent "
		    "(added by 92d33063c081, 6.3)", .object = "vdso", .absent = c_absent,
		    .change = "32-bit programs read their CPU number without a system call, or no longer"),
	VSYM("__vdso_getrandom"), VSYM("__kernel_vsyscall"), VSYM("__kernel_sigreturn"),
	VSYM("__kernel_rt_sigreturn"),
	AW_ITEMS_END
};

/* In the helper's process, before its exec: timers 0, 1, 2 (by the
 * 64-bit call), which the exec deletes. */
static void three_timers(void *arg)
{
	(void)arg;
	for (int i = 0; i < 3; i++) {
		struct { union sigval v; int signo, notify, tid, pad[11]; } ev = { .notify = SIGEV_NONE };
		int id;
		syscall(SYS_timer_create, CLOCK_MONOTONIC, &ev, &id);
	}
}

static void run_compat(struct aw_ctx *ctx)
{
	const struct aw_helper h = {
		.name = TIME_HELPER, .prefix = "", .timeout_ms = 10000,
		.before_exec = three_timers,
	};
	aw_helper_report(ctx, &h);
}

static const char *const compat_tags[] = {
	"man:clock_gettime(2)", "man:timer_create(2)", "man:vdso(7)", "linux-git:ec2d0c04624b",
	"linux-git:92d33063c081", NULL,
};
static const char *const compat_kconfig[] = { "CONFIG_IA32_EMULATION", NULL };

const struct aw_probe time_compat_probes[] = {
	{ .name = "compat32", .summary = "the 32-bit caller: clock_gettime/time64, compat sigevent, "
	  "the 32-bit vDSO, timer ids after exec", .run = run_compat, .items = compat_items,
	  .tags = compat_tags, .needs = { .i386_programs = true, .kconfig = compat_kconfig } },
	AW_PROBES_END
};

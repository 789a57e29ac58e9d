// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * abiwatch-time-m32: the time family's 32-bit caller, built by the
 * Makefile's m32 rule (gcc -m32 -static) into build/m32/.  An i386
 * process meets the compat entry points: clock_gettime (265) with a
 * 32-bit time_t, and the time64 calls of the y2038 work (clock_gettime64
 * 403, clock_getres_time64 406, 5.1); timer_create (259) with the
 * 32-bit struct sigevent (a 4-byte sigval, the thread id at offset 12),
 * which compat code must convert (get_compat_sigevent()); and the
 * 32-bit vDSO, a different ELF image with its own symbols
 * (__kernel_vsyscall, __vdso_clock_gettime64 ...; __vdso_getcpu only
 * since 92d33063c081, 6.3), read with the same reader (lib/elf.h).
 * Its first timer id is the one a process gets after an exec, since
 * the probe creates three timers in the process before it execs this
 * program.  It reports the compat32 probe's items
 * as lines of the probe protocol on stdout (lib/wire.h).
 */
#include "lib/elf.h"
#include "lib/errname.h"
#include "lib/wire.h"

#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

_Static_assert(sizeof(void *) == 4, "build with -m32: the point is the compat entry points");

#define NR_CLOCK_GETTIME 265
#define NR_CLOCK_GETTIME64 403
#define NR_CLOCK_GETRES_TIME64 406
#define NR_TIMER_CREATE 259
#define NR_TIMER_SETTIME 260
#define NR_TIMER_DELETE 263
#define SIGEV_THREAD_ID_ 4
#define VALUE 0x5a17e32u

struct ts32 {
	int32_t sec, nsec;
};
struct ts64 {
	int64_t sec, nsec;
};
/* The i386 struct sigevent: 64 bytes, sigval 4. */
struct sigevent32 {
	uint32_t value;
	int32_t signo, notify, tid;
	int32_t pad[12];
};
_Static_assert(sizeof(struct sigevent32) == 64, "the i386 sigevent is 64 bytes");
struct itimerspec32 {
	struct ts32 interval, value;
};

static void clocks(void)
{
	struct ts32 a;
	struct ts64 b, r;
	long rc = syscall(NR_CLOCK_GETTIME, CLOCK_MONOTONIC, &a);
	aw_out_observe("clock_gettime", "%s", rc == 0 ? "ok" : aw_errname(errno));
	rc = syscall(NR_CLOCK_GETTIME64, CLOCK_MONOTONIC, &b);
	aw_out_observe("clock_gettime64", "%s", rc == 0 ? "ok" : aw_errname(errno));
	if (rc == 0)
		aw_out_expect("time64_agrees", b.sec >= a.sec && b.sec - a.sec < 5 && b.nsec >= 0 &&
			      b.nsec < 1000000000, "clock_gettime %d.%09d, clock_gettime64 %lld.%09lld",
			      a.sec, a.nsec, (long long)b.sec, (long long)b.nsec);
	else
		aw_out_skip("time64_agrees", "clock_gettime64: %s", aw_errname(errno));
	rc = syscall(NR_CLOCK_GETRES_TIME64, CLOCK_MONOTONIC, &r);
	if (rc == 0)
		aw_out_observe("clock_getres_time64", "%lld", (long long)(r.sec * 1000000000LL + r.nsec));
	else
		aw_out_observe("clock_getres_time64", "%s", aw_errname(errno));
}

static void timers(void)
{
	struct sigevent32 none = { .notify = SIGEV_NONE };
	int id = -1;
	if (syscall(NR_TIMER_CREATE, CLOCK_MONOTONIC, &none, &id) == 0) {
		aw_out_observe("after_exec_first_id", "%d", id);
		syscall(NR_TIMER_DELETE, id);
	} else {
		aw_out_observe("after_exec_first_id", "%s", aw_errname(errno));
	}

	int sig = SIGRTMIN + 2;
	sigset_t set;
	sigemptyset(&set);
	sigaddset(&set, sig);
	sigprocmask(SIG_BLOCK, &set, NULL);
	struct sigevent32 ev = { .value = VALUE, .signo = sig, .notify = SIGEV_THREAD_ID_ | SIGEV_SIGNAL,
				 .tid = (int32_t)syscall(SYS_gettid) };
	if (syscall(NR_TIMER_CREATE, CLOCK_MONOTONIC, &ev, &id) != 0) {
		aw_out_observe("timer_create.thread_id", "%s", aw_errname(errno));
		aw_out_skip("sigevent_delivered", "timer_create: %s", aw_errname(errno));
		return;
	}
	aw_out_observe("timer_create.thread_id", "ok");
	struct itimerspec32 its = { .value = { 0, 1 } };
	siginfo_t si;
	struct timespec wait = { 5, 0 };
	int got = syscall(NR_TIMER_SETTIME, id, 0, &its, NULL) == 0 ? sigtimedwait(&set, &si, &wait) : -1;
	aw_out_expect("sigevent_delivered", got == sig && si.si_code == SI_TIMER &&
		      (uint32_t)si.si_value.sival_int == VALUE,
		      "sigtimedwait: %s, si_code %d, value %#x", got == sig ? "the signal" : aw_errname(errno),
		      got == sig ? si.si_code : 0, got == sig ? (unsigned)si.si_value.sival_int : 0);
	syscall(NR_TIMER_DELETE, id);
}

static void vdso(void)
{
	static const char *const named[] = {
		"__vdso_clock_gettime", "__vdso_clock_gettime64", "__vdso_gettimeofday", "__vdso_time",
		"__vdso_clock_getres", "__vdso_getcpu", "__vdso_getrandom", "__kernel_vsyscall",
		"__kernel_sigreturn", "__kernel_rt_sigreturn",
	};
	const void *img;
	size_t size;
	struct aw_elf e;
	int rc = aw_elf_vdso(&img, &size);
	if (rc == 0)
		rc = aw_elf_open(&e, img, size);
	if (rc) {
		aw_out_observe("vdso.image", "%s", rc == -ENOENT ? "absent" : aw_errname(rc));
		for (size_t i = 0; i < sizeof(named) / sizeof(named[0]); i++)
			aw_out_unobserved(named[i], "no vDSO");
		return;
	}
	aw_out_observe("vdso.image", "ELF%d machine %u type %u", e.is64 ? 64 : 32, e.machine, e.type);
	for (size_t i = 0; i < sizeof(named) / sizeof(named[0]); i++) {
		struct aw_elf_sym s;
		char item[64];
		snprintf(item, sizeof(item), "vdso.sym.%s", named[i]);
		if (aw_elf_lookup(&e, named[i], NULL, &s) == 0)
			aw_out_observe(item, "%s", s.version ? s.version : "unversioned");
		else
			aw_out_observe(item, "absent");
	}
}

int main(int argc, char **argv)
{
	aw_helper_hello(argc, argv);
	if (argc != 1) {
		fprintf(stderr, "usage: abiwatch-time-m32 [--hello]\n");
		return 2;
	}
	timers(); /* first: its first timer id is the item */
	clocks();
	vdso();
	return 0;
}

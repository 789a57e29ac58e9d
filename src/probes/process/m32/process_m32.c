// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * abiwatch-process-m32: the process family's 32-bit caller, built by the
 * Makefile's m32 rule (gcc -m32 -static) into build/m32/.  Its calls
 * enter the kernel through the compat path, where the signal frame, the
 * sigaltstack minimum (COMPAT_MINSIGSTKSZ), the siginfo layout and
 * uname()'s machine are the compat ones.  It reports the compat32
 * probe's items, without the prefix, as lines of the probe protocol on
 * stdout (lib/wire.h):
 *
 *   abiwatch-process-m32 compat [traced]
 *
 * "traced": its tracer (a 64-bit process of the probe's) watches for its
 * getpid(), which it makes first.
 */
#include "lib/errname.h"
#include "lib/wire.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <sys/personality.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

_Static_assert(sizeof(void *) == 4, "build with -m32: the point is the compat entry points");

#ifndef AT_MINSIGSTKSZ
#define AT_MINSIGSTKSZ 51
#endif

static void uname_items(void)
{
	struct utsname u;
	if (uname(&u) != 0)
		aw_out_unobserved("uname_machine", "uname: %s", aw_errname(errno));
	else
		aw_out_observe("uname_machine", "%s", u.machine);
	int old = personality(0xffffffff);
	if (personality(PER_LINUX32) == -1 || uname(&u) != 0)
		aw_out_unobserved("linux32_machine", "personality or uname: %s", aw_errname(errno));
	else
		aw_out_observe("linux32_machine", "%s", u.machine);
	personality((unsigned long)old);
}

static volatile uintptr_t handler_sp; /* an address on the handler's stack */

static void alt_handler(int sig)
{
	volatile char here = (char)sig;
	handler_sp = (uintptr_t)&here;
}

static void altstack_items(void)
{
	size_t lo = 1, hi = 1 << 20;
	char *mem = malloc(hi);
	stack_t ss = { .ss_sp = mem, .ss_size = hi };
	if (!mem || sigaltstack(&ss, NULL) != 0) {
		aw_out_unobserved("altstack_min", "sigaltstack of 1 MiB: %s", aw_errname(errno));
	} else {
		while (hi - lo > 1) {
			size_t mid = lo + (hi - lo) / 2;
			ss.ss_size = mid;
			if (sigaltstack(&ss, NULL) == 0)
				hi = mid;
			else
				lo = mid;
		}
		aw_out_observe("altstack_min", "%zu", hi);
	}
	ss.ss_flags = SS_DISABLE;
	sigaltstack(&ss, NULL);
	free(mem);

	unsigned long min = getauxval(AT_MINSIGSTKSZ);
	aw_out_observe("minsigstksz", "%s", min ? "present" : "absent");
	if (!min) {
		aw_out_skip("altstack_at_minsigstksz", "no AT_MINSIGSTKSZ in the auxiliary vector");
		return;
	}
	size_t page = (size_t)sysconf(_SC_PAGESIZE), len = (min + page - 1) / page * page;
	char *area = mmap(NULL, len + page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (area == MAP_FAILED || mprotect(area, page, PROT_NONE) != 0) {
		aw_out_skip("altstack_at_minsigstksz", "mmap: %s", aw_errname(errno));
		return;
	}
	ss.ss_sp = area + page + len - min;
	ss.ss_size = min;
	ss.ss_flags = 0;
	struct sigaction sa = { .sa_handler = alt_handler, .sa_flags = SA_ONSTACK };
	sigemptyset(&sa.sa_mask);
	if (sigaltstack(&ss, NULL) != 0 || sigaction(SIGUSR1, &sa, NULL) != 0) {
		aw_out_fail("altstack_at_minsigstksz", "sigaltstack of AT_MINSIGSTKSZ (%lu B): %s", min, aw_errname(errno));
		return;
	}
	/* a frame larger than the stack faults on the guard page: the
	 * helper dies, and the probe reports what it left out */
	raise(SIGUSR1);
	aw_out_expect("altstack_at_minsigstksz", handler_sp >= (uintptr_t)ss.ss_sp && handler_sp < (uintptr_t)ss.ss_sp + min,
			"the handler %s on the %lu-byte stack", handler_sp ? "ran, but not" : "did not run", min);
	ss.ss_flags = SS_DISABLE;
	sigaltstack(&ss, NULL);
}

static void setsig(const char *item, int sig)
{
	int p[2];
	int wait_for = sig ? sig : SIGIO;
	sigset_t set;
	sigemptyset(&set);
	sigaddset(&set, wait_for);
	sigprocmask(SIG_BLOCK, &set, NULL);
	if (pipe(p) != 0) {
		aw_out_unobserved(item, "pipe: %s", aw_errname(errno));
		return;
	}
	if (fcntl(p[0], F_SETOWN, getpid()) != 0 || fcntl(p[0], F_SETSIG, sig) != 0 ||
	    fcntl(p[0], F_SETFL, O_ASYNC | O_NONBLOCK) != 0 || write(p[1], "x", 1) != 1) {
		aw_out_unobserved(item, "fcntl or write: %s", aw_errname(errno));
	} else {
		siginfo_t si;
		struct timespec t = { 1, 0 };
		int got = sigtimedwait(&set, &si, &t);
		if (got == wait_for)
			aw_out_observe(item, "%d", si.si_code);
		else
			aw_out_observe(item, "no signal (%s)", aw_errname(errno));
	}
	close(p[0]);
	close(p[1]);
}

int main(int argc, char **argv)
{
	aw_helper_hello(argc, argv);
	if (argc >= 2 && strcmp(argv[1], "compat") == 0) {
		/* first, so that a tracer waiting for it sees it early */
		(void)syscall(SYS_getpid);
		uname_items();
		altstack_items();
		setsig("setsig_rt", SIGRTMIN + 8);
		setsig("setsig_sigchld", SIGCHLD);
		return 0;
	}
	fprintf(stderr, "usage: abiwatch-process-m32 --hello | compat [traced]\n");
	return 2;
}

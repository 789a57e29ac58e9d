// SPDX-License-Identifier: GPL-2.0-or-later
/* Signal measurements shared by the native probe and the 32-bit helper
 * (sigmeasure.h): sigaltstack(2) sizes and fcntl(2) F_SETSIG's si_code. */
#include "sigmeasure.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

long pm_altstack_min(void)
{
	size_t lo = 0, hi = 1 << 20;
	char *mem = malloc(hi);
	stack_t ss = { .ss_sp = mem, .ss_size = hi }, off = { .ss_flags = SS_DISABLE };
	long rc;
	if (!mem || sigaltstack(&ss, NULL) != 0) {
		rc = -errno;
	} else {
		while (hi - lo > 1) {
			size_t mid = lo + (hi - lo) / 2;
			ss.ss_size = mid;
			if (sigaltstack(&ss, NULL) == 0)
				hi = mid;
			else
				lo = mid;
		}
		rc = (long)hi;
	}
	sigaltstack(&off, NULL);
	free(mem);
	return rc;
}

static volatile uintptr_t handler_sp; /* an address on the handler's stack */

static void alt_handler(int sig)
{
	volatile char here = (char)sig;
	handler_sp = (uintptr_t)&here;
}

int pm_altstack_delivers(size_t size)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE), len = (size + page - 1) / page * page;
	char *area = mmap(NULL, len + page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (area == MAP_FAILED)
		return -errno;
	if (mprotect(area, page, PROT_NONE) != 0)
		return -errno;
	stack_t ss = { .ss_sp = area + page + len - size, .ss_size = size }, off = { .ss_flags = SS_DISABLE };
	struct sigaction sa = { .sa_handler = alt_handler, .sa_flags = SA_ONSTACK }, old;
	sigemptyset(&sa.sa_mask);
	if (sigaltstack(&ss, NULL) != 0)
		return -errno;
	if (sigaction(SIGUSR1, &sa, &old) != 0)
		return -errno;
	handler_sp = 0;
	raise(SIGUSR1);
	sigaction(SIGUSR1, &old, NULL);
	sigaltstack(&off, NULL);
	uintptr_t at = handler_sp, lo = (uintptr_t)ss.ss_sp;
	munmap(area, len + page);
	return !at ? -1 : at >= lo && at < lo + size;
}

int pm_setsig(int sig, struct pm_setsig *got)
{
	int p[2], rc = 0;
	int wait_for = sig ? sig : SIGIO;
	sigset_t set;
	sigemptyset(&set);
	sigaddset(&set, wait_for);
	sigprocmask(SIG_BLOCK, &set, NULL);
	if (pipe(p) != 0)
		return -errno;
	if (fcntl(p[0], F_SETOWN, getpid()) != 0 || fcntl(p[0], F_SETSIG, sig) != 0 ||
	    fcntl(p[0], F_SETFL, O_ASYNC | O_NONBLOCK) != 0 || write(p[1], "x", 1) != 1) {
		rc = -errno;
	} else {
		siginfo_t si;
		struct timespec t = { 1, 0 };
		if (sigtimedwait(&set, &si, &t) == wait_for) {
			got->code = si.si_code;
			got->band = si.si_band;
			got->fd_is_pipe = si.si_fd == p[0];
		} else
			rc = errno == EAGAIN ? -ETIMEDOUT : -errno;
	}
	close(p[0]);
	close(p[1]);
	return rc;
}

void pm_setsig_fields(const struct pm_setsig *got, char *buf, size_t size)
{
	snprintf(buf, size, "band %#lx fd %s", got->band, got->fd_is_pipe ? "pipe" : "other");
}

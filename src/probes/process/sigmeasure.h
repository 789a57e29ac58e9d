/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Signal measurements the process family makes both natively (signals.c)
 * and through the compat entry points (m32/process_m32.c includes
 * sigmeasure.c as source): they return what they found and report
 * nothing, so that each side reports in its own way.
 */
#ifndef ABIWATCH_PROCESS_SIGMEASURE_H
#define ABIWATCH_PROCESS_SIGMEASURE_H

#include <stdbool.h>
#include <stddef.h>

/* The smallest ss_size sigaltstack(2) accepts, by bisection below 1 MiB;
 * -errno when even 1 MiB is refused. */
long pm_altstack_min(void);

/* Deliver SIGUSR1 on an alternate stack of exactly size bytes that ends
 * at a PROT_NONE page: 1 when the handler's frame lay in it, 0 when it
 * ran elsewhere, -1 when it did not run, -errno when the stack could not
 * be set up.  A frame larger than the stack faults on the guard page,
 * which kills the calling process: call it in a child. */
int pm_altstack_delivers(size_t size);

/* What the siginfo of a pipe's readiness signal carries after
 * F_SETSIG(sig) (0: plain SIGIO): fcntl(2) promises si_code, and for a
 * real-time signal si_band as poll(2) would report and si_fd. */
struct pm_setsig {
	int code;
	long band;
	bool fd_is_pipe; /* si_fd named the pipe's read end */
};

/* Fill *got: 0; -ETIMEDOUT when no signal came within 1 s; -errno. */
int pm_setsig(int sig, struct pm_setsig *got);
/* "band 0x41 fd pipe": the fields beyond si_code, as items show them. */
void pm_setsig_fields(const struct pm_setsig *got, char *buf, size_t size);

#endif

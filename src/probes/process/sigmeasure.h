/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Signal measurements the process family makes both natively (signals.c)
 * and through the compat entry points (m32/process_m32.c includes
 * sigmeasure.c as source): they return what they found and report
 * nothing, so that each side reports in its own way.
 */
#ifndef ABIWATCH_PROCESS_SIGMEASURE_H
#define ABIWATCH_PROCESS_SIGMEASURE_H

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

/* si_code of the signal a pipe's readiness sends after F_SETSIG(sig)
 * (0: plain SIGIO), in *code: 0; -ETIMEDOUT when none came within 1 s;
 * -errno. */
int pm_setsig_code(int sig, int *code);

#endif

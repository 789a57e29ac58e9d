/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A monotonic clock for deadlines that does not leap.  Under TCG on a
 * busy host a guest's clock can jump ahead by minutes, or a day, at once
 * (a 6.1 guest reported a soft lockup "stuck for 91200s"; one guest's
 * probes ran out of 200 s of their time in 34 s of the host's), which
 * would end healthy work at once.  Callers look at the clock at least
 * every AW_STEADY_POLL_S, so a step of more than AW_STEADY_STEP_MAX_S is
 * a leap and counts as that much; a real stall then only takes longer
 * to reach a deadline, and an outer bound (the host's) still holds.
 * Needs no library: the VM guest's /init links it too. */
#ifndef ABIWATCH_STEADY_H
#define ABIWATCH_STEADY_H

#define AW_STEADY_POLL_S 0.25
#define AW_STEADY_STEP_MAX_S 2.0

/* Seconds on the steady clock of this process (its first call: the
 * monotonic clock's reading). */
double aw_steady_now(void);

/* The clock's rule, on readings of the caller's: a state that starts
 * with last < 0, advanced by a reading now; the steady time. */
/* How far the time bounds of work this process starts stretch (1: as
 * written): children's deadlines (lib/child.h), programs run with a
 * deadline (lib/proc.h's aw_capture).  Whoever knows the machine's
 * slowness sets it before the work starts; a forked child inherits it.
 * At least 1. */
void aw_deadline_stretch_set(double factor);
double aw_deadline_stretch(void);

struct aw_steady {
	double last, counted;
};
#define AW_STEADY_INIT { -1, 0 }
double aw_steady_advance(struct aw_steady *s, double now);

#endif

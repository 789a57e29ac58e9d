/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * How loaded the machine is, for the runner's deadlines.  A probe's
 * declared timeout is made for an idle abiwatch vm guest; a machine that
 * is slower than that now (an emulated CPU on a busy host, a host whose
 * CPUs are oversubscribed) stretches every timeout by its slowness, and a
 * probe that still runs out of time while the machine is loaded and the
 * probe was working is "starved": not a result, never a kernel change.
 */
#ifndef ABIWATCH_LOAD_H
#define ABIWATCH_LOAD_H

#include "guest.h" /* AW_PACE_IDLE_GUEST_S, AW_SLOWNESS_MAX */

#include <stdbool.h>

/* How many times slower than an idle guest the machine is now, from 1
 * (as fast or faster) to AW_SLOWNESS_MAX. */
double aw_slowness_now(void);
/* The same for a pace measured elsewhere (the guest's /init). */
double aw_slowness_of(double pace_s);

/* A moment to measure the load from. */
struct aw_load_mark {
	double at;           /* aw_now() */
	long long stall_us;  /* aw_pace_cpu_stall_us(), or -1 */
};
struct aw_load_mark aw_load_mark_now(void);

/* Why the machine was loaded from since until now (malloc'd words: "it
 * ran 4.2x slower than an idle guest; tasks waited for a CPU 83 % of
 * the time"), or NULL when it was not. */
char *aw_load_since(const struct aw_load_mark *since);

#endif

/* SPDX-License-Identifier: GPL-2.0-or-later */
/* How fast this machine does a fixed piece of work right now: the same
 * work everywhere (processes made and reaped, system calls, fresh pages
 * touched, arithmetic), so that its time compares between an idle host,
 * a loaded one and an emulated guest.  Needs no library, so that the
 * VM guest's /init links it too.  Knows nothing of abiwatch. */
#ifndef ABIWATCH_PACE_H
#define ABIWATCH_PACE_H

/* Seconds one unit of the work takes now; 0 when it could not be done
 * (no fork, no memory): the caller then knows nothing of the pace. */
double aw_pace_sample(void);

/* The median of n samples (1 to 15): what the machine gives now, neither
 * its best moment nor its worst. */
double aw_pace_measure(unsigned n);

/* CPU pressure of the whole machine (PSI, /proc/pressure/cpu "some
 * total": microseconds during which a runnable task waited for a CPU),
 * or -1 where the kernel has no PSI. */
long long aw_pace_cpu_stall_us(void);

#endif

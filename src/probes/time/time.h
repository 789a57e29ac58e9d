/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What the time family's files share: their probe tables, the clock ids
 * by name, and the way a result is written (a count or an errno name). */
#ifndef ABIWATCH_TIME_H
#define ABIWATCH_TIME_H

#include "core/probe.h"

#include <stdbool.h>
#include <sys/types.h>
#include <time.h>

#define TIME_HELPER "abiwatch-time-m32"

extern const struct aw_probe time_clock_probes[], time_timer_probes[], time_vdso_probes[],
	time_timens_probes[], time_random_probes[], time_adjust_probes[], time_compat_probes[];

/* The clock ids 0..15 of uapi/linux/time.h: their names in lower case
 * ("monotonic_raw"), the unassigned ones as their number ("12"). */
#define TIME_NCLOCKS 16
extern const char *const time_clock_names[TIME_NCLOCKS];

/* The text of a call's result: rc in decimal when rc >= 0, else the
 * name of err ("EINVAL").  In buf, which must hold TIME_RES_LEN. */
#define TIME_RES_LEN 32
const char *time_res(char buf[TIME_RES_LEN], long long rc, int err);
/* "ok" for rc 0, else the name of err. */
const char *time_ok(long rc, int err);

/* A child that does nothing but wait, blocked reading a pipe, until
 * time_child_release(): its pid, with the pipe's write end in *gate; or
 * -errno with *what naming the call that failed ("pipe", "fork"). */
pid_t time_waiting_child(int *gate, const char **what);
/* Let that child end and reap it. */
void time_child_release(pid_t pid, int gate);
/* Block until fd has a byte to read or its writers are gone. */
void time_wait_readable(int fd);

/* Nanoseconds of a timespec. */
long long time_ns(const struct timespec *ts);
/* Nanoseconds as whole seconds, rounded to the nearest. */
long long time_secs(long long ns);

#endif

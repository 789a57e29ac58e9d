/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Signals and deadlines for probes: waiting for a notification signal
 * with a bound, counting a handler's calls, interrupting a blocking call
 * on time, and absolute CLOCK_REALTIME deadlines (the clock of the
 * timed calls POSIX specifies: mq_timedsend, sem_timedwait, ...). */
#ifndef ABIWATCH_LIB_SIGNALS_H
#define ABIWATCH_LIB_SIGNALS_H

#include <signal.h>
#include <stdbool.h>
#include <time.h>

/* Block sig, so that it stays pending for aw_wait_signal().  0 or -errno. */
int aw_block_signal(int sig);
/* Wait up to ms for the blocked sig: 1 with *si set, 0 when it did not
 * come, -errno. */
int aw_wait_signal(int sig, int ms, siginfo_t *si);
/* Discard every pending instance of the blocked sig. */
void aw_flush_signal(int sig);

/* How many times the handler aw_count_signal() installs ran. */
extern volatile sig_atomic_t aw_signal_count;
/* Install that handler for sig with sigaction() and flags (0 or
 * SA_RESTART), and reset the count.  0 or -errno. */
int aw_count_signal(int sig, int flags);
/* Deliver SIGALRM every ms, the first after ms (setitimer), so that one
 * lands while a call blocks however late the call starts.  0 or -errno. */
int aw_alarm_ms(long ms);
/* Stop it. */
void aw_alarm_cancel(void);

/* An absolute CLOCK_REALTIME deadline ms from now (negative: in the past). */
struct timespec aw_deadline_ms(long ms);
/* Whether CLOCK_REALTIME is at or past t. */
bool aw_realtime_reached(const struct timespec *t);
/* Sleep ms, however many signals arrive. */
void aw_sleep_ms(long ms);

#endif

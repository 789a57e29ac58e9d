// SPDX-License-Identifier: GPL-2.0-or-later
/* Signals and deadlines for probes: see signals.h. */
#include "signals.h"

#include <errno.h>
#include <string.h>
#include <sys/time.h>

int aw_block_signal(int sig)
{
	sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, sig);
	return sigprocmask(SIG_BLOCK, &set, NULL) == 0 ? 0 : -errno;
}

int aw_wait_signal(int sig, int ms, siginfo_t *si)
{
	struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000 };
	sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, sig);
	memset(si, 0, sizeof(*si));
	for (;;) {
		if (sigtimedwait(&set, si, &ts) == sig)
			return 1;
		if (errno == EAGAIN)
			return 0;
		if (errno != EINTR)
			return -errno;
	}
}

void aw_flush_signal(int sig)
{
	siginfo_t si;

	while (aw_wait_signal(sig, 0, &si) == 1)
		;
}

volatile sig_atomic_t aw_signal_count;

static void count_handler(int sig)
{
	(void)sig;
	aw_signal_count++;
}

int aw_count_signal(int sig, int flags)
{
	struct sigaction sa = { .sa_handler = count_handler, .sa_flags = flags };

	sigemptyset(&sa.sa_mask);
	aw_signal_count = 0;
	return sigaction(sig, &sa, NULL) == 0 ? 0 : -errno;
}

int aw_alarm_ms(long ms)
{
	struct timeval tv = { ms / 1000, (ms % 1000) * 1000 };
	struct itimerval it = { .it_interval = tv, .it_value = tv };

	return setitimer(ITIMER_REAL, &it, NULL) == 0 ? 0 : -errno;
}

void aw_alarm_cancel(void)
{
	struct itimerval off = { { 0, 0 }, { 0, 0 } };

	setitimer(ITIMER_REAL, &off, NULL);
}

struct timespec aw_deadline_ms(long ms)
{
	struct timespec t;

	clock_gettime(CLOCK_REALTIME, &t);
	long long ns = (long long)t.tv_nsec + (long long)ms * 1000000;
	t.tv_sec += (time_t)(ns / 1000000000);
	ns %= 1000000000;
	if (ns < 0) {
		ns += 1000000000;
		t.tv_sec--;
	}
	t.tv_nsec = (long)ns;
	return t;
}

bool aw_realtime_reached(const struct timespec *t)
{
	struct timespec now;

	clock_gettime(CLOCK_REALTIME, &now);
	return now.tv_sec > t->tv_sec || (now.tv_sec == t->tv_sec && now.tv_nsec >= t->tv_nsec);
}

void aw_sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000 };

	while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
		;
}

// SPDX-License-Identifier: GPL-2.0-or-later
#include "tsc.h"

#include <time.h>
#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#endif

/* Long enough that the microseconds between a counter's read and the
 * clock's weigh under 0.01 %; a load that delays either read only adds
 * to both sides of the same stretch. */
#define TSC_WINDOW_NS 50000000L

#if defined(__x86_64__) || defined(__i386__)
static double raw_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static double one_khz(void)
{
	double a = raw_now();
	unsigned long long t0 = __rdtsc();
	struct timespec pause = { 0, TSC_WINDOW_NS };
	while (nanosleep(&pause, &pause) != 0)
		;
	unsigned long long t1 = __rdtsc();
	double b = raw_now();
	return b > a ? (double)(t1 - t0) / (b - a) / 1000.0 : 0;
}

unsigned long aw_tsc_khz(void)
{
	double v[3];
	for (int i = 0; i < 3; i++)
		v[i] = one_khz();
	/* The median of three. */
	double lo = v[0] < v[1] ? v[0] : v[1], hi = v[0] < v[1] ? v[1] : v[0];
	double mid = v[2] < lo ? lo : v[2] > hi ? hi : v[2];
	return mid > 0 ? (unsigned long)(mid + 0.5) : 0;
}
#else
unsigned long aw_tsc_khz(void)
{
	return 0;
}
#endif

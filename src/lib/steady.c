// SPDX-License-Identifier: GPL-2.0-or-later
#include "steady.h"

#include <time.h>

double aw_steady_advance(struct aw_steady *s, double now)
{
	if (s->last < 0) {
		s->counted = now;
	} else {
		double step = now - s->last;
		s->counted += step < 0 ? 0 : step > AW_STEADY_STEP_MAX_S ? AW_STEADY_STEP_MAX_S : step;
	}
	s->last = now;
	return s->counted;
}

static double stretch = 1;

void aw_deadline_stretch_set(double factor)
{
	stretch = factor > 1 ? factor : 1;
}

double aw_deadline_stretch(void)
{
	return stretch;
}

double aw_steady_now(void)
{
	static struct aw_steady clock = AW_STEADY_INIT;
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return aw_steady_advance(&clock, (double)ts.tv_sec + (double)ts.tv_nsec / 1e9);
}

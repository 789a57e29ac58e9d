// SPDX-License-Identifier: GPL-2.0-or-later
#include "load.h"
#include "lib/pace.h"
#include "lib/util.h"

#include <stdlib.h>

/* A machine at least this much slower than an idle guest, or whose
 * runnable tasks waited for a CPU this share of the time, is loaded: an
 * idle machine is neither (PSI stays near 0 % and the pace near 1), a
 * machine whose CPUs run a busy loop each is both. */
#define LOADED_SLOWNESS 2.0
#define LOADED_STALL_SHARE 0.20
/* Samples per measurement: a median of a few milliseconds' work each. */
#define PACE_SAMPLES 5

double aw_slowness_of(double pace_s)
{
	double s = pace_s / AW_PACE_IDLE_GUEST_S;
	return !(s > 1) ? 1 : s > AW_SLOWNESS_MAX ? AW_SLOWNESS_MAX : s;
}

double aw_slowness_now(void)
{
	return aw_slowness_of(aw_pace_measure(PACE_SAMPLES));
}

struct aw_load_mark aw_load_mark_now(void)
{
	return (struct aw_load_mark){ .at = aw_now(), .stall_us = aw_pace_cpu_stall_us() };
}

char *aw_load_since(const struct aw_load_mark *since)
{
	struct aw_load_mark now = aw_load_mark_now();
	double slowness = aw_slowness_now();
	double span = now.at - since->at;
	double share = since->stall_us >= 0 && now.stall_us >= since->stall_us && span > 0
			       ? (double)(now.stall_us - since->stall_us) / (span * 1e6)
			       : -1;
	if (slowness < LOADED_SLOWNESS && share < LOADED_STALL_SHARE)
		return NULL;
	if (share < 0)
		return xasprintf("it ran %.1fx slower than an idle guest", slowness);
	return xasprintf("it ran %.1fx slower than an idle guest; tasks waited for a CPU %.0f %% "
			 "of the time", slowness, share > 1 ? 100 : share * 100);
}

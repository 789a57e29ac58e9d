// SPDX-License-Identifier: GPL-2.0-or-later
/* lib/pace.c and lib/steady.c: the machine's pace, and a clock for
 * deadlines that does not leap. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "core/load.h"
#include "lib/pace.h"
#include "lib/steady.h"

#include <math.h>
#include <unistd.h>

/* Steps up to the limit count in full, a leap as the limit, a step back
 * as nothing: the steady time never goes back and never jumps. */
static void test_steady_caps_leaps(void **state)
{
	(void)state;
	struct aw_steady s = AW_STEADY_INIT;
	assert_true(aw_steady_advance(&s, 100.0) == 100.0);
	assert_true(aw_steady_advance(&s, 100.5) == 100.5);
	assert_true(aw_steady_advance(&s, 100.5 + AW_STEADY_STEP_MAX_S) == 100.5 + AW_STEADY_STEP_MAX_S);
	/* The guest's clock jumps by a day. */
	double before = aw_steady_advance(&s, 200000.0);
	assert_true(before == 100.5 + 2 * AW_STEADY_STEP_MAX_S);
	assert_true(aw_steady_advance(&s, 200000.25) == before + 0.25);
	/* And back. */
	assert_true(aw_steady_advance(&s, 150.0) == before + 0.25);
	assert_true(aw_steady_advance(&s, 151.0) == before + 1.25);
}

static void test_steady_now_never_goes_back(void **state)
{
	(void)state;
	double a = aw_steady_now(), b = aw_steady_now();
	assert_true(b >= a);
}

/* The work is done and timed; a median of several is one of them. */
static void test_pace_measures(void **state)
{
	(void)state;
	double one = aw_pace_sample();
	assert_true(one > 0 && isfinite(one));
	double median = aw_pace_measure(3);
	assert_true(median > 0 && isfinite(median));
	assert_true(aw_pace_measure(0) > 0); /* at least one sample */
	long long stall = aw_pace_cpu_stall_us();
	assert_true(stall >= 0 || (stall == -1 && access("/proc/pressure/cpu", R_OK) != 0));
}

/* Slowness is relative to an idle guest, from 1 to its cap. */
static void test_slowness_bounds(void **state)
{
	(void)state;
	assert_true(aw_slowness_of(0) == 1);
	assert_true(aw_slowness_of(AW_PACE_IDLE_GUEST_S / 10) == 1);
	assert_true(fabs(aw_slowness_of(AW_PACE_IDLE_GUEST_S * 3) - 3) < 1e-9);
	assert_true(aw_slowness_of(AW_PACE_IDLE_GUEST_S * 1000) == AW_SLOWNESS_MAX);
	assert_true(aw_slowness_of(NAN) == 1);
	double now = aw_slowness_now();
	assert_true(now >= 1 && now <= AW_SLOWNESS_MAX);
}

/* The stretch of work's time bounds is never below 1. */
static void test_deadline_stretch(void **state)
{
	(void)state;
	assert_true(aw_deadline_stretch() >= 1);
	aw_deadline_stretch_set(0.5);
	assert_true(aw_deadline_stretch() == 1);
	aw_deadline_stretch_set(3);
	assert_true(aw_deadline_stretch() == 3);
	aw_deadline_stretch_set(1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_steady_caps_leaps),
		cmocka_unit_test(test_steady_now_never_goes_back),
		cmocka_unit_test(test_pace_measures),
		cmocka_unit_test(test_slowness_bounds),
		cmocka_unit_test(test_deadline_stretch),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

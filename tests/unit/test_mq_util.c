// SPDX-License-Identifier: GPL-2.0-or-later
/* The mqueue family's pure logic (searches, formula fitting, source
 * classification, errno names) and the refusal of ipc_sysctl writes
 * outside a private IPC namespace. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "probes/mqueue/mq_util.h"

#include <errno.h>
#include <limits.h>
#include <string.h>
#include <sys/stat.h>

/* A monotone predicate: true from *threshold on; counts its calls. */
struct step {
	long long threshold;
	int calls;
	long long fail_at; /* a call at this x returns -EIO */
};

static int step_pred(long long x, void *arg)
{
	struct step *s = arg;
	s->calls++;
	if (x == s->fail_at)
		return -EIO;
	return x >= s->threshold;
}

static void test_first_true_finds_threshold(void **state)
{
	(void)state;
	const long long thresholds[] = { 0, 1, 224, 819199, 819200 };
	for (size_t i = 0; i < sizeof(thresholds) / sizeof(thresholds[0]); i++) {
		struct step s = { .threshold = thresholds[i], .fail_at = -1 };
		long long out = -1;
		assert_int_equal(mqu_first_true(0, 819200, step_pred, &s, &out), 0);
		assert_int_equal(out, thresholds[i]);
		/* log2(819200) < 20, plus the first probe of hi. */
		assert_true(s.calls <= 22);
	}
}

static void test_first_true_none(void **state)
{
	(void)state;
	struct step s = { .threshold = 1000, .fail_at = -1 };
	long long out = 42;
	assert_int_equal(mqu_first_true(0, 999, step_pred, &s, &out), 1);
	assert_int_equal(out, 42);
	assert_int_equal(s.calls, 1);
}

static void test_first_true_single_point_and_bad_range(void **state)
{
	(void)state;
	struct step s = { .threshold = 5, .fail_at = -1 };
	long long out = 0;
	assert_int_equal(mqu_first_true(7, 7, step_pred, &s, &out), 0);
	assert_int_equal(out, 7);
	assert_int_equal(mqu_first_true(8, 7, step_pred, &s, &out), -EINVAL);
}

static void test_first_true_wide_signed_range(void **state)
{
	(void)state;
	/* The sysctl probe searches [-2^40, initial] for int knobs. */
	struct step s = { .threshold = INT_MIN, .fail_at = LLONG_MIN };
	long long out = 0;
	assert_int_equal(mqu_first_true(-(1LL << 40), 256, step_pred, &s, &out), 0);
	assert_int_equal(out, INT_MIN);
	/* A range wider than LLONG_MAX must not overflow the midpoint. */
	s = (struct step){ .threshold = -3, .fail_at = LLONG_MIN + 1 };
	assert_int_equal(mqu_first_true(LLONG_MIN + 2, LLONG_MAX, step_pred, &s, &out), 0);
	assert_int_equal(out, -3);
}

static void test_first_true_passes_errors_on(void **state)
{
	(void)state;
	struct step s = { .threshold = 100, .fail_at = 512 };
	long long out = 0;
	assert_int_equal(mqu_first_true(0, 1024, step_pred, &s, &out), -EIO);
	s = (struct step){ .threshold = 100, .fail_at = 1024 };
	assert_int_equal(mqu_first_true(0, 1024, step_pred, &s, &out), -EIO);
}

/* x86_64 since 3.5: sizeof(struct msg_msg) 48 + sizeof(struct
 * posix_msg_tree_node) 48 per message while maxmsg <= MQ_PRIO_MAX. */
static void test_formula_charge_x86_64(void **state)
{
	(void)state;
	const struct mqu_shape a = { 1, 128 }, b = { 10, 128 }, c = { 10, 8192 };
	assert_int_equal(mqu_formula_charge(&a, 48, 48), 224);
	assert_int_equal(mqu_formula_charge(&b, 48, 48), 2240);
	assert_int_equal(mqu_formula_charge(&c, 48, 48), 82880);
	/* Beyond MQ_PRIO_MAX only msg_msg grows. */
	const struct mqu_shape big = { 65536, 128 };
	assert_int_equal(mqu_formula_charge(&big, 48, 48),
			 65536LL * 48 + 32768LL * 48 + 65536LL * 128);
}

static void test_fit_linear(void **state)
{
	(void)state;
	long long o = -1;
	struct mqu_charge now[] = {
		{ { 1, 128 }, 224 }, { { 10, 128 }, 2240 }, { { 10, 8192 }, 82880 },
	};
	assert_true(mqu_fit_linear(now, 3, &o));
	assert_int_equal(o, 96);

	/* <= 3.4: one pointer per message. */
	struct mqu_charge old[] = {
		{ { 1, 128 }, 136 }, { { 10, 128 }, 1360 }, { { 10, 8192 }, 82000 },
	};
	assert_true(mqu_fit_linear(old, 3, &o));
	assert_int_equal(o, 8);

	/* A per-queue constant is not linear in maxmsg. */
	struct mqu_charge fixed[] = {
		{ { 1, 128 }, 224 + 64 }, { { 10, 128 }, 2240 + 64 }, { { 10, 8192 }, 82880 + 64 },
	};
	assert_false(mqu_fit_linear(fixed, 3, &o));
	assert_int_equal(o, 160);

	assert_false(mqu_fit_linear(now, 0, &o));
	struct mqu_charge bad[] = { { { 0, 128 }, 0 } };
	assert_false(mqu_fit_linear(bad, 1, &o));
}

static struct mqu_trial trial(long sm, long ss, long gm, long gs)
{
	return (struct mqu_trial){ .done = true, .set = { sm, ss }, .got = { gm, gs } };
}

static void test_classify_source(void **state)
{
	(void)state;
	const struct mqu_shape fresh = { 10, 8192 };
	struct mqu_trial low = trial(3, 1024, 3, 1024), high = trial(16, 9216, 10, 8192);
	assert_int_equal(mqu_classify_source(&fresh, &low, &high), MQU_SRC_DEFAULT_KNOBS);

	/* 2.6.28 - 3.4: no default knobs, the queue follows the maxima. */
	struct mqu_trial none = { .done = false };
	high = trial(16, 9216, 16, 9216);
	assert_int_equal(mqu_classify_source(&fresh, &none, &high), MQU_SRC_MAXIMA);
	assert_int_equal(mqu_classify_source(&fresh, NULL, &high), MQU_SRC_MAXIMA);

	/* Before 2.6.28: neither moves it. */
	high = trial(16, 9216, 10, 8192);
	assert_int_equal(mqu_classify_source(&fresh, &none, &high), MQU_SRC_FIXED);

	/* Defaults moved the queue, but not to what was set. */
	low = trial(3, 1024, 4, 1024);
	assert_int_equal(mqu_classify_source(&fresh, &low, &high), MQU_SRC_OTHER);
	/* No trial at all. */
	assert_int_equal(mqu_classify_source(&fresh, &none, &none), MQU_SRC_OTHER);

	assert_string_equal(mqu_source_name(MQU_SRC_DEFAULT_KNOBS), "default_knobs");
	assert_string_equal(mqu_source_name(MQU_SRC_MAXIMA), "maxima");
	assert_string_equal(mqu_source_name(MQU_SRC_FIXED), "fixed");
	assert_string_equal(mqu_source_name(MQU_SRC_OTHER), "other");
}

static void test_eras(void **state)
{
	(void)state;
	assert_string_equal(mqu_era_of(mqu_noattr_eras, "maxima"),
			    "maxima (2.6.28 to 3.4, b231cca4381e)");
	assert_string_equal(mqu_era_of(mqu_ceiling_eras, "1024"),
			    "hard_1024 (3.5 to 3.13, 93e6f119c0ce and 02967ea08ede)");
	assert_null(mqu_era_of(mqu_noattr_eras, "other"));
	assert_null(mqu_era_of(mqu_qsize_eras, ""));
	/* Every era names its kernels. */
	const struct mqu_era *tables[] = { mqu_noattr_eras, mqu_charge_eras, mqu_qsize_eras,
					   mqu_ceiling_eras };
	for (size_t t = 0; t < 4; t++)
		for (const struct mqu_era *e = tables[t]; e->value; e++)
			assert_non_null(strchr(e->era, '('));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_eras),
		cmocka_unit_test(test_first_true_finds_threshold),
		cmocka_unit_test(test_first_true_none),
		cmocka_unit_test(test_first_true_single_point_and_bad_range),
		cmocka_unit_test(test_first_true_wide_signed_range),
		cmocka_unit_test(test_first_true_passes_errors_on),
		cmocka_unit_test(test_formula_charge_x86_64),
		cmocka_unit_test(test_fit_linear),
		cmocka_unit_test(test_classify_source),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

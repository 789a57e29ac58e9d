// SPDX-License-Identifier: GPL-2.0-or-later
/* The runner's side of the line protocol: how a probe ended comes as
 * numbers, decided on as numbers; the sentence is only for people. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "core/protocol.h"
#include "fixtures/selftest_family.h"

#include <stdlib.h>
#include <string.h>

/* A run of one probe, to which line was applied; aw_run_free() frees it. */
static struct aw_probe_result *apply(struct aw_run *run, const char *line)
{
	struct aw_probe_ref ref = { &aw_selftest_family, &aw_selftest_probes[0] };
	*run = (struct aw_run){ .probes = calloc(1, sizeof(*run->probes)), .nprobes = 1 };
	aw_probe_result_init(run->probes, &ref);
	aw_protocol_apply(run->probes, line);
	return run->probes;
}

static void expect_end(const char *line, enum aw_end_kind how, int code,
		       enum aw_status status, const char *reason)
{
	struct aw_run run;
	struct aw_probe_result *r = apply(&run, line);
	assert_int_equal(r->end.how, how);
	assert_int_equal(r->end.code, code);
	assert_int_equal(r->status, status);
	if (reason)
		assert_string_equal(r->reason, reason);
	else
		assert_null(r->reason);
	aw_run_free(&run);
}

static void test_ends(void **state)
{
	(void)state;
	expect_end("X exit 0", AW_END_EXIT, 0, AW_ST_PASS, NULL);
	expect_end("X exit 125", AW_END_EXIT, 125, AW_ST_ERROR, "crashed: exited with status 125");
	expect_end("X signal 9", AW_END_SIGNAL, 9, AW_ST_ERROR, "crashed: killed by signal 9 (Killed)");
}

/* Anything but "exit N" or "signal N", N in 0..255, is a broken line. */
static void test_bad_ends(void **state)
{
	(void)state;
	static const char *const bad[] = {
		"X exit", "X exit ", "X exit 5x", "X exit -1", "X exit 256", "X exit  5",
		"X quit 5", "X signal", "X 5",
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct aw_run run;
		struct aw_probe_result *r = apply(&run, bad[i]);
		if (r->end.how != AW_END_UNKNOWN || r->status != AW_ST_ERROR ||
		    !strstr(r->reason, "protocol error: bad exit line"))
			fail_msg("'%s' was taken", bad[i]);
		aw_run_free(&run);
	}
}

/* A reason that reads like init's sentence is not an end. */
static void test_reason_text_is_not_an_end(void **state)
{
	(void)state;
	struct aw_run run;
	struct aw_probe_result *r = apply(&run, "N crashed: exited with status 125");
	assert_int_equal(r->end.how, AW_END_UNKNOWN);
	assert_int_equal(r->status, AW_ST_NONE);
	aw_run_free(&run);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ends),
		cmocka_unit_test(test_bad_ends),
		cmocka_unit_test(test_reason_text_is_not_an_end),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

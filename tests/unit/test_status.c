// SPDX-License-Identifier: GPL-2.0-or-later
/* The one status codec: names both ways, the words of each subject, and
 * snapshot values "STATUS" or "STATUS: reason" read and written strictly
 * (abiwatch-snapshot(5)). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "core/status.h"

#include <stdlib.h>
#include <string.h>

static void test_names(void **state)
{
	(void)state;
	for (enum aw_status st = AW_ST_PASS; st <= AW_ST_TIMEOUT; st++) {
		const char *name = aw_status_name(st);
		enum aw_status back;
		assert_int_equal(aw_status_parse(name, strlen(name), &back), 0);
		assert_int_equal(back, st);
	}
	assert_string_equal(aw_status_name(AW_ST_NONE), "none");
	enum aw_status st;
	assert_int_equal(aw_status_parse("none", 4, &st), -1);
	assert_int_equal(aw_status_parse("ran", 3, &st), -1);
	assert_int_equal(aw_status_parse("PASS", 4, &st), -1);
	assert_int_equal(aw_status_parse("passed", 6, &st), -1);
	assert_int_equal(aw_status_parse("passed", 4, &st), 0); /* the first len bytes */
	assert_int_equal(st, AW_ST_PASS);
	assert_int_equal(aw_status_parse("", 0, &st), -1);
}

static void test_words(void **state)
{
	(void)state;
	assert_string_equal(aw_status_word(AW_ST_PASS, AW_OF_CHECK), "pass");
	assert_string_equal(aw_status_word(AW_ST_PASS, AW_OF_PROBE), "ran");
	assert_string_equal(aw_status_word(AW_ST_PASS, AW_OF_OBSERVATION), "observed");
	assert_string_equal(aw_status_word(AW_ST_SKIP, AW_OF_PROBE), "skip");
	assert_string_equal(aw_status_word(AW_ST_TIMEOUT, AW_OF_OBSERVATION), "timeout");
}

static void test_worse_and_outcomes(void **state)
{
	(void)state;
	assert_int_equal(aw_status_worse(AW_ST_PASS, AW_ST_FAIL), AW_ST_FAIL);
	assert_int_equal(aw_status_worse(AW_ST_TIMEOUT, AW_ST_ERROR), AW_ST_TIMEOUT);
	assert_int_equal(aw_status_worse(AW_ST_SKIP, AW_ST_NONE), AW_ST_SKIP);
	assert_true(aw_status_is_outcome(AW_ST_PASS));
	assert_true(aw_status_is_outcome(AW_ST_FAIL));
	assert_false(aw_status_is_outcome(AW_ST_SKIP));
	assert_false(aw_status_is_outcome(AW_ST_ERROR));
	assert_false(aw_status_is_outcome(AW_ST_TIMEOUT));
}

static void expect_status(const char *value, enum aw_subject of, enum aw_status want,
			 const char *reason)
{
	enum aw_status st;
	const char *why = "unset";
	if (aw_status_value_parse(value, of, &st, &why) != 0)
		fail_msg("'%s' refused", value);
	assert_int_equal(st, want);
	if (reason)
		assert_string_equal(why, reason);
	else
		assert_null(why);
}

static void expect_refused(const char *value, enum aw_subject of)
{
	enum aw_status st;
	const char *why;
	if (aw_status_value_parse(value, of, &st, &why) == 0)
		fail_msg("'%s' accepted", value);
}

static void test_values(void **state)
{
	(void)state;
	expect_status("pass", AW_OF_CHECK, AW_ST_PASS, NULL);
	expect_status("fail: expected EINVAL: got 0", AW_OF_CHECK, AW_ST_FAIL,
		     "expected EINVAL: got 0");
	expect_status("skip: ", AW_OF_CHECK, AW_ST_SKIP, "");
	expect_status("timeout", AW_OF_CHECK, AW_ST_TIMEOUT, NULL);
	expect_status("ran", AW_OF_PROBE, AW_ST_PASS, NULL);
	expect_status("error: crashed", AW_OF_PROBE, AW_ST_ERROR, "crashed");
	expect_status("skip: needs CAP_X", AW_OF_OBSERVATION, AW_ST_SKIP, "needs CAP_X");
	expect_status("fail", AW_OF_OBSERVATION, AW_ST_FAIL, NULL);

	expect_refused("fail:why", AW_OF_CHECK);   /* one space after the colon */
	expect_refused("fail :why", AW_OF_CHECK);
	expect_refused(" pass", AW_OF_CHECK);
	expect_refused("pass ", AW_OF_CHECK);
	expect_refused("Pass", AW_OF_CHECK);
	expect_refused("", AW_OF_CHECK);
	expect_refused("none", AW_OF_CHECK);
	expect_refused("ran", AW_OF_CHECK);
	expect_refused("pass", AW_OF_PROBE);       /* a probe that ran says so */
	expect_refused("ran: why", AW_OF_PROBE);
	expect_refused("pass", AW_OF_OBSERVATION); /* a value, not a status */
	expect_refused("observed", AW_OF_OBSERVATION);
}

static void expect_format(enum aw_status st, const char *reason, enum aw_subject of,
			  const char *want)
{
	char *v = aw_status_value_format(st, reason, of);
	assert_string_equal(v, want);
	free(v);
}

static void test_format(void **state)
{
	(void)state;
	expect_format(AW_ST_PASS, "ignored", AW_OF_CHECK, "pass");
	expect_format(AW_ST_PASS, NULL, AW_OF_PROBE, "ran");
	expect_format(AW_ST_FAIL, "expected 1, got 2", AW_OF_CHECK, "fail: expected 1, got 2");
	expect_format(AW_ST_SKIP, NULL, AW_OF_CHECK, "skip");
	expect_format(AW_ST_TIMEOUT, "no result within 10 s", AW_OF_PROBE,
		      "timeout: no result within 10 s");
	/* What is written is read back as the same status and reason. */
	static const enum aw_subject subjects[] = { AW_OF_CHECK, AW_OF_PROBE, AW_OF_OBSERVATION };
	for (size_t s = 0; s < 3; s++) {
		for (enum aw_status st = AW_ST_SKIP; st <= AW_ST_TIMEOUT; st++) {
			char *v = aw_status_value_format(st, "a: reason", subjects[s]);
			expect_status(v, subjects[s], st, "a: reason");
			free(v);
		}
	}
}

static void test_rules(void **state)
{
	(void)state;
	assert_string_equal(aw_status_value_rule(AW_OF_CHECK),
			    "pass, fail, skip, error or timeout, optionally followed by ': reason'");
	assert_string_equal(aw_status_value_rule(AW_OF_PROBE),
			    "ran, or skip, fail, error or timeout followed by ': reason'");
	assert_string_equal(aw_status_value_rule(AW_OF_OBSERVATION),
			    "skip, fail, error or timeout, optionally followed by ': reason'");
}

/* Causes: written as "needs CAUSE: why", read back; anything else after
 * "needs " is a plain reason (old snapshots, paths, upper case). */
static void test_causes(void **state)
{
	(void)state;
	static const char *const good[] = { "i386", "userns", "memory", "cpus", "vm", "rtc",
					    "cap_sys_resource", "fs:ext4", "fs:overlay_single" };
	static const char *const bad[] = { "", "cap_", "fs:", "CAP_SYS_RESOURCE", "fs:Ext4",
					   "/dev/mqueue", "i386 programs", "cap_sys-resource", "x" };
	char buf[AW_CAUSE_MAX];
	const char *why;
	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		assert_true(aw_cause_valid(good[i], strlen(good[i])));
		char *r = aw_cause_reason(good[i], "it is missing: here");
		assert_true(aw_reason_cause(r, buf, &why));
		assert_string_equal(buf, good[i]);
		assert_string_equal(why, "it is missing: here");
		free(r);
		r = aw_cause_reason(good[i], NULL);
		assert_true(aw_reason_cause(r, buf, &why));
		assert_string_equal(buf, good[i]);
		assert_string_equal(why, "");
		free(r);
	}
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		assert_false(aw_cause_valid(bad[i], strlen(bad[i])));
	/* What older abiwatch wrote, and reasons that merely start so. */
	static const char *const plain[] = {
		"needs CAP_SYS_RESOURCE, which this process does not hold",
		"needs /dev/mqueue: No such file or directory", "needs 2 entries at least",
		"needs i386programs", "needs ", "needs: i386", "this kernel runs no i386 programs",
	};
	for (size_t i = 0; i < sizeof(plain) / sizeof(plain[0]); i++) {
		assert_false(aw_reason_cause(plain[i], buf, &why));
		assert_string_equal(buf, "");
		assert_ptr_equal(why, plain[i]);
	}
	assert_false(aw_reason_cause(NULL, buf, &why));
	/* A cause too long for the buffer is no cause. */
	char long_cause[AW_CAUSE_MAX + 20] = "needs cap_";
	memset(long_cause + 10, 'a', AW_CAUSE_MAX + 5);
	long_cause[AW_CAUSE_MAX + 15] = '\0';
	assert_false(aw_reason_cause(long_cause, buf, &why));
	/* Through the snapshot codec: an old reader sees the whole reason. */
	enum aw_status st;
	const char *reason;
	assert_int_equal(aw_status_value_parse("skip: needs fs:xfs: mkfs.xfs not found",
					       AW_OF_CHECK, &st, &reason), 0);
	assert_string_equal(reason, "needs fs:xfs: mkfs.xfs not found");
	assert_true(aw_reason_cause(reason, buf, &why));
	assert_string_equal(buf, "fs:xfs");
	assert_string_equal(why, "mkfs.xfs not found");
}

/* One table gives every cause its env key and its words. */
static void test_cause_table(void **state)
{
	(void)state;
	static const struct { const char *cause, *key, *one, *many; } rows[] = {
		{ "i386", "env.i386", "needs i386 programs", "need i386 programs" },
		{ "cap_sys_resource", "env.caps", "needs CAP_SYS_RESOURCE", "need CAP_SYS_RESOURCE" },
		{ "userns", "env.userns", "needs user namespaces", "need user namespaces" },
		{ "fs:xfs", "env.fs", "needs the xfs filesystem", "need the xfs filesystem" },
		{ "memory", "env.memory", "follows the machine's memory", "follow the machine's memory" },
		{ "cpus", "env.cpus", "follows the machine's CPU count", "follow the machine's CPU count" },
		{ "vm", "env.vm.accel", "needs a VM", "need a VM" },
		{ "rtc", "env.rtc", "needs an RTC with a wake alarm", "need an RTC with a wake alarm" },
	};
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		const struct aw_cause *c = aw_cause_find(rows[i].cause);
		assert_non_null(c);
		assert_string_equal(c->env_key, rows[i].key);
		char *one = aw_cause_needs(rows[i].cause, true), *many = aw_cause_needs(rows[i].cause, false);
		assert_string_equal(one, rows[i].one);
		assert_string_equal(many, rows[i].many);
		free(one);
		free(many);
	}
	assert_null(aw_cause_find("fs:"));
	assert_null(aw_cause_find("i3860"));
	assert_null(aw_cause_find(NULL));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_causes),
		cmocka_unit_test(test_cause_table),
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_words),
		cmocka_unit_test(test_worse_and_outcomes),
		cmocka_unit_test(test_values),
		cmocka_unit_test(test_format),
		cmocka_unit_test(test_rules),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

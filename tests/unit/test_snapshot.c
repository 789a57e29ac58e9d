// SPDX-License-Identifier: GPL-2.0-or-later
/* Snapshot reading and writing: exact round trips, precise errors. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "core/snapshot.h"
#include "core/util.h"

#include <stdlib.h>
#include <string.h>

static char *write_to_string(const struct aw_snapshot *s)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	assert_int_equal(aw_snapshot_write(s, f), 0);
	fclose(f);
	return buf;
}

static void roundtrip(const char *text)
{
	struct aw_snapshot s;
	char *err = NULL;
	assert_int_equal(aw_snapshot_parse(text, strlen(text), "t", &s, &err), 0);
	char *again = write_to_string(&s);
	assert_string_equal(again, text);
	free(again);
	aw_snapshot_free(&s);
}

static void test_roundtrip(void **state)
{
	(void)state;
	roundtrip("abiwatch-snapshot 1.0\n");
	roundtrip("abiwatch-snapshot 1.0\n"
		  "check.a.b.c = pass\n"
		  "check.a.b.d = fail: expected EINVAL, got 0\n"
		  "env.kernel.release = 6.18.0\n"
		  "obs.a.b.empty = \n"
		  "obs.a.b.multi = one\\ntwo \\\\ three\\x09tab\n"
		  "unobserved.a.b.x = skip: needs CAP_SYS_RESOURCE\n");
	roundtrip("abiwatch-snapshot 1.7\nfuture.key = kept as it is\n");
}

static void expect_error(const char *text, const char *fragment)
{
	struct aw_snapshot s;
	char *err = NULL;
	assert_int_equal(aw_snapshot_parse(text, strlen(text), "f.snap", &s, &err), -1);
	assert_non_null(err);
	if (!strstr(err, fragment))
		fail_msg("error '%s' lacks '%s'", err, fragment);
	free(err);
}

static void test_errors_name_file_and_line(void **state)
{
	(void)state;
	expect_error("", "f.snap:1: expected the header");
	expect_error("abiwatch-snapshot 2.0\n", "f.snap:1: snapshot format 2.0 is not readable");
	expect_error("hello\n", "f.snap:1: expected the header");
	expect_error("abiwatch-snapshot 1.0\nno equals\n", "f.snap:2: expected 'key = value'");
	expect_error("abiwatch-snapshot 1.0\nkey=value\n", "f.snap:2: expected 'key = value'");
	expect_error("abiwatch-snapshot 1.0\nb = 1\na = 2\n", "f.snap:3: key 'a' is out of order");
	expect_error("abiwatch-snapshot 1.0\na = 1\na = 2\n", "f.snap:3: key 'a' appears twice");
	expect_error("abiwatch-snapshot 1.0\na = 1", "f.snap:2: expected a newline");
	expect_error("abiwatch-snapshot 1.0\na = bad\\q\n", "f.snap:2: bad escape");
	expect_error("abiwatch-snapshot 1.0\ncheck.x = maybe\n", "f.snap:2: a check's value");
	expect_error("abiwatch-snapshot 1.0\ncheck.x = failed\n", "f.snap:2: a check's value");
	expect_error("abiwatch-snapshot 1.0\n\n", "f.snap:2: expected 'key = value'");
	expect_error("abiwatch-snapshot 1.0\nsp ace = 1\n", "f.snap:2");
	expect_error("abiwatch-snapshot 1.0\na = x\x15y\n", "f.snap:2: a raw control character 0x15");
	expect_error("abiwatch-snapshot  1.0\n", "f.snap:1: expected the header");
	expect_error("abiwatch-snapshot 01.0\n", "f.snap:1: expected the header");
	expect_error("abiwatch-snapshot 1.0 \n", "f.snap:1: expected the header");
}

static void test_nul_byte(void **state)
{
	(void)state;
	struct aw_snapshot s;
	char *err = NULL;
	const char text[] = "abiwatch-snapshot 1.0\na = \0\n";
	assert_int_equal(aw_snapshot_parse(text, sizeof(text) - 1, "n", &s, &err), -1);
	assert_non_null(strstr(err, "NUL"));
	free(err);
}

static void test_lookup(void **state)
{
	(void)state;
	const char *text = "abiwatch-snapshot 1.0\na = 1\nb.c = two\nd = \n";
	struct aw_snapshot s;
	char *err = NULL;
	assert_int_equal(aw_snapshot_parse(text, strlen(text), "t", &s, &err), 0);
	assert_string_equal(aw_snapshot_get(&s, "b.c"), "two");
	assert_string_equal(aw_snapshot_get(&s, "d"), "");
	assert_null(aw_snapshot_get(&s, "b"));
	aw_snapshot_free(&s);
}

static void test_escape_roundtrip(void **state)
{
	(void)state;
	for (int c = 1; c < 256; c++) {
		char in[4] = { 'a', (char)c, 'b', 0 };
		char *e = aw_escape(in);
		assert_null(strchr(e, '\n'));
		char *u = aw_unescape(e);
		assert_non_null(u);
		assert_string_equal(u, in);
		free(e);
		free(u);
	}
	assert_null(aw_unescape("\\x00"));
	assert_null(aw_unescape("\\x41")); /* 'A' is never escaped */
	assert_null(aw_unescape("trailing\\"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_roundtrip),
		cmocka_unit_test(test_errors_name_file_and_line),
		cmocka_unit_test(test_nul_byte),
		cmocka_unit_test(test_lookup),
		cmocka_unit_test(test_escape_roundtrip),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

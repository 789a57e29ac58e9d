// SPDX-License-Identifier: GPL-2.0-or-later
/* The line format of the mqueue family's 32-bit helper: the writer
 * (m32/proto.h) and the strict reader (m32_parse.c) agree, and the reader
 * refuses everything else. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "probes/mqueue/m32_parse.h"

#include <string.h>

static int parse_line(const char *s, struct mqm_record *r)
{
	const char *why = NULL;
	int rc = mqm_parse_line(s, strlen(s), r, &why);
	if (rc)
		assert_non_null(why);
	return rc;
}

static void test_lines(void **state)
{
	(void)state;
	struct mqm_record r;

	assert_int_equal(parse_line("check attr.getattr_shape pass", &r), 0);
	assert_int_equal(r.kind, MQM_CHECK);
	assert_int_equal(r.status, MQM_PASS);
	assert_string_equal(r.name, "attr.getattr_shape");
	assert_string_equal(r.text, "");
	assert_int_equal(parse_line("check timed.legacy.einval_nsec fail tv_nsec -1: success, x", &r), 0);
	assert_int_equal(r.status, MQM_FAIL);
	assert_string_equal(r.text, "tv_nsec -1: success, x");
	assert_int_equal(parse_line("check a skip  two leading spaces kept", &r), 0);
	assert_string_equal(r.text, " two leading spaces kept");
	assert_int_equal(parse_line("obs limits.charge.1x128 224", &r), 0);
	assert_int_equal(r.kind, MQM_OBS);
	assert_string_equal(r.text, "224");
	assert_int_equal(parse_line("unobs x no way", &r), 0);
	assert_int_equal(r.kind, MQM_UNOBS);
}

static void test_bad_lines(void **state)
{
	(void)state;
	struct mqm_record r;
	const char *bad[] = {
		"", "check", "check x", "check x pass ", "check x pass extra", "check x fail",
		"check x fail ", "check x maybe because", "obs x", "obs x ", "unobs x",
		"note x y", "Check x pass", "check X pass", "check .x pass", "check x. pass",
		"check a..b pass", "check a-b pass", "obs x \x01", "obs x caf\xc3\xa9",
		" check x pass", "check  x pass",
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		if (parse_line(bad[i], &r) == 0)
			fail_msg("accepted \"%s\"", bad[i]);
	}
	char longname[80] = "check ";
	memset(longname + 6, 'n', 64);
	strcpy(longname + 70, " pass");
	assert_int_equal(parse_line(longname, &r), -1);
	strcpy(longname + 69, " pass"); /* 63 characters: fine */
	assert_int_equal(parse_line(longname, &r), 0);
	char longtext[300] = "obs x ";
	memset(longtext + 6, 't', 256);
	longtext[262] = '\0';
	assert_int_equal(parse_line(longtext, &r), -1);
	longtext[261] = '\0';
	assert_int_equal(parse_line(longtext, &r), 0);
}

static void test_format_round_trip(void **state)
{
	(void)state;
	const struct mqm_record recs[] = {
		{ MQM_CHECK, MQM_PASS, "a.b", "" },
		{ MQM_CHECK, MQM_FAIL, "x_1", "why: EINVAL" },
		{ MQM_CHECK, MQM_SKIP, "y", " spaced " },
		{ MQM_OBS, MQM_PASS, "o.p.q", "ilp32" },
		{ MQM_UNOBS, MQM_PASS, "u", "no helper" },
	};
	char line[MQM_LINE_MAX + 1];
	struct mqm_record back;
	for (size_t i = 0; i < sizeof(recs) / sizeof(recs[0]); i++) {
		int n = mqm_format(&recs[i], line, sizeof(line));
		assert_true(n > 0 && line[n - 1] == '\n');
		const char *why;
		assert_int_equal(mqm_parse_line(line, (size_t)n - 1, &back, &why), 0);
		assert_int_equal(back.kind, recs[i].kind);
		assert_string_equal(back.name, recs[i].name);
		assert_string_equal(back.text, recs[i].text);
		if (back.kind == MQM_CHECK)
			assert_int_equal(back.status, recs[i].status);
	}
	/* Too small a buffer (volatile: the compiler need not see it coming). */
	volatile size_t tiny = 5;
	assert_int_equal(mqm_format(&recs[1], line, tiny), -1);
}

static void test_sanitize(void **state)
{
	(void)state;
	char t[300] = "a\tb\nc\x7f";
	mqm_sanitize(t);
	assert_string_equal(t, "a?b?c?");
	t[0] = '\0';
	mqm_sanitize(t);
	assert_string_equal(t, "-");
	memset(t, 'x', 299);
	t[299] = '\0';
	mqm_sanitize(t);
	assert_int_equal(strlen(t), MQM_TEXT_MAX);
}

static int count(const struct mqm_record *r, void *arg)
{
	(void)r;
	(*(int *)arg)++;
	return 0;
}

static int parse_all(const char *s, int *n, struct mqm_error *err)
{
	*n = 0;
	return mqm_parse(s, strlen(s), count, n, err);
}

static void test_whole_output(void **state)
{
	(void)state;
	struct mqm_error err;
	int n;

	assert_int_equal(parse_all(MQM_HEADER "\ncheck a pass\nobs b 1\nend 2\n", &n, &err), 0);
	assert_int_equal(n, 2);
	assert_int_equal(parse_all(MQM_HEADER "\nend 0\n", &n, &err), 0);
	const struct { const char *text; size_t line; } bad[] = {
		{ "", 0 },
		{ "abiwatch-mqueue-m32 2\nend 0\n", 1 },
		{ MQM_HEADER "\n", 2 },                         /* no end */
		{ MQM_HEADER "\ncheck a pass", 2 },             /* no newline */
		{ MQM_HEADER "\ncheck a pass\nend 2\n", 3 },    /* wrong count */
		{ MQM_HEADER "\nend 00\n", 2 },
		{ MQM_HEADER "\nend 0\nx", 3 },                 /* after end */
		{ MQM_HEADER "\nend 0\n\n", 3 },
		{ MQM_HEADER "\nend\n", 2 },
		{ MQM_HEADER "\nend 99999999999999999999\n", 2 },
		{ MQM_HEADER "\ncheck a nope\nend 1\n", 2 },
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		err.line = 999;
		err.why = NULL;
		if (parse_all(bad[i].text, &n, &err) != -1)
			fail_msg("accepted case %zu", i);
		assert_non_null(err.why);
		assert_int_equal(err.line, bad[i].line);
	}
}

static int stop_at_second(const struct mqm_record *r, void *arg)
{
	(void)r;
	return ++*(int *)arg == 2 ? 7 : 0;
}

static void test_callback_stops(void **state)
{
	(void)state;
	const char *s = MQM_HEADER "\ncheck a pass\ncheck b pass\ncheck c pass\nend 3\n";
	int n = 0;
	assert_int_equal(mqm_parse(s, strlen(s), stop_at_second, &n, NULL), 7);
	assert_int_equal(n, 2);
	assert_int_equal(mqm_parse(NULL, 0, count, &n, NULL), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lines),
		cmocka_unit_test(test_bad_lines),
		cmocka_unit_test(test_format_round_trip),
		cmocka_unit_test(test_sanitize),
		cmocka_unit_test(test_whole_output),
		cmocka_unit_test(test_callback_stops),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

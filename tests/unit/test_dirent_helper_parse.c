// SPDX-License-Identifier: GPL-2.0-or-later
/* The parser of the dirent 32-bit helper's report: what it accepts, and
 * that it refuses everything else with the line and the reason. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "probes/dirent/helper_parse.h"

#include <stdio.h>
#include <string.h>

static const char typical[] =
	"abiwatch-dirent-m32 1\n"
	"entries 100002\n"
	"max_cookie 0x7ffffe1c\n"
	"eof_cookie 0x7fffffff\n"
	"negative 0\n"
	"duplicates 2\n"
	"cycle none\n"
	"capped 0\n"
	"getdents_errno 0\n"
	"wide_ino 0\n"
	"wide_off 0\n"
	"nonlfs_entries 100002\n"
	"nonlfs_errno 0\n"
	"end\n";

static int parse(const char *text, struct dh_report *r, char *why)
{
	return dh_parse(text, strlen(text), r, why, 200);
}

static void test_typical(void **state)
{
	(void)state;
	struct dh_report r;
	char why[200] = "";
	assert_int_equal(parse(typical, &r, why), 0);
	assert_int_equal(r.entries, 100002);
	assert_int_equal(r.max_cookie, 0x7ffffe1c);
	assert_int_equal(r.eof_cookie, 0x7fffffff);
	assert_int_equal(r.duplicates, 2);
	assert_int_equal(r.cycle, 0);
	assert_int_equal(r.nonlfs_entries, 100002);
	assert_int_equal(r.nonlfs_errno, 0);
	assert_string_equal(r.error, "");
}

static void test_cycle_overflow_and_order(void **state)
{
	(void)state;
	struct dh_report r;
	char why[200];
	const char *text =
		"abiwatch-dirent-m32 1\n"
		"nonlfs_errno 75\n"          /* EOVERFLOW; any order */
		"nonlfs_entries 2\n"
		"cycle 0x1F7\n"
		"entries 1002\n"
		"max_cookie 18446744073709551615\n"
		"eof_cookie 0x8000000000000003\n"
		"negative 1\n"
		"duplicates 1\n"
		"capped 1\n"
		"getdents_errno 5\n"
		"wide_ino 1000\n"
		"wide_off 7\n"
		"end\n";
	assert_int_equal(parse(text, &r, why), 0);
	assert_int_equal(r.cycle, 1);
	assert_int_equal(r.cycle_cookie, 0x1f7);
	assert_true(r.max_cookie == UINT64_MAX);
	assert_true(r.eof_cookie == 0x8000000000000003ULL);
	assert_int_equal(r.negative, 1);
	assert_int_equal(r.capped, 1);
	assert_int_equal(r.getdents_errno, 5);
	assert_int_equal(r.nonlfs_errno, 75);
	assert_int_equal(r.wide_ino, 1000);
	assert_int_equal(r.wide_off, 7);
}

static void test_error_report(void **state)
{
	(void)state;
	struct dh_report r;
	char why[200];
	assert_int_equal(parse("abiwatch-dirent-m32 1\nerror openat: Bad file descriptor\nend\n",
			       &r, why), 0);
	assert_string_equal(r.error, "openat: Bad file descriptor");
}

/* Replace the first occurrence of from in typical by to. */
static void variant(char *out, size_t size, const char *from, const char *to)
{
	const char *at = strstr(typical, from);
	assert_non_null(at);
	snprintf(out, size, "%.*s%s%s", (int)(at - typical), typical, to, at + strlen(from));
}

static void expect_refused(const char *text, size_t len, const char *reason)
{
	struct dh_report r;
	char why[200] = "";
	assert_int_equal(dh_parse(text, len, &r, why, sizeof(why)), -1);
	if (!strstr(why, reason))
		fail_msg("expected '%s' in '%s'", reason, why);
	assert_non_null(strstr(why, "helper output line"));
}

static void test_refused(void **state)
{
	(void)state;
	static const struct { const char *from, *to, *reason; } cases[] = {
		{ "abiwatch-dirent-m32 1", "abiwatch-dirent-m32 2", "header" },
		{ "abiwatch-dirent-m32 1\n", "", "header" },
		{ "entries 100002\n", "", "entries missing" },
		{ "duplicates 2\n", "duplicates 2\nduplicates 3\n", "twice" },
		{ "capped 0\n", "capped 0\nsurprise 1\n", "unknown key" },
		{ "entries 100002", "entries 18446744073709551616", "bad value" },
		{ "entries 100002", "entries -1", "bad value" },
		{ "entries 100002", "entries 1 2", "bad value" },
		{ "entries 100002", "entries 0x", "bad value" },
		{ "entries 100002", "entries ", "bad value" },
		{ "entries 100002", "entries", "no value" },
		{ "max_cookie 0x7ffffe1c", "max_cookie 0x7ffffe1g", "bad value" },
		{ "max_cookie 0x7ffffe1c", "max_cookie 0x10000000000000000", "bad value" },
		{ "negative 0", "negative 2", "bad value" },
		{ "nonlfs_errno 0", "nonlfs_errno 4096", "bad value" },
		{ "cycle none", "cycle nothing", "bad value" },
		{ "end\n", "", "no \"end\"" },
		{ "end\n", "end\nentries 1\n", "after \"end\"" },
		{ "capped 0\n", "capped 0\r\n", "control" },
		{ "capped 0\n", "error \n", "empty error" },
		{ "capped 0\n", "capped 0\nerror it broke\n", "beside an error" },
	};
	char text[1024];
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		variant(text, sizeof(text), cases[i].from, cases[i].to);
		expect_refused(text, strlen(text), cases[i].reason);
	}
	expect_refused("", 0, "no output");
	expect_refused(typical, strlen(typical) - 1, "no newline");
	/* A NUL inside is not text. */
	memcpy(text, typical, sizeof(typical));
	text[30] = '\0';
	expect_refused(text, sizeof(typical) - 1, "control");
	/* A line longer than the limit. */
	char longline[DH_MAX_LINE + 64];
	memset(longline, 'x', sizeof(longline));
	snprintf(text, sizeof(text), "abiwatch-dirent-m32 1\nerror %.*s\nend\n",
		 (int)sizeof(longline), longline);
	expect_refused(text, strlen(text), "longer than");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_typical),
		cmocka_unit_test(test_cycle_overflow_and_order),
		cmocka_unit_test(test_error_report),
		cmocka_unit_test(test_refused),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

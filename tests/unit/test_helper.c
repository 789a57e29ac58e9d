// SPDX-License-Identifier: GPL-2.0-or-later
/* The probe protocol's lines (lib/wire.h) and a family's 32-bit helper
 * read and run through them (core/helper.h), with a shell script standing
 * in for the helper: what the library does is the same whatever the
 * helper's width. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "core/context.h"
#include "lib/util.h"
#include "core/helper.h"
#include "lib/wire.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---- lines ---- */

static void test_wire_lines(void **state)
{
	(void)state;
	static const char *const lines[] = {
		"C attr.getattr_shape pass", "C a fail tv_nsec -1: success, x",
		"C a skip  two leading spaces kept", "C a error ", "O limits.charge.1x128 pass 224",
		"O x skip no way", "O x error broke", "N a note", "N ", "C a pass with text",
		"C a fail a\\nb\\\\c\\x01", "O x pass caf\xc3\xa9",
	};
	for (size_t i = 0; i < AW_ARRAY_SIZE(lines); i++) {
		struct aw_wire w;
		const char *why = NULL;
		assert_int_equal(aw_wire_parse(lines[i], strlen(lines[i]), &w, &why), 0);
		char *back = aw_wire_line(w.kind, w.name, w.status, w.text);
		char *want = xasprintf("%s\n", lines[i]);
		assert_string_equal(back, want);
		free(back);
		free(want);
		aw_wire_free(&w);
	}
	/* What the writer escapes, the reader gives back. */
	struct aw_wire w;
	const char *why;
	char *line = aw_wire_line('C', "a", "fail", "two\nlines \\ and \a");
	assert_string_equal(line, "C a fail two\\nlines \\\\ and \\x07\n");
	assert_int_equal(aw_wire_parse(line, strlen(line) - 1, &w, &why), 0);
	assert_string_equal(w.text, "two\nlines \\ and \a");
	assert_string_equal(w.status, "fail");
	aw_wire_free(&w);
	free(line);
	line = aw_wire_line('O', "v", "pass", NULL);
	assert_string_equal(line, "O v pass\n");
	free(line);
}

static void test_wire_refusals(void **state)
{
	(void)state;
	static const char *const bad[] = {
		"", "C", "C ", "X a pass", "Ca pass", "C a", "C  pass", "C a passed",
		"O a fail x", "C a fail \x01", "C a fail \\q", "C a fail \\x41", "C a\x01b pass",
		"N tab\there", "C a pass\r",
	};
	for (size_t i = 0; i < AW_ARRAY_SIZE(bad); i++) {
		struct aw_wire w;
		const char *why = NULL;
		assert_int_equal(aw_wire_parse(bad[i], strlen(bad[i]), &w, &why), -1);
		assert_non_null(why);
	}
	struct aw_wire w;
	const char *why = NULL;
	assert_int_equal(aw_wire_parse("N a\0b", 5, &w, &why), -1);
}

/* ---- reading a helper's output ---- */

static const struct aw_item items[] = {
	AW_CHECK_ITEM("native", "the probe's own, outside the helper's prefix"),
	AW_OBS_ITEM("compat32.abi", "an observation of the helper's"),
	AW_CHECK_ITEM("compat32.check", "a check of the helper's"),
	AW_OBS_ITEM("compat32.value", "the helper's arguments, as it saw them"),
	AW_CHECK_ITEM("compat32.own", "under the prefix, but the probe's to report"),
	AW_ITEMS_END,
};
static const struct aw_probe probe = { .name = "fake", .items = items };
static const char *const own[] = { "compat32.own", NULL };

static int read_output(const char *out, struct aw_helper_refusal *r)
{
	const struct aw_helper h = { .name = "x", .prefix = "compat32.", .own = own };
	struct aw_helper_output o;
	int rc = aw_helper_read(out, strlen(out), &probe, &h, &o, r);
	if (rc == 0)
		aw_helper_output_free(&o);
	return rc;
}

static void test_read(void **state)
{
	(void)state;
	struct aw_helper_refusal r;
	assert_int_equal(read_output("", &r), 0);
	assert_int_equal(read_output("O abi pass ilp32\nN a note\nC check fail why\n", &r), 0);
	static const struct { const char *out; size_t line; const char *why; } bad[] = {
		{ "O abi pass ilp32\nO abi pass again\n", 2, "twice" },
		{ "O native pass 1\n", 1, "does not declare" },
		{ "C compat32.abi pass\n", 1, "does not declare" },
		{ "C abi pass\n", 1, "wrong kind" },
		{ "C own pass\n", 1, "reports itself" },
		{ "N fine\nO abi pass cut", 2, "newline" },
		{ "N fine\nabiwatch-mqueue-m32 1\n", 2, "not a line of the protocol" },
	};
	for (size_t i = 0; i < AW_ARRAY_SIZE(bad); i++) {
		r.line = 0;
		r.why = NULL;
		assert_int_equal(read_output(bad[i].out, &r), -1);
		assert_int_equal(r.line, bad[i].line);
		assert_non_null(strstr(r.why, bad[i].why));
	}
}

/* ---- running one ---- */

static char helper_dir[] = "/tmp/abiwatch-helper-test.XXXXXX";

/* The stand-in: answers --hello like a real helper, then behaves as its
 * first argument says. */
static const char fake[] =
	"#!/bin/sh\n"
	"case \"$1\" in\n"
	"--hello) echo 'abiwatch-helper 1' ;;\n"
	"good) printf 'O abi pass ilp32\\nC check pass\\nN a note\\nO value pass %s %s\\n' "
	"\"$2\" \"$AW_HOOK\" ;;\n"
	"partial) printf 'O abi pass ilp32\\n'; exit 3 ;;\n"
	"garbage) printf 'O abi pass ilp32\\nnot the protocol\\n' ;;\n"
	"hang) printf 'O abi pass ilp32\\nC check fai'; exec sleep 10 ;;\n"
	"esac\n";

/* Every family's helper is the stand-in, so that the run's one i386
 * check (core/i386.c) finds that they run. */
static int make_helpers(void **state)
{
	(void)state;
	static const char *const names[] = { "abiwatch-test-m32", "abiwatch-mqueue-m32",
					      "abiwatch-dirent-m32" };
	if (!mkdtemp(helper_dir))
		return -1;
	for (size_t i = 0; i < AW_ARRAY_SIZE(names); i++) {
		char *path = xasprintf("%s/%s", helper_dir, names[i]);
		FILE *f = fopen(path, "w");
		int rc = f && fputs(fake, f) >= 0 && fclose(f) == 0 ? chmod(path, 0755) : -1;
		free(path);
		if (rc != 0)
			return -1;
	}
	return setenv("ABIWATCH_HELPER_DIR", helper_dir, 1);
}

static int remove_helpers(void **state)
{
	(void)state;
	char *cmd = xasprintf("rm -rf %s", helper_dir);
	int rc = system(cmd);
	free(cmd);
	return rc;
}

static char reports[1 << 16];

static void set_hook(void *arg)
{
	setenv("AW_HOOK", arg, 1);
}

/* Run the stand-in as a helper of the fake probe: its result, and in
 * reports what the probe reported. */
static bool run_fake(const char *name, const char *how, int timeout_ms)
{
	int p[2];
	assert_int_equal(pipe(p), 0);
	struct aw_ctx ctx = { .fd = p[1], .probe = &probe, .host_dirfd = -1,
			      .record = aw_record_new(&probe) };
	const char *const args[] = { how, "arg", NULL };
	const struct aw_helper h = { .name = name, .args = args, .prefix = "compat32.",
				     .own = own, .timeout_ms = timeout_ms,
				     .before_exec = set_hook, .before_exec_arg = "hooked" };
	bool done = aw_helper_report(&ctx, &h);
	close(p[1]);
	ssize_t n = read(p[0], reports, sizeof(reports) - 1);
	reports[n > 0 ? n : 0] = '\0';
	close(p[0]);
	return done;
}

static void test_report(void **state)
{
	(void)state;
	assert_true(run_fake("abiwatch-test-m32", "good", 5000));
	assert_string_equal(reports, "O compat32.abi pass ilp32\nC compat32.check pass\n"
			    "N a note\nO compat32.value pass arg hooked\n");

	/* What it left out is an error; the probe's own items are its own. */
	assert_false(run_fake("abiwatch-test-m32", "partial", 5000));
	assert_string_equal(reports, "O compat32.abi pass ilp32\n"
			    "C compat32.check error the 32-bit helper did not report this (exit status 3)\n"
			    "O compat32.value error the 32-bit helper did not report this (exit status 3)\n");

	/* Nothing is reported from an output that is not the protocol's. */
	assert_false(run_fake("abiwatch-test-m32", "garbage", 5000));
	assert_non_null(strstr(reports, "O compat32.abi error the 32-bit helper's output (exit "
			       "status 0), line 2: not a line of the protocol"));
	assert_null(strstr(reports, "ilp32"));
}

static void test_report_deadline_and_missing(void **state)
{
	(void)state;
	/* Killed at its deadline, it loses only what it had not reported
	 * whole: the line it was cut in is not one. */
	assert_false(run_fake("abiwatch-test-m32", "hang", 300));
	assert_string_equal(reports, "O compat32.abi pass ilp32\n"
			    "C compat32.check error the 32-bit helper did not report this "
			    "(killed at its 0.3 s deadline)\n"
			    "O compat32.value error the 32-bit helper did not report this "
			    "(killed at its 0.3 s deadline)\n");
	/* Not installed: every item that needs it is a skip saying so, with
	 * the cause i386 (this machine cannot run the 32-bit side). */
	assert_false(run_fake("abiwatch-none-m32", "good", 5000));
	assert_non_null(strstr(reports, "C compat32.own skip needs i386: the helper abiwatch-none-m32 is "
			       "not installed"));
	assert_null(strstr(reports, "native"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_wire_lines),
		cmocka_unit_test(test_wire_refusals),
		cmocka_unit_test(test_read),
		cmocka_unit_test(test_report),
		cmocka_unit_test(test_report_deadline_and_missing),
	};
	return cmocka_run_group_tests(tests, make_helpers, remove_helpers);
}

// SPDX-License-Identifier: GPL-2.0-or-later
/* Snapshot reading and writing: exact round trips, precise errors. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "model/snapshot.h"
#include "lib/textfile.h"
#include "lib/util.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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

/* What the commands rely on beyond the syntax is the reader's to refuse,
 * with the file and the line. */
#define expect_invalid(body, fragment) expect_error("abiwatch-snapshot 1.0\n" body, fragment)

static void test_validation(void **state)
{
	(void)state;
	expect_invalid("probe.a.b = maybe\n", "f.snap:2: the value of probe.a.b must be ran");
	expect_invalid("obs.a.b = 1\nprobe.a.b = pass\n", "f.snap:3: the value of probe.a.b");
	expect_invalid("unobserved.a.b.c = 5\n", "f.snap:2: the value of unobserved.a.b.c must be skip");
	expect_invalid("obs.a.b.c = 5\nunobserved.a.b.c = skip: x\n",
		       "f.snap:3: unobserved.a.b.c, but the observation was also made");
}

static char *temp_file(const char *content, size_t len)
{
	char *path = xstrdup("/tmp/abiwatch-test-snapshot.XXXXXX");
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, content, len), (ssize_t)len);
	close(fd);
	return path;
}

static void expect_load_error(const char *content, size_t len, const char *fragment)
{
	char *path = temp_file(content, len);
	struct aw_snapshot s;
	char *err = NULL;
	assert_int_equal(aw_snapshot_load(path, &s, &err), -1);
	char *want = xasprintf("%s:%s", path, fragment);
	if (strncmp(err, want, strlen(want)) != 0)
		fail_msg("error '%s' is not '%s...'", err, want);
	free(want);
	free(err);
	unlink(path);
	free(path);
}

static void test_load(void **state)
{
	(void)state;
	const char bin[] = "abiwatch-snapshot 1.0\na = 1\n\x01\x00\x02";
	expect_load_error(bin, sizeof(bin) - 1, "3: a NUL byte: not a text snapshot");
	const char *unsorted = "abiwatch-snapshot 1.0\nb = 1\na = 1\n", *v2 = "abiwatch-snapshot 2.0\n";
	expect_load_error(unsorted, strlen(unsorted), "3: key 'a' is out of order");
	expect_load_error(v2, strlen(v2), "1: snapshot format 2.0 is not readable");

	size_t big = AW_TEXTFILE_MAX + 10;
	char *huge = xmalloc(big);
	memset(huge, 'x', big);
	memcpy(huge, "abiwatch-snapshot 1.0\nk = ", 26);
	expect_load_error(huge, big, "2: larger than 16 MiB");
	free(huge);

	struct aw_snapshot s;
	char *err = NULL;
	assert_int_equal(aw_snapshot_load("/nonexistent/x.snap", &s, &err), -1);
	assert_string_equal(err, "/nonexistent/x.snap: No such file or directory");
	free(err);

	const char *good = "abiwatch-snapshot 1.0\nobs.a.b.c = 1\n";
	char *path = temp_file(good, strlen(good));
	assert_int_equal(aw_snapshot_load(path, &s, &err), 0);
	assert_string_equal(aw_snapshot_get(&s, "obs.a.b.c"), "1");
	aw_snapshot_free(&s);
	unlink(path);
	free(path);
}


/* Each class of key: its name under the prefix, its status and reason. */
static void test_records(void **state)
{
	(void)state;
	const char *text = "abiwatch-snapshot 1.1\n"
			   "check.f.p.a = pass\n"
			   "check.f.p.b = fail: expected EINVAL: got 0\n"
			   "env.caps = none\n"
			   "obs.f.p.v = skip: looks like a status\n"
			   "probe.f.p = ran\n"
			   "probe.f.q = timeout: no result within 10 s\n"
			   "unobserved.f.p.w = skip\n"
			   "zz.new = 1\n";
	static const struct {
		enum aw_key_class cls;
		const char *name;
		enum aw_status status;
		const char *reason;
	} want[] = {
		{ AW_KEY_CHECK, "f.p.a", AW_ST_PASS, NULL },
		{ AW_KEY_CHECK, "f.p.b", AW_ST_FAIL, "expected EINVAL: got 0" },
		{ AW_KEY_ENV, "caps", AW_ST_NONE, NULL },
		{ AW_KEY_OBS, "f.p.v", AW_ST_PASS, NULL },
		{ AW_KEY_PROBE, "f.p", AW_ST_PASS, NULL },
		{ AW_KEY_PROBE, "f.q", AW_ST_TIMEOUT, "no result within 10 s" },
		{ AW_KEY_UNOBSERVED, "f.p.w", AW_ST_SKIP, NULL },
		{ AW_KEY_OTHER, "zz.new", AW_ST_NONE, NULL },
	};
	struct aw_snapshot s;
	char *err = NULL;
	assert_int_equal(aw_snapshot_parse(text, strlen(text), "t", &s, &err), 0);
	assert_int_equal(s.n, sizeof(want) / sizeof(want[0]));
	assert_int_equal(s.minor, 1);
	for (size_t i = 0; i < s.n; i++) {
		assert_int_equal(s.records[i].cls, want[i].cls);
		assert_string_equal(s.records[i].name, want[i].name);
		assert_int_equal(s.records[i].status, want[i].status);
		if (want[i].reason)
			assert_string_equal(s.records[i].reason, want[i].reason);
		else
			assert_null(s.records[i].reason);
	}
	assert_string_equal(s.records[3].value, "skip: looks like a status");
	aw_snapshot_free(&s);
}

static void test_find(void **state)
{
	(void)state;
	const char *text = "abiwatch-snapshot 1.0\n"
			   "check.f.p.a = pass\n"
			   "obs.f.p.made = 7\n"
			   "unobserved.f.p.not = error: crashed\n";
	struct aw_snapshot s, empty = { 0 };
	char *err = NULL;
	assert_int_equal(aw_snapshot_parse(text, strlen(text), "t", &s, &err), 0);
	assert_string_equal(aw_snapshot_find(&s, AW_KEY_CHECK, "f.p.a")->value, "pass");
	assert_null(aw_snapshot_find(&s, AW_KEY_OBS, "f.p.a"));
	assert_null(aw_snapshot_find(&s, AW_KEY_CHECK, "f.p"));
	const struct aw_record *made = aw_snapshot_observation(&s, "f.p.made");
	const struct aw_record *not = aw_snapshot_observation(&s, "f.p.not");
	assert_int_equal(made->cls, AW_KEY_OBS);
	assert_string_equal(made->value, "7");
	assert_int_equal(not->cls, AW_KEY_UNOBSERVED);
	assert_int_equal(not->status, AW_ST_ERROR);
	assert_string_equal(not->reason, "crashed");
	assert_null(aw_snapshot_observation(&s, "f.p.a"));
	assert_null(aw_snapshot_get(&s, "env.caps"));
	assert_null(aw_snapshot_find(&empty, AW_KEY_CHECK, "f.p.a"));
	assert_null(aw_snapshot_observation(&empty, "f.p.made"));
	assert_null(aw_snapshot_get(&empty, "env.caps"));
	aw_snapshot_free(&s);
}

/* env.* set by the host goes in key order, or replaces the value. */
static void test_set_env(void **state)
{
	(void)state;
	const char *text = "abiwatch-snapshot 1.0\n"
			   "check.f.p.a = pass\n"
			   "env.arch = x86_64\n"
			   "obs.f.p.v = 1\n";
	struct aw_snapshot s, empty = { 0 };
	char *err = NULL;
	assert_int_equal(aw_snapshot_parse(text, strlen(text), "t", &s, &err), 0);
	aw_snapshot_set_env(&s, "vm.accel", "tcg");
	aw_snapshot_set_env(&s, "abi", "lp64");
	aw_snapshot_set_env(&s, "arch", "riscv64");
	aw_snapshot_set_env(&s, "zzz", "last");
	char *out = write_to_string(&s);
	assert_string_equal(out, "abiwatch-snapshot 1.0\n"
				 "check.f.p.a = pass\n"
				 "env.abi = lp64\n"
				 "env.arch = riscv64\n"
				 "env.vm.accel = tcg\n"
				 "env.zzz = last\n"
				 "obs.f.p.v = 1\n");
	assert_int_equal(aw_snapshot_find(&s, AW_KEY_ENV, "vm.accel")->cls, AW_KEY_ENV);
	free(out);
	aw_snapshot_free(&s);

	aw_snapshot_set_env(&empty, "vm.image", "vmlinuz");
	assert_string_equal(aw_snapshot_get(&empty, "env.vm.image"), "vmlinuz");
	aw_snapshot_free(&empty);
}

/* abiwatch-snapshot(5) to the letter: "STATUS" or "STATUS: reason", with
 * the statuses each class allows. */
static void test_status_values(void **state)
{
	(void)state;
	expect_invalid("check.a.b.c = fail:why\n",
		       "f.snap:2: a check's value must be pass, fail, skip, error or timeout, "
		       "optionally followed by ': reason'; got 'fail:why'");
	expect_invalid("check.a.b.c = Pass\n", "f.snap:2: a check's value must be");
	expect_invalid("check.a.b.c = \n", "f.snap:2: a check's value must be");
	expect_invalid("check.a.b.c = ran\n", "f.snap:2: a check's value must be");
	expect_invalid("probe.a.b = ran: why\n", "f.snap:2: the value of probe.a.b must be ran, or "
		       "skip, fail, error or timeout followed by ': reason'; got 'ran: why'");
	expect_invalid("probe.a.b = skip:x\n", "f.snap:2: the value of probe.a.b must be ran");
	expect_invalid("unobserved.a.b.c = pass\n", "f.snap:2: the value of unobserved.a.b.c must "
		       "be skip, fail, error or timeout, optionally followed by ': reason'; got 'pass'");
	expect_invalid("unobserved.a.b.c = observed\n", "f.snap:2: the value of unobserved.a.b.c");
	expect_invalid("unobserved.a.b.c = skip\\nx\n",
		       "f.snap:2: the value of unobserved.a.b.c must be skip, fail, error or timeout, "
		       "optionally followed by ': reason'; got 'skip\\nx'");
	roundtrip("abiwatch-snapshot 1.0\n"
		  "check.a.b.c = pass: even a pass may say why\n"
		  "probe.a.b = fail: the probe says so\n"
		  "unobserved.a.b.d = timeout\n");
}

/* Several problems: the syntax's, anywhere, before what comparing needs. */
static void test_first_error(void **state)
{
	(void)state;
	expect_invalid("probe.a.b = maybe\nz = 1\ny = 2\n", "f.snap:4: key 'y' is out of order");
	expect_invalid("probe.a.b = maybe\nunobserved.a.b.c = 5\n", "f.snap:2: the value of probe.a.b");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_roundtrip),
		cmocka_unit_test(test_errors_name_file_and_line),
		cmocka_unit_test(test_nul_byte),
		cmocka_unit_test(test_lookup),
		cmocka_unit_test(test_escape_roundtrip),
		cmocka_unit_test(test_validation),
		cmocka_unit_test(test_load),
		cmocka_unit_test(test_records),
		cmocka_unit_test(test_find),
		cmocka_unit_test(test_set_env),
		cmocka_unit_test(test_status_values),
		cmocka_unit_test(test_first_error),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

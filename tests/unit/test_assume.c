// SPDX-License-Identifier: GPL-2.0-or-later
/* The assumptions language: what it accepts and how it prints it, every
 * error with its line and column, and held/broken/unknown with reasons. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "model/assume.h"
#include "lib/util.h"

#include <stdlib.h>
#include <string.h>

/* Unsorted, for reading: sorted when parsed. */
static const char *const facts[] = {
	"check.t.p.failing = fail: expected EINVAL, got success",
	"check.t.p.passing = pass",
	"check.t.p.skipped = skip: needs CAP_X",
	"check.t.q.broke = error: crashed",
	"check.t.q.slow = timeout: after 10 s",
	"obs.t.p.hex = 0x10",
	"obs.t.p.neg = -5",
	"obs.t.p.none = none",
	"obs.t.p.num = 10",
	"obs.t.p.word = maxima",
	"obs.t.p.multi = one\\ntwo",
	"obs.t.p.max = 170141183460469231731687303715884105727",
	"obs.t.b1.bits = 31",
	"obs.t.b2.bits = 63",
	"obs.t.b3.bits = 11",
	"obs.t.b1.sub.bits = 31",
	"obs.t.c1.bits = 5",
	"obs.t.c2.bits = 6",
	"unobserved.t.c3.bits = skip: needs CAP_SYS_RESOURCE",
	"probe.t.b1 = ran",
	"probe.t.p = ran",
	"probe.t.sk = skip: needs CAP_Q",
	"probe.t.ran = ran",
};

static int by_string(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static struct aw_snapshot snap;

static int setup(void **state)
{
	(void)state;
	const char *sorted[AW_ARRAY_SIZE(facts)];
	memcpy(sorted, facts, sizeof(facts));
	qsort(sorted, AW_ARRAY_SIZE(sorted), sizeof(*sorted), by_string);
	char *text = xstrdup("abiwatch-snapshot 1.0\n"), *err = NULL;
	for (size_t i = 0; i < AW_ARRAY_SIZE(sorted); i++) {
		char *more = xasprintf("%s%s\n", text, sorted[i]);
		free(text);
		text = more;
	}
	if (aw_snapshot_parse(text, strlen(text), "s", &snap, &err) != 0)
		fail_msg("%s", err);
	free(text);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	aw_snapshot_free(&snap);
	return 0;
}

static void parse_one(const char *text, struct aw_assumptions *a)
{
	char *err = NULL;
	if (aw_assume_parse(text, strlen(text), "a", a, &err) != 0)
		fail_msg("'%s': %s", text, err);
	assert_int_equal(a->n, 1);
}

static void test_key_match(void **state)
{
	(void)state;
	assert_true(aw_key_match("dirent.*.cookie_bits", "dirent.ext4.cookie_bits"));
	assert_false(aw_key_match("dirent.*.cookie_bits", "dirent.ext4.compat32.cookie_bits"));
	assert_true(aw_key_match("dirent.**.cookie_bits", "dirent.ext4.compat32.cookie_bits"));
	assert_true(aw_key_match("dirent.**.cookie_bits", "dirent.ext4.cookie_bits"));
	assert_true(aw_key_match("dirent.**.cookie_bits", "dirent.cookie_bits"));
	assert_true(aw_key_match("**", "a.b.c"));
	assert_true(aw_key_match("a.**.**.d", "a.d"));
	assert_true(aw_key_match("dirent.ext?.c", "dirent.ext4.c"));
	assert_true(aw_key_match("dirent.[ex]*.c", "dirent.xfs.c"));
	assert_false(aw_key_match("dirent.[ex]*.c", "dirent.tmpfs.c"));
	assert_false(aw_key_match("a.b.c", "a.b.c.d"));
	assert_false(aw_key_match("a.b.c.d", "a.b.c"));
	assert_false(aw_key_match("a*", "a.b"));
}

/* Each input parses, and prints as the canonical form given. */
static void test_canonical_form(void **state)
{
	(void)state;
	static const char *const cases[][2] = {
		{ "a.b.c<=58:\"m\"", "a.b.c <= 58: \"m\"" },
		{ "  a.b.c   +   6 <= 64 :  \"x y\"  # comment", "a.b.c + 6 <= 64: \"x y\"" },
		{ "a.b.c == 0x10 : \"m\"", "a.b.c == 16: \"m\"" },
		{ "(a.b.c + 1) * 2 > 3 : \"m\"", "(a.b.c + 1) * 2 > 3: \"m\"" },
		{ "a.b.c + (1 * 2) > 3 : \"m\"", "a.b.c + 1 * 2 > 3: \"m\"" },
		{ "a.b.c - (1 - 2) > 3 : \"m\"", "a.b.c - (1 - 2) > 3: \"m\"" },
		{ "- -a.b.c < -1 : \"m\"", "--a.b.c < -1: \"m\"" },
		{ "-(a.b.c * 2) < 1 : \"m\"", "-(a.b.c * 2) < 1: \"m\"" },
		{ "a.b.c in {x, \"y z\", -3, 0x1} : \"m\"", "a.b.c in {x, \"y z\", -3, 1}: \"m\"" },
		{ "a.b.c not in {} : \"m\"", "a.b.c not in {}: \"m\"" },
		{ "a.b.c is not pass : \"m\"", "a.b.c is not pass: \"m\"" },
		{ "(a.b.c) is timeout : \"m\"", "a.b.c is timeout: \"m\"" },
		{ "not (a.b.c == 1 and a.b.d == 2) : \"m\"", "not (a.b.c == 1 and a.b.d == 2): \"m\"" },
		{ "not a.b.c == 1 and a.b.d == 2 : \"m\"", "not a.b.c == 1 and a.b.d == 2: \"m\"" },
		{ "a.b.c == 1 or a.b.d == 2 and a.b.e == 3 : \"m\"",
		  "a.b.c == 1 or a.b.d == 2 and a.b.e == 3: \"m\"" },
		{ "(a.b.c == 1 or a.b.d == 2) and a.b.e == 3 : \"m\"",
		  "(a.b.c == 1 or a.b.d == 2) and a.b.e == 3: \"m\"" },
		{ "a.b.c == \"and\" : \"say \\\"hi\\\" \\\\\"", "a.b.c == \"and\": \"say \\\"hi\\\" \\\\\"" },
		{ "a.b.c == \"6.1\" : \"m\"", "a.b.c == \"6.1\": \"m\"" },
		{ "a.b.c == default-knobs : \"m\"", "a.b.c == default-knobs: \"m\"" },
		{ "*.*.x <= 1 : \"m\"", "*.*.x <= 1: \"m\"" },
		{ "a.b.c * *.d.e <= 1 : \"m\"", "a.b.c * *.d.e <= 1: \"m\"" },
		{ "a.b-c.d-1 == 2 : \"m\"", "a.b-c.d-1 == 2: \"m\"" },
		{ "a.b.c -1 == 2 : \"m\"", "a.b.c - 1 == 2: \"m\"" },
		{ "** is pass : \"m\"", "** is pass: \"m\"" },
		{ "a.b.c == a.b.d : \"\xc3\xa9t\xc3\xa9\"", "a.b.c == a.b.d: \"\xc3\xa9t\xc3\xa9\"" },
		{ "a.b.c == \"a\\nb\\x09\\x41\" : \"m\\n\"", "a.b.c == \"a\\nb\\x09A\": \"m\\n\"" },
		{ "a.b.c == \"\\xc3\\xa9\" : \"m\"", "a.b.c == \"\xc3\xa9\": \"m\"" },
	};
	for (size_t i = 0; i < AW_ARRAY_SIZE(cases); i++) {
		struct aw_assumptions a;
		parse_one(cases[i][0], &a);
		char *f = aw_rule_format(&a.rules[0]);
		if (strcmp(f, cases[i][1]) != 0)
			fail_msg("'%s' printed as '%s', expected '%s'", cases[i][0], f, cases[i][1]);
		struct aw_assumptions again;
		parse_one(f, &again);
		char *g = aw_rule_format(&again.rules[0]);
		assert_string_equal(f, g);
		free(f);
		free(g);
		aw_assume_free(&a);
		aw_assume_free(&again);
	}
}

static void expect_error(const char *text, const char *want)
{
	struct aw_assumptions a;
	char *err = NULL;
	if (aw_assume_parse(text, strlen(text), "f", &a, &err) == 0)
		fail_msg("'%s' was accepted", text);
	if (strncmp(err, want, strlen(want)) != 0)
		fail_msg("'%s': error '%s', expected '%s...'", text, err, want);
	free(err);
}

static void test_errors(void **state)
{
	(void)state;
	expect_error("a.b.c <= 58", "f:1:12: expected ':' and the rule's message");
	expect_error("a.b.c <= 58 :", "f:1:14: expected the rule's message as a quoted string");
	expect_error("a.b.c <= 58 : \"\"", "f:1:15: an empty message");
	expect_error("a.b.c <= 58 : \"m\" x", "f:1:19: expected the end of the rule");
	expect_error("a.b.c <= : \"m\"", "f:1:10: expected a key, a number, a string");
	expect_error("a.b.c < 1 < 2 : \"m\"", "f:1:11: comparisons do not chain");
	expect_error("a.b.c <= maxima : \"m\"", "f:1:10: '<=' orders numbers");
	expect_error("a.b.c + x == 1 : \"m\"", "f:1:9: arithmetic needs numbers, got text");
	expect_error("a.b.c == 1 + (2 < 3) : \"m\"", "f:1:15: arithmetic needs numbers, got a condition");
	expect_error("a.b.c + 1 == x : \"m\"", "f:1:14: compares a number with text");
	expect_error("a.b.c + 1 in {x} : \"m\"", "f:1:15: compares a number with text");
	expect_error("1 == 1 : \"m\"", "f:1:1: a rule must name an observation or a check");
	expect_error("a.b == 1 : \"m\"", "f:1:1: expected a key FAMILY.PROBE.ITEM, got 'a.b'");
	expect_error("a..c == 1 : \"m\"", "f:1:1: expected a key FAMILY.PROBE.ITEM, got 'a..c' (an empty part)");
	expect_error("a.b.c. == 1 : \"m\"", "f:1:1: expected a key");
	expect_error("a.x**.c == 1 : \"m\"", "f:1:1: '**' must be a whole part");
	expect_error("a.[bc.d == 1 : \"m\"", "f:1:3: a '[' without its ']'");
	expect_error("a.*.c == 1 and b.*.c == 1 : \"m\"", "f:1:16: a rule quantifies over one key pattern");
	expect_error("a.b.c is pass and a.b.c == 1 : \"m\"", "f:1:19: 'a.b.c' names a check here");
	expect_error("a.b.c + 1 is pass : \"m\"", "f:1:1: 'is' tests a check");
	expect_error("a.b.c is fine : \"m\"", "f:1:10: expected pass, fail, skip, error or timeout");
	expect_error("a.b.c in {1, 2 : \"m\"", "f:1:16: expected ',' or '}' in the set");
	expect_error("a.b.c in {1, and} : \"m\"", "f:1:14: expected a number, a word or a string in the set");
	expect_error("a.b.c in {-x} : \"m\"", "f:1:12: expected a number, a word or a string in the set");
	expect_error("a.b.c in 1 : \"m\"", "f:1:10: expected a set after 'in'");
	expect_error("a.b.c not 1 : \"m\"", "f:1:11: expected 'in' after 'not'");
	expect_error("a.b.c == 0x : \"m\"", "f:1:10: expected a number");
	expect_error("a.b.c == 12abc : \"m\"", "f:1:10: expected a number");
	expect_error("a.b.c == 6.1 : \"m\"", "f:1:10: expected a number");
	expect_error("a.b.c == 170141183460469231731687303715884105728 : \"m\"",
		     "f:1:10: a number larger than 2^127 - 1");
	expect_error("a.b.c == \"x : \"m\"", "f:1:16: expected ':'");
	expect_error("a.b.c == \"x", "f:1:10: a string without its closing '\"'");
	expect_error("a.b.c == \"a\\qb\" : \"m\"", "f:1:12: an escape other than");
	expect_error("a.b.c == \"a\\x4\" : \"m\"", "f:1:12: an escape other than");
	expect_error("a.b.c == \"a\\x00\" : \"m\"", "f:1:12: \\x00 in a string");
	expect_error("a.b.c == \"a\tb\" : \"m\"", "f:1:12: a control character 0x09 in a string");
	expect_error("a.b.c = 1 : \"m\"", "f:1:7: expected an operator, got '=' (equality is '==')");
	expect_error("a.b.c ! 1 : \"m\"", "f:1:7: expected an operator, got '!'");
	expect_error("a.b.c == and : \"m\"", "f:1:10: expected a value, got the keyword 'and'");
	expect_error("not a.b.c : \"m\"", "f:1:5: expected a condition");
	expect_error("a.b.c == 1 or 2 : \"m\"", "f:1:15: expected a condition");
	expect_error("a.b.c : \"m\"", "f:1:1: expected a condition: KEY OP VALUE");
	expect_error("(a.b.c == 1 : \"m\"", "f:1:13: expected ')' to close the '(' of column 1");
	expect_error("a.b.c \xe2\x89\xa4 1 : \"m\"", "f:1:7: a byte 0xe2 outside a string or a comment");
	expect_error("a.b.c == 1 : \"m\"\r", "f:1:17: a control character 0x0d");
	expect_error("# fine\n\n  a.b.c == 1 : \"m\"\nbad", "f:4:1: expected a condition");
	expect_error("a.b.c == 0" " + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1"
		     " + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1"
		     " + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1"
		     " + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 : \"m\"",
		     "f:1:268: more than 64 operators in a row");
	expect_error("a.b.c == 1 : \"m\"\n\t a.b.c == 1 : \"other\"",
		     "f:2:3: the rule of line 1 again: each condition once");
	const char nul[] = "a.b.c == 1 : \"m\"\n\0";
	struct aw_assumptions a;
	char *err = NULL;
	assert_int_equal(aw_assume_parse(nul, sizeof(nul) - 1, "f", &a, &err), -1);
	assert_string_equal(err, "f:2: a NUL byte: not a text assumptions file");
	free(err);
}

static void test_nesting_is_bounded(void **state)
{
	(void)state;
	char deep[1000] = "";
	for (int i = 0; i < 100; i++)
		strcat(deep, "(");
	strcat(deep, "a.b.c == 1");
	for (int i = 0; i < 100; i++)
		strcat(deep, ")");
	strcat(deep, " : \"m\"");
	expect_error(deep, "f:1:");
	struct aw_assumptions a;
	char *err = NULL;
	assert_int_equal(aw_assume_parse(deep, strlen(deep), "f", &a, &err), -1);
	assert_non_null(strstr(err, "nested deeper than 64"));
	free(err);
}

/* A set of n members once copied the members so far for each new one:
 * quadratic memory, 24 GB for 200,000.  Now linear. */
static void test_huge_set_is_linear(void **state)
{
	(void)state;
	size_t n = 300000, len = 0;
	char *text = xmalloc(n * 12 + 64);
	len += (size_t)sprintf(text, "t.p.word in {");
	for (size_t i = 0; i < n; i++)
		len += (size_t)sprintf(text + len, "w%zu, ", i);
	sprintf(text + len, "maxima} : \"m\"");
	struct aw_assumptions a;
	struct aw_rule_result res;
	char *err = NULL;
	assert_int_equal(aw_assume_parse(text, strlen(text), "f", &a, &err), 0);
	aw_rule_eval(&a.rules[0], &snap, &res);
	assert_int_equal(res.verdict, AW_HELD);
	aw_rule_result_free(&res);
	aw_assume_free(&a);
	free(text);
}

static void test_file_of_rules(void **state)
{
	(void)state;
	const char *text = "# an assumptions file\n"
			   "\n"
			   "a.b.c == 1 : \"one\"   # why\n"
			   "\t \n"
			   "x.*.y is pass : \"two\"\n"
			   "d.e.f <= 2 : \"three, without a newline\"";
	struct aw_assumptions a;
	char *err = NULL;
	assert_int_equal(aw_assume_parse(text, strlen(text), "f", &a, &err), 0);
	assert_int_equal(a.n, 3);
	assert_int_equal(a.rules[0].line, 3);
	assert_string_equal(a.rules[0].condition, "a.b.c == 1");
	assert_string_equal(a.rules[0].message, "one");
	assert_int_equal(a.rules[1].line, 5);
	assert_true(a.rules[1].keys[0].check);
	assert_true(a.rules[1].keys[0].wild);
	assert_int_equal(a.rules[2].line, 6);
	assert_true(aw_assume_names(&a, false, "a.b.c"));
	assert_false(aw_assume_names(&a, true, "a.b.c"));
	assert_true(aw_assume_names(&a, true, "x.q.y"));
	assert_false(aw_assume_names(&a, true, "x.q.r.y"));
	aw_assume_free(&a);

	assert_int_equal(aw_assume_parse("", 0, "f", &a, &err), 0);
	assert_int_equal(a.n, 0);
	aw_assume_free(&a);
}

/* Evaluate one rule; check the verdict and that some detail line holds
 * the fragment. */
static void expect_verdict(const char *rule, enum aw_verdict want, const char *fragment)
{
	struct aw_assumptions a;
	struct aw_rule_result res;
	char *text = xasprintf("%s : \"m\"", rule);
	parse_one(text, &a);
	aw_rule_eval(&a.rules[0], &snap, &res);
	if (res.verdict != want)
		fail_msg("'%s': %s, expected %s (%s)", rule, aw_verdict_name(res.verdict),
			 aw_verdict_name(want), res.ndetails ? res.details[0] : "");
	bool found = !fragment;
	for (size_t i = 0; i < res.ndetails && !found; i++)
		found = strstr(res.details[i], fragment) != NULL;
	if (!found)
		fail_msg("'%s': no detail with '%s' (first: '%s')", rule, fragment,
			 res.ndetails ? res.details[0] : "");
	aw_rule_result_free(&res);
	aw_assume_free(&a);
	free(text);
}

static void test_numbers_and_text(void **state)
{
	(void)state;
	expect_verdict("t.p.num == 10", AW_HELD, "t.p.num = 10");
	expect_verdict("t.p.num == 0xa", AW_HELD, NULL);
	expect_verdict("t.p.num < 10", AW_BROKEN, "t.p.num = 10");
	expect_verdict("t.p.hex == 16", AW_HELD, NULL);
	expect_verdict("t.p.neg < -4", AW_HELD, NULL);
	expect_verdict("t.p.neg * t.p.neg == 25", AW_HELD, NULL);
	expect_verdict("t.p.num - 20 == -10", AW_HELD, NULL);
	expect_verdict("t.p.max + 1 > 0", AW_UNKNOWN, "overflows 128 bits");
	expect_verdict("t.p.max * 2 > 0", AW_UNKNOWN, "overflows");
	expect_verdict("t.p.word == maxima", AW_HELD, "t.p.word = maxima");
	expect_verdict("t.p.word == \"maxima\"", AW_HELD, NULL);
	expect_verdict("t.p.multi == \"one\\ntwo\"", AW_HELD, "t.p.multi = one\\ntwo");
	expect_verdict("t.p.word != maxima", AW_BROKEN, NULL);
	expect_verdict("t.p.num == \"10\"", AW_HELD, NULL); /* text with text */
	expect_verdict("t.p.hex == \"16\"", AW_BROKEN, NULL);
	expect_verdict("t.p.num == t.p.num", AW_HELD, NULL);
	expect_verdict("t.p.hex == t.b1.bits - 15", AW_HELD, "t.b1.bits = 31");
	expect_verdict("t.p.hex == t.b1.bits - 14", AW_BROKEN, NULL);
	/* A number never equals what is not one; ordering it is unknown. */
	expect_verdict("t.p.none != 1024", AW_HELD, NULL);
	expect_verdict("t.p.none == 1024", AW_BROKEN, NULL);
	expect_verdict("t.p.none > 1024", AW_UNKNOWN, "t.p.none = none is not a number");
	expect_verdict("t.p.none + 1 > 1024", AW_UNKNOWN, "is not a number");
	expect_verdict("t.p.none == none or t.p.none > 1024", AW_HELD, NULL);
	expect_verdict("t.p.num == none or t.p.num > 1024", AW_BROKEN, "t.p.num = 10");
}

static void test_sets(void **state)
{
	(void)state;
	expect_verdict("t.p.word in {fixed, maxima}", AW_HELD, NULL);
	expect_verdict("t.p.word in {fixed, default_knobs}", AW_BROKEN, "t.p.word = maxima");
	expect_verdict("t.p.word not in {fixed}", AW_HELD, NULL);
	expect_verdict("t.p.num in {1, 0xa}", AW_HELD, NULL);
	expect_verdict("t.p.neg in {-5}", AW_HELD, NULL);
	expect_verdict("t.p.none in {1024, none}", AW_HELD, NULL);
	expect_verdict("t.p.num in {}", AW_BROKEN, NULL);
	expect_verdict("t.p.gone in {1}", AW_UNKNOWN, "no observation matches t.p.gone");
}

static void test_check_states(void **state)
{
	(void)state;
	expect_verdict("t.p.passing is pass", AW_HELD, "t.p.passing: pass");
	expect_verdict("t.p.failing is pass", AW_BROKEN, "t.p.failing: fail: expected EINVAL");
	expect_verdict("t.p.failing is fail", AW_HELD, NULL);
	expect_verdict("t.p.passing is not fail", AW_HELD, NULL);
	/* No outcome: a test of one is unknown, a test of the state is not. */
	expect_verdict("t.p.skipped is pass", AW_UNKNOWN, "t.p.skipped: skip: needs CAP_X");
	expect_verdict("t.p.skipped is not fail", AW_UNKNOWN, NULL);
	expect_verdict("t.p.skipped is skip", AW_HELD, NULL);
	expect_verdict("t.q.broke is error", AW_HELD, NULL);
	expect_verdict("t.q.broke is not timeout", AW_HELD, NULL);
	expect_verdict("t.q.slow is pass", AW_UNKNOWN, "t.q.slow: timeout: after 10 s");
	expect_verdict("t.p.* is pass", AW_BROKEN, "broken: t.p.failing: fail");
	expect_verdict("t.*.* is not fail", AW_BROKEN, NULL);
	expect_verdict("t.q.* is not pass", AW_UNKNOWN, NULL);
	expect_verdict("t.p.num is pass", AW_UNKNOWN, "no check matches t.p.num, although probe t.p ran");
}

static void test_kleene_logic(void **state)
{
	(void)state;
	const char *held = "t.p.num == 10", *broken = "t.p.num == 11", *unknown = "t.p.gone == 1";
	const char *rules[][3] = {
		{ held, "and", unknown }, { broken, "and", unknown }, { held, "or", unknown },
		{ broken, "or", unknown }, { held, "and", broken }, { held, "or", broken },
	};
	const enum aw_verdict want[] = { AW_UNKNOWN, AW_BROKEN, AW_HELD, AW_UNKNOWN, AW_BROKEN, AW_HELD };
	for (size_t i = 0; i < AW_ARRAY_SIZE(rules); i++) {
		char *r = xasprintf("%s %s %s", rules[i][0], rules[i][1], rules[i][2]);
		expect_verdict(r, want[i], NULL);
		free(r);
	}
	expect_verdict("not t.p.gone == 1", AW_UNKNOWN, NULL);
	expect_verdict("not t.p.num == 11", AW_HELD, NULL);
}

static void test_quantified(void **state)
{
	(void)state;
	expect_verdict("t.b*.bits <= 63", AW_HELD, "held: t.b1.bits = 31");
	expect_verdict("t.*.bits <= 63", AW_UNKNOWN, "unknown: t.c3.bits: skip");
	expect_verdict("t.b*.bits + 6 <= 64", AW_BROKEN, "broken: t.b2.bits = 63");
	expect_verdict("t.b*.bits + 6 <= 64", AW_BROKEN, "held: t.b3.bits = 11");
	/* The pattern stands for the same key each time it appears. */
	expect_verdict("t.b*.bits == 31 or t.b*.bits == 11", AW_BROKEN, "broken: t.b2.bits = 63");
	expect_verdict("t.**.bits <= 31", AW_BROKEN, NULL);
	expect_verdict("t.b1.**.bits == 31", AW_HELD, "held: t.b1.sub.bits = 31");
	/* Unobserved keys count, as unknown, with their reason. */
	expect_verdict("t.c*.bits < 10", AW_UNKNOWN,
		       "unknown: t.c3.bits: skip: needs CAP_SYS_RESOURCE");
	expect_verdict("t.c*.bits < 6", AW_BROKEN, "broken: t.c2.bits = 6");
	/* With an exact key beside the pattern. */
	expect_verdict("t.b*.bits <= t.b2.bits", AW_HELD, NULL);
}

static void test_reasons_for_what_is_missing(void **state)
{
	(void)state;
	expect_verdict("t.sk.*.x == 1", AW_UNKNOWN,
		       "no observation matches t.sk.*.x: probe t.sk: skip: needs CAP_Q");
	expect_verdict("t.sk.v == 1", AW_UNKNOWN, "probe t.sk: skip: needs CAP_Q");
	expect_verdict("t.ran.v == 1", AW_UNKNOWN,
		       "no observation matches t.ran.v, although probe t.ran ran");
	expect_verdict("nosuch.fam.v == 1", AW_UNKNOWN,
		       "no observation matches nosuch.fam.v: no probe of this abiwatch");
	expect_verdict("selftest.good.value == 1", AW_UNKNOWN,
		       "the snapshot has no result of probe selftest.good (it was not run)");
	expect_verdict("**.nothing == 1", AW_UNKNOWN, "no observation matches **.nothing");
}

static void test_empty_snapshot(void **state)
{
	(void)state;
	struct aw_snapshot empty = { .major = 1 };
	struct aw_assumptions a;
	struct aw_rule_result res;
	parse_one("a.b.c == 1 or a.*.d is pass : \"m\"", &a);
	aw_rule_eval(&a.rules[0], &empty, &res);
	assert_int_equal(res.verdict, AW_UNKNOWN);
	aw_rule_result_free(&res);
	aw_assume_free(&a);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_key_match),
		cmocka_unit_test(test_canonical_form),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_nesting_is_bounded),
		cmocka_unit_test(test_huge_set_is_linear),
		cmocka_unit_test(test_file_of_rules),
		cmocka_unit_test(test_numbers_and_text),
		cmocka_unit_test(test_sets),
		cmocka_unit_test(test_check_states),
		cmocka_unit_test(test_kleene_logic),
		cmocka_unit_test(test_quantified),
		cmocka_unit_test(test_reasons_for_what_is_missing),
		cmocka_unit_test(test_empty_snapshot),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}

// SPDX-License-Identifier: GPL-2.0-or-later
/* lib/debver.c: Debian's version order, held against dpkg's own
 * (dpkg --compare-versions) on every pair of a list that has each rule
 * of deb-version(7) in it, and against the order of the kernel series
 * abiwatch matrix --apt fetches. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "lib/debver.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static const char *const versions[] = {
	"1.0", "1.0-1", "1.0-0", "1.00", "1.0~rc1", "1.0~rc1~1", "1.0~~", "1.0+dfsg", "1.0a", "1.0.1",
	"1:0.9", "2:0.1", "01:1.0", "0:1.0", "1.0-1~bpo1", "1.0-1+b1", "1.0-1.1", "10.0", "9.99",
	"1.0-a", "1.0-A", "1.0-+", "1.0-.", "1.a", "1.A", "1.+", "1~", "1", "0", "00", "1-2-3",
	"6.1.170-3", "6.1.176-1", "6.1.192-2", "6.1.192-3", "6.12.107-1~deb12u1",
	"6.12.115-2~deb12u1", "6.12.117-1~deb12u1", "6.12.118-1~deb12u1", "6.12.118-1",
	"99999999999999999999.1", "99999999999999999998.9", "0099.0", "1.0-000", "1.0-0001",
};
#define NVERSIONS (sizeof(versions) / sizeof(versions[0]))

/* dpkg's answer to "a OP b", or -1 when dpkg could not be run. */
static int dpkg_says(const char *a, const char *op, const char *b)
{
	pid_t pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		execlp("dpkg", "dpkg", "--compare-versions", a, op, b, (char *)NULL);
		_exit(127);
	}
	int st;
	if (waitpid(pid, &st, 0) != pid || !WIFEXITED(st) || WEXITSTATUS(st) > 1)
		return -1;
	return WEXITSTATUS(st) == 0;
}

static int sign(int c)
{
	return (c > 0) - (c < 0);
}

static void test_matches_dpkg(void **state)
{
	(void)state;
	if (dpkg_says("1", "lt", "2") != 1) {
		print_message("# SKIP dpkg --compare-versions cannot be run here\n");
		skip();
	}
	size_t pairs = 0;
	for (size_t i = 0; i < NVERSIONS; i++)
		for (size_t k = 0; k < NVERSIONS; k++) {
			int ours = sign(aw_debver_cmp(versions[i], versions[k]));
			int lt = dpkg_says(versions[i], "lt", versions[k]);
			int eq = dpkg_says(versions[i], "eq", versions[k]);
			assert_true(lt >= 0 && eq >= 0);
			int theirs = lt ? -1 : eq ? 0 : 1;
			if (ours != theirs)
				fail_msg("%s vs %s: ours %d, dpkg %d", versions[i], versions[k], ours, theirs);
			pairs++;
		}
	assert_int_equal(pairs, NVERSIONS * NVERSIONS);
}

/* The order the series comes in, where strverscmp would put 6.12.115-2
 * after 6.12.117-1 no more than here but 1.0~rc1 after 1.0. */
static void test_series_order(void **state)
{
	(void)state;
	assert_true(aw_debver_cmp("6.1.192-2", "6.1.192-3") < 0);
	assert_true(aw_debver_cmp("6.1.187-1", "6.1.190-1") < 0);
	assert_true(aw_debver_cmp("6.12.115-2~deb12u1", "6.12.117-1~deb12u1") < 0);
	assert_true(aw_debver_cmp("6.12.118-1~deb12u1", "6.12.118-1") < 0);
	assert_true(aw_debver_cmp("1.0~rc1", "1.0") < 0);
	assert_true(aw_debver_cmp("1:0.1", "9.9") > 0);
	assert_true(aw_debver_cmp("1.0", "1.0-0") == 0);
	assert_true(aw_debver_cmp("0:1.0", "1.0") == 0);
}

static void test_valid(void **state)
{
	(void)state;
	assert_true(aw_debver_valid("6.12.118-1~deb12u1"));
	assert_true(aw_debver_valid("1:2.3-4"));
	assert_true(aw_debver_valid("1.0"));
	assert_false(aw_debver_valid(""));
	assert_false(aw_debver_valid("a1.0"));
	assert_false(aw_debver_valid("x:1.0"));
	assert_false(aw_debver_valid(":1.0"));
	assert_false(aw_debver_valid("1.0-"));
	assert_false(aw_debver_valid("1.0 2"));
	assert_false(aw_debver_valid("1.0-a_b"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_matches_dpkg),
		cmocka_unit_test(test_series_order),
		cmocka_unit_test(test_valid),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

// SPDX-License-Identifier: GPL-2.0-or-later
/* Selection by glob, and the consistency of every table linked in. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "core/registry.h"

#include <stdlib.h>

static void test_glob_selects(void **state)
{
	(void)state;
	assert_true(aw_glob_selects("mqueue", "mqueue.noattr"));
	assert_true(aw_glob_selects("mqueue.noattr", "mqueue.noattr"));
	assert_true(aw_glob_selects("mq*", "mqueue.noattr"));
	assert_true(aw_glob_selects("*.noattr", "mqueue.noattr"));
	assert_true(aw_glob_selects("mqueue.noattr.maxmsg", "mqueue.noattr"));
	assert_false(aw_glob_selects("mqueue.noatt", "mqueue.noattr"));
	assert_false(aw_glob_selects("mque", "mqueue.noattr"));
	assert_false(aw_glob_selects("dirent", "mqueue.noattr"));
	assert_false(aw_glob_selects("mqueue.noattrx.y", "mqueue.noattr"));
}

static void test_every_table_is_consistent(void **state)
{
	(void)state;
	assert_int_equal(aw_registry_verify(), 0);
}

static void test_unmatched_glob_is_reported(void **state)
{
	(void)state;
	char *globs[] = { "*", "no_such_family_at_all" };
	struct aw_probe_ref *refs = NULL;
	size_t n = 0, bad = 99;
	assert_int_equal(aw_select(globs, 2, &refs, &n, &bad), -1);
	assert_int_equal(bad, 1);
	assert_int_equal(aw_select(globs, 1, &refs, &n, &bad), 0);
	free(refs);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_glob_selects),
		cmocka_unit_test(test_every_table_is_consistent),
		cmocka_unit_test(test_unmatched_glob_is_reported),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

// SPDX-License-Identifier: GPL-2.0-or-later
/* The active security modules (lib/lsm.c): the names of the uapi ids,
 * the list's lookup, and the machine's own answer held against
 * securityfs where the test can read it. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "lib/lsm.h"
#include "lib/procfs.h"

#include <stdlib.h>
#include <string.h>

static void test_names(void **state)
{
	(void)state;
	/* this host's answer on 6.18: lockdown, capability, landlock, bpf */
	const uint64_t ids[] = { 108, 100, 110, 109, 105, 113, 99, 200 };
	char *s = aw_lsm_names(ids, 8);
	assert_string_equal(s, "lockdown,capability,landlock,bpf,yama,ipe,99,200");
	free(s);
	s = aw_lsm_names(ids, 0);
	assert_string_equal(s, "");
	free(s);
}

static void test_listed(void **state)
{
	(void)state;
	assert_true(aw_lsm_listed("lockdown,capability,yama", "yama"));
	assert_true(aw_lsm_listed("yama", "yama"));
	assert_false(aw_lsm_listed("lockdown,capability,landlock", "yama"));
	assert_false(aw_lsm_listed("yamax,capability", "yama"));
	assert_false(aw_lsm_listed("", "yama"));
	assert_false(aw_lsm_listed(NULL, "yama"));
}

/* Every kernel abiwatch runs on has the capability module; where
 * securityfs is mounted its list is the same as the answer. */
static void test_active(void **state)
{
	(void)state;
	const char *why = NULL;
	char *list = aw_lsm_active(&why);
	if (!list) {
		assert_non_null(why);
		skip();
	}
	assert_null(why);
	assert_true(aw_lsm_listed(list, "capability"));
	char *text;
	size_t len;
	if (aw_file_slurp("/sys/kernel/security/lsm", &text, &len) == 0) {
		while (len && (text[len - 1] == '\n' || text[len - 1] == ','))
			text[--len] = '\0';
		assert_string_equal(list, text);
		free(text);
	}
	free(list);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_listed),
		cmocka_unit_test(test_active),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

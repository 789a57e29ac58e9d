// SPDX-License-Identifier: GPL-2.0-or-later
/* The probe library (src/lib/): errno names, children of a probe and
 * what they report, programs run with a deadline, 32-bit helpers. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "lib/errname.h"

#include <errno.h>

static void test_errname(void **state)
{
	(void)state;
	assert_string_equal(aw_errname(0), "success");
	assert_string_equal(aw_errname(EINVAL), "EINVAL");
	assert_string_equal(aw_errname(-EMFILE), "EMFILE");
	assert_string_equal(aw_errname(-EOVERFLOW), "EOVERFLOW");
	assert_string_equal(aw_errname(99999), "errno 99999");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_errname),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

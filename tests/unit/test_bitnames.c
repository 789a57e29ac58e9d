// SPDX-License-Identifier: GPL-2.0-or-later
/* A mask as the names of its bits (lib/bitnames.c): the table's order,
 * bits no row names in both forms, the empty mask. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "lib/bitnames.h"

#include <stdlib.h>

static const struct aw_bitname names[] = {
	{ 0x4, "C" }, { 0x1, "A" }, { 0x2, "B" },
};

static void check(uint64_t mask, const char *fmt, const char *want)
{
	char *s = aw_bitnames(mask, names, 3, fmt, "none");
	assert_string_equal(s, want);
	free(s);
}

static void test_table_order(void **state)
{
	(void)state;
	check(0x7, NULL, "C,A,B");
	check(0x3, NULL, "A,B");
	check(0x4, "X", "C");
}

static void test_unknown_bits(void **state)
{
	(void)state;
	check(0x31, NULL, "A,0x30");
	check(0x31, "BIT", "A,BIT4,BIT5");
	check(UINT64_C(1) << 63, "BIT", "BIT63");
	check(0x10, NULL, "0x10");
}

static void test_empty(void **state)
{
	(void)state;
	check(0, NULL, "none");
	char *s = aw_bitnames(0, names, 3, NULL, "0");
	assert_string_equal(s, "0");
	free(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_table_order),
		cmocka_unit_test(test_unknown_bits),
		cmocka_unit_test(test_empty),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

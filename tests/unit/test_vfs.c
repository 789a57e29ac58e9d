// SPDX-License-Identifier: GPL-2.0-or-later
/* The vfs family's pure logic: the steps between mtimes and the
 * class made of it, and the names that give a "#!" interpreter path an
 * exact length. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "probes/vfs/vfs.h"

#include <string.h>

#define MS 1000000L

static struct vfs_steps steps_of(const struct timespec *t, size_t n)
{
	struct vfs_steps s = { 0 };
	for (size_t i = 0; i < n; i++)
		vfs_steps_add(&s, t[i]);
	return s;
}

static void test_step_none(void **state)
{
	(void)state;
	struct timespec t[] = { { 5, 100 }, { 5, 100 }, { 5, 100 } };
	struct vfs_steps s = steps_of(t, 3);
	assert_int_equal(s.smallest, -1);
	assert_int_equal(s.n, 3);
	assert_int_equal(s.changes, 0);
	assert_true(s.some_nsec);
	s = steps_of(t, 1);
	assert_int_equal(s.smallest, -1);
}

static void test_step_smallest(void **state)
{
	(void)state;
	/* Ticks of 4 ms with repeats, one step across a second. */
	struct timespec t[] = { { 1, 992 * MS }, { 1, 996 * MS }, { 1, 996 * MS },
				{ 2, 0 }, { 2, 8 * MS } };
	struct vfs_steps s = steps_of(t, 5);
	assert_int_equal(s.smallest, 4 * MS);
	assert_int_equal(s.changes, 3);
	struct timespec fine[] = { { 7, 1000 }, { 7, 3500 }, { 7, 4000 } };
	assert_int_equal(steps_of(fine, 3).smallest, 500);
	/* A step back counts by its size. */
	struct timespec back[] = { { 7, 9000 }, { 7, 2000 } };
	assert_int_equal(steps_of(back, 2).smallest, 7000);
	/* Whole seconds. */
	struct timespec whole[] = { { 7, 0 }, { 8, 0 } };
	s = steps_of(whole, 2);
	assert_false(s.some_nsec);
	assert_string_equal(vfs_grain_class(s.smallest, !s.some_nsec), "second");
}

static void test_grain_classes(void **state)
{
	(void)state;
	assert_string_equal(vfs_grain_class(2600, false), "ns");
	assert_string_equal(vfs_grain_class(MS - 1, false), "ns");
	assert_string_equal(vfs_grain_class(MS, false), "jiffy");       /* HZ 1000 */
	assert_string_equal(vfs_grain_class(4 * MS, false), "jiffy");   /* HZ 250 */
	assert_string_equal(vfs_grain_class(20 * MS, false), "jiffy");  /* HZ 50 */
	assert_string_equal(vfs_grain_class(21 * MS, false), "coarse");
	assert_string_equal(vfs_grain_class(1000 * MS, true), "second");
	assert_string_equal(vfs_grain_class(1000 * MS, false), "coarse");
	assert_string_equal(vfs_grain_class(-1, true), "second");
	assert_string_equal(vfs_grain_class(-1, false), "coarse");
}

/* The names make exactly total bytes, each a valid name. */
static void assert_layout(size_t base, size_t total)
{
	size_t lens[8];
	size_t n = vfs_shebang_layout(base, total, lens, 8);
	assert_true(n > 0);
	size_t sum = base;
	for (size_t i = 0; i < n; i++) {
		assert_true(lens[i] >= 1 && lens[i] <= VFS_SHEBANG_DIR_LEN);
		sum += 1 + lens[i];
	}
	assert_int_equal(sum, total);
}

static void test_layout_exact(void **state)
{
	(void)state;
	for (size_t total = 14; total < 1200; total++)
		assert_layout(12, total);
	for (size_t base = 1; base < 40; base++)
		assert_layout(base, base + 2 * VFS_SHEBANG_DIR_LEN + 3);
}

static void test_layout_refused(void **state)
{
	(void)state;
	size_t lens[2];
	assert_int_equal(vfs_shebang_layout(12, 12, lens, 2), 0);  /* no room for "/X" */
	assert_int_equal(vfs_shebang_layout(12, 13, lens, 2), 0);
	assert_int_equal(vfs_shebang_layout(12, 14, lens, 2), 1);
	assert_int_equal(lens[0], 1);
	assert_int_equal(vfs_shebang_layout(12, 12 + 3 * 201, lens, 2), 0); /* three names */
	assert_int_equal(vfs_shebang_layout(12, 12 + 2 * 201, lens, 2), 2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_step_none),
		cmocka_unit_test(test_step_smallest),
		cmocka_unit_test(test_grain_classes),
		cmocka_unit_test(test_layout_exact),
		cmocka_unit_test(test_layout_refused),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

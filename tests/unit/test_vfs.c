// SPDX-License-Identifier: GPL-2.0-or-later
/* The vfs family's pure logic: what a pair of changes within one tick
 * shows and the class made of such pairs, and the names that give a "#!" interpreter path an
 * exact length. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "probes/vfs/vfs.h"

#include <string.h>

/* A pair is judged by its two mtimes and the coarse clock around it. */
static void test_pair_kinds(void **state)
{
	(void)state;
	struct timespec tick = { 5, 4000000 }, fine = { 5, 4002600 }, whole = { 5, 0 },
			other = { 5, 3000000 };
	assert_int_equal(vfs_pair_of(tick, fine, tick), VFS_PAIR_FINE);
	assert_int_equal(vfs_pair_of(fine, tick, tick), VFS_PAIR_FINE); /* a step back */
	assert_int_equal(vfs_pair_of(tick, tick, tick), VFS_PAIR_TICK);
	assert_int_equal(vfs_pair_of(whole, whole, tick), VFS_PAIR_SECOND);
	assert_int_equal(vfs_pair_of(other, other, tick), VFS_PAIR_OTHER);
	/* Another second's time is not the tick's. */
	assert_int_equal(vfs_pair_of((struct timespec){ 6, 4000000 },
				     (struct timespec){ 6, 4000000 }, tick), VFS_PAIR_OTHER);
}

/* The most frequent kind decides; a stray pair does not. */
static void test_grain_classes(void **state)
{
	(void)state;
	size_t none[VFS_PAIRS] = { 0 };
	assert_null(vfs_grain_class(none));
	size_t ns[VFS_PAIRS] = { [VFS_PAIR_FINE] = 64 };
	assert_string_equal(vfs_grain_class(ns), "ns");
	size_t jiffy[VFS_PAIRS] = { [VFS_PAIR_FINE] = 1, [VFS_PAIR_TICK] = 63 };
	assert_string_equal(vfs_grain_class(jiffy), "jiffy");
	size_t second[VFS_PAIRS] = { [VFS_PAIR_SECOND] = 64 };
	assert_string_equal(vfs_grain_class(second), "second");
	size_t other[VFS_PAIRS] = { [VFS_PAIR_TICK] = 2, [VFS_PAIR_OTHER] = 62 };
	assert_string_equal(vfs_grain_class(other), "coarse");
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
		cmocka_unit_test(test_pair_kinds),
		cmocka_unit_test(test_grain_classes),
		cmocka_unit_test(test_layout_exact),
		cmocka_unit_test(test_layout_refused),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

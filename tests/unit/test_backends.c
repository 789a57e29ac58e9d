// SPDX-License-Identifier: GPL-2.0-or-later
/* The backends' helpers that need no privilege: the filesystem-type
 * check, the list of backends, and removing a tree. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "backends/backend.h"
#include "lib/tree.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static void test_fs_types(void **state)
{
	(void)state;
	/* Every kernel abiwatch runs on has proc; no kernel has this one. */
	assert_null(aw_fs_type_missing("proc"));
	char *why = aw_fs_type_missing("abiwatchfs");
	assert_string_equal(why, "abiwatchfs not in /proc/filesystems");
	free(why);
}

static void test_backend_list(void **state)
{
	(void)state;
	size_t n = 0;
	for (const struct aw_backend *const *b = aw_backends; *b; b++, n++) {
		assert_ptr_equal(aw_backend_find((*b)->name), *b);
		assert_non_null((*b)->prepare);
		assert_null(strchr((*b)->name, ' '));
		/* Only loop-mounted filesystems need a block device. */
		assert_true((*b)->block == (*b)->loop);
		assert_false((*b)->host_state);
	}
	assert_true(n >= 6);
	assert_ptr_equal(aw_backend_find("path"), &aw_backend_path);
	assert_true(aw_backend_path.host_state);
	assert_null(aw_backend_find("ext5"));
}

/* env.fs: the backends usable here, in aw_backends[] order, each one that
 * aw_backend_unusable() lets through and none it stops. */
static void test_usable_list(void **state)
{
	(void)state;
	char *list = aw_backends_usable();
	char *expect = NULL;
	for (const struct aw_backend *const *b = aw_backends; *b; b++) {
		char *why = aw_backend_unusable(*b);
		if (!why) {
			size_t n = expect ? strlen(expect) : 0;
			expect = realloc(expect, n + strlen((*b)->name) + 2);
			sprintf(expect + n, "%s%s", n ? "," : "", (*b)->name);
		} else {
			assert_true(*why); /* a reason, never an empty one */
		}
		free(why);
	}
	assert_string_equal(list, expect ? expect : "none");
	/* tmpfs needs nothing but the kernel's tmpfs, which every kernel
	 * abiwatch runs on has. */
	char *tmpfs_why = aw_backend_unusable(&aw_backend_tmpfs);
	assert_null(tmpfs_why);
	assert_int_equal(strncmp(list, "tmpfs", 5), 0);
	free(expect);
	free(list);
}

static void test_remove_tree(void **state)
{
	(void)state;
	const char *tmp = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
	char dir[4096], path[4200];
	snprintf(dir, sizeof(dir), "%s/abiwatch-test-backends.XXXXXX", tmp);
	assert_non_null(mkdtemp(dir));
	char a[4200], b[4200];
	snprintf(a, sizeof(a), "%s/a", dir);
	snprintf(b, sizeof(b), "%s/a/b", dir);
	assert_int_equal(mkdir(a, 0755), 0);
	assert_int_equal(mkdir(b, 0755), 0);
	for (int i = 0; i < 50; i++) {
		snprintf(path, sizeof(path), "%s/%s/f%d", dir, i % 2 ? "a" : "a/b", i);
		int fd = open(path, O_CREAT | O_WRONLY | O_CLOEXEC, 0600);
		assert_true(fd >= 0);
		close(fd);
	}
	int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	assert_int_equal(aw_remove_tree(dfd, NULL), 0);
	close(dfd);
	assert_int_equal(rmdir(dir), 0); /* empty now */
}

/* The limits of a removal: a deadline passed, a depth beyond the bound,
 * and a listing cut at a few entries per pass, which takes more passes
 * but still removes everything. */
static void test_remove_tree_limits(void **state)
{
	(void)state;
	const char *tmp = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
	char dir[4096], path[4200];
	snprintf(dir, sizeof(dir), "%s/abiwatch-test-tree.XXXXXX", tmp);
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/d", dir);
	assert_int_equal(mkdir(path, 0755), 0);
	for (int i = 0; i < 40; i++) {
		snprintf(path, sizeof(path), "%s/d/f%d", dir, i);
		int fd = open(path, O_CREAT | O_WRONLY | O_CLOEXEC, 0600);
		assert_true(fd >= 0);
		close(fd);
	}
	int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	struct aw_tree_limits lim = AW_TREE_LIMITS_DEFAULT;
	lim.deadline = 1; /* long past */
	assert_int_equal(aw_remove_tree(dfd, &lim), -ETIMEDOUT);
	lim = (struct aw_tree_limits)AW_TREE_LIMITS_DEFAULT;
	lim.max_depth = 0;
	assert_int_equal(aw_remove_tree(dfd, &lim), -ELOOP);
	lim = (struct aw_tree_limits)AW_TREE_LIMITS_DEFAULT;
	lim.max_entries = 5;
	assert_int_equal(aw_remove_tree(dfd, &lim), 0);
	close(dfd);
	assert_int_equal(rmdir(dir), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fs_types),
		cmocka_unit_test(test_backend_list),
		cmocka_unit_test(test_usable_list),
		cmocka_unit_test(test_remove_tree),
		cmocka_unit_test(test_remove_tree_limits),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

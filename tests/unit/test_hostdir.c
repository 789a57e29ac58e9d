// SPDX-License-Identifier: GPL-2.0-or-later
/* A --path probe's scratch subdirectory: made fresh, removed by the
 * janitor only once every holder of its pipe is gone, whatever is in it. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "core/hostdir.h"
#include "lib/util.h"

#include <fcntl.h>
#include <stdbool.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static char *make_parent(void)
{
	char tmpl[] = "/tmp/abiwatch-unit-hostdir.XXXXXX";
	assert_non_null(mkdtemp(tmpl));
	return xstrdup(tmpl);
}

static bool exists(const char *parent, const char *name)
{
	char *p = xasprintf("%s/%s", parent, name);
	struct stat st;
	bool e = lstat(p, &st) == 0;
	free(p);
	return e;
}

/* Wait up to 5 s for the janitor to have removed the subdirectory. */
static bool removed_soon(const char *parent, const char *name)
{
	for (int i = 0; i < 500; i++) {
		if (!exists(parent, name))
			return true;
		usleep(10000);
	}
	return false;
}

static void test_made_filled_and_removed(void **state)
{
	(void)state;
	char *parent = make_parent(), *why = NULL;
	struct aw_hostdir h;
	assert_int_equal(aw_hostdir_make(parent, &h, &why), 0);
	assert_true(strncmp(h.name, ".abiwatch-", 10) == 0);
	char *name = xstrdup(h.name);
	assert_true(exists(parent, name));
	/* What a probe leaves: files and a directory with a file in it. */
	assert_int_equal(mkdirat(h.dirfd, "sub", 0700), 0);
	close(openat(h.dirfd, "sub/f", O_CREAT | O_WRONLY, 0600));
	close(openat(h.dirfd, "g", O_CREAT | O_WRONLY, 0600));
	assert_null(aw_hostdir_lost(parent, &h));
	free(aw_hostdir_release(&h, true));
	assert_false(exists(parent, name)); /* waited for */
	assert_int_equal(rmdir(parent), 0);
	free(name);
	free(parent);
}

/* A process that inherited the pipe (the probe) keeps the directory
 * until it dies, even after the runner let go: never removed under a
 * process still working in it. */
static void test_kept_while_a_holder_lives(void **state)
{
	(void)state;
	char *parent = make_parent(), *why = NULL;
	struct aw_hostdir h;
	assert_int_equal(aw_hostdir_make(parent, &h, &why), 0);
	char *name = xstrdup(h.name);
	pid_t holder = fork();
	if (holder == 0) {
		pause();
		_exit(0);
	}
	free(aw_hostdir_release(&h, false));
	usleep(200000);
	assert_true(exists(parent, name));
	kill(holder, SIGKILL);
	waitpid(holder, NULL, 0);
	assert_true(removed_soon(parent, name));
	assert_int_equal(rmdir(parent), 0);
	free(name);
	free(parent);
}

/* Removed by someone else: the janitor is content, the runner is told. */
static void test_lost(void **state)
{
	(void)state;
	char *parent = make_parent(), *why = NULL;
	struct aw_hostdir h;
	assert_int_equal(aw_hostdir_make(parent, &h, &why), 0);
	char *p = xasprintf("%s/%s", parent, h.name);
	assert_int_equal(rmdir(p), 0);
	char *lost = aw_hostdir_lost(parent, &h);
	assert_non_null(lost);
	assert_non_null(strstr(lost, "removed by someone else"));
	free(aw_hostdir_release(&h, true));
	assert_int_equal(rmdir(parent), 0);
	free(lost);
	free(p);
	free(parent);
}

static void test_unwritable_parent_says_why(void **state)
{
	(void)state;
	char *why = NULL;
	struct aw_hostdir h;
	assert_int_equal(aw_hostdir_make("/proc/self", &h, &why), -1);
	assert_non_null(why);
	assert_non_null(strstr(why, "scratch subdirectory"));
	assert_int_equal(h.dirfd, -1);
	free(why);
	why = NULL;
	assert_int_equal(aw_hostdir_make("/nonexistent-abiwatch-dir", &h, &why), -1);
	assert_non_null(strstr(why, "No such file"));
	free(why);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_made_filled_and_removed),
		cmocka_unit_test(test_kept_while_a_holder_lives),
		cmocka_unit_test(test_lost),
		cmocka_unit_test(test_unwritable_parent_says_why),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

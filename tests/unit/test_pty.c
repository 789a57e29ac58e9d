// SPDX-License-Identifier: GPL-2.0-or-later
/* lib/pty.c: pty pairs from a devpts instance of the caller's own,
 * mounted in a mount namespace made for the test (as root, or as root of
 * a user namespace of its own), so that the host's /dev/pts is never
 * used. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "lib/child.h"
#include "lib/pty.h"

#include <errno.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>

#define NO_NAMESPACE 77

static void test_path(void **state)
{
	char buf[16];
	(void)state;
	assert_int_equal(aw_pty_path("/x/pts", 3, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "/x/pts/3");
	assert_int_equal(aw_pty_path("/a/long/directory", 12, buf, sizeof(buf)), -ENAMETOOLONG);
}

static void test_not_devpts(void **state)
{
	int m = -1, s = -1;
	(void)state;
	assert_int_equal(aw_pty_open("/nonexistent-abiwatch", 0, &m, &s, NULL), -ENOENT);
	assert_int_equal(m, -1);
	assert_int_equal(s, -1);
}

/* In a mount namespace of its own: a fresh instance numbers from 0, the
 * pair is connected, and max= limits it.  The exit status says what
 * failed (1..), NO_NAMESPACE when no mount namespace could be made. */
static int in_namespace(void)
{
	if (unshare(CLONE_NEWNS) != 0 && aw_enter_userns(CLONE_NEWNS) != 0)
		return NO_NAMESPACE;
	if (mount("none", "/", NULL, MS_REC | MS_PRIVATE, NULL) != 0)
		return NO_NAMESPACE;
	/* A tmpfs over /tmp of this namespace only: nothing is left behind. */
	if (mount("abiwatch-test", "/tmp", "tmpfs", 0, NULL) != 0)
		return NO_NAMESPACE;
	const char *pts = "/tmp/pts";
	if (aw_devpts_mount(pts, "max=2") != 0)
		return NO_NAMESPACE;
	int m[3], s[3], idx[3];
	for (int i = 0; i < 2; i++)
		if (aw_pty_open(pts, 0, &m[i], &s[i], &idx[i]) != 0 || idx[i] != i)
			return 2;
	if (aw_pty_open(pts, 0, &m[2], &s[2], &idx[2]) != -ENOSPC)
		return 3;
	if (aw_pty_raw(s[0]) != 0 || write(m[0], "hi", 2) != 2)
		return 4;
	char buf[4];
	if (read(s[0], buf, sizeof(buf)) != 2 || memcmp(buf, "hi", 2) != 0)
		return 5;
	struct stat st;
	if (fstat(s[1], &st) != 0 || major(st.st_rdev) != 136 || minor(st.st_rdev) != 1)
		return 6;
	return 0;
}

static void test_instance(void **state)
{
	(void)state;
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0)
		_exit(in_namespace());
	int status;
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	if (WEXITSTATUS(status) == NO_NAMESPACE)
		skip();
	assert_int_equal(WEXITSTATUS(status), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_path),
		cmocka_unit_test(test_not_devpts),
		cmocka_unit_test(test_instance),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

// SPDX-License-Identifier: GPL-2.0-or-later
/* Capabilities through libcap (lib/caps.c), held against what the kernel
 * itself says of this process (/proc/self/status, CapEff), so that the
 * test assumes nothing of the machine: root on it may lack
 * CAP_SYS_RESOURCE, or the run may be unprivileged. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "lib/caps.h"
#include "lib/procfs.h"

#include <errno.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/capability.h>
#include <sys/wait.h>
#include <unistd.h>

/* The kernel's effective set of this process, from /proc/self/status. */
static uint64_t kernel_effective(void)
{
	char *text;
	size_t len;
	unsigned long long mask = 0;
	assert_int_equal(aw_file_slurp("/proc/self/status", &text, &len), 0);
	const char *line = strstr(text, "\nCapEff:");
	assert_non_null(line);
	assert_int_equal(sscanf(line, "\nCapEff: %llx", &mask), 1);
	free(text);
	return mask;
}

static bool held(uint64_t mask, int cap)
{
	return (mask >> cap) & 1;
}

/* Every capability the kernel knows, as the kernel says it is held. */
static void test_effective_is_the_kernels(void **state)
{
	(void)state;
	uint64_t mask = kernel_effective();
	for (int cap = 0; cap <= CAP_LAST_CAP; cap++) {
		assert_int_equal(aw_cap_effective(cap), held(mask, cap));
		assert_int_equal(aw_has_cap(cap), held(mask, cap) && aw_in_initial_userns());
	}
	/* out of range: never held */
	assert_false(aw_cap_effective(-1));
	assert_false(aw_cap_effective(64));
}

/* The initial user namespace maps every id; one made here does not, and
 * its root's full effective set counts for nothing in aw_has_cap(). */
static void test_user_namespace(void **state)
{
	(void)state;
	char *map;
	size_t len;
	assert_int_equal(aw_file_slurp("/proc/self/uid_map", &map, &len), 0);
	unsigned long a, b, n;
	bool all = sscanf(map, "%lu %lu %lu", &a, &b, &n) == 3 && a == 0 && b == 0 && n == 4294967295UL;
	free(map);
	assert_int_equal(aw_in_initial_userns(), all);

	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		if (unshare(CLONE_NEWUSER) != 0)
			_exit(77); /* no user namespaces here */
		/* The owner of a new namespace holds every capability in it. */
		bool ok = aw_cap_effective(CAP_SYS_ADMIN) && !aw_in_initial_userns() &&
			  !aw_has_cap(CAP_SYS_ADMIN);
		_exit(ok ? 0 : 1);
	}
	int st;
	assert_int_equal(waitpid(pid, &st, 0), pid);
	assert_true(WIFEXITED(st));
	if (WEXITSTATUS(st) == 77)
		skip();
	assert_int_equal(WEXITSTATUS(st), 0);
}

/* Dropping clears the effective bit, as the kernel sees it, and nothing
 * else; a capability not held drops without error.  In a child, which
 * the test throws away. */
static void test_drop(void **state)
{
	(void)state;
	uint64_t before = kernel_effective();
	int cap = -1;
	for (int c = 0; c <= CAP_LAST_CAP && cap < 0; c++)
		if (held(before, c))
			cap = c;
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		int which = cap >= 0 ? cap : CAP_SYS_RESOURCE;
		if (aw_drop_cap(which) != 0)
			_exit(1);
		uint64_t after = kernel_effective();
		uint64_t bit = (uint64_t)1 << which;
		_exit(!aw_cap_effective(which) && after == (before & ~bit) ? 0 : 2);
	}
	int st;
	assert_int_equal(waitpid(pid, &st, 0), pid);
	assert_true(WIFEXITED(st));
	assert_int_equal(WEXITSTATUS(st), 0);
	/* the parent keeps what it had */
	assert_true(kernel_effective() == before);
}

/* libcap's names, kept once each; out of range, cap_unknown. */
static void test_names(void **state)
{
	(void)state;
	assert_string_equal(aw_cap_name(CAP_SYS_RESOURCE), "cap_sys_resource");
	assert_string_equal(aw_cap_name(CAP_CHOWN), "cap_chown");
	assert_ptr_equal(aw_cap_name(CAP_CHOWN), aw_cap_name(CAP_CHOWN));
	assert_string_equal(aw_cap_name(-1), "cap_unknown");
	assert_string_equal(aw_cap_name(64), "cap_unknown");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_effective_is_the_kernels),
		cmocka_unit_test(test_user_namespace),
		cmocka_unit_test(test_drop),
		cmocka_unit_test(test_names),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

// SPDX-License-Identifier: GPL-2.0-or-later
/* The one list of namespaced sysctls and the guard of every sysctl
 * write (core/sysctl.c).  These tests run on the host: the guard's
 * refusal is what keeps them harmless, and every value they try to
 * write is one the kernel would reject anyway (msg_max 0), so even a
 * broken guard could not change the host: the test would fail. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "core/context.h"
#include "core/sysctl.h"
#include "lib/procfs.h"

#include <errno.h>
#include <string.h>

static void test_scope(void **state)
{
	(void)state;
	assert_int_equal(aw_sysctl_scope("net.ipv4.ip_forward"), AW_SCOPE_NET);
	assert_int_equal(aw_sysctl_scope("net/core/somaxconn"), AW_SCOPE_NET);
	assert_int_equal(aw_sysctl_scope("fs.mqueue.msg_max"), AW_SCOPE_IPC);
	assert_int_equal(aw_sysctl_scope("fs/mqueue/queues_max"), AW_SCOPE_IPC);
	assert_int_equal(aw_sysctl_scope("kernel.shmmax"), AW_SCOPE_IPC);
	assert_int_equal(aw_sysctl_scope("kernel/msgmnb"), AW_SCOPE_IPC);
	assert_int_equal(aw_sysctl_scope("kernel.sem"), AW_SCOPE_IPC);
	assert_int_equal(aw_sysctl_scope("kernel.auto_msgmni"), AW_SCOPE_IPC);
	assert_int_equal(aw_sysctl_scope("kernel.msg_next_id"), AW_SCOPE_IPC);
	assert_int_equal(aw_sysctl_scope("kernel.hostname"), AW_SCOPE_UTS);
	assert_int_equal(aw_sysctl_scope("user.max_user_namespaces"), AW_SCOPE_USER);
	/* An interface name with a dot, given as a path. */
	assert_int_equal(aw_sysctl_scope("net/ipv4/conf/eth0.1/forwarding"), AW_SCOPE_NET);
	/* Global, whatever the name looks like. */
	assert_int_equal(aw_sysctl_scope("kernel.pid_max"), AW_SCOPE_GLOBAL);
	assert_int_equal(aw_sysctl_scope("kernel.shmmax2"), AW_SCOPE_GLOBAL);
	assert_int_equal(aw_sysctl_scope("kernel.semx"), AW_SCOPE_GLOBAL);
	assert_int_equal(aw_sysctl_scope("fs.mqueuex.y"), AW_SCOPE_GLOBAL);
	assert_int_equal(aw_sysctl_scope("network.x"), AW_SCOPE_GLOBAL);
	assert_int_equal(aw_sysctl_scope("fs.file-max"), AW_SCOPE_GLOBAL);
	assert_int_equal(aw_sysctl_scope("kernel.io_uring_disabled"), AW_SCOPE_GLOBAL);
	/* Tricks to reach a global knob through a namespaced name. */
	assert_int_equal(aw_sysctl_scope("fs/mqueue/../../kernel/pid_max"), AW_SCOPE_GLOBAL);
	assert_int_equal(aw_sysctl_scope("fs/mqueue/./msg_max"), AW_SCOPE_GLOBAL);
	assert_int_equal(aw_sysctl_scope("fs/mqueue/msg_max/"), AW_SCOPE_GLOBAL);
	assert_int_equal(aw_sysctl_scope("/fs/mqueue/msg_max"), AW_SCOPE_GLOBAL);
	assert_int_equal(aw_sysctl_scope("fs.mqueue..msg_max"), AW_SCOPE_GLOBAL);
	assert_int_equal(aw_sysctl_scope(""), AW_SCOPE_GLOBAL);
	assert_int_equal(aw_sysctl_scope(NULL), AW_SCOPE_GLOBAL);
	assert_string_equal(aw_sysctl_scope_name(AW_SCOPE_IPC), "ipc");
	assert_string_equal(aw_sysctl_scope_name(AW_SCOPE_GLOBAL), "global");
}

static void test_write_refused_on_host(void **state)
{
	(void)state;
	struct aw_ctx same = { .fd = -1 }, unknown = { .fd = -1 };
	for (int s = 0; s < AW_NSCOPES; s++)
		same.host_ns[s] = aw_ns_ino((enum aw_sysctl_scope)s);
	assert_true(same.host_ns[AW_SCOPE_IPC] != 0);
	assert_false(aw_private_ns(&same, AW_SCOPE_IPC));
	assert_false(aw_private_ipc(&unknown));

	assert_int_equal(aw_sysctl_write_ll(&same, "fs/mqueue/msg_max", 0), AW_SYSCTL_REFUSED);
	assert_int_equal(aw_sysctl_write_ll(&unknown, "fs.mqueue.msg_max", 0), AW_SYSCTL_REFUSED);
	assert_int_equal(aw_sysctl_write_ll(NULL, "fs/mqueue/msg_max", 0), AW_SYSCTL_REFUSED);
	/* A global knob outside the VM guest, and a path that climbs out. */
	assert_int_equal(aw_sysctl_write(&same, "kernel.pid_max", "0"), AW_SYSCTL_REFUSED);
	assert_int_equal(aw_sysctl_write(&same, "fs/mqueue/../../kernel/pid_max", "0"),
			 AW_SYSCTL_REFUSED);
	assert_non_null(strstr(aw_sysctl_strerror(AW_SYSCTL_REFUSED), "namespace"));
	assert_string_equal(aw_sysctl_strerror(-EINVAL), strerror(EINVAL));
}

static void test_read(void **state)
{
	(void)state;
	long long v = -1;
	if (!aw_sysctl_exists("fs/mqueue/msg_max"))
		skip();
	assert_int_equal(aw_sysctl_read_ll("fs.mqueue.msg_max", &v), 0);
	assert_true(v >= 1);
	/* kernel.sem is four numbers, not one. */
	if (aw_sysctl_exists("kernel/sem"))
		assert_int_equal(aw_sysctl_read_ll("kernel/sem", &v), -EINVAL);
	assert_int_equal(aw_sysctl_read_ll("kernel.no_such_knob", &v), -ENOENT);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_scope),
		cmocka_unit_test(test_write_refused_on_host),
		cmocka_unit_test(test_read),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

// SPDX-License-Identifier: GPL-2.0-or-later
/* Reading the kernel's files (lib/procfs.c, lib/mountinfo.c) and the hex
 * digits every parser shares (lib/util.c): one reader each, for every
 * family and the 32-bit helpers. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "lib/mountinfo.h"
#include "lib/proc.h"
#include "lib/procfs.h"
#include "lib/util.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* An anonymous file holding text, by the path a process opens it with. */
static char *file_with(const char *text)
{
	int fd = aw_anon_file("procfs-test");
	assert_true(fd >= 0);
	assert_int_equal(aw_write_all(fd, text, strlen(text)), 0);
	return aw_fd_path(fd); /* the descriptor stays open for the test */
}

static void test_read_ll(void **state)
{
	(void)state;
	struct { const char *text; int rc; long long v; } cases[] = {
		{ "10\n", 0, 10 }, { "-1\n", 0, -1 }, { "4096", 0, 4096 },
		{ "9223372036854775807\n", 0, 9223372036854775807LL },
		{ "32000 1024000000 500 32000\n", -EINVAL, 0 }, /* kernel.sem */
		{ "", -EINVAL, 0 }, { "\n", -EINVAL, 0 }, { "x\n", -EINVAL, 0 },
		{ "1\n2\n", -EINVAL, 0 }, { "99999999999999999999\n", -EINVAL, 0 },
	};
	for (size_t i = 0; i < AW_ARRAY_SIZE(cases); i++) {
		char *path = file_with(cases[i].text);
		long long v = 12345;
		assert_int_equal(aw_read_ll(path, &v), cases[i].rc);
		assert_true(v == (cases[i].rc ? 12345 : cases[i].v));
		free(path);
	}
	long long v;
	assert_int_equal(aw_read_ll("/nonexistent/abiwatch", &v), -ENOENT);
	/* A real sysctl, read from offset 0 although /proc says size 0. */
	assert_int_equal(aw_sysctl_read_ll("kernel.pid_max", &v), 0);
	assert_true(v > 300);
}

static void test_sysctl_path(void **state)
{
	(void)state;
	char *p = aw_sysctl_path("fs.mqueue.msg_max");
	assert_string_equal(p, "/proc/sys/fs/mqueue/msg_max");
	free(p);
	p = aw_sysctl_path("net/ipv4/conf/eth0.1/forwarding");
	assert_string_equal(p, "/proc/sys/net/ipv4/conf/eth0.1/forwarding");
	free(p);
	assert_true(aw_sysctl_exists("kernel.pid_max"));
	assert_false(aw_sysctl_exists("kernel.no_such_knob"));
}

static void test_cmdline(void **state)
{
	(void)state;
	static const char cmd[] = "console=ttyS0 vsyscall=emulate quiet xvsyscall=none vsyscall=xonly\n";
	size_t len = sizeof(cmd) - 1;
	char *v = NULL;
	assert_int_equal(aw_cmdline_param(cmd, len, "vsyscall", &v), 0);
	assert_string_equal(v, "xonly"); /* the last one counts */
	free(v);
	assert_int_equal(aw_cmdline_param(cmd, len, "stack_guard_gap", &v), -ENOENT);
	assert_int_equal(aw_cmdline_param("vsyscall\n", 9, "vsyscall", &v), -ENOENT);
	assert_int_equal(aw_cmdline_param("a=1\nvsyscall=none", 17, "vsyscall", &v), 0);
	assert_string_equal(v, "none");
	free(v);
	assert_true(aw_cmdline_has(cmd, len, "quiet"));
	assert_true(aw_cmdline_has(cmd, len, "console=ttyS0"));
	assert_false(aw_cmdline_has(cmd, len, "console"));
	assert_false(aw_cmdline_has(cmd, len, "vsyscall=none")); /* xvsyscall=none is another word */
	assert_false(aw_cmdline_has("rdinit=/init2", 13, "rdinit=/init"));
	/* The bytes after a NUL are not the command line's. */
	assert_false(aw_cmdline_has("a\0quiet", 7, "quiet"));

	char *text;
	assert_int_equal(aw_kernel_cmdline(&text, &len), 0);
	assert_true(len > 0);
	free(text);
}

static void test_machine(void **state)
{
	(void)state;
	assert_int_equal(aw_page_size(), (size_t)sysconf(_SC_PAGESIZE));
	assert_true(aw_mem_total_kib() > 1024);
}

static void test_hex_digit(void **state)
{
	(void)state;
	assert_int_equal(aw_hex_digit('0'), 0);
	assert_int_equal(aw_hex_digit('9'), 9);
	assert_int_equal(aw_hex_digit('a'), 10);
	assert_int_equal(aw_hex_digit('F'), 15);
	assert_int_equal(aw_hex_digit('g'), -1);
	assert_int_equal(aw_hex_digit(' '), -1);
	assert_int_equal(aw_hex_digit(0x80 + '1'), -1);
	/* aw_unescape() stays strict: only the lowercase aw_escape() writes. */
	char *s = aw_unescape("\\x1f");
	assert_non_null(s);
	free(s);
	assert_null(aw_unescape("\\x1F"));
}

static void test_mountinfo(void **state)
{
	(void)state;
	static const char text[] =
		"36 35 98:0 /mnt1 /mnt/parent rw,noatime master:1 - ext3 /dev/root rw,errors=continue\n"
		"40 36 0:41 / /tmp/with\\040space rw - tmpfs abiwatch rw,mode=1777\n"
		"41 36 0:42 / /a rw shared:2 master:3 propagate_from:4 - fuse.cookiefs cookiefs rw\n"
		"garbage line\n"
		"42 36 0:43 / /b rw - mqueue\n" /* no source: not a line the kernel writes */
		"43 36 0:44 /sub /c rw - cgroup2 cgroup2 rw";
	struct aw_mount *m;
	size_t n;
	aw_mountinfo_parse(text, sizeof(text) - 1, &m, &n);
	assert_int_equal(n, 4);
	assert_int_equal(m[0].id, 36);
	assert_int_equal(m[0].parent, 35);
	assert_int_equal(m[0].major, 98);
	assert_string_equal(m[0].root, "/mnt1");
	assert_string_equal(m[0].point, "/mnt/parent");
	assert_string_equal(m[0].fstype, "ext3");
	assert_string_equal(m[0].source, "/dev/root");
	assert_string_equal(m[0].super, "rw,errors=continue");
	assert_string_equal(m[1].point, "/tmp/with space");
	assert_string_equal(m[2].fstype, "fuse.cookiefs");
	assert_int_equal(m[2].minor, 42);
	assert_string_equal(m[3].root, "/sub");
	assert_string_equal(m[3].fstype, "cgroup2");
	aw_mountinfo_free(m, n);

	/* This process's own: / is mounted. */
	assert_int_equal(aw_mountinfo_read("/proc/self/mountinfo", &m, &n), 0);
	bool root = false;
	for (size_t i = 0; i < n; i++)
		root |= strcmp(m[i].point, "/") == 0;
	assert_true(root);
	aw_mountinfo_free(m, n);
	assert_int_equal(aw_mountinfo_read("/nonexistent", &m, &n), -ENOENT);
}

/* The status keys a configuration option decides: each names its key,
 * an option as the kconfig readers spell it (lower case, no CONFIG_) and
 * its source, every key once; and the table's keys are status's own
 * spelling (Seccomp, which this kernel, built with CONFIG_SECCOMP as
 * every kernel with seccomp filters is, prints). */
static void test_status_config_keys(void **state)
{
	(void)state;
	assert_true(aw_nstatus_config_keys > 0);
	for (size_t i = 0; i < aw_nstatus_config_keys; i++) {
		const struct aw_config_name *k = &aw_status_config_keys[i];
		assert_non_null(k->name);
		assert_non_null(k->source);
		assert_true(*k->option && strncmp(k->option, "config_", 7) != 0);
		for (const char *c = k->option; *c; c++)
			assert_true((*c >= 'a' && *c <= 'z') || (*c >= '0' && *c <= '9') || *c == '_');
		for (size_t j = 0; j < i; j++)
			assert_string_not_equal(k->name, aw_status_config_keys[j].name);
	}
	char *text;
	size_t len;
	assert_int_equal(aw_file_slurp("/proc/self/status", &text, &len), 0);
	assert_non_null(strstr(text, "\nSeccomp:"));
	free(text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_read_ll),
		cmocka_unit_test(test_sysctl_path),
		cmocka_unit_test(test_cmdline),
		cmocka_unit_test(test_machine),
		cmocka_unit_test(test_hex_digit),
		cmocka_unit_test(test_mountinfo),
		cmocka_unit_test(test_status_config_keys),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

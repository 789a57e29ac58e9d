// SPDX-License-Identifier: GPL-2.0-or-later
/* Tiny executables written by hand (lib/tinyelf.h): the headers as
 * elf(5) wants them, and each program run for real on this kernel: exit
 * 0, stop then exit 0, and the posix timer id, which must be the one a
 * fresh process gets from timer_create(2) itself. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "lib/tinyelf.h"

#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static char dir[] = "/tmp/abiwatch-tinyelf.XXXXXX";

static int setup(void **state)
{
	(void)state;
	return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	return rmdir(dir);
}

/* Write spec's file and exec it in a child (after before(), if any):
 * the child's wait status. */
static int run(const struct aw_tinyelf_spec *spec, void (*before)(void))
{
	unsigned char buf[AW_TINYELF_SIZE];
	size_t len = aw_tinyelf_build(spec, buf, sizeof(buf));
	assert_true(len > 0);
	char path[64];
	snprintf(path, sizeof(path), "%s/prog", dir);
	int fd = open(path, O_CREAT | O_TRUNC | O_WRONLY | O_CLOEXEC, 0700);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, buf, len), (ssize_t)len);
	close(fd);
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		if (before)
			before();
		char *argv[] = { "prog", NULL }, *envp[] = { NULL };
		execve(path, argv, envp);
		_exit(126);
	}
	int status;
	assert_int_equal(waitpid(pid, &status, WUNTRACED), pid);
	if (WIFSTOPPED(status)) {
		kill(pid, SIGCONT);
		int after;
		assert_int_equal(waitpid(pid, &after, 0), pid);
		assert_true(WIFEXITED(after) && WEXITSTATUS(after) == 0);
	}
	unlink(path);
	return status;
}

static void test_headers(void **state)
{
	(void)state;
	if (!aw_tinyelf_supported())
		skip();
	unsigned char buf[AW_TINYELF_SIZE], small[64];
	struct aw_tinyelf_spec spec = { .base = 0x400000, .overlap = true,
					 .stack = AW_TINYELF_STACK_RWX };
	assert_int_equal(aw_tinyelf_build(&spec, small, sizeof(small)), 0);
	assert_true(aw_tinyelf_build(&spec, buf, sizeof(buf)) > 0);
	const Elf64_Ehdr *eh = (const Elf64_Ehdr *)(const void *)buf;
	assert_memory_equal(eh->e_ident, ELFMAG, SELFMAG);
	assert_int_equal(eh->e_type, ET_EXEC);
	assert_int_equal(eh->e_machine, EM_X86_64);
	assert_int_equal(eh->e_phnum, 3); /* text, data, stack */
	const Elf64_Phdr *ph = (const Elf64_Phdr *)(const void *)(buf + eh->e_phoff);
	assert_int_equal(ph[0].p_vaddr, 0x400000);
	assert_int_equal(ph[2].p_type, PT_GNU_STACK);
	assert_int_equal(ph[2].p_flags, PF_R | PF_W | PF_X);
	spec = (struct aw_tinyelf_spec){ .dyn = true, .base = 0x400000 };
	assert_true(aw_tinyelf_build(&spec, buf, sizeof(buf)) > 0);
	assert_int_equal(eh->e_type, ET_DYN);
	assert_int_equal(eh->e_phnum, 1);
	assert_int_equal(ph[0].p_vaddr, 0); /* ET_DYN: placed by the kernel */
}

static void test_exit_and_stop(void **state)
{
	(void)state;
	if (!aw_tinyelf_supported())
		skip();
	struct aw_tinyelf_spec spec = { .base = 0x400000, .stack = AW_TINYELF_STACK_RW };
	int st = run(&spec, NULL);
	assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	spec.code = AW_TINYELF_STOP;
	st = run(&spec, NULL);
	assert_true(WIFSTOPPED(st) && WSTOPSIG(st) == SIGSTOP);
	spec = (struct aw_tinyelf_spec){ .dyn = true, .code = AW_TINYELF_STOP };
	st = run(&spec, NULL);
	assert_true(WIFSTOPPED(st));
}

static int first_timer_id(void)
{
	int id = -1;
	if (syscall(SYS_timer_create, CLOCK_MONOTONIC, NULL, &id) != 0)
		return 128 + errno;
	return id;
}

static void three_timers(void)
{
	for (int i = 0; i < 3; i++)
		first_timer_id();
}

static void test_timer_id(void **state)
{
	(void)state;
	if (!aw_tinyelf_supported())
		skip();
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0)
		_exit(first_timer_id() & 0xff);
	int expected;
	assert_int_equal(waitpid(pid, &expected, 0), pid);
	struct aw_tinyelf_spec spec = { .base = 0x400000, .code = AW_TINYELF_TIMER_ID };
	int st = run(&spec, NULL);
	assert_true(WIFEXITED(st) && WIFEXITED(expected));
	assert_int_equal(WEXITSTATUS(st), WEXITSTATUS(expected));
	/* After an exec that deleted three timers: an id, not an errno. */
	st = run(&spec, three_timers);
	assert_true(WIFEXITED(st) && WEXITSTATUS(st) < 128);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_headers),
		cmocka_unit_test(test_exit_and_stop),
		cmocka_unit_test(test_timer_id),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}

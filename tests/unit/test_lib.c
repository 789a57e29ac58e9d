// SPDX-License-Identifier: GPL-2.0-or-later
/* The probe library (src/lib/): errno names, children of a probe and
 * what they report and their identities, programs run with a deadline,
 * signals and deadlines; the arrays of lib/util that grow. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "core/context.h"
#include "core/probe.h"
#include "lib/child.h"
#include "lib/errname.h"
#include "lib/proc.h"
#include "lib/progress.h"
#include "lib/signals.h"
#include "lib/util.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* xgrow: every element appended stays, and a block is moved only when
 * the count reaches a power of two (log2 n moves for n appends). */
static void test_xgrow(void **state)
{
	(void)state;
	size_t *a = NULL, moves = 0;
	for (size_t n = 0; n < 5000; n++) {
		size_t *before = a;
		a = xgrow(a, n, sizeof(*a));
		if (a != before)
			moves++;
		a[n] = n * 7;
	}
	for (size_t n = 0; n < 5000; n++)
		assert_int_equal(a[n], n * 7);
	assert_true(moves <= 14); /* 0, 1, 2, 4, ... 4096: at most 14 reallocs */
	free(a);
}

static void test_errname(void **state)
{
	(void)state;
	assert_string_equal(aw_errname(0), "success");
	assert_string_equal(aw_errname(EINVAL), "EINVAL");
	assert_string_equal(aw_errname(-EMFILE), "EMFILE");
	assert_string_equal(aw_errname(-EOVERFLOW), "EOVERFLOW");
	assert_string_equal(aw_errname(99999), "errno 99999");
}

/* ---- children ---- */

static int exits_with(void *arg)
{
	return *(int *)arg;
}

static int dies(void *arg)
{
	(void)arg;
	raise(SIGTERM);
	return 0;
}

static int sleeps(void *arg)
{
	(void)arg;
	for (;;)
		pause();
	return 0;
}

static int writes_five(void *arg)
{
	*(int *)arg = 5;
	return 0;
}

static int reads_pipe(void *arg)
{
	char c;
	return read(*(int *)arg, &c, 1) == 1 ? 0 : 1;
}

static void test_child_statuses(void **state)
{
	(void)state;
	int seven = 7, zero = 0;
	assert_int_equal(aw_child_run(exits_with, &seven, 5000), 7);
	assert_int_equal(aw_child_run(exits_with, &zero, -1), 0);
	assert_int_equal(aw_child_run(dies, NULL, 5000), 128 + SIGTERM);
	/* At the deadline the child is killed and reaped. */
	pid_t pid = aw_child_start(sleeps, NULL);
	assert_true(pid > 0);
	assert_int_equal(aw_child_wait(pid, 50), -ETIMEDOUT);
	assert_int_equal(kill(pid, 0), -1);
	assert_int_equal(aw_child_wait(pid, 50), -ECHILD);
	/* What a child writes in shared memory, the probe reads. */
	int *shared = aw_shared_alloc(sizeof(int));
	assert_true(shared && *shared == 0);
	assert_int_equal(aw_child_run(writes_five, shared, 5000), 0);
	assert_int_equal(*shared, 5);
	aw_shared_free(shared, sizeof(int));
}

/* A child forked here, as a probe forks when fork itself is under test:
 * it exits with status or dies of sig (0: exits), or sleeps (status < 0). */
static pid_t forked(int status, int sig)
{
	pid_t pid = fork();
	if (pid == 0) {
		if (sig)
			raise(sig);
		while (status < 0)
			pause();
		_exit(status);
	}
	return pid;
}

/* aw_child_reap: the plain facts of how a child ended, an exit status
 * of 130 apart from a death by SIGINT. */
static void test_child_reap(void **state)
{
	(void)state;
	struct aw_child_end end = aw_child_reap(forked(0, 0), 5000);
	assert_int_equal(end.how, AW_CHILD_EXITED);
	assert_int_equal(end.code, 0);
	assert_true(aw_child_end_ok(end));
	end = aw_child_reap(forked(7, 0), -1);
	assert_int_equal(end.how, AW_CHILD_EXITED);
	assert_int_equal(end.code, 7);
	assert_false(aw_child_end_ok(end));
	end = aw_child_reap(forked(130, 0), 5000);
	assert_int_equal(end.how, AW_CHILD_EXITED);
	assert_int_equal(end.code, 130);
	end = aw_child_reap(forked(0, SIGKILL), 5000);
	assert_int_equal(end.how, AW_CHILD_KILLED);
	assert_int_equal(end.code, SIGKILL);
	assert_false(aw_child_end_ok(end));
	end = aw_child_reap(forked(0, SIGINT), 5000);
	assert_int_equal(end.how, AW_CHILD_KILLED);
	assert_int_equal(end.code, SIGINT);
	/* At the deadline it is killed and reaped; then it is no child to wait for. */
	pid_t pid = forked(-1, 0);
	assert_true(pid > 0);
	end = aw_child_reap(pid, 50);
	assert_int_equal(end.how, AW_CHILD_TIMED_OUT);
	assert_int_equal(kill(pid, 0), -1);
	end = aw_child_reap(pid, 50);
	assert_int_equal(end.how, AW_CHILD_WAIT_FAILED);
	assert_int_equal(end.code, ECHILD);
	assert_false(aw_child_end_ok(end));
}

static void test_wait_blocked(void **state)
{
	(void)state;
	int p[2];
	assert_int_equal(pipe(p), 0);
	pid_t pid = aw_child_start(reads_pipe, &p[0]);
	assert_true(pid > 0);
	assert_int_equal(aw_wait_blocked(pid, SYS_read, 5000), 0);
	/* Not in that call: the wait ends at its bound. */
	assert_int_equal(aw_wait_blocked(pid, SYS_write, 20), -ETIMEDOUT);
	assert_int_equal(write(p[1], "g", 1), 1);
	assert_int_equal(aw_child_wait(pid, 5000), 0);
	close(p[0]);
	close(p[1]);
}

static void test_proc_syscall(void **state)
{
	(void)state;
	long nr = -1;
	assert_int_equal(aw_parse_proc_syscall("243 0x3 0x7ffc 0x40 0x0 0x0 0x0 0x7ffc 0x7f12\n", &nr), 0);
	assert_int_equal(nr, 243);
	assert_int_equal(aw_parse_proc_syscall("-1 0x7ffc 0x7f12\n", &nr), 0);
	assert_int_equal(nr, -1);
	assert_int_equal(aw_parse_proc_syscall("running\n", &nr), -EAGAIN);
	assert_int_equal(aw_parse_proc_syscall("", &nr), -EINVAL);
	assert_int_equal(aw_parse_proc_syscall("x12", &nr), -EINVAL);
	assert_int_equal(aw_parse_proc_syscall("12x", &nr), -EINVAL);
	assert_int_equal(aw_parse_proc_syscall(NULL, &nr), -EINVAL);
}

/* ---- what children report ---- */

static const struct aw_item reporter_items[] = {
	AW_CHECK_ITEM("a", "reported by the child before its deadline"),
	AW_CHECK_ITEM("b", "never reported by the child"),
	AW_OBS_ITEM("c", "never observed by the child"),
	AW_ITEMS_END,
};
static const struct aw_probe reporter = { .name = "reporter", .items = reporter_items };

/* A probe's ctx reporting on a pipe whose read end is *rd. */
static struct aw_ctx reporting_ctx(int *rd)
{
	int p[2];
	assert_int_equal(pipe(p), 0);
	*rd = p[0];
	return (struct aw_ctx){ .fd = p[1], .probe = &reporter, .host_dirfd = -1,
				.record = aw_record_new(&reporter) };
}

/* Everything written on fd so far (its writers closed). */
static char *drain(int fd)
{
	static char buf[1 << 16];
	size_t len = 0;
	ssize_t n;
	while ((n = read(fd, buf + len, sizeof(buf) - 1 - len)) > 0)
		len += (size_t)n;
	buf[len] = '\0';
	return buf;
}

static int reports_then_hangs(void *arg)
{
	aw_pass(arg, "a");
	for (;;)
		pause();
	return 0;
}

static void test_child_reports_count(void **state)
{
	(void)state;
	int rd;
	struct aw_ctx ctx = reporting_ctx(&rd);
	assert_int_equal(aw_child_run(reports_then_hangs, &ctx, 200), -ETIMEDOUT);
	assert_true(aw_reported(&ctx, "a"));
	assert_false(aw_reported(&ctx, "b"));
	/* The probe's own record knows what its killed child reported. */
	aw_skip_rest(&ctx, "not reached");
	close(ctx.fd);
	assert_string_equal(drain(rd), "C a pass\nC b skip not reached\nO c skip not reached\n");
	close(rd);
}

#define LONG_TEXT 20000 /* several times PIPE_BUF */

static int reports_long(void *arg)
{
	char *text = malloc(LONG_TEXT + 1);
	memset(text, 'x', LONG_TEXT);
	text[LONG_TEXT] = '\0';
	for (int i = 0; i < 20; i++)
		aw_note(arg, "%s", text);
	free(text);
	return 0;
}

/* Lines longer than a pipe write is atomic for stay whole when several
 * processes of a probe report at once. */
static void test_children_lines_stay_whole(void **state)
{
	(void)state;
	int rd;
	struct aw_ctx ctx = reporting_ctx(&rd);
	pid_t a = aw_child_start(reports_long, &ctx), b = aw_child_start(reports_long, &ctx);
	assert_true(a > 0 && b > 0);
	size_t lines = 0, len = 0;
	char buf[65536];
	ssize_t n;
	/* Read while they write: the pipe holds less than one line. */
	close(ctx.fd);
	while ((n = read(rd, buf, sizeof(buf))) > 0) {
		for (ssize_t i = 0; i < n; i++) {
			if (buf[i] != '\n') {
				len++;
				continue;
			}
			assert_int_equal(len, 2 + LONG_TEXT);
			len = 0;
			lines++;
		}
	}
	assert_int_equal(aw_child_wait(a, 5000), 0);
	assert_int_equal(aw_child_wait(b, 5000), 0);
	assert_int_equal(lines, 40);
	close(rd);
}

/* ---- identities ---- */

static int own_uids(void *arg)
{
	(void)arg;
	uid_t r, e, s;
	getresuid(&r, &e, &s);
	return r == AW_NOBODY && e == AW_NOBODY2 && s == AW_NOBODY2 ? 0 : 1;
}

/* In a user namespace of its own, where only uid 0 is mapped: 65534 is
 * refused, and the function never runs. */
static int refused_in_userns(void *arg)
{
	(void)arg;
	int refused = 0, seven = 7;
	if (aw_enter_userns(0) != 0)
		return 2;
	int rc = aw_child_run_as(AW_NOBODY, AW_NOBODY, exits_with, &seven, 5000, &refused);
	return rc == -EINVAL && refused == -EINVAL ? 0 : 1;
}

static void test_child_as_user(void **state)
{
	(void)state;
	int refused = -1;
	if (geteuid() != 0)
		skip();
	assert_int_equal(aw_child_run_as(AW_NOBODY, AW_NOBODY2, own_uids, NULL, 5000, &refused), 0);
	assert_int_equal(refused, 0);
	int rc = aw_child_run(refused_in_userns, NULL, 5000);
	if (rc == 2)
		skip(); /* no user namespaces here */
	assert_int_equal(rc, 0);
	assert_non_null(strstr(aw_become_user_why(-EINVAL), "not mapped"));
	assert_non_null(strstr(aw_become_user_why(-EPERM), "CAP_SETUID"));
}

/* ---- programs ---- */

static void test_which(void **state)
{
	(void)state;
	char *sh = aw_which("sh");
	assert_non_null(sh);
	assert_true(access(sh, X_OK) == 0);
	free(sh);
	assert_null(aw_which("abiwatch-no-such-program"));
	char *abs = aw_which("/bin/sh");
	assert_string_equal(abs, "/bin/sh");
	free(abs);
	assert_null(aw_which("/nonexistent/sh"));
	/* The sbin directories count even where PATH lacks them. */
	char *saved = getenv("PATH") ? strdup(getenv("PATH")) : NULL;
	setenv("PATH", "/nonexistent", 1);
	char *ldconfig = aw_which("ldconfig");
	if (saved)
		setenv("PATH", saved, 1);
	free(saved);
	assert_non_null(ldconfig);
	free(ldconfig);
}

static void test_capture(void **state)
{
	(void)state;
	struct aw_spawn how = { .in = -1, .out = -1, .err = -1 };
	struct aw_capture both = { .out = true, .err = true, .max = 4096, .keep_tail = true };
	const char *const ok[] = { "/bin/sh", "-c", "echo out; echo err >&2; exit 3", NULL };
	assert_int_equal(aw_capture(ok, &how, &both), 0);
	assert_true(WIFEXITED(both.status) && WEXITSTATUS(both.status) == 3);
	assert_string_equal(both.text, "out\nerr\n");
	free(both.text);

	const char *const env[] = { "ABIWATCH_TEST_VALUE=42", NULL };
	struct aw_spawn with_env = { .in = -1, .out = -1, .err = -1, .env = env };
	const char *const show[] = { "/bin/sh", "-c", "printf %s \"$ABIWATCH_TEST_VALUE\"", NULL };
	assert_int_equal(aw_capture(show, &with_env, &both), 0);
	assert_string_equal(both.text, "42");
	free(both.text);

	/* Only the last 4 KiB are kept, and the program runs to its end. */
	const char *const big[] = { "/bin/sh", "-c", "i=0; while [ $i -lt 2000 ]; do "
				    "echo line$i; i=$((i+1)); done", NULL };
	assert_int_equal(aw_capture(big, &how, &both), 0);
	assert_true(both.overflowed && both.len == 4096 && strlen(both.text) == 4096);
	assert_non_null(strstr(both.text, "line1999\n"));
	assert_null(strstr(both.text, "line0\n"));
	assert_true(WIFEXITED(both.status) && WEXITSTATUS(both.status) == 0);
	free(both.text);

	const char *const missing[] = { "/nonexistent/mkfs", NULL };
	assert_int_equal(aw_capture(missing, &how, &both), -1);
	assert_int_equal(errno, ENOENT);
}

static void test_capture_bounds(void **state)
{
	(void)state;
	struct aw_spawn how = { .in = -1, .out = -1, .err = -1, .own_pgrp = true };
	/* The deadline kills it, with what it wrote before kept.  The
	 * deadline is generous (sh echoes in a millisecond when idle) so
	 * that a loaded machine still writes "early" before it; that the
	 * wait ended by the deadline is the SIGKILL, not a clock. */
	struct aw_capture slow = { .out = true, .timeout_s = 2, .max = 100 };
	const char *const hangs[] = { "/bin/sh", "-c", "echo early; exec sleep 100", NULL };
	assert_int_equal(aw_capture(hangs, &how, &slow), 0);
	assert_true(slow.timed_out && !slow.overflowed);
	assert_true(WIFSIGNALED(slow.status) && WTERMSIG(slow.status) == SIGKILL);
	assert_string_equal(slow.text, "early\n");
	free(slow.text);
	/* Past max, keeping the head: it is stopped there. */
	struct aw_capture head = { .out = true, .max = 100 };
	const char *const floods[] = { "yes", NULL };
	assert_int_equal(aw_capture(floods, &how, &head), 0);
	assert_true(head.overflowed && !head.timed_out && head.len == 100);
	assert_true(WIFSIGNALED(head.status));
	assert_int_equal(strncmp(head.text, "y\ny\n", 4), 0);
	free(head.text);
}

/* ---- signals and deadlines ---- */

static void test_deadline_normalised(void **state)
{
	(void)state;
	const long ms[] = { -1000, -1, 0, 1, 999, 1001, 30 };
	struct timespec now;
	for (size_t i = 0; i < sizeof(ms) / sizeof(ms[0]); i++) {
		clock_gettime(CLOCK_REALTIME, &now);
		struct timespec d = aw_deadline_ms(ms[i]);
		assert_true(d.tv_nsec >= 0 && d.tv_nsec < 1000000000);
		long long diff = ((long long)d.tv_sec - now.tv_sec) * 1000 +
				 (d.tv_nsec - now.tv_nsec) / 1000000;
		/* Within a few ms of what was asked (the clock moved on). */
		assert_true(diff >= ms[i] - 1 && diff <= ms[i] + 50);
	}
	struct timespec past = aw_deadline_ms(-1000);
	assert_true(aw_realtime_reached(&past));
	struct timespec future = aw_deadline_ms(60000);
	assert_false(aw_realtime_reached(&future));
}

static void test_signals(void **state)
{
	(void)state;
	siginfo_t si;
	assert_int_equal(aw_block_signal(SIGUSR2), 0);
	assert_int_equal(aw_wait_signal(SIGUSR2, 0, &si), 0);
	raise(SIGUSR2);
	assert_int_equal(aw_wait_signal(SIGUSR2, 1000, &si), 1);
	assert_int_equal(si.si_signo, SIGUSR2);
	raise(SIGUSR2);
	aw_flush_signal(SIGUSR2);
	assert_int_equal(aw_wait_signal(SIGUSR2, 0, &si), 0);
	assert_int_equal(aw_count_signal(SIGALRM, 0), 0);
	assert_int_equal(aw_alarm_ms(5), 0);
	while (aw_signal_count < 2)
		pause();
	aw_alarm_cancel();
	signal(SIGALRM, SIG_DFL);
}

/* The CPUs usable are the affinity's, and follow it when it shrinks (a
 * CI job pinned to some CPUs must not size its guests for all of them). */
static void test_cpus_usable(void **state)
{
	(void)state;
	cpu_set_t all, one;
	assert_int_equal(sched_getaffinity(0, sizeof(all), &all), 0);
	assert_int_equal(aw_cpus_usable(), CPU_COUNT(&all));
	pid_t pid = fork();
	if (pid == 0) {
		int first = 0;
		while (!CPU_ISSET(first, &all))
			first++;
		CPU_ZERO(&one);
		CPU_SET(first, &one);
		_exit(sched_setaffinity(0, sizeof(one), &one) == 0 && aw_cpus_usable() == 1 ? 0 : 1);
	}
	int status;
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

/* A sparse copy reads as the original, and what was a hole or a block of
 * zeros there is a hole in the copy: a 4 MiB file of 1 MiB of zeros, a
 * hole, 64 KiB of data and a hole to the end takes one block's room. */
static void test_copy_sparse(void **state)
{
	(void)state;
	char tmpl[] = "/tmp/abiwatch-test-sparse-XXXXXX";
	assert_non_null(mkdtemp(tmpl));
	char *in_path = xasprintf("%s/in", tmpl), *out_path = xasprintf("%s/out", tmpl);
	int in = open(in_path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	int out = open(out_path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	assert_true(in >= 0 && out >= 0);
	static char zeros[1 << 20], data[65536];
	for (size_t i = 0; i < sizeof(data); i++)
		data[i] = (char)(i % 251 + 1);
	data[100] = 0;
	assert_int_equal(pwrite(in, zeros, sizeof(zeros), 0), sizeof(zeros));
	assert_int_equal(pwrite(in, data, sizeof(data), 2 << 20), sizeof(data));
	assert_int_equal(ftruncate(in, 4 << 20), 0);
	assert_int_equal(aw_copy_sparse(out, in), 0);
	struct stat si, so;
	assert_int_equal(fstat(in, &si), 0);
	assert_int_equal(fstat(out, &so), 0);
	assert_int_equal(so.st_size, si.st_size);
	assert_true(so.st_blocks * 512 <= 2 * (long long)sizeof(data));
	static char a[1 << 20], b[1 << 20];
	for (off_t off = 0; off < si.st_size; off += sizeof(a)) {
		assert_int_equal(pread(in, a, sizeof(a), off), sizeof(a));
		assert_int_equal(pread(out, b, sizeof(b), off), sizeof(b));
		assert_memory_equal(a, b, sizeof(a));
	}
	/* Not a regular file: refused. */
	int dir = open(tmpl, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	assert_int_equal(aw_copy_sparse(out, dir), -1);
	assert_int_equal(errno, EINVAL);
	close(dir);
	close(in);
	close(out);
	unlink(in_path);
	unlink(out_path);
	rmdir(tmpl);
	free(in_path);
	free(out_path);
}

/* Progress shows on a terminal unasked, never into a pipe unasked, and
 * each line arrives whole: a real pty and a real pipe as stderr. */
static void test_progress_terminal_or_asked(void **state)
{
	(void)state;
	int saved = dup(STDERR_FILENO);
	int master = posix_openpt(O_RDWR | O_NOCTTY | O_CLOEXEC);
	assert_true(master >= 0);
	assert_int_equal(grantpt(master), 0);
	assert_int_equal(unlockpt(master), 0);
	int slave = open(ptsname(master), O_RDWR | O_NOCTTY | O_CLOEXEC);
	assert_true(slave >= 0);
	assert_true(dup2(slave, STDERR_FILENO) >= 0);
	bool tty_unasked = aw_progress_wanted(false, false), tty_quiet = aw_progress_wanted(false, true);
	struct aw_progress p = { "abiwatch test", tty_unasked };
	aw_say(&p, "%d of %d", 3, 4);
	int fds[2];
	assert_int_equal(pipe(fds), 0);
	assert_true(dup2(fds[1], STDERR_FILENO) >= 0);
	bool pipe_unasked = aw_progress_wanted(false, false), pipe_asked = aw_progress_wanted(true, false);
	struct aw_progress off = { "abiwatch test", pipe_unasked }, on = { "w", pipe_asked };
	aw_say(&off, "never seen");
	aw_say(&on, "x %s", "1");
	assert_true(dup2(saved, STDERR_FILENO) >= 0);
	close(saved);
	close(fds[1]);
	assert_true(tty_unasked);
	assert_false(tty_quiet);
	assert_false(pipe_unasked);
	assert_true(pipe_asked);
	char buf[256];
	ssize_t n = read(fds[0], buf, sizeof(buf) - 1);
	assert_int_equal(n, 7);
	buf[n] = '\0';
	assert_string_equal(buf, "w: x 1\n");
	close(fds[0]);
	n = read(master, buf, sizeof(buf) - 1); /* before the slave closes, which hangs it up */
	assert_true(n > 0);
	buf[n] = '\0';
	assert_non_null(strstr(buf, "abiwatch test: 3 of 4"));
	close(slave);
	close(master);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_xgrow),
		cmocka_unit_test(test_errname),
		cmocka_unit_test(test_child_statuses),
		cmocka_unit_test(test_child_reap),
		cmocka_unit_test(test_wait_blocked),
		cmocka_unit_test(test_proc_syscall),
		cmocka_unit_test(test_child_reports_count),
		cmocka_unit_test(test_children_lines_stay_whole),
		cmocka_unit_test(test_child_as_user),
		cmocka_unit_test(test_which),
		cmocka_unit_test(test_capture),
		cmocka_unit_test(test_capture_bounds),
		cmocka_unit_test(test_deadline_normalised),
		cmocka_unit_test(test_signals),
		cmocka_unit_test(test_cpus_usable),
		cmocka_unit_test(test_copy_sparse),
		cmocka_unit_test(test_progress_terminal_or_asked),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

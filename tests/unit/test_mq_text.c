// SPDX-License-Identifier: GPL-2.0-or-later
/* The mqueue family's parsers and formatters: the mqueue filesystem's
 * contents line, poll(2) event names, the order a queue must return
 * messages in. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "probes/mqueue/mq_util.h"

#include <errno.h>
#include <poll.h>
#include <string.h>
#include <time.h>

/* Exactly what ipc/mqueue.c writes: "QSIZE:%-10lu NOTIFY:%-5d SIGNO:%-5d NOTIFY_PID:%-6d\n". */
static const char idle_line[] = "QSIZE:12         NOTIFY:0     SIGNO:0     NOTIFY_PID:0     \n";
static const char signal_line[] = "QSIZE:0          NOTIFY:0     SIGNO:10    NOTIFY_PID:24161 \n";

static int parse(const char *s, struct mqu_mqfs *m)
{
	return mqu_parse_mqfs(s, strlen(s), m);
}

static void test_mqfs_kernel_lines(void **state)
{
	(void)state;
	struct mqu_mqfs m;
	assert_int_equal(parse(idle_line, &m), 0);
	assert_int_equal(m.qsize, 12);
	assert_int_equal(m.notify, 0);
	assert_int_equal(m.signo, 0);
	assert_int_equal(m.notify_pid, 0);
	assert_int_equal(strlen(idle_line), 60);
	assert_int_equal(parse(signal_line, &m), 0);
	assert_int_equal(m.signo, 10);
	assert_int_equal(m.notify_pid, 24161);
	/* Fields wider than their padding leave a single space. */
	assert_int_equal(parse("QSIZE:12345678901 NOTIFY:2 SIGNO:0 NOTIFY_PID:1234567\n", &m), 0);
	assert_int_equal(m.qsize, 12345678901UL);
	assert_int_equal(m.notify_pid, 1234567);
}

static void test_mqfs_rejects(void **state)
{
	(void)state;
	struct mqu_mqfs m;
	const char *bad[] = {
		"",
		"QSIZE:12 NOTIFY:0 SIGNO:0 NOTIFY_PID:0",        /* no newline */
		"QSIZE:12 NOTIFY:0 SIGNO:0 NOTIFY_PID:0\n\n",    /* more after it */
		"QSIZE:12NOTIFY:0 SIGNO:0 NOTIFY_PID:0\n",       /* no space */
		"QSIZE: 12 NOTIFY:0 SIGNO:0 NOTIFY_PID:0\n",     /* space before the number */
		"QSIZE:-1 NOTIFY:0 SIGNO:0 NOTIFY_PID:0\n",
		"NOTIFY:0 QSIZE:12 SIGNO:0 NOTIFY_PID:0\n",      /* order */
		"QSIZE:12 NOTIFY:0 SIGNO:0\n",
		"QSIZE:12 NOTIFY:0 SIGNO:0 NOTIFY_PID:99999999999\n", /* beyond int */
		"QSIZE:99999999999999999999999 NOTIFY:0 SIGNO:0 NOTIFY_PID:0\n",
		"qsize:12 NOTIFY:0 SIGNO:0 NOTIFY_PID:0\n",
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		assert_int_equal(parse(bad[i], &m), -EINVAL);
	assert_int_equal(mqu_parse_mqfs(NULL, 0, &m), -EINVAL);
	/* A length that cuts the newline off. */
	assert_int_equal(mqu_parse_mqfs(idle_line, strlen(idle_line) - 1, &m), -EINVAL);
}

static void test_mqfs_format(void **state)
{
	(void)state;
	struct mqu_mqfs m = { 12, 0, 10, 2 };
	char buf[80];
	mqu_format_mqfs(&m, buf, sizeof(buf));
	assert_string_equal(buf, "QSIZE:12 NOTIFY:0 SIGNO:10 NOTIFY_PID:2");
	/* Truncation stays a string. */
	mqu_format_mqfs(&m, buf, 6);
	assert_string_equal(buf, "QSIZE");
}

static void test_poll_names(void **state)
{
	(void)state;
	char buf[96];
	assert_string_equal(mqu_poll_names(0, buf, sizeof(buf)), "0");
	assert_string_equal(mqu_poll_names(POLLOUT | POLLWRNORM, buf, sizeof(buf)), "POLLOUT|POLLWRNORM");
	assert_string_equal(mqu_poll_names(POLLIN | POLLRDNORM | POLLOUT | POLLWRNORM, buf, sizeof(buf)),
			    "POLLIN|POLLOUT|POLLRDNORM|POLLWRNORM");
	assert_string_equal(mqu_poll_names(POLLIN | 0x8000, buf, sizeof(buf)), "POLLIN|0x8000");
	assert_string_equal(mqu_poll_names(0x8000, buf, sizeof(buf)), "0x8000");
	/* Too small a buffer truncates, never overflows. */
	char small[8];
	mqu_poll_names(POLLIN | POLLOUT, small, sizeof(small));
	assert_true(strlen(small) < sizeof(small));
}

static void test_expected_order(void **state)
{
	(void)state;
	/* The sendrecv probe's priorities: highest first, FIFO among equals. */
	const unsigned prio[8] = { 3, 0, 7, 3, 32767, 0, 7, 1 };
	const size_t want[8] = { 4, 2, 6, 0, 3, 7, 1, 5 };
	size_t order[8];
	mqu_expected_order(prio, 8, order);
	for (size_t i = 0; i < 8; i++)
		assert_int_equal(order[i], want[i]);
	/* All equal: the order of sending. */
	const unsigned same[4] = { 5, 5, 5, 5 };
	mqu_expected_order(same, 4, order);
	for (size_t i = 0; i < 4; i++)
		assert_int_equal(order[i], i);
	/* Strictly increasing: reversed. */
	const unsigned up[3] = { 0, 1, 2 };
	mqu_expected_order(up, 3, order);
	assert_int_equal(order[0], 2);
	assert_int_equal(order[2], 0);
	mqu_expected_order(up, 0, order);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_mqfs_kernel_lines),
		cmocka_unit_test(test_mqfs_rejects),
		cmocka_unit_test(test_mqfs_format),
		cmocka_unit_test(test_poll_names),
		cmocka_unit_test(test_expected_order),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

// SPDX-License-Identifier: GPL-2.0-or-later
/* The fdio family's fdinfo parsers (src/probes/fdio/fdinfo.c): the
 * events mask of an epoll descriptor's target, and the keys of a file's
 * own fdinfo lines, on the kernel's real text and on text that is not. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "probes/fdio/fdio.h"

#include <errno.h>
#include <string.h>

/* As 6.18 wrote them (fs/eventpoll.c, fs/eventfd.c; the same format on 6.1). */
static const char epoll_text[] =
	"pos:\t0\nflags:\t02\nmnt_id:\t17\nino:\t1038\n"
	"tfd:        4 events:       19 data: 1122334455667788  pos:0 ino:250ef9 sdev:f\n"
	"tfd:       12 events: 80000019 data:                c  pos:0 ino:250efa sdev:f\n";
static const char eventfd_612[] =
	"pos:\t0\nflags:\t02\nmnt_id:\t17\nino:\t1038\n"
	"eventfd-count:                3\neventfd-id: 1\neventfd-semaphore: 0\n";
static const char eventfd_61[] =
	"pos:\t0\nflags:\t02\nmnt_id:\t15\nino:\t1036\n"
	"eventfd-count:                0\neventfd-id: 7\n";

static int events_of(const char *text, int tfd, unsigned *ev)
{
	return fdio_epoll_events(text, strlen(text), tfd, ev);
}

static void test_epoll_events_found(void **state)
{
	(void)state;
	unsigned ev = 0;
	assert_int_equal(events_of(epoll_text, 4, &ev), 0);
	assert_int_equal(ev, 0x19);
	assert_int_equal(events_of(epoll_text, 12, &ev), 0);
	assert_int_equal(ev, 0x80000019u);
}

static void test_epoll_events_missing(void **state)
{
	(void)state;
	unsigned ev = 7;
	assert_int_equal(events_of(epoll_text, 5, &ev), -ENOENT);
	assert_int_equal(events_of(epoll_text, 1, &ev), -ENOENT); /* "1" is a prefix of "12" */
	assert_int_equal(events_of("", 4, &ev), -ENOENT);
	assert_int_equal(events_of(eventfd_612, 4, &ev), -ENOENT);
	assert_int_equal(ev, 7);
}

static void test_epoll_events_malformed(void **state)
{
	(void)state;
	unsigned ev;
	assert_int_equal(events_of("tfd: x events: 19 data: 0\n", 4, &ev), -EINVAL);
	assert_int_equal(events_of("tfd: 4 events 19 data: 0\n", 4, &ev), -EINVAL);
	assert_int_equal(events_of("tfd: 4 events: zz data: 0\n", 4, &ev), -EINVAL);
	assert_int_equal(events_of("tfd: 4 events: 19\n", 4, &ev), -EINVAL);
	/* wider than the 32-bit mask, and an fd beyond int */
	assert_int_equal(events_of("tfd: 4 events: 100000000 data: 0\n", 4, &ev), -EINVAL);
	assert_int_equal(events_of("tfd: 99999999999 events: 19 data: 0\n", 4, &ev), -EINVAL);
	assert_int_equal(events_of("tfd: 4 events: 99999999999999999999 data: 0\n", 4, &ev),
			 -EINVAL);
}

static void test_epoll_events_unterminated(void **state)
{
	(void)state;
	static const char text[] = "tfd: 3 events: 10000019 data: 0";
	unsigned ev = 0;
	/* Not NUL-terminated where the length ends: read no further. */
	assert_int_equal(fdio_epoll_events(text, strlen(text), 3, &ev), 0);
	assert_int_equal(ev, 0x10000019u);
	assert_int_equal(fdio_epoll_events(text, 20, 3, &ev), -EINVAL);
}

static void test_keys_eventfd(void **state)
{
	(void)state;
	char out[128];
	assert_int_equal(fdio_fdinfo_keys(eventfd_612, strlen(eventfd_612), out, sizeof(out)), 0);
	assert_string_equal(out, "eventfd-count,eventfd-id,eventfd-semaphore");
	assert_int_equal(fdio_fdinfo_keys(eventfd_61, strlen(eventfd_61), out, sizeof(out)), 0);
	assert_string_equal(out, "eventfd-count,eventfd-id");
}

static void test_keys_generic_only(void **state)
{
	(void)state;
	char out[8] = "x";
	static const char text[] = "pos:\t0\nflags:\t02\nmnt_id:\t17\nino:\t1\n";
	assert_int_equal(fdio_fdinfo_keys(text, strlen(text), out, sizeof(out)), 0);
	assert_string_equal(out, "");
	assert_int_equal(fdio_fdinfo_keys("", 0, out, sizeof(out)), 0);
	assert_string_equal(out, "");
}

static void test_keys_errors(void **state)
{
	(void)state;
	char out[16];
	assert_int_equal(fdio_fdinfo_keys("no colon\n", 9, out, sizeof(out)), -EINVAL);
	assert_int_equal(fdio_fdinfo_keys(":empty\n", 7, out, sizeof(out)), -EINVAL);
	assert_int_equal(fdio_fdinfo_keys("a,b: 1\n", 7, out, sizeof(out)), -EINVAL);
	assert_int_equal(fdio_fdinfo_keys("a b: 1\n", 7, out, sizeof(out)), -EINVAL);
	/* "eventfd-count,eventfd-id" is 24 bytes: not in 16 */
	assert_int_equal(fdio_fdinfo_keys(eventfd_61, strlen(eventfd_61), out, sizeof(out)), -ENOSPC);
	assert_int_equal(fdio_fdinfo_keys("k: 1\n", 5, out, 0), -ENOSPC);
	assert_int_equal(fdio_fdinfo_keys("k: 1\n", 5, out, 1), -ENOSPC);
	assert_int_equal(fdio_fdinfo_keys("k: 1\n", 5, out, 2), 0);
	assert_string_equal(out, "k");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_epoll_events_found),
		cmocka_unit_test(test_epoll_events_missing),
		cmocka_unit_test(test_epoll_events_malformed),
		cmocka_unit_test(test_epoll_events_unterminated),
		cmocka_unit_test(test_keys_eventfd),
		cmocka_unit_test(test_keys_generic_only),
		cmocka_unit_test(test_keys_errors),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

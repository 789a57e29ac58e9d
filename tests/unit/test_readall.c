// SPDX-License-Identifier: GPL-2.0-or-later
/* lib/readall.c: a whole stream into one buffer with a maximum.  An
 * empty stream, exactly the maximum, one byte over it, a failed read at
 * the start and midway, a stream read in small pieces that outgrows the
 * first buffer. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "lib/readall.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* A stream of len bytes (byte i is 'a' + i % 26), given piece bytes at a
 * time at most; the read at offset fail_at (when >= 0) fails. */
struct source {
	size_t len, off, piece;
	long fail_at;
	unsigned reads;
};

static ssize_t source_read(void *arg, void *buf, size_t size)
{
	struct source *s = arg;
	s->reads++;
	if (s->fail_at >= 0 && s->off >= (size_t)s->fail_at) {
		errno = EIO;
		return -1;
	}
	size_t n = s->len - s->off;
	if (n > size)
		n = size;
	if (s->piece && n > s->piece)
		n = s->piece;
	if (s->fail_at >= 0 && n > (size_t)s->fail_at - s->off)
		n = (size_t)s->fail_at - s->off;
	for (size_t i = 0; i < n; i++)
		((char *)buf)[i] = (char)('a' + (s->off + i) % 26);
	s->off += n;
	return (ssize_t)n;
}

/* Whether text is the first len bytes of a source's stream, NUL after. */
static int is_stream(const char *text, size_t len)
{
	for (size_t i = 0; i < len; i++)
		if (text[i] != (char)('a' + i % 26))
			return 0;
	return text[len] == '\0';
}

static void test_empty(void **state)
{
	(void)state;
	struct source s = { .len = 0, .fail_at = -1 };
	char *text = (char *)1;
	size_t len = 99;
	assert_int_equal(aw_read_all(source_read, &s, 100, &text, &len), AW_READALL_OK);
	assert_non_null(text);
	assert_int_equal(len, 0);
	assert_string_equal(text, "");
	free(text);
	/* A maximum of 0 takes the empty stream too. */
	s = (struct source){ .len = 0, .fail_at = -1 };
	assert_int_equal(aw_read_all(source_read, &s, 0, &text, &len), AW_READALL_OK);
	assert_int_equal(len, 0);
	free(text);
}

static void test_exactly_max(void **state)
{
	(void)state;
	/* Below the first buffer, past it (grown to a maximum that is no
	 * power of two), and in pieces of 7 bytes. */
	const size_t maxes[] = { 1, 100, 65536, 100000, 300001 };
	for (size_t i = 0; i < sizeof(maxes) / sizeof(maxes[0]); i++) {
		struct source s = { .len = maxes[i], .fail_at = -1, .piece = i == 4 ? 7 : 0 };
		char *text;
		size_t len;
		assert_int_equal(aw_read_all(source_read, &s, maxes[i], &text, &len), AW_READALL_OK);
		assert_int_equal(len, maxes[i]);
		assert_true(is_stream(text, len));
		free(text);
	}
}

static void test_one_over(void **state)
{
	(void)state;
	const size_t maxes[] = { 0, 1, 100, 65536, 100000 };
	for (size_t i = 0; i < sizeof(maxes) / sizeof(maxes[0]); i++) {
		struct source s = { .len = maxes[i] + 1, .fail_at = -1 };
		char *text = (char *)1;
		size_t len = 99;
		assert_int_equal(aw_read_all(source_read, &s, maxes[i], &text, &len), AW_READALL_TOO_BIG);
		assert_null(text);
		assert_int_equal(len, 0);
		/* Refused at max + 1: the rest of a huge stream is never read. */
		assert_int_equal(s.off, maxes[i] + 1);
	}
	struct source huge = { .len = (size_t)1 << 40, .fail_at = -1 };
	char *text;
	size_t len;
	assert_int_equal(aw_read_all(source_read, &huge, 4096, &text, &len), AW_READALL_TOO_BIG);
	assert_int_equal(huge.off, 4097);
}

static void test_read_error(void **state)
{
	(void)state;
	const long at[] = { 0, 10, 70000 };
	for (size_t i = 0; i < sizeof(at) / sizeof(at[0]); i++) {
		struct source s = { .len = 100000, .fail_at = at[i] };
		char *text = (char *)1;
		size_t len = 99;
		assert_int_equal(aw_read_all(source_read, &s, 1 << 20, &text, &len), AW_READALL_IO);
		assert_null(text);
		assert_int_equal(len, 0);
	}
	/* A failure where the one byte past a full buffer is asked is an
	 * error, not "too big". */
	struct source s = { .len = 200, .fail_at = 100 };
	char *text;
	size_t len;
	assert_int_equal(aw_read_all(source_read, &s, 100, &text, &len), AW_READALL_IO);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_empty),
		cmocka_unit_test(test_exactly_max),
		cmocka_unit_test(test_one_over),
		cmocka_unit_test(test_read_error),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

// SPDX-License-Identifier: GPL-2.0-or-later
/* libFuzzer target: lib/debver.c's order is an order on any three
 * strings (the input cut at its first two NULs): never reads past a
 * string, a == a, cmp(a, b) = -cmp(b, a), and a <= b <= c gives a <= c.
 * tests/unit/test_debver holds it against dpkg. */
#include "lib/debver.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int sign(int c)
{
	return (c > 0) - (c < 0);
}

/* The next string of the input, an exact-size copy. */
static char *take(const uint8_t **p, const uint8_t *end)
{
	const uint8_t *nul = memchr(*p, 0, (size_t)(end - *p));
	size_t len = nul ? (size_t)(nul - *p) : (size_t)(end - *p);
	char *s = malloc(len + 1);
	if (!s)
		abort();
	memcpy(s, *p, len);
	s[len] = '\0';
	*p += nul ? len + 1 : len;
	return s;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const uint8_t *p = data, *end = data + size;
	char *a = take(&p, end), *b = take(&p, end), *c = take(&p, end);
	(void)aw_debver_valid(a);
	int ab = sign(aw_debver_cmp(a, b)), bc = sign(aw_debver_cmp(b, c));
	if (aw_debver_cmp(a, a) != 0 || ab != -sign(aw_debver_cmp(b, a)))
		abort();
	if (ab <= 0 && bc <= 0 && aw_debver_cmp(a, c) > 0)
		abort();
	if (ab == 0 && sign(aw_debver_cmp(a, c)) != bc)
		abort();
	free(a);
	free(b);
	free(c);
	return 0;
}

// SPDX-License-Identifier: GPL-2.0-or-later
/* Reading a whole stream with a maximum: see readall.h. */
#include "readall.h"
#include "util.h"

#include <stdlib.h>

/* The first buffer: most streams read this way (a control file, a
 * config) fit, and a larger one doubles from it. */
#define READALL_FIRST ((size_t)1 << 16)

int aw_read_all(aw_read_fn fn, void *source, size_t max, char **out, size_t *len)
{
	size_t cap = max < READALL_FIRST ? max : READALL_FIRST, n = 0;
	char *buf = xmalloc(cap + 1);
	int rc = AW_READALL_OK;
	ssize_t got;

	*out = NULL;
	*len = 0;
	for (;;) {
		if (n == cap && cap < max) {
			cap = cap > max / 2 ? max : cap * 2;
			buf = xrealloc(buf, cap + 1);
		}
		if (n == cap) {
			/* Full at max: all of it only if nothing more comes. */
			char extra;
			got = fn(source, &extra, 1);
			if (got > 0)
				rc = AW_READALL_TOO_BIG;
			break;
		}
		got = fn(source, buf + n, cap - n);
		if (got <= 0)
			break;
		n += (size_t)got;
	}
	if (rc == AW_READALL_OK && got < 0)
		rc = AW_READALL_IO;
	if (rc != AW_READALL_OK) {
		free(buf);
		return rc;
	}
	buf[n] = '\0';
	*out = buf;
	*len = n;
	return AW_READALL_OK;
}

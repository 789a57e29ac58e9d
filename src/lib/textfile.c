// SPDX-License-Identifier: GPL-2.0-or-later
#include "textfile.h"
#include "util.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The number of the line that byte offset off is on (1-based). */
static unsigned line_of(const char *text, size_t off)
{
	unsigned line = 1;
	for (const char *p = text; (p = memchr(p, '\n', (size_t)(text + off - p))); p++)
		line++;
	return line;
}

/* Append one chunk; refuse it as soon as the text holds a NUL or grows
 * past max, so that /dev/zero or a huge file is not read to its end. */
static int take_chunk(const char *path, const char *what, size_t max, char **text,
		      size_t *len, const char *buf, size_t n, char **err)
{
	size_t room = *len + n > max ? max - *len : n;
	*text = xrealloc(*text, *len + room + 1);
	memcpy(*text + *len, buf, room);
	const char *nul = memchr(*text + *len, '\0', room);
	*len += room;
	(*text)[*len] = '\0';
	if (nul) {
		*err = xasprintf("%s:%u: a NUL byte: not a text %s", path,
				 line_of(*text, (size_t)(nul - *text)), what);
		return -1;
	}
	if (room < n) {
		*err = xasprintf("%s:%u: larger than %zu MiB: too large for %s %s", path,
				 line_of(*text, *len), max >> 20, strchr("aeiou", what[0]) ? "an" : "a",
				 what);
		return -1;
	}
	return 0;
}

int aw_textfile_read(const char *path, const char *what, size_t max,
		     char **text, size_t *len, char **err)
{
	FILE *f = fopen(path, "re");
	char buf[65536];
	size_t n;
	int rc = 0;

	*text = NULL;
	*len = 0;
	if (!f) {
		*err = xasprintf("%s: %s", path, strerror(errno));
		return -1;
	}
	while (rc == 0 && (n = fread(buf, 1, sizeof(buf), f)) > 0)
		rc = take_chunk(path, what, max, text, len, buf, n, err);
	if (rc == 0 && ferror(f)) {
		*err = xasprintf("%s: %s", path, strerror(errno ? errno : EIO));
		rc = -1;
	}
	fclose(f);
	if (rc == 0 && !*text)
		*text = xstrdup("");
	if (rc != 0) {
		free(*text);
		*text = NULL;
	}
	return rc;
}

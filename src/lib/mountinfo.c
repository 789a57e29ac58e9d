// SPDX-License-Identifier: GPL-2.0-or-later
/* /proc/PID/mountinfo, read: see mountinfo.h. */
#include "mountinfo.h"
#include "procfs.h"
#include "util.h"
#include "lib/procfs.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

char *aw_unescape_mountinfo(const char *s)
{
	char *out = xmalloc(strlen(s) + 1), *o = out;
	for (const char *p = s; *p; p++) {
		if (p[0] == '\\' && p[1] >= '0' && p[1] <= '3' && p[2] >= '0' && p[2] <= '7' &&
		    p[3] >= '0' && p[3] <= '7') {
			*o++ = (char)((p[1] - '0') * 64 + (p[2] - '0') * 8 + (p[3] - '0'));
			p += 3;
		} else {
			*o++ = *p;
		}
	}
	*o = '\0';
	return out;
}

/* The fields of one line, split at spaces (line is modified). */
static size_t split(char *line, char **field, size_t max)
{
	size_t n = 0;
	for (char *save = NULL, *f = strtok_r(line, " ", &save); f && n < max;
	     f = strtok_r(NULL, " ", &save))
		field[n++] = f;
	return n;
}

static int parse_line(char *line, struct aw_mount *m)
{
	char *field[64];
	size_t n = split(line, field, AW_ARRAY_SIZE(field)), dash = 6;
	while (dash < n && strcmp(field[dash], "-") != 0)
		dash++;
	if (n < 9 || dash + 2 >= n)
		return -1;
	char *end;
	m->id = (int)strtol(field[0], &end, 10);
	if (*end)
		return -1;
	m->parent = (int)strtol(field[1], &end, 10);
	if (*end || sscanf(field[2], "%u:%u", &m->major, &m->minor) != 2)
		return -1;
	m->root = aw_unescape_mountinfo(field[3]);
	m->point = aw_unescape_mountinfo(field[4]);
	m->options = xstrdup(field[5]);
	m->fstype = aw_unescape_mountinfo(field[dash + 1]);
	m->source = aw_unescape_mountinfo(field[dash + 2]);
	m->super = xstrdup(dash + 3 < n ? field[dash + 3] : "");
	return 0;
}

void aw_mountinfo_parse(const char *text, size_t len, struct aw_mount **mounts, size_t *n)
{
	*mounts = NULL;
	*n = 0;
	for (size_t at = 0; at < len;) {
		const char *nl = memchr(text + at, '\n', len - at);
		size_t ln = nl ? (size_t)(nl - text) - at : len - at;
		char *line = xmalloc(ln + 1);
		memcpy(line, text + at, ln);
		line[ln] = '\0';
		struct aw_mount m = { 0 };
		if (!memchr(line, '\0', ln) && parse_line(line, &m) == 0) {
			*mounts = xrealloc(*mounts, (*n + 1) * sizeof(**mounts));
			(*mounts)[(*n)++] = m;
		}
		free(line);
		at += ln + 1;
	}
}

int aw_mountinfo_read(const char *path, struct aw_mount **mounts, size_t *n)
{
	char *text;
	size_t len;
	if (aw_file_slurp(path, &text, &len) != 0)
		return -errno;
	aw_mountinfo_parse(text, len, mounts, n);
	free(text);
	return 0;
}

void aw_mountinfo_free(struct aw_mount *mounts, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(mounts[i].root);
		free(mounts[i].point);
		free(mounts[i].options);
		free(mounts[i].fstype);
		free(mounts[i].source);
		free(mounts[i].super);
	}
	free(mounts);
}

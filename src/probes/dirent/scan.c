// SPDX-License-Identifier: GPL-2.0-or-later
#include "scan.h"
#include "lib/util.h"
#include "lib/errname.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

/* struct linux_dirent64, read by offset: d_ino 0, d_off 8, d_reclen 16,
 * d_type 18, d_name 19. */
#define D_INO 0
#define D_OFF 8
#define D_RECLEN 16
#define D_NAME 19

static void push(struct ds_scan *s, uint32_t tag, uint64_t off)
{
	if (s->len == s->alloc) {
		s->alloc = s->alloc ? s->alloc * 2 : 1024;
		s->tag = xrealloc(s->tag, s->alloc * sizeof(*s->tag));
		s->off = xrealloc(s->off, s->alloc * sizeof(*s->off));
	}
	s->tag[s->len] = tag;
	s->off[s->len] = off;
	s->len++;
}

static void reset(struct ds_scan *s)
{
	uint32_t *tag = s->tag;
	uint64_t *off = s->off;
	size_t alloc = s->alloc;
	memset(s, 0, sizeof(*s));
	s->tag = tag;
	s->off = off;
	s->alloc = alloc;
}

int ds_scan_fd(int fd, char *buf, const struct ds_scan_opts *o, struct dc_set *set,
	       struct ds_scan *s)
{
	struct dc_track track;
	reset(s);
	dc_track_start(&track, set);
	for (;;) {
		long n = syscall(SYS_getdents64, fd, buf, o->bufsize);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			s->err = errno;
			return 0;
		}
		if (n == 0) {
			s->ended = true;
			return 0;
		}
		s->calls++;
		for (long pos = 0; pos < n;) {
			uint64_t ino;
			int64_t off;
			uint16_t reclen;
			memcpy(&ino, buf + pos + D_INO, sizeof(ino));
			memcpy(&off, buf + pos + D_OFF, sizeof(off));
			memcpy(&reclen, buf + pos + D_RECLEN, sizeof(reclen));
			if (reclen < D_NAME + 1 || pos + reclen > n) {
				s->err = EBADMSG; /* a malformed record */
				return 0;
			}
			uint32_t tag = dc_tag_of(buf + pos + D_NAME), other = 0;
			pos += reclen;
			if (s->len >= o->cap) {
				s->capped = true;
				return 0;
			}
			push(s, tag, (uint64_t)off);
			switch (dc_track_add(&track, s->off, s->tag, s->len - 1, &other)) {
			case DC_REPEAT:
				s->len--; /* the repeat is not part of the listing */
				s->cycle = true;
				s->cycle_cookie = (uint64_t)off;
				s->cycle_tag = tag;
				return 0;
			case DC_SHARED:
				if (s->shared++ == 0) {
					s->shared_cookie = (uint64_t)off;
					s->shared_tags[0] = other;
					s->shared_tags[1] = tag;
				}
				break;
			case DC_NEW:
				break;
			default:
				s->err = ENOMEM;
				return -1;
			}
			s->wide_ino += ino > UINT32_MAX;
		}
		if (o->after_call)
			o->after_call(o->arg, s);
	}
}

int ds_scan_fresh(int dirfd, char *buf, const struct ds_scan_opts *o, struct dc_set *set,
		  struct ds_scan *s)
{
	int fd = openat(dirfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0) {
		reset(s);
		s->err = errno;
		return -1;
	}
	int rc = ds_scan_fd(fd, buf, o, set, s);
	close(fd);
	return rc;
}

void ds_scan_free(struct ds_scan *s)
{
	free(s->tag);
	free(s->off);
	memset(s, 0, sizeof(*s));
}

uint64_t ds_eof_cookie(const struct ds_scan *s)
{
	return s->len ? s->off[s->len - 1] : 0;
}

uint64_t ds_max_cookie(const struct ds_scan *s)
{
	uint64_t max = 0;
	for (size_t i = 0; i + 1 < s->len; i++)
		if (s->off[i] > max)
			max = s->off[i];
	return max;
}

bool ds_any_negative(const struct ds_scan *s)
{
	for (size_t i = 0; i < s->len; i++)
		if ((int64_t)s->off[i] < 0)
			return true;
	return false;
}

char *ds_scan_trouble(const struct ds_scan *s)
{
	char name[16];
	if (s->cycle)
		return xasprintf("a cycle: %s came back with d_off 0x%llx after %zu entries",
				 dc_tag_name(s->cycle_tag, name),
				 (unsigned long long)s->cycle_cookie, s->len);
	if (s->capped)
		return xasprintf("no end after %zu entries (the bound)", s->len);
	if (s->err)
		return xasprintf("getdents64 failed with %s after %zu entries",
				 aw_errname(s->err), s->len);
	return NULL;
}

const char *ds_dots_name(size_t dots, size_t dotdots)
{
	if (dots > 1 || dotdots > 1)
		return "repeated";
	if (dots != dotdots)
		return dots ? "dot_only" : "dotdot_only";
	return dots ? "both" : "none";
}

bool ds_dots_ok(size_t dots, size_t dotdots)
{
	return dots == dotdots && dots <= 1;
}

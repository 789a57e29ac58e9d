// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * abiwatch-dirent-m32: the dirent family's 32-bit caller, built by the
 * Makefile's m32 rule (gcc -m32 -static) into build/m32/ and found with
 * aw_helper_path().  Without _FILE_OFFSET_BITS=64, so that the kernel sees
 * compat syscalls (ext4 then hands out 31-bit hash cookies) and readdir(3)
 * is glibc's non-LFS one, whose struct dirent has a 32-bit d_off and which
 * fails with EOVERFLOW when a cookie or an inode number does not fit.
 *
 *   abiwatch-dirent-m32 FD MAX
 *
 * FD is an inherited directory descriptor; each scan opens the directory
 * afresh through it.  MAX bounds the entries each scan reads, so that a
 * cycle cannot make this run forever.  The report format is in
 * ../helper_parse.h.
 */
#undef _FILE_OFFSET_BITS
#include "core/i386.h"
#include "probes/dirent/cookies.h"
#include "probes/dirent/helper_parse.h"
/* The m32 rule builds this folder's files alone: the shared pure logic
 * and the report's writer come in as source. */
#include "probes/dirent/cookies.c"
#include "probes/dirent/helper_parse.c"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

_Static_assert(sizeof(((struct dirent *)0)->d_off) == 4,
	       "build with -m32 and without -D_FILE_OFFSET_BITS=64: the point is the non-LFS readdir");

#define BUF_SIZE (1u << 20)

static void report_error(const char *what, int err)
{
	struct dh_report r;
	char out[DH_MAX_LINE * 2];
	memset(&r, 0, sizeof(r));
	snprintf(r.error, sizeof(r.error), "%s: %s", what, strerror(err));
	dh_format(&r, out, sizeof(out));
	fputs(out, stdout);
	fflush(stdout);
	exit(0);
}

static unsigned long parse_arg(const char *s, const char *what)
{
	char *end;
	errno = 0;
	unsigned long v = strtoul(s, &end, 10);
	if (errno || end == s || *end)
		report_error(what, EINVAL);
	return v;
}

struct scan64 {
	unsigned long long entries, max_cookie, eof_cookie, duplicates, cycle_cookie;
	unsigned long long wide_ino, wide_off;
	int negative, capped, cycle, err;
};

/* The entries of one scan, for dc_track_add(). */
struct history {
	uint64_t *cookie;
	uint32_t *tag;
	size_t len, alloc;
};

static void push(struct history *h, uint64_t cookie, uint32_t tag)
{
	if (h->len == h->alloc) {
		h->alloc = h->alloc ? h->alloc * 2 : 4096;
		h->cookie = realloc(h->cookie, h->alloc * sizeof(*h->cookie));
		h->tag = realloc(h->tag, h->alloc * sizeof(*h->tag));
		if (!h->cookie || !h->tag)
			report_error("malloc", ENOMEM);
	}
	h->cookie[h->len] = cookie;
	h->tag[h->len] = tag;
	h->len++;
}

static void scan_getdents64(int dirfd, unsigned long max, struct scan64 *s)
{
	int fd = openat(dirfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	char *buf = malloc(BUF_SIZE);
	struct dc_set set;
	struct dc_track track;
	struct history h = { 0 };
	bool stop = false;

	memset(s, 0, sizeof(*s));
	if (fd < 0)
		report_error("openat", errno);
	if (!buf || dc_set_init(&set, 1024) != 0)
		report_error("malloc", ENOMEM);
	dc_track_start(&track, &set);
	while (!stop) {
		long n = syscall(SYS_getdents64, fd, buf, BUF_SIZE);
		if (n < 0) {
			s->err = errno;
			break;
		}
		if (n == 0)
			break;
		for (long pos = 0; pos < n && !stop;) {
			uint64_t ino;
			int64_t off;
			uint16_t reclen;
			memcpy(&ino, buf + pos, sizeof(ino));
			memcpy(&off, buf + pos + 8, sizeof(off));
			memcpy(&reclen, buf + pos + 16, sizeof(reclen));
			const char *name = buf + pos + 19;
			if (reclen == 0)
				report_error("getdents64 record of length 0", EIO);
			pos += reclen;
			if (s->entries == max) {
				s->capped = 1;
				stop = true;
				break;
			}
			push(&h, (uint64_t)off, dc_fnv1a(name));
			int added = dc_track_add(&track, h.cookie, h.tag, h.len - 1, NULL);
			if (added == DC_REPEAT) {
				h.len--; /* not part of the listing */
				s->cycle = 1;
				s->cycle_cookie = (unsigned long long)off;
				stop = true;
				break;
			}
			if (added < 0)
				report_error("cookie set", ENOMEM);
			s->duplicates += added == DC_SHARED;
			s->entries++;
			if (off < 0)
				s->negative = 1;
			/* What the non-LFS struct dirent cannot hold. */
			s->wide_ino += ino > UINT32_MAX;
			s->wide_off += off < INT32_MIN || off > INT32_MAX;
		}
	}
	/* The largest d_off but the last, and the last. */
	for (size_t i = 0; i + 1 < h.len; i++)
		if (h.cookie[i] > s->max_cookie)
			s->max_cookie = h.cookie[i];
	s->eof_cookie = h.len ? h.cookie[h.len - 1] : 0;
	dc_set_free(&set);
	free(h.cookie);
	free(h.tag);
	free(buf);
	close(fd);
}

static void scan_nonlfs(int dirfd, unsigned long max, unsigned long long *entries, int *err)
{
	int fd = openat(dirfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		report_error("openat", errno);
	DIR *d = fdopendir(fd);
	if (!d)
		report_error("fdopendir", errno);
	*entries = 0;
	*err = 0;
	while (*entries < max) {
		errno = 0;
		struct dirent *e = readdir(d);
		if (!e) {
			*err = errno;
			break;
		}
		++*entries;
	}
	closedir(d);
}

int main(int argc, char **argv)
{
	if (argc == 2 && strcmp(argv[1], "--hello") == 0)
		return puts(AW_HELPER_HELLO) < 0 || fflush(stdout) != 0;
	if (argc != 3)
		report_error("usage: abiwatch-dirent-m32 FD MAX", EINVAL);
	int dirfd = (int)parse_arg(argv[1], "FD");
	unsigned long max = parse_arg(argv[2], "MAX");

	struct scan64 s;
	unsigned long long nonlfs_entries;
	int nonlfs_err;
	scan_getdents64(dirfd, max, &s);
	scan_nonlfs(dirfd, max, &nonlfs_entries, &nonlfs_err);

	struct dh_report r = {
		.entries = s.entries, .max_cookie = s.max_cookie, .eof_cookie = s.eof_cookie,
		.duplicates = s.duplicates, .cycle_cookie = s.cycle_cookie,
		.nonlfs_entries = nonlfs_entries, .wide_ino = s.wide_ino, .wide_off = s.wide_off,
		.negative = (uint64_t)s.negative, .capped = (uint64_t)s.capped,
		.cycle = (uint64_t)s.cycle, .getdents_errno = (uint64_t)s.err,
		.nonlfs_errno = (uint64_t)nonlfs_err,
	};
	char out[1024];
	dh_format(&r, out, sizeof(out));
	fputs(out, stdout);
	return fflush(stdout) == 0 ? 0 : 1;
}

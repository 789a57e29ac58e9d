// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * abiwatch-dirent-m32: the dirent family's 32-bit caller, built by the
 * Makefile's m32 rule (gcc -m32 -static) into build/m32/ and found with
 * aw_helper_path().  Without _FILE_OFFSET_BITS=64, so that the kernel sees
 * compat syscalls (ext4 then hands out 31-bit hash cookies) and readdir(3)
 * is glibc's non-LFS one, whose struct dirent has a 32-bit d_off and which
 * fails with EOVERFLOW when a cookie or an inode number does not fit.
 *
 *   abiwatch-dirent-m32 FD MAX EXPECT
 *
 * FD is an inherited directory descriptor; each scan opens the directory
 * afresh through it.  MAX bounds the entries each scan reads, so that a
 * cycle cannot make this run forever; EXPECT is how many the directory
 * holds.  It reports the probe's compat32.* observations, without the
 * prefix, as lines of the probe protocol on stdout (lib/wire.h).
 */
#undef _FILE_OFFSET_BITS
#include "core/i386.h"
#include "lib/errname.h"
#include "lib/wire.h"
#include "probes/dirent/cookies.h"
/* The m32 rule builds this folder's files and the protocol's writer:
 * the family's pure cookie logic comes in as source. */
#include "probes/dirent/cookies.c"

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

static const char *const items[] = { "cookie_bits", "eof_cookie", "duplicates", "nonlfs_readdir" };

/* The helper cannot work: each observation says why, and it ends. */
static __attribute__((noreturn)) void report_error(const char *what, int err)
{
	for (size_t i = 0; i < sizeof(items) / sizeof(items[0]); i++)
		aw_out_unobserved(items[i], "the 32-bit helper failed: %s: %s", what, strerror(err));
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
	unsigned long long entries, max_cookie, eof_cookie, duplicates;
	unsigned long long wide_ino, wide_off;
	int capped, cycle, err;
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
				stop = true;
				break;
			}
			if (added < 0)
				report_error("cookie set", ENOMEM);
			s->duplicates += added == DC_SHARED;
			s->entries++;
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

/* The non-LFS readdir(3): complete, or where and why it stopped. */
static void observe_nonlfs(const struct scan64 *s, unsigned long long entries, int err)
{
	const char *wide = s->wide_ino && s->wide_off ? " (d_ino and d_off wider than 32 bits)"
			   : s->wide_ino ? " (d_ino wider than 32 bits)"
			   : s->wide_off ? " (d_off wider than 32 bits)" : "";
	if (err)
		aw_out_observe("nonlfs_readdir", "%s after %llu entries%s", aw_errname(err), entries,
			       wide);
	else if (entries == s->entries)
		aw_out_observe("nonlfs_readdir", "complete");
	else
		aw_out_observe("nonlfs_readdir", "ended after %llu of %llu entries", entries,
			       s->entries);
}

static void observe(const struct scan64 *s, unsigned long long expect)
{
	bool ended = !s->cycle && !s->capped && !s->err;
	if (!ended || s->entries != expect)
		aw_out_note("32-bit getdents64: %llu entries (expected %llu)%s%s%s", s->entries, expect,
			    s->cycle ? ", stopped at a cycle" : "", s->capped ? ", stopped at the bound" : "",
			    s->err ? ", failed with an errno" : "");
	if (s->entries > 1)
		aw_out_observe("cookie_bits", "%u", dc_bits(s->max_cookie));
	else
		aw_out_unobserved("cookie_bits", "the 32-bit scan saw %llu entries", s->entries);
	if (ended && s->entries)
		aw_out_observe("eof_cookie", "0x%llx", s->eof_cookie);
	else
		aw_out_unobserved("eof_cookie", "the 32-bit scan did not end normally%s",
				  s->err ? " (getdents64 failed)" : "");
	aw_out_observe("duplicates", "%llu", s->duplicates);
}

int main(int argc, char **argv)
{
	if (argc == 2 && strcmp(argv[1], "--hello") == 0)
		return puts(AW_HELPER_HELLO) < 0 || fflush(stdout) != 0;
	if (argc != 4)
		report_error("usage: abiwatch-dirent-m32 FD MAX EXPECT", EINVAL);
	int dirfd = (int)parse_arg(argv[1], "FD");
	unsigned long max = parse_arg(argv[2], "MAX");
	unsigned long long expect = parse_arg(argv[3], "EXPECT");

	struct scan64 s;
	unsigned long long nonlfs_entries;
	int nonlfs_err;
	scan_getdents64(dirfd, max, &s);
	scan_nonlfs(dirfd, max, &nonlfs_entries, &nonlfs_err);
	observe(&s, expect);
	observe_nonlfs(&s, nonlfs_entries, nonlfs_err);
	return 0;
}

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
#include "lib/errname.h"
#include "lib/wire.h"
#include "probes/dirent/scan.h"
/* The m32 rule builds this folder's files and the protocol's writer:
 * the family's scans and cookie logic come in as source. */
#include "probes/dirent/cookies.c"
#include "probes/dirent/scan.c"

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

/* What the 32-bit caller's getdents64 (the compat entry point) lists. */
static void scan_getdents64(int dirfd, unsigned long max, struct ds_scan *s)
{
	static char buf[DS_BIG_BUF];
	const struct ds_scan_opts o = { .cap = max, .bufsize = sizeof(buf) };
	struct dc_set set;

	if (dc_set_init(&set, 1024) != 0)
		report_error("malloc", ENOMEM);
	if (ds_scan_fresh(dirfd, buf, &o, &set, s) != 0)
		report_error(s->err == ENOMEM ? "cookie set" : "openat", s->err);
	dc_set_free(&set);
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

/* Entries whose d_off does not fit a 32-bit long. */
static size_t wide_offsets(const struct ds_scan *s)
{
	size_t n = 0;
	for (size_t i = 0; i < s->len; i++)
		n += (int64_t)s->off[i] < INT32_MIN || (int64_t)s->off[i] > INT32_MAX;
	return n;
}

/* The non-LFS readdir(3): complete, or where and why it stopped. */
static void observe_nonlfs(const struct ds_scan *s, unsigned long long entries, int err)
{
	size_t wide_off = wide_offsets(s);
	const char *wide = s->wide_ino && wide_off ? " (d_ino and d_off wider than 32 bits)"
			   : s->wide_ino ? " (d_ino wider than 32 bits)"
			   : wide_off ? " (d_off wider than 32 bits)" : "";
	if (err)
		aw_out_observe("nonlfs_readdir", "%s after %llu entries%s", aw_errname(err), entries,
			       wide);
	else if (entries == s->len)
		aw_out_observe("nonlfs_readdir", "complete");
	else
		aw_out_observe("nonlfs_readdir", "ended after %llu of %zu entries", entries, s->len);
}

static void observe(const struct ds_scan *s, unsigned long long expect)
{
	bool ended = !s->cycle && !s->capped && !s->err;
	if (!ended || s->len != expect)
		aw_out_note("32-bit getdents64: %zu entries (expected %llu)%s%s%s", s->len, expect,
			    s->cycle ? ", stopped at a cycle" : "", s->capped ? ", stopped at the bound" : "",
			    s->err ? ", failed with an errno" : "");
	if (s->len > 1)
		aw_out_observe("cookie_bits", "%u", dc_bits(ds_max_cookie(s)));
	else
		aw_out_unobserved("cookie_bits", "the 32-bit scan saw %zu entries", s->len);
	if (ended && s->len)
		aw_out_observe("eof_cookie", "0x%llx", (unsigned long long)ds_eof_cookie(s));
	else
		aw_out_unobserved("eof_cookie", "the 32-bit scan did not end normally%s",
				  s->err ? " (getdents64 failed)" : "");
	aw_out_observe("duplicates", "%zu", s->shared);
}

int main(int argc, char **argv)
{
	aw_helper_hello(argc, argv);
	if (argc != 4)
		report_error("usage: abiwatch-dirent-m32 FD MAX EXPECT", EINVAL);
	int dirfd = (int)parse_arg(argv[1], "FD");
	unsigned long max = parse_arg(argv[2], "MAX");
	unsigned long long expect = parse_arg(argv[3], "EXPECT");

	struct ds_scan s = { 0 };
	unsigned long long nonlfs_entries;
	int nonlfs_err;
	scan_getdents64(dirfd, max, &s);
	scan_nonlfs(dirfd, max, &nonlfs_entries, &nonlfs_err);
	observe(&s, expect);
	observe_nonlfs(&s, nonlfs_entries, nonlfs_err);
	ds_scan_free(&s);
	return 0;
}

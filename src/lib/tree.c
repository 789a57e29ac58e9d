// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Emptying a directory whose filesystem may be hostile (tree.h): each pass
 * lists it with raw getdents64(2), stops where a d_off comes back that the
 * pass has seen (a listing that starts again, the way the dirent family's
 * `terminates` check finds one) or after a bounded number of entries,
 * removes what it saw, and passes again while that removes something.
 * glibc's readdir(3) would follow such a listing for ever.
 */
#include "tree.h"
#include "util.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

/* The record getdents64(2) writes (glibc declares none for the syscall). */
struct raw_dirent {
	uint64_t d_ino;
	int64_t d_off;
	unsigned short d_reclen;
	unsigned char d_type;
	char d_name[];
};

/* d_off values one pass has seen: open addressing, 0 for empty (a d_off
 * of 0 is stored as itself plus a flag). */
struct seen {
	uint64_t *slot;
	size_t cap, n;
	bool zero;
};

static uint64_t mix(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdULL;
	return x ^ (x >> 33);
}

/* True when v was there already. */
static bool seen_add(struct seen *s, uint64_t v)
{
	if (v == 0) {
		bool was = s->zero;
		s->zero = true;
		return was;
	}
	if (2 * (s->n + 1) > s->cap) {
		struct seen bigger = { .cap = s->cap ? 2 * s->cap : 256, .zero = s->zero };
		bigger.slot = xcalloc(bigger.cap, sizeof(*bigger.slot));
		for (size_t i = 0; i < s->cap; i++)
			if (s->slot[i])
				seen_add(&bigger, s->slot[i]);
		free(s->slot);
		*s = bigger;
	}
	size_t i = mix(v) & (s->cap - 1);
	while (s->slot[i] && s->slot[i] != v)
		i = (i + 1) & (s->cap - 1);
	if (s->slot[i])
		return true;
	s->slot[i] = v;
	s->n++;
	return false;
}

struct name {
	char *name;
	unsigned char type;
};

struct pass {
	struct name *names;
	size_t n;
	bool looped;   /* a d_off came back */
	bool capped;   /* stopped at the entry limit */
};

static void pass_free(struct pass *p)
{
	for (size_t i = 0; i < p->n; i++)
		free(p->names[i].name);
	free(p->names);
}

static bool is_dot(const char *n)
{
	return n[0] == '.' && (n[1] == '\0' || (n[1] == '.' && n[2] == '\0'));
}

/* One listing of dirfd from its start: the names, up to max_entries. */
static int list_once(int dirfd, size_t max_entries, struct pass *p)
{
	int fd = openat(dirfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	struct seen seen = { 0 };
	char buf[32768];
	size_t entries = 0;
	int rc = 0;
	for (;;) {
		long got = syscall(SYS_getdents64, fd, buf, sizeof(buf));
		if (got < 0) {
			rc = -errno;
			break;
		}
		if (got == 0)
			break;
		for (long off = 0; off < got && !p->looped && !p->capped;) {
			const struct raw_dirent *d = (const void *)(buf + off);
			off += d->d_reclen;
			if (seen_add(&seen, (uint64_t)d->d_off)) {
				p->looped = true;
				break;
			}
			if (++entries > max_entries)
				p->capped = true;
			else if (!is_dot(d->d_name)) {
				p->names = xgrow(p->names, p->n, sizeof(*p->names));
				p->names[p->n++] = (struct name){ xstrdup(d->d_name), d->d_type };
			}
		}
		if (p->looped || p->capped)
			break;
	}
	free(seen.slot);
	close(fd);
	return rc;
}

static bool is_dir(int dirfd, const struct name *e)
{
	struct stat st;
	if (e->type != DT_UNKNOWN)
		return e->type == DT_DIR;
	return fstatat(dirfd, e->name, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISDIR(st.st_mode);
}

static int remove_below(int dirfd, const struct aw_tree_limits *lim, unsigned depth);

/* Remove one entry (a directory with what is below it); 1 when it went. */
static int remove_entry(int dirfd, const struct name *e, const struct aw_tree_limits *lim,
			unsigned depth, int *err)
{
	bool dir = is_dir(dirfd, e);
	if (dir) {
		int sub = openat(dirfd, e->name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (sub >= 0) {
			int r = remove_below(sub, lim, depth + 1);
			close(sub);
			if (r && !*err)
				*err = r;
		}
	}
	if (unlinkat(dirfd, e->name, dir ? AT_REMOVEDIR : 0) == 0)
		return 1;
	if (errno != ENOENT && !*err)
		*err = -errno;
	return 0;
}

static int remove_below(int dirfd, const struct aw_tree_limits *lim, unsigned depth)
{
	if (depth > lim->max_depth)
		return -ELOOP;
	for (unsigned pass = 0; pass < lim->max_passes; pass++) {
		if (lim->deadline > 0 && aw_now() >= lim->deadline)
			return -ETIMEDOUT;
		struct pass p = { 0 };
		int err = list_once(dirfd, lim->max_entries, &p);
		size_t removed = 0;
		for (size_t i = 0; i < p.n && !err; i++) {
			if (lim->deadline > 0 && aw_now() >= lim->deadline)
				err = -ETIMEDOUT;
			else
				removed += (size_t)remove_entry(dirfd, &p.names[i], lim, depth, &err);
		}
		size_t listed = p.n;
		pass_free(&p);
		if (err)
			return err;
		/* A pass that lists no name leaves an empty directory, even if
		 * its listing of "." and ".." never ended.  One that removes
		 * none of the names it lists will not do better next time. */
		if (listed == 0)
			return 0;
		if (removed == 0)
			return -ENOTEMPTY;
	}
	return -ENOTEMPTY;
}

int aw_remove_tree(int dirfd, const struct aw_tree_limits *lim)
{
	static const struct aw_tree_limits defaults = AW_TREE_LIMITS_DEFAULT;
	return remove_below(dirfd, lim ? lim : &defaults, 0);
}

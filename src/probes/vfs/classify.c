// SPDX-License-Identifier: GPL-2.0-or-later
/* The vfs family's pure logic: see vfs.h. */
#include "vfs.h"

#define NS_PER_S 1000000000LL
#define NS_PER_MS 1000000LL

static long long ns_of(const struct timespec *t)
{
	return (long long)t->tv_sec * NS_PER_S + t->tv_nsec;
}

void vfs_steps_add(struct vfs_steps *s, struct timespec t)
{
	if (s->n == 0)
		s->smallest = -1;
	else {
		long long d = ns_of(&t) - ns_of(&s->last);
		if (d < 0)
			d = -d;
		if (d != 0) {
			s->changes++;
			if (s->smallest < 0 || d < s->smallest)
				s->smallest = d;
		}
	}
	s->some_nsec = s->some_nsec || t.tv_nsec != 0;
	s->last = t;
	s->n++;
}

const char *vfs_grain_class(long long step_ns, bool all_whole_seconds)
{
	if (step_ns < 0)
		return all_whole_seconds ? "second" : "coarse";
	if (step_ns < NS_PER_MS)
		return "ns";
	if (step_ns <= 20 * NS_PER_MS)
		return "jiffy";
	if (all_whole_seconds && step_ns % NS_PER_S == 0)
		return "second";
	return "coarse";
}

size_t vfs_shebang_layout(size_t base_len, size_t total, size_t *lens, size_t max)
{
	size_t n = 0;
	if (total < base_len + 2)
		return 0;
	size_t left = total - base_len; /* bytes of "/NAME" parts still to make */
	while (left > VFS_SHEBANG_DIR_LEN + 1) {
		if (n == max)
			return 0;
		/* A directory, unless what remains after it could not be one
		 * "/X" at least. */
		size_t take = left - (VFS_SHEBANG_DIR_LEN + 1) >= 2 ? VFS_SHEBANG_DIR_LEN
								   : VFS_SHEBANG_DIR_LEN - 2;
		lens[n++] = take;
		left -= take + 1;
	}
	if (n == max)
		return 0;
	lens[n++] = left - 1;
	return n;
}

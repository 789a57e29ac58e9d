// SPDX-License-Identifier: GPL-2.0-or-later
/* The vfs family's pure logic: see vfs.h. */
#include "vfs.h"

static bool same_time(struct timespec a, struct timespec b)
{
	return a.tv_sec == b.tv_sec && a.tv_nsec == b.tv_nsec;
}

enum vfs_pair vfs_pair_of(struct timespec m1, struct timespec m2, struct timespec coarse)
{
	if (!same_time(m1, m2))
		return VFS_PAIR_FINE;
	if (same_time(m1, coarse))
		return VFS_PAIR_TICK;
	return m1.tv_nsec == 0 ? VFS_PAIR_SECOND : VFS_PAIR_OTHER;
}

const char *vfs_grain_class(const size_t count[VFS_PAIRS])
{
	static const char *const names[VFS_PAIRS] = { "ns", "jiffy", "second", "coarse" };
	size_t best = 0;
	for (size_t i = 1; i < VFS_PAIRS; i++)
		if (count[i] > count[best])
			best = i;
	return count[best] ? names[best] : NULL;
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

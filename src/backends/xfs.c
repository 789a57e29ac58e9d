// SPDX-License-Identifier: GPL-2.0-or-later
/* XFS made fresh by mkfs.xfs on a sparse image (xfsprogs wants 300 MB at
 * least).  Inodes are 512 bytes and may use half the space (the default
 * 25% stops near 750,000 files on the image for 1,000,000). */
#include "backend.h"

static enum aw_fs_rc xfs_prepare(const struct aw_backend *b, const struct aw_fs_opts *o,
				 struct aw_fs *fs, char **why)
{
	unsigned long long size = (512ULL << 20) + (unsigned long long)o->entries * 2048;
	const char *const args[] = { "-q", "-f", "-K", "-i", "maxpct=50", NULL };
	const struct aw_mkfs m = { .image_size = size, .args = args, .copies = true,
				   .copy_mount_data = "nouuid" };
	return aw_fs_mkfs_mount(b, o, fs, &m, why);
}

const struct aw_backend aw_backend_xfs = {
	.name = "xfs",
	.summary = "XFS from mkfs.xfs on a loop device",
	.fstype = "xfs",
	.mkfs = "mkfs.xfs",
	.loop = true,
	.block = true,
	.prepare = xfs_prepare,
};

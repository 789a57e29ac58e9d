// SPDX-License-Identifier: GPL-2.0-or-later
/* btrfs made fresh by mkfs.btrfs on a sparse image. */
#include "backend.h"

static enum aw_fs_rc btrfs_prepare(const struct aw_backend *b, const struct aw_fs_opts *o,
				   struct aw_fs *fs, char **why)
{
	unsigned long long size = (512ULL << 20) + (unsigned long long)o->entries * 1024;
	const char *const args[] = { "-q", "-f", "-K", NULL };
	const struct aw_mkfs m = { .image_size = size, .args = args };
	return aw_fs_mkfs_mount(b, o, fs, &m, why);
}

const struct aw_backend aw_backend_btrfs = {
	.name = "btrfs",
	.summary = "btrfs from mkfs.btrfs on a loop device",
	.fstype = "btrfs",
	.mkfs = "mkfs.btrfs",
	.loop = true,
	.block = true,
	.prepare = btrfs_prepare,
};

// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ext4 made fresh by mkfs.ext4 on a sparse image.  The directory hash seed
 * (-E hash_seed) and, through a mke2fs.conf of our own (MKE2FS_CONFIG),
 * the hash algorithm and the features are pinned, so that the hashes, and
 * with them the cookies and their collisions, are the same on every run
 * and every machine, whatever the distribution's mke2fs.conf says: a count
 * of 31-bit collisions is then a value to compare, not noise.
 */
#include "backend.h"
#include "lib/util.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Any fixed values would do; these are abiwatch's. */
#define EXT4_HASH_SEED "5eed0d1f-0a1b-4c2d-8e3f-a1b2c3d4e5f6"
#define EXT4_UUID      "ab1ea7c4-0000-4000-8000-000000000ec4"

/* e2fsprogs 1.47's defaults for ext4, with the hash algorithm said. */
static const char mke2fs_conf[] =
	"[defaults]\n"
	"\tbase_features = sparse_super,large_file,filetype,resize_inode,dir_index,ext_attr\n"
	"\tdefault_mntopts = acl,user_xattr\n"
	"\tenable_periodic_fsck = 0\n"
	"\tblocksize = 4096\n"
	"\tinode_size = 256\n"
	"\tinode_ratio = 16384\n"
	"\thash_alg = half_md4\n"
	"\n"
	"[fs_types]\n"
	"\text4 = {\n"
	"\t\tfeatures = has_journal,extent,huge_file,flex_bg,metadata_csum,64bit,dir_nlink,extra_isize\n"
	"\t}\n";

static enum aw_fs_rc ext4_prepare(const struct aw_backend *b, const struct aw_fs_opts *o,
				  struct aw_fs *fs, char **why)
{
	char inodes[32];
	/* Room for every entry's inode (256 bytes each) and its share of
	 * directory blocks, above a small file system; sparse, so unused
	 * space costs nothing. */
	unsigned long long size = (128ULL << 20) + (unsigned long long)o->entries * 1024;
	char *conf = xasprintf("%s/mke2fs.conf", o->base);
	FILE *f = fopen(conf, "we");

	bool written = f && fputs(mke2fs_conf, f) != EOF;
	if (f && fclose(f) != 0)
		written = false;
	if (!written) {
		*why = xasprintf("writing %s: %s", conf, strerror(errno));
		free(conf);
		return AW_FS_ERROR;
	}
	char *env_conf = xasprintf("MKE2FS_CONFIG=%s", conf);
	const char *const env[] = { env_conf, NULL };
	snprintf(inodes, sizeof(inodes), "%lu", o->entries + o->entries / 8 + 1024);
	const char *const args[] = {
		"-q", "-F", "-t", "ext4", "-b", "4096", "-N", inodes, "-U", EXT4_UUID,
		"-E", "hash_seed=" EXT4_HASH_SEED ",lazy_itable_init=1,lazy_journal_init=1,nodiscard",
		NULL,
	};
	/* noinit_itable: no background zeroing of inode tables competing
	 * with the probe. */
	const struct aw_mkfs m = {
		.image_size = size, .args = args, .env = env, .mount_data = "noinit_itable",
		/* Its UUID and hash seed are abiwatch's anyway. */
		.copies = true,
	};
	enum aw_fs_rc rc = aw_fs_mkfs_mount(b, o, fs, &m, why);
	if (rc == AW_FS_OK) {
		char *t = xasprintf("%s; mke2fs.conf: half_md4, e2fsprogs 1.47 ext4 features", fs->detail);
		free(fs->detail);
		fs->detail = t;
	}
	free(env_conf);
	free(conf);
	return rc;
}

const struct aw_backend aw_backend_ext4 = {
	.name = "ext4",
	.summary = "ext4 from mkfs.ext4 (hash seed " EXT4_HASH_SEED ", half_md4) on a loop device",
	.fstype = "ext4",
	.mkfs = "mkfs.ext4",
	.loop = true,
	.block = true,
	.prepare = ext4_prepare,
};

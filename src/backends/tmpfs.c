// SPDX-License-Identifier: GPL-2.0-or-later
/* tmpfs: a fresh instance, so that its directory offsets start from a new
 * allocator and nothing of the probe's own /tmp is in the way. */
#include "backend.h"
#include "lib/util.h"

#include <errno.h>
#include <stdlib.h>
#include <sys/mount.h>

static enum aw_fs_rc tmpfs_prepare(const struct aw_backend *b, const struct aw_fs_opts *o,
				   struct aw_fs *fs, char **why)
{
	char *mnt = aw_fs_subdir(o->base, b->name, why), *work = NULL;
	enum aw_fs_rc rc = AW_FS_ERROR;
	/* Empty files cost inodes, not blocks. */
	unsigned long inodes = 2 * o->entries + 1024;
	char *data = xasprintf("mode=0755,size=64m,nr_inodes=%lu", inodes);

	if (!mnt)
		goto out;
	if (aw_fs_mount(fs, "abiwatch-tmpfs", mnt, "tmpfs", MS_NOSUID | MS_NODEV, data, why) != 0) {
		rc = aw_fs_refused(errno, "mounting tmpfs", why);
		goto out;
	}
	if (!(work = aw_fs_subdir(mnt, "dir", why)) || aw_fs_open_dir(fs, work, why) != 0)
		goto out;
	fs->detail = xasprintf("tmpfs mounted at %s -o %s", mnt, data);
	rc = AW_FS_OK;
out:
	free(mnt);
	free(work);
	free(data);
	return rc;
}

const struct aw_backend aw_backend_tmpfs = {
	.name = "tmpfs",
	.summary = "a fresh tmpfs instance",
	.fstype = "tmpfs",
	.prepare = tmpfs_prepare,
};

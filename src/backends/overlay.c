// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * overlayfs over two fresh tmpfs instances, a lower and an upper layer.
 * Two shapes of directory matter, because overlayfs reads them
 * differently:
 *   overlay         a merged directory: present in the lower layer and
 *                   copied up by the first change, so it has both; its
 *                   entries come from a cache built at open and its
 *                   cookies are positions in that cache;
 *   overlay_single  a directory made through the mount, in the upper
 *                   layer only: readdir passes through to the upper
 *                   filesystem and its cookies.
 */
#include "backend.h"
#include "lib/util.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>

static enum aw_fs_rc overlay_make(const struct aw_backend *b, const struct aw_fs_opts *o,
				  struct aw_fs *fs, bool merged, char **why)
{
	char *lower_mnt = NULL, *upper_mnt = NULL, *upper = NULL, *work = NULL;
	char *mnt = NULL, *dir = NULL, *data = NULL, *name = NULL;
	char *lower_dir = NULL;
	enum aw_fs_rc rc = AW_FS_ERROR;
	unsigned long inodes = 2 * o->entries + 1024;
	char *tmpfs_data = xasprintf("mode=0755,size=64m,nr_inodes=%lu", inodes);

	name = xasprintf("%s-lower", b->name);
	if (!(lower_mnt = aw_fs_subdir(o->base, name, why)))
		goto out;
	free(name);
	name = xasprintf("%s-upper", b->name);
	if (!(upper_mnt = aw_fs_subdir(o->base, name, why)))
		goto out;
	if (aw_fs_mount(fs, "abiwatch-lower", lower_mnt, "tmpfs", MS_NOSUID | MS_NODEV,
			tmpfs_data, why) != 0 ||
	    aw_fs_mount(fs, "abiwatch-upper", upper_mnt, "tmpfs", MS_NOSUID | MS_NODEV,
			tmpfs_data, why) != 0) {
		rc = aw_fs_refused(errno, "mounting tmpfs", why);
		goto out;
	}
	if (!(upper = aw_fs_subdir(upper_mnt, "upper", why)) ||
	    !(work = aw_fs_subdir(upper_mnt, "work", why)) ||
	    !(mnt = aw_fs_subdir(o->base, b->name, why)))
		goto out;
	if (merged && !(lower_dir = aw_fs_subdir(lower_mnt, "dir", why)))
		goto out;
	data = xasprintf("lowerdir=%s,upperdir=%s,workdir=%s", lower_mnt, upper, work);
	if (aw_fs_mount(fs, "abiwatch-overlay", mnt, "overlay", MS_NOSUID | MS_NODEV, data,
			why) != 0) {
		/* Its work directory is made mode 000: root needs
		 * CAP_DAC_OVERRIDE to use it. */
		rc = aw_fs_refused(errno, errno == EACCES ? "mounting overlay (it needs "
				   "CAP_DAC_OVERRIDE)" : "mounting overlay", why);
		goto out;
	}
	/* Merged: "dir" exists below and is seen through the mount.  Single:
	 * mkdir through the mount makes it in the upper layer only. */
	if (!(dir = aw_fs_subdir(mnt, "dir", why)) || aw_fs_open_dir(fs, dir, why) != 0)
		goto out;
	fs->detail = xasprintf("overlay at %s -o %s (%s directory); both layers tmpfs -o %s",
			       mnt, data, merged ? "merged" : "upper-only", tmpfs_data);
	rc = AW_FS_OK;
out:
	free(lower_mnt);
	free(upper_mnt);
	free(upper);
	free(work);
	free(mnt);
	free(dir);
	free(data);
	free(name);
	free(lower_dir);
	free(tmpfs_data);
	return rc;
}

static enum aw_fs_rc overlay_prepare(const struct aw_backend *b, const struct aw_fs_opts *o,
				     struct aw_fs *fs, char **why)
{
	return overlay_make(b, o, fs, true, why);
}

static enum aw_fs_rc overlay_single_prepare(const struct aw_backend *b,
					    const struct aw_fs_opts *o, struct aw_fs *fs,
					    char **why)
{
	return overlay_make(b, o, fs, false, why);
}

const struct aw_backend aw_backend_overlay = {
	.name = "overlay",
	.summary = "a merged overlayfs directory (lower and upper layers, tmpfs)",
	.fstype = "overlay",
	.prepare = overlay_prepare,
};

const struct aw_backend aw_backend_overlay_single = {
	.name = "overlay_single",
	.summary = "an upper-only overlayfs directory (readdir passes through to tmpfs)",
	.fstype = "overlay",
	.prepare = overlay_single_prepare,
};

// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A directory of the host the user names (an NFS or GlusterFS mount, a
 * FUSE filesystem): the work happens in the fresh subdirectory of it that
 * the runner made for the probe (aw_host_dirfd()) and removes once the
 * probe's namespace is gone, so that not even a kill at the probe's
 * timeout or of abiwatch leaves it behind (core/hostdir.c).  Nothing
 * else there is touched.
 */
#include "backend.h"
#include "lib/util.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>

static enum aw_fs_rc path_prepare(const struct aw_backend *b, const struct aw_fs_opts *o,
				  struct aw_fs *fs, char **why)
{
	(void)b;
	const char *label = o->host_label ? o->host_label : "the directory given";
	if (o->host_dirfd < 0) {
		*why = xasprintf("%s: no directory descriptor", label);
		return AW_FS_ERROR;
	}
	fs->dirfd = fcntl(o->host_dirfd, F_DUPFD_CLOEXEC, 3);
	if (fs->dirfd < 0) {
		*why = xasprintf("%s: dup: %s", label, strerror(errno));
		return AW_FS_ERROR;
	}
	fs->dir = xasprintf("%s/%s", label, o->host_dirname ? o->host_dirname : "(scratch)");
	fs->detail = xasprintf("a fresh subdirectory %s", fs->dir);
	return AW_FS_OK;
}

const struct aw_backend aw_backend_path = {
	.name = "path",
	.summary = "a fresh subdirectory of a directory the user names",
	.host_state = true,
	.prepare = path_prepare,
};

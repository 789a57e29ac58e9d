// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A directory of the host the user names (an NFS or GlusterFS mount, a
 * FUSE filesystem): the work happens in a fresh subdirectory of it, made
 * and opened relative to the descriptor the caller holds, and removed by
 * aw_fs_release().  Nothing else there is touched.
 */
#include "backend.h"
#include "core/util.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

static enum aw_fs_rc path_prepare(const struct aw_backend *b, const struct aw_fs_opts *o,
				  struct aw_fs *fs, char **why)
{
	(void)b;
	const char *label = o->host_label ? o->host_label : "the directory given";
	if (o->host_dirfd < 0) {
		*why = xasprintf("%s: no directory descriptor", label);
		return AW_FS_ERROR;
	}
	fs->host_dirfd = fcntl(o->host_dirfd, F_DUPFD_CLOEXEC, 3);
	if (fs->host_dirfd < 0) {
		*why = xasprintf("%s: dup: %s", label, strerror(errno));
		return AW_FS_ERROR;
	}
	for (int tries = 0; tries < 16; tries++) {
		uint64_t r = 0;
		if (getrandom(&r, sizeof(r), 0) != (ssize_t)sizeof(r))
			r = (uint64_t)getpid() * 2654435761u + (uint64_t)tries;
		char name[64];
		snprintf(name, sizeof(name), ".abiwatch-%012llx",
			 (unsigned long long)(r & 0xffffffffffffULL));
		if (mkdirat(fs->host_dirfd, name, 0700) != 0) {
			if (errno == EEXIST)
				continue;
			*why = xasprintf("mkdir %s/%s: %s", label, name, strerror(errno));
			return AW_FS_ERROR;
		}
		fs->subdir = xstrdup(name);
		fs->dir = xasprintf("%s/%s", label, name);
		fs->dirfd = openat(fs->host_dirfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
				   O_CLOEXEC);
		if (fs->dirfd < 0) {
			*why = xasprintf("opening %s: %s", fs->dir, strerror(errno));
			return AW_FS_ERROR;
		}
		fs->detail = xasprintf("a fresh subdirectory %s", fs->dir);
		return AW_FS_OK;
	}
	*why = xasprintf("%s: no unused name for a subdirectory", label);
	return AW_FS_ERROR;
}

const struct aw_backend aw_backend_path = {
	.name = "path",
	.summary = "a fresh subdirectory of a directory the user names",
	.host_state = true,
	.prepare = path_prepare,
};

// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * open(O_CREAT | O_DIRECTORY): up to 5.6 it made a regular file and
 * returned it; from 5.7 it made the file and failed with ENOTDIR; since
 * 6.4 (43b450632676, backported to 6.1.30) it fails with EINVAL before
 * any lookup and makes nothing.  A proposal would have it make a
 * directory.  So both the answer and what is left behind are recorded,
 * in the probe's scratch tmpfs (the check precedes the filesystem).
 */
#include "vfs.h"
#include "lib/errname.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const struct aw_item open_items[] = {
	AW_OBS_ITEM("creat_directory", "open(new name, O_CREAT|O_DIRECTORY): fd (a regular "
		    "file's or a directory's) or the errno",
		    .change = "programs probing for an atomic mkdir-and-open, or relying on "
		    "EINVAL/ENOTDIR, take another path (gnulib documents the history)"),
	AW_OBS_ITEM("creat_directory_left", "what that open left at the name: nothing, file, "
		    "directory or other",
		    .change = "a failed open now leaves (or no longer leaves) a stray file behind"),
	AW_OBS_ITEM("creat_directory_existing", "open(existing directory, O_CREAT|O_DIRECTORY): "
		    "fd or the errno",
		    .change = "code opening a directory with O_CREAT as a precaution now fails "
		    "(EINVAL since 6.4, EISDIR before)"),
	AW_ITEMS_END
};

static const char *kind_of(int dirfd, const char *name)
{
	struct stat st;
	if (fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW) != 0)
		return errno == ENOENT ? "nothing" : "unknown";
	return S_ISREG(st.st_mode) ? "file" : S_ISDIR(st.st_mode) ? "directory" : "other";
}

/* "fd (file)", "fd (directory)" or the errno of openat(dirfd, name). */
static void observe_open(struct aw_ctx *ctx, const char *item, int dirfd, const char *name)
{
	int fd = openat(dirfd, name, O_CREAT | O_DIRECTORY | O_RDONLY | O_CLOEXEC, 0600);
	int err = errno;
	if (fd < 0) {
		aw_observe(ctx, item, "%s", aw_errname(err));
		return;
	}
	struct stat st;
	bool dir = fstat(fd, &st) == 0 && S_ISDIR(st.st_mode);
	aw_observe(ctx, item, "fd (%s)", dir ? "directory" : "file");
	close(fd);
}

static void open_run(struct aw_ctx *ctx)
{
	int dirfd = open(aw_tmpdir(ctx), O_DIRECTORY | O_RDONLY | O_CLOEXEC);
	if (dirfd < 0 || mkdirat(dirfd, "vfs-open-dir", 0700) != 0) {
		aw_error_rest(ctx, "%s in %s: %s", dirfd < 0 ? "open" : "mkdir", aw_tmpdir(ctx),
			      strerror(errno));
		return;
	}
	observe_open(ctx, "creat_directory", dirfd, "vfs-open-new");
	aw_observe(ctx, "creat_directory_left", "%s", kind_of(dirfd, "vfs-open-new"));
	observe_open(ctx, "creat_directory_existing", dirfd, "vfs-open-dir");
	close(dirfd);
}

static const char *const open_tags[] = {
	"linux-git:43b450632676", "linux-git:973d4b73fbaf", "man:open(2)", "posix:open", NULL,
};

const struct aw_probe vfs_open_probes[] = {
	{
		.name = "open",
		.summary = "open(O_CREAT|O_DIRECTORY): what it answers and what it leaves",
		.run = open_run,
		.items = open_items,
		.tags = open_tags,
	},
	AW_PROBES_END,
};

// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The vfs family: what programs read from descriptors and names that the
 * VFS decides (docs/catalogue.md, "vfs"): the identity of pidfds and
 * anonymous-inode descriptors (lsof), open(O_CREAT|O_DIRECTORY), inotify
 * on pseudo files, long "#!" lines, and per filesystem O_TMPFILE and
 * flink, timestamp granularity and ordering (gnulib), rename and link
 * corner cases.  The filesystem probes are one per backend, as the
 * dirent family's (backends/target.h); --vfs-path LABEL=DIR adds one.
 */
#include "vfs.h"

static struct aw_probe *path_instantiate(const char *value, char **why)
{
	return aw_target_path_probe(&vfs_fs_path_template, "names and times", value, why);
}

static const struct aw_param vfs_params[] = {
	{ .name = "fs", .metavar = "NAME[,NAME...]", .type = AW_PARAM_LIST, .selects = true,
	  .help = "vfs: run only these of its probes: filesystems (tmpfs, ext4, xfs, btrfs, "
		  "overlay) and the others by name (anon, open, inotify, shebang)" },
	{ .name = "path", .metavar = "LABEL=DIR", .instantiate = path_instantiate,
	  .release = aw_target_path_release,
	  .help = "vfs: also probe names and times in a fresh subdirectory of DIR, as vfs.LABEL" },
	{ .name = NULL },
};

static const struct aw_probe *const tables[] = {
	vfs_anon_probes, vfs_open_probes, vfs_inotify_probes, vfs_shebang_probes, vfs_fs_probes,
	NULL,
};

static const struct aw_family vfs_family = {
	.name = "vfs",
	.summary = "descriptor identity (pidfd, anonymous inodes), open flags, O_TMPFILE and "
		   "flink, timestamps, inotify on pseudo files, #! lines, rename and link",
	.tables = tables,
	.params = vfs_params,
};

AW_FAMILY(vfs_family);

/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Backends: where a probe gets a fresh, empty directory on a given kind of
 * filesystem.  One file per backend (tmpfs.c, ext4.c, xfs.c, btrfs.c,
 * overlay.c, path.c); any family may use them.
 *
 * A block filesystem is made with the real mkfs program on a sparse image
 * in the caller's private directory, attached to a loop device with
 * LO_FLAGS_AUTOCLEAR and mounted in the caller's private mount namespace,
 * so that the device and the mount vanish with the namespace even when
 * nothing gets to call aw_fs_release() (a SIGKILL).  The path backend
 * works in the fresh subdirectory of a host directory that the runner
 * made for the probe and removes after it.
 */
#ifndef ABIWATCH_BACKEND_H
#define ABIWATCH_BACKEND_H

#include <stdbool.h>
#include <stddef.h>

/* What aw_fs_prepare() returns. */
enum aw_fs_rc {
	AW_FS_OK = 0,
	AW_FS_SKIP = 1,   /* the kernel or the machine lacks something: *why */
	AW_FS_ERROR = -1, /* the set-up itself broke (mkfs failed...): *why */
};

struct aw_fs_opts {
	/* An existing directory, private to the caller, for images and
	 * mount points (a probe's aw_tmpdir()). */
	const char *base;
	/* How many files the caller means to create: sizes images and
	 * inode tables, for AW_FS_ENTRIES_FLOOR at least, so that every
	 * family's image of a kind is the same and a run makes it once. */
	unsigned long entries;
	/* A directory the run's probes share (aw_run_dirfd()): a block
	 * filesystem's image, fresh from mkfs, is kept there by the first
	 * probe that makes it and copied by the others instead of running
	 * mkfs again (3 mkfs of each kind in a run of every family).  0 or
	 * less: none, each makes its own (a zeroed struct has none). */
	int shared_dirfd;
	/* The path backend: the directory to work in, an O_DIRECTORY
	 * descriptor (aw_host_dirfd()), and how to name it in messages:
	 * the user's label and the subdirectory's name (aw_host_dirname()). */
	int host_dirfd;
	const char *host_label;
	const char *host_dirname;
};

/* dirent's default: what vfs and fdio, which create a few files, are
 * sized for too. */
#define AW_FS_ENTRIES_FLOOR 10000UL

struct aw_fs {
	const struct aw_backend *backend;
	char *dir;       /* the working directory, for messages only (the
			    path backend's is not reachable by name) */
	int dirfd;       /* O_DIRECTORY | O_CLOEXEC descriptor of it: use this */
	char *detail;    /* how it was made, for a note ("mkfs.ext4 -E ...") */

	/* Private to the backends. */
	char *mounts[4]; /* mount points to unmount, in order */
	size_t nmounts;
	int loop_nr[2];  /* loop devices created (not found free), or -1 */
};

struct aw_backend {
	const char *name;      /* "ext4": also a probe name, no spaces */
	const char *summary;
	const char *fstype;    /* must be in /proc/filesystems (or be a module
				  of this kernel); NULL: nothing needed */
	const char *mkfs;      /* program that must be found; NULL: none */
	bool loop;             /* needs /dev/loop-control */
	bool block;            /* mounts a block device: needs CAP_SYS_ADMIN in
				  the initial user namespace */
	bool host_state;       /* works on the host: the caller must empty the
				  directory, also after its work failed */
	/* Make the working directory; fs is zeroed with dirfd -1 on entry.
	 * The generic checks of fstype and mkfs have passed. */
	enum aw_fs_rc (*prepare)(const struct aw_backend *b, const struct aw_fs_opts *o,
				 struct aw_fs *fs, char **why);
};

extern const struct aw_backend aw_backend_tmpfs, aw_backend_ext4, aw_backend_xfs,
	aw_backend_btrfs, aw_backend_overlay, aw_backend_overlay_single, aw_backend_path;

/* Every backend that needs no argument, in a stable order; NULL-terminated. */
extern const struct aw_backend *const aw_backends[];
const struct aw_backend *aw_backend_find(const char *name);

/* Why b cannot be used by a probe of this run, or NULL when it can: its
 * filesystem type, its mkfs, loop devices, the privilege to mount a
 * block device (malloc'd).  The same checks as aw_fs_prepare()'s. */
char *aw_backend_unusable(const struct aw_backend *b);
/* The names of the backends of aw_backends[] usable here, comma-separated,
 * "none" for none (malloc'd): a snapshot's env.fs. */
char *aw_backends_usable(void);

/* Check what b needs, then make a fresh working directory.  On AW_FS_OK
 * the caller owns fs and must aw_fs_release() it; otherwise *why is set
 * (malloc'd) and nothing is left to release. */
enum aw_fs_rc aw_fs_prepare(const struct aw_backend *b, const struct aw_fs_opts *o,
			    struct aw_fs *fs, char **why);
/* Undo aw_fs_prepare(): close, unmount, remove what was made on the host.
 * Returns 0, or -1 with *why set (malloc'd; may be NULL). */
int aw_fs_release(struct aw_fs *fs, char **why);

/* ---- helpers for the backends (backend.c, loop.c) ---- */

/* Why the kernel cannot mount fstype, or NULL when it can. */
char *aw_fs_type_missing(const char *fstype);
/* Create a sparse file of size bytes.  0 or -errno. */
int aw_make_image(const char *path, unsigned long long size);
/* Attach image to a free loop device with LO_FLAGS_AUTOCLEAR.  Returns an
 * open descriptor of the device (keep it open until the mount holds the
 * device, then close it: the device detaches itself when its last user
 * goes), its path in *dev (malloc'd), and in *created the device number
 * when this call had to create the device (else -1).  -1 and *why. */
int aw_loop_attach(const char *image, char **dev, int *created, char **why);
/* Remove a loop device this process created, once it is detached. */
void aw_loop_remove(int nr);
/* mkdir -p for one level under base; returns the malloc'd path. */
char *aw_fs_subdir(const char *base, const char *name, char **why);
/* Open dir as the working directory of fs and record it. */
int aw_fs_open_dir(struct aw_fs *fs, const char *dir, char **why);
/* Mount and remember the mount point for aw_fs_release().  0 or -1, *why,
 * errno. */
int aw_fs_mount(struct aw_fs *fs, const char *source, const char *target,
		const char *type, unsigned long flags, const char *data, char **why);
/* What a failure of `what` ("mounting overlay") with errno err means:
 * AW_FS_SKIP for what this machine or this process may not do (EPERM,
 * EACCES: privilege, an LSM, a container; ENODEV: no such filesystem
 * type), with *why replaced by a short reason; AW_FS_ERROR otherwise,
 * *why kept. */
enum aw_fs_rc aw_fs_refused(int err, const char *what, char **why);
/* The usual path of a mkfs-made filesystem: image, mkfs, loop, mount,
 * working directory.  mkfs_args are the options of b->mkfs, to which the
 * image is appended; mkfs_env is added to its environment (may be NULL). */
struct aw_mkfs {
	unsigned long long image_size;
	const char *const *args;
	const char *const *env;
	const char *mount_data;
	/* A copy of an image fresh from mkfs with these args may stand for
	 * a new mkfs (struct aw_fs_opts.shared_dirfd): the filesystem is the
	 * same but for what mkfs draws at random.  Not for btrfs: copies
	 * share the filesystem id, and the kernel takes two mounted at once
	 * for devices of one filesystem. */
	bool copies;
	/* Mount options a copy needs besides mount_data: "nouuid" for XFS,
	 * which refuses a second mount of one UUID.  NULL: none. */
	const char *copy_mount_data;
};
enum aw_fs_rc aw_fs_mkfs_mount(const struct aw_backend *b, const struct aw_fs_opts *o,
			       struct aw_fs *fs, const struct aw_mkfs *m, char **why);

#endif

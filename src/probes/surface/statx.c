// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * surface.statx: the statx(2) fields and attributes real filesystems fill
 * for a regular file: ext4, xfs and btrfs, each made by the backends
 * (src/backends: mkfs on a loop device in the probe's own mount
 * namespace, gone with it).  surface.flags reads /proc, tmpfs and the
 * machine's root only, where the fields that depend on a block
 * filesystem never show: STATX_DIOALIGN (6.1, commit 825cf206ed51; ext4 and xfs: the
 * alignment O_DIRECT needs, which databases such as PostgreSQL, MySQL and
 * QEMU's block layer read instead of guessing 512 or 4096), STATX_SUBVOL
 * (6.10, btrfs and bcachefs: the subvolume, which backup tools and
 * systemd-homed tell files apart by), STATX_WRITE_ATOMIC (6.11: the
 * untorn write sizes databases use to drop double writes) and
 * STATX_DIO_READ_ALIGN (6.14).  Each field is asked alone, as
 * surface.flags asks (statx(2): stx_mask "what has been filled in").
 *
 *   mask.FS             the fields filled, by name
 *   attributes_mask.FS  stx_attributes_mask, the attributes FS supports
 *
 * A filesystem this machine cannot make (no mkfs, no loop devices, no
 * CAP_SYS_ADMIN) is a skip with the cause fs:NAME.
 */
#include "surface.h"
#include "backends/backend.h"
#include "lib/errname.h"
#include "lib/util.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/stat.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

static const struct {
	unsigned bit;
	const char *name;
} statx_fields[] = {
	{ 0x1, "TYPE" }, { 0x2, "MODE" }, { 0x4, "NLINK" }, { 0x8, "UID" }, { 0x10, "GID" },
	{ 0x20, "ATIME" }, { 0x40, "MTIME" }, { 0x80, "CTIME" }, { 0x100, "INO" }, { 0x200, "SIZE" },
	{ 0x400, "BLOCKS" }, { 0x800, "BTIME" }, { 0x1000, "MNT_ID" }, { 0x2000, "DIOALIGN" },
	{ 0x4000, "MNT_ID_UNIQUE" }, { 0x8000, "SUBVOL" }, { 0x10000, "WRITE_ATOMIC" },
	{ 0x20000, "DIO_READ_ALIGN" },
};

/* The fields statx fills when asked for each alone: asked for every bit at
 * once, a kernel may fill one of two alternatives only (fs/stat.c since
 * 6.8: STATX_MNT_ID_UNIQUE, when asked, takes the place of STATX_MNT_ID),
 * and a field it still fills would read as vanished.  Bits above the
 * fields named are asked one at a time too, so that a new field shows. */
int surface_statx_fields(int dirfd, const char *path, char *buf, size_t size, unsigned long long *attributes_mask)
{
	unsigned filled = 0;
	*attributes_mask = 0;
	for (unsigned b = 0; b < 31; b++) {
		struct statx stx;
		memset(&stx, 0, sizeof(stx));
		if (syscall(SYS_statx, dirfd, path, 0, 1U << b, &stx) != 0)
			return errno;
		filled |= stx.stx_mask & (1U << b);
		*attributes_mask = stx.stx_attributes_mask;
	}
	*buf = '\0';
	unsigned rest = filled;
	for (size_t i = 0; i < AW_ARRAY_SIZE(statx_fields); i++)
		if (rest & statx_fields[i].bit) {
			snprintf(buf + strlen(buf), size - strlen(buf), "%s%s", *buf ? "," : "", statx_fields[i].name);
			rest &= ~statx_fields[i].bit;
		}
	if (rest)
		snprintf(buf + strlen(buf), size - strlen(buf), "%s%#x", *buf ? "," : "", rest);
	if (!*buf)
		snprintf(buf, size, "0");
	return 0;
}

#define STATX_FS(X) X(ext4) X(xfs) X(btrfs)

#define FS_ITEMS(fs)                                                                                 \
	AW_OBS_ITEM("mask." #fs, "the fields statx fills for a regular file of a fresh " #fs " (each field asked alone), by name", \
		    .change = #fs " fills statx fields it did not (DIOALIGN, SUBVOL, WRITE_ATOMIC...) or stops filling them: programs that read them fall back to guesses", \
		    .object = #fs),                                                                     \
	AW_OBS_ITEM("attributes_mask." #fs, "the stx_attributes_mask of a regular file of a fresh " #fs ", as hex", \
		    .change = "the attributes the kernel can report for a file of " #fs " (a mask, not the file's attributes; the VFS adds some for every filesystem, such as STATX_ATTR_VERITY from 6.12.117)", .object = #fs),

static const struct aw_item statx_items[] = {
	STATX_FS(FS_ITEMS)
	AW_ITEMS_END
};

static void observe_fs(struct aw_ctx *ctx, const struct aw_backend *b)
{
	char mask_item[64], attr_item[64];
	snprintf(mask_item, sizeof(mask_item), "mask.%s", b->name);
	snprintf(attr_item, sizeof(attr_item), "attributes_mask.%s", b->name);
	char *why = NULL, cause[32];
	char *base = aw_fs_subdir(aw_tmpdir(ctx), b->name, &why);
	struct aw_fs fs;
	struct aw_fs_opts o = { .base = base, .host_dirfd = -1, .shared_dirfd = aw_run_dirfd(ctx),
				.entries = AW_FS_ENTRIES_FLOOR };
	enum aw_fs_rc rc = base ? aw_fs_prepare(b, &o, &fs, &why) : AW_FS_ERROR;
	free(base);
	snprintf(cause, sizeof(cause), "fs:%s", b->name);
	if (rc == AW_FS_SKIP) {
		aw_skip_cause(ctx, mask_item, cause, "%s", why ? why : "cannot be made here");
		aw_skip_cause(ctx, attr_item, cause, "%s", why ? why : "cannot be made here");
	} else if (rc != AW_FS_OK) {
		aw_error(ctx, mask_item, "making %s: %s", b->name, why ? why : "failed");
		aw_error(ctx, attr_item, "making %s: %s", b->name, why ? why : "failed");
	}
	free(why);
	if (rc != AW_FS_OK)
		return;
	int fd = openat(fs.dirfd, "f", O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (fd < 0 || write(fd, "abiwatch\n", 9) != 9) {
		aw_error(ctx, mask_item, "a file on %s: %s", b->name, aw_errname(errno));
		aw_error(ctx, attr_item, "a file on %s: %s", b->name, aw_errname(errno));
	} else {
		char buf[512];
		unsigned long long attributes;
		int err = surface_statx_fields(fs.dirfd, "f", buf, sizeof(buf), &attributes);
		if (err) {
			aw_observe(ctx, mask_item, "%s", aw_errname(err));
			aw_observe(ctx, attr_item, "%s", aw_errname(err));
		} else {
			aw_observe(ctx, mask_item, "%s", buf);
			aw_observe(ctx, attr_item, "%#llx", attributes);
		}
	}
	if (fd >= 0)
		close(fd);
	why = NULL;
	if (aw_fs_release(&fs, &why) != 0)
		aw_note(ctx, "clean-up of %s: %s", b->name, why ? why : "failed");
	free(why);
}

static void statx_run(struct aw_ctx *ctx)
{
	static const struct aw_backend *const backends[] = { &aw_backend_ext4, &aw_backend_xfs, &aw_backend_btrfs };
	for (size_t i = 0; i < AW_ARRAY_SIZE(backends); i++)
		observe_fs(ctx, backends[i]);
}

static const char *const tags[] = { "man:statx(2)", NULL };

const struct aw_probe surface_statx_probes[] = {
	{
		.name = "statx",
		.summary = "the statx fields and attributes ext4, xfs and btrfs fill for a regular file (DIOALIGN, SUBVOL, WRITE_ATOMIC)",
		.run = statx_run,
		.items = statx_items,
		.tags = tags,
		.timeout_s = 120,
	},
	AW_PROBES_END,
};

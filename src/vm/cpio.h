/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A writer of cpio archives in the "newc" format (the kernel's
 * Documentation/driver-api/early-userspace/buffer-format.rst), the one an
 * initramfs is read in.  Uncompressed: the guest unpacks it faster than it
 * could decompress anything under TCG.  Every entry is owned by root with
 * mtime 0, so the same inputs give the same bytes; missing parent
 * directories are added (mode 0755) before an entry that needs them.
 */
#ifndef ABIWATCH_VM_CPIO_H
#define ABIWATCH_VM_CPIO_H

#include <stddef.h>
#include <sys/types.h>

struct aw_cpio {
	int fd;          /* where the archive goes (appended to) */
	unsigned ino;
	int err;         /* first errno, 0 while all is well */
	char **dirs;     /* directories written so far */
	size_t ndirs;
	char **names;    /* every name written, to refuse duplicates */
	size_t nnames;
	unsigned long long bytes;
};

void aw_cpio_init(struct aw_cpio *c, int fd);
/* Paths are relative to the archive's root, without a leading "/". */
int aw_cpio_dir(struct aw_cpio *c, const char *path, unsigned mode);
int aw_cpio_mem(struct aw_cpio *c, const char *path, unsigned mode, const void *data,
		size_t len);
/* len bytes of fd from offset off. */
int aw_cpio_fd(struct aw_cpio *c, const char *path, unsigned mode, int fd, off_t off,
	       size_t len);
int aw_cpio_symlink(struct aw_cpio *c, const char *path, const char *target);
/* A device node: mode is S_IFCHR or S_IFBLK with the permissions. */
int aw_cpio_node(struct aw_cpio *c, const char *path, unsigned mode, unsigned major,
		 unsigned minor);
/* Whether path is already in the archive. */
int aw_cpio_has(const struct aw_cpio *c, const char *path);
/* Write the trailer.  0, or -1 with errno (the first error of any call). */
int aw_cpio_finish(struct aw_cpio *c);
void aw_cpio_free(struct aw_cpio *c);

#endif

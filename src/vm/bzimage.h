/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The setup header of an x86 bzImage (the kernel's boot protocol,
 * Documentation/arch/x86/boot.rst): the release a kernel image names,
 * read without booting it.
 */
#ifndef ABIWATCH_VM_BZIMAGE_H
#define ABIWATCH_VM_BZIMAGE_H

/* The release a bzImage carries in its setup header ("6.1.0-57-cloud-amd64"),
 * malloc'd, or NULL with *err when fd is not a bzImage. */
char *aw_bzimage_release(int fd, char **err);

#endif

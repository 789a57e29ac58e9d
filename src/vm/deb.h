/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The kernel of a linux-image .deb (--deb), read in place with libarchive:
 * the ar archive, its data.tar member whatever its compression (xz as
 * Debian's are, zstd, gzip, bzip2, lzma or none) and the tar inside
 * (ustar, GNU and pax), and its control.tar's control file for the
 * Version that orders kernels.  What a guest needs goes into anonymous files;
 * nothing is unpacked into a directory and no program is run.
 */
#ifndef ABIWATCH_VM_DEB_H
#define ABIWATCH_VM_DEB_H

#include "modules.h"

#include <stdbool.h>

/* What else of a package the guest is given, at the same path: its
 * boot/config-RELEASE, which the probes read where the kernel has no
 * /proc/config.gz (sysctl.kconfig). */
struct aw_deb_boot {
	char *config_path; /* "boot/config-6.1.0-57-cloud-amd64", or NULL */
	char *config;
	size_t config_len;
};
void aw_deb_boot_free(struct aw_deb_boot *b);

/* Read a linux-image .deb: *kernel_fd gets an anonymous file holding
 * boot/vmlinuz-*, *tree its lib/modules/RELEASE (release included),
 * *boot its boot/config-* when it has one.  0, or -1 with *err
 * (malloc'd). */
int aw_deb_read(const char *deb, int *kernel_fd, struct aw_modtree *tree, struct aw_deb_boot *boot,
		char **err);

/* The same from an open file (read from its current offset); name is
 * what messages call it.  aw_deb_read() is this after checking the file;
 * the fuzz target (tests/fuzz/fuzz_deb.c) feeds it bytes. */
int aw_deb_read_fd(int fd, const char *name, int *kernel_fd, struct aw_modtree *tree,
		   struct aw_deb_boot *boot, char **err);

/* The Version field of a package's control file (its control.tar.*,
 * whatever the compression), as `dpkg-deb --field DEB Version` prints
 * it; malloc'd, or NULL with *err (malloc'd).  _fd reads an open file
 * from its offset (the fuzz target's way in). */
char *aw_deb_version(const char *deb, char **err);
char *aw_deb_version_fd(int fd, const char *name, char **err);
/* Any field of it ("Package"), the same way. */
char *aw_deb_field(const char *deb, const char *field, char **err);
char *aw_deb_field_fd(int fd, const char *name, const char *field, char **err);

/* The value of field in a control file's first paragraph (field names
 * in any case, the value without the blanks around it), malloc'd, or
 * NULL when it has none, an empty one or one holding a NUL byte. */
char *aw_deb_control_field(const char *control, size_t len, const char *field);

/* Whether a file starts like a Debian package (an ar archive). */
bool aw_is_deb(const char *path);

#endif

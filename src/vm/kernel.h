/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The kernel a guest boots: a bzImage of the host (--kernel), or the one
 * in a linux-image .deb (--deb), read with `dpkg-deb --fsys-tarfile` into
 * anonymous files (the tar stream is parsed here; nothing is unpacked into
 * a directory).  And whether KVM really works here.
 */
#ifndef ABIWATCH_VM_KERNEL_H
#define ABIWATCH_VM_KERNEL_H

#include "modules.h"

#include <stdbool.h>

/* The release a bzImage carries in its setup header ("6.1.0-57-cloud-amd64"),
 * malloc'd, or NULL with *err when fd is not a bzImage. */
char *aw_bzimage_release(int fd, char **err);

/* Read a linux-image .deb: *kernel_fd gets an anonymous file holding
 * boot/vmlinuz-*, *tree its lib/modules/RELEASE (release included).
 * 0, or -1 with *err (malloc'd). */
int aw_deb_read(const char *deb, int *kernel_fd, struct aw_modtree *tree, char **err);

/* Whether a file starts like a Debian package (an ar archive). */
bool aw_is_deb(const char *path);

/* Whether /dev/kvm runs a guest here: a tiny real-mode program must reach
 * its OUT instruction within a second, in a child that is killed if not
 * (a nested KVM that accepts the ioctls but never runs the guest is
 * common in CI).  NULL when KVM works, else why not (malloc'd). */
char *aw_kvm_unusable(void);

#endif

/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The kernel a guest boots: a bzImage of the host (--kernel), or the one
 * in a linux-image .deb (--deb), read with `dpkg-deb --fsys-tarfile` into
 * anonymous files (the tar stream is parsed here; nothing is unpacked into
 * a directory).  The bzImage header is read by bzimage.h, KVM tried by
 * kvm.h.
 */
#ifndef ABIWATCH_VM_KERNEL_H
#define ABIWATCH_VM_KERNEL_H

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

/* Whether a file starts like a Debian package (an ar archive). */
bool aw_is_deb(const char *path);

/* The release of a kernel argument (bzImage or .deb) without booting it,
 * malloc'd, or NULL with *err. */
char *aw_kernel_release(const char *path, char **err);

/* A kernel as a command line names it: a linux-image .deb, a bzImage, or
 * BZIMAGE:MODULES_DIR; release read now (from the setup header, or the
 * package's modules). */
struct aw_kernel_spec {
	char *kernel, *deb, *modules; /* what aw_vm_opts wants; NULLs */
	char *release;
	char *version;                /* a package's Version, else NULL */
};
/* 0, or -1 with *err naming the file and what it is not (malloc'd).  With
 * want_version, a package's Version field is read too (dpkg-deb). */
int aw_kernel_spec_parse(const char *spec, bool want_version, struct aw_kernel_spec *k,
			 char **err);
void aw_kernel_spec_free(struct aw_kernel_spec *k);
/* Version order: two packages by their versions as dpkg orders them
 * (dpkg --compare-versions: 6.12.118-1~deb12u1 before 6.12.118-1),
 * anything else by release (strverscmp).  <0, 0, >0. */
int aw_kernel_spec_cmp(const struct aw_kernel_spec *a, const struct aw_kernel_spec *b);

#endif

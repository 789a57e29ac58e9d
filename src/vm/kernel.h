/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The kernel a guest boots as a command line names it: a bzImage of the
 * host (--kernel, its header read by bzimage.h), the one in a linux-image
 * .deb (--deb, read by deb.h), or a bzImage and its module tree; its
 * release, and two kernels' order.
 */
#ifndef ABIWATCH_VM_KERNEL_H
#define ABIWATCH_VM_KERNEL_H

#include <stdbool.h>

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
	char *package;                /* and its Package, with the Version */
};
/* 0, or -1 with *err naming the file and what it is not (malloc'd).  With
 * want_version, a package's Version field is read too (dpkg-deb). */
int aw_kernel_spec_parse(const char *spec, bool want_version, struct aw_kernel_spec *k,
			 char **err);
void aw_kernel_spec_free(struct aw_kernel_spec *k);
/* Version order: two packages by their versions as dpkg orders them
 * (lib/debver.h: 6.12.118-1~deb12u1 before 6.12.118-1),
 * anything else by release (strverscmp).  <0, 0, >0. */
int aw_kernel_spec_cmp(const struct aw_kernel_spec *a, const struct aw_kernel_spec *b);

#endif

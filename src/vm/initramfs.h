/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The initramfs a guest boots, written as a newc cpio into an anonymous
 * file:
 *
 *   init                        build/vm/abiwatch-init (static)
 *   usr/bin/abiwatch            build/static/abiwatch (static)
 *   usr/libexec/abiwatch/...    the helpers (abiwatch-FAMILY-m32, static)
 *   lib/modules/RELEASE/...     the modules, decompressed
 *   vm/modules, vm/modprobe     which init loads at boot, and what each name
 *   sbin/modprobe -> /init      or alias loads when the kernel asks
 *   vm/args, vm/config          what to run and until when
 *   vm/setup                    commands to run first (--setup), their
 *   HOSTPATH/PROGRAM            programs at their host paths, with the
 *                               libraries ldd(1) resolves for them
 *   usr/sbin/mkfs.*             the programs the backends run, with the
 *   lib/..., lib64/...          libraries ldd(1) resolves for them
 *   boot/config-RELEASE         the configuration of a kernel from a .deb
 *   dev/console                 so that the kernel gives init a console
 */
#ifndef ABIWATCH_VM_INITRAMFS_H
#define ABIWATCH_VM_INITRAMFS_H

#include "modules.h"

#include <stdbool.h>
#include <stddef.h>

struct aw_initramfs_opts {
	const char *init;          /* the static /init */
	const char *abiwatch;      /* the static abiwatch */
	const char *const *helpers; /* host paths of helpers, NULL-terminated */
	struct aw_modtree *tree;   /* may be NULL: no modules */
	const struct aw_modplan *plan;
	const char *const *eager;  /* wanted names loaded at boot, NULL-ended;
				      the others load on request_module() */
	char *const *run_args;
	size_t nrun_args;
	double deadline;           /* guest uptime by which the run stops */
	bool stretch;              /* the guest stretches it by its slowness */
	const char *const *programs; /* names or paths of programs to copy
					with their libraries, NULL-terminated */
	char *const *files;        /* extra "HOST[=GUEST]" files */
	size_t nfiles;
	char *const *setups;       /* "PROGRAM ARG..." to run before the probes */
	size_t nsetups;
	/* A file of the kernel's package at its path ("boot/config-RELEASE"),
	 * unless a --file put one there; NULL: none. */
	const char *package_path;
	const char *package_data;
	size_t package_len;
};

struct aw_initramfs_info {
	unsigned long long bytes;
	size_t nmodules;
	char **notes;  /* what could not be included, and why */
	size_t nnotes;
};

/* Why nothing of the host's can be at path in the guest, malloc'd ("/dev/x
 * is under /dev, ..."), or NULL when it can: the path must be absolute and
 * plain (no empty, '.' or '..' component), and neither under a directory
 * whose contents the guest's init hides nor one of its own (guest.h). */
char *aw_guest_path_refused(const char *path);
/* The guest path of --file SPEC ("HOST[=GUEST]"; HOST's own path without
 * GUEST), relative to the initramfs's root, malloc'd; or NULL with *err
 * (malloc'd, naming the option) when no file can go there. */
char *aw_guest_file_path(const char *spec, char **err);
/* The program of --setup CMD as it goes into the guest: its real path on
 * the host (PATH searched for a bare name), malloc'd; or NULL with *err
 * (naming the option) when it is missing, cannot run or would be hidden. */
char *aw_setup_program(const char *cmd, char **err);

/* Write the initramfs to fd.  0, or -1 with *err (malloc'd). */
int aw_initramfs_build(const struct aw_initramfs_opts *o, int fd, struct aw_initramfs_info *info,
		       char **err);
void aw_initramfs_info_free(struct aw_initramfs_info *info);

#endif

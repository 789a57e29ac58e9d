/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The surface family: the shape of the ABI swept from tables, so that a
 * system call, a flag bit or a key of a /proc file that appears or
 * vanishes is one line of a diff on the day it lands.
 */
#ifndef ABIWATCH_SURFACE_H
#define ABIWATCH_SURFACE_H

#include "core/probe.h"

#define SURFACE_HELPER "abiwatch-surface-m32"
#define SURFACE_HELPER_MS 90000

extern const struct aw_probe surface_syscalls_probes[];
extern const struct aw_probe surface_flags_probes[];
extern const struct aw_probe surface_text_probes[];
extern const struct aw_probe surface_kconfig_probes[];
extern const struct aw_probe surface_io_uring_probes[];
extern const struct aw_probe surface_sockets_probes[];
extern const struct aw_probe surface_statx_probes[];
extern const struct aw_probe surface_lifecycle_probes[];

/* Which surface.kconfig option decides a swept call (syscalls.c) or an
 * element of a key list (text.c): witness.c. */
extern const struct aw_witness_rule surface_call_witness;
extern const struct aw_witness_rule surface_text_witness;

/* The statx(2) fields filled for path (relative to dirfd), each asked
 * alone, as names ("TYPE,MODE,..."; "0": none) in buf, and the
 * attributes mask: 0, or the errno of the first refused ask (statx.c). */
int surface_statx_fields(int dirfd, const char *path, char *buf, size_t size, unsigned long long *attributes_mask);

#endif

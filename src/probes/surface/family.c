// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The surface family: which system calls exist (x86-64 and i386), which
 * flag bits and command values the calls programs use accept, and the
 * key sets of the /proc and /sys text files tools parse.  Hand-written
 * probes see the breaks someone knew about; a sweep turns every change of
 * the interface's shape into a diff line (docs/catalogue.md).  Each file
 * declares its probes in a table; this lists them in order.
 */
#include "surface.h"

static const struct aw_probe *const tables[] = {
	surface_syscalls_probes, surface_flags_probes, surface_text_probes, surface_io_uring_probes,
	surface_sockets_probes, surface_statx_probes, surface_lifecycle_probes, surface_kconfig_probes, NULL,
};

static const struct aw_family surface_family = {
	.name = "surface",
	.summary = "the ABI's shape, swept: which system calls exist, which flags and commands each accepts, /proc key sets",
	.tables = tables,
	.helper32 = SURFACE_HELPER,
};

AW_FAMILY(surface_family);

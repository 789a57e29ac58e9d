// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The process family: what debuggers, init systems, container runtimes
 * and language runtimes rely on when they start, trace, signal and wait
 * for processes.  execve() of hand-made ELF files and its limits,
 * personality(2), forced signals seen by a tracer, wait and ptrace
 * requests, /proc/PID text that tools parse, user namespace maps, pidfds
 * and clone3, and the 32-bit caller (docs/catalogue.md).  Each file
 * declares its probes in a table; this lists them in order.
 */
#include "process.h"

static const struct aw_probe *const tables[] = {
	process_exec_probes, process_personality_probes, process_signal_probes, process_ptrace_probes, process_procfs_probes, process_userns_probes, process_pidfd_probes, process_compat32_probes, NULL,
};

static const struct aw_family process_family = {
	.name = "process",
	.summary = "exec, personality, signals, ptrace and wait, /proc/PID text, user namespaces, pidfd and clone3",
	.tables = tables,
	.helper32 = PROCESS_HELPER,
};

AW_FAMILY(process_family);

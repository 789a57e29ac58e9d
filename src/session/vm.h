/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The work `abiwatch vm` starts: one kernel booted in QEMU running
 * `abiwatch run`, its KTAP on stdout, its snapshot (and console) kept.
 * cmd/vm.c only fills struct vm_opts.
 */
#ifndef ABIWATCH_SESSION_VM_H
#define ABIWATCH_SESSION_VM_H

#include "vm/vm.h"

#include <stdbool.h>

struct vm_opts {
	struct aw_vm_opts vm; /* the kernel, how it boots, what it runs */
	const char *output;   /* the snapshot; NULL: abiwatch-RELEASE.snapshot */
	const char *console;  /* --console, or NULL */
	bool quiet;
};

/* The exit status: the guest run's (0, 1, 4); 1 when the VM timed out,
 * panicked or sent no result; 2 a kernel that cannot be read or an output
 * that cannot be written. */
int session_vm(const struct vm_opts *o);

#endif

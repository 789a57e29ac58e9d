/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Whether this run is the one abiwatch vm starts in its guest, and the
 * time that guest's /init gave it.  Apart from the runner, so that the
 * environment (env.c, "setup") can ask too without depending on it.
 */
#ifndef ABIWATCH_CORE_VM_GUEST_H
#define ABIWATCH_CORE_VM_GUEST_H

#include <stdbool.h>

/* In the guest of abiwatch vm, the seconds its /init gave the run
 * (AW_GUEST_BUDGET_ENV); 0 elsewhere, or when it gave none. */
double aw_guest_budget(void);

/* Whether this process runs in the guest of abiwatch vm (core/guest.h):
 * the kernel was booted with its rdinit=/init and that init set the
 * environment for the run.  The runner asks once per run and hands the
 * answer to every probe (aw_vm_guest()). */
bool aw_in_vm_guest(void);

#endif

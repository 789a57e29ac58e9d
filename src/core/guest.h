/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * How a run knows it is the one `abiwatch vm` starts in its guest
 * (aw_in_vm_guest()): the kernel was booted with rdinit=/init, abiwatch's
 * own init, and that init set ABIWATCH_IN_VM=1 for the run.  Neither alone
 * says so: a user's environment or another initramfs could fake one.  The
 * guest's init (src/vm/init/) and the VM step (src/vm/) agree on these
 * through this header.
 */
#ifndef ABIWATCH_CORE_GUEST_H
#define ABIWATCH_CORE_GUEST_H

/* The guest's /init, relative to the initramfs root. */
#define AW_GUEST_INIT "init"
#define AW_GUEST_RDINIT "rdinit=/" AW_GUEST_INIT
#define AW_GUEST_ENV "ABIWATCH_IN_VM"

/* What the guest's init saw of the kernel's random pool as the first
 * thing it did (getrandom(GRND_NONBLOCK) of 16 bytes): "ok" or the errno
 * name ("EAGAIN": not initialised yet); and when it was first seen ready,
 * in seconds after that first call ("0": at once), or "no" when it still
 * was not as the run started.  For the time family's boot probe, which
 * reads them by these names (a family includes core/probe.h only). */
#define AW_GUEST_GETRANDOM_ENV "ABIWATCH_GUEST_GETRANDOM"
#define AW_GUEST_GETRANDOM_READY_ENV "ABIWATCH_GUEST_GETRANDOM_READY"

/* The pace (lib/pace.h: seconds for its unit of work) of an idle abiwatch
 * vm guest, TCG with one vCPU, on the machine the probes' timeouts were
 * tuned on: what the guest's init, the host's VM step and the runner
 * measure slowness against.  No deadline stretches by more than
 * AW_SLOWNESS_MAX, so that a hang still ends. */
#define AW_PACE_IDLE_GUEST_S 0.030
#define AW_SLOWNESS_MAX 20.0

/* The seconds the guest's run has before its /init must send what there
 * is (the host's deadline, less what sending takes): the runner settles
 * what has not ended by then as starved (cause load) and writes the
 * snapshot, so that a slow guest sends every probe that finished. */
#define AW_GUEST_BUDGET_ENV "ABIWATCH_GUEST_BUDGET"

#endif

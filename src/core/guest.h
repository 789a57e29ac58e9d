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

#endif

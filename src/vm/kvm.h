/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Whether QEMU may use KVM here, found by running a guest, not by asking. */
#ifndef ABIWATCH_VM_KVM_H
#define ABIWATCH_VM_KVM_H

/* Whether /dev/kvm runs a guest here: a tiny 64-bit program must reach
 * its OUT instruction within a fraction of a second, in a child that is
 * killed if not (a nested KVM that accepts the ioctls but never runs the
 * guest, or runs it slower than TCG, is common in CI).  NULL when KVM
 * works, else why not (malloc'd). */
char *aw_kvm_unusable(void);

#endif

/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The sandbox family: what a sandboxing program asks the kernel before
 * it builds its sandbox (Landlock's ABI, seccomp's actions and flags, the
 * security modules and capability bits, BPF's program and map types), so
 * that a kernel that gains or loses one is a diff line naming it.
 */
#ifndef ABIWATCH_SANDBOX_H
#define ABIWATCH_SANDBOX_H

#include "core/probe.h"
#include "lib/bitnames.h"

#include <stdint.h>

extern const struct aw_probe sandbox_landlock_probes[];
extern const struct aw_probe sandbox_seccomp_probes[];
extern const struct aw_probe sandbox_creds_probes[];
extern const struct aw_probe sandbox_bpf_probes[];

/* The names of mask's bits (lib/bitnames.h) as the observation obs. */
void sandbox_observe_bits(struct aw_ctx *ctx, const char *obs, uint64_t mask, const struct aw_bitname *names,
			  size_t n, const char *unknown_prefix, const char *none);

/* Run fn(arg) in a throwaway child (lib/child.h) and give back what it
 * returned: 0..255, or 256 + errno when it could not be started or
 * waited for (killed: 128 + the signal, as aw_child_wait() says). */
int sandbox_in_child(int (*fn)(void *), void *arg);

#endif

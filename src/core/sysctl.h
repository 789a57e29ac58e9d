/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Reading and writing the sysctls that belong to an IPC namespace
 * (fs/mqueue/ and the System V kernel/msg*, sem, shm* knobs).
 *
 * Safe by construction: a write is refused, before anything is opened,
 * unless aw_private_ipc(ctx) says the caller has an IPC namespace of its
 * own, and only names on the per-namespace list below can be written at
 * all.  So a probe cannot change the host's values, even by mistake.
 */
#ifndef ABIWATCH_IPC_SYSCTL_H
#define ABIWATCH_IPC_SYSCTL_H

#include <stdbool.h>

struct aw_ctx;

/* What aw_ipc_sysctl_write() returns when it refused to try.  Outside
 * the errno range, so it cannot be mistaken for the kernel's answer. */
#define AW_IPC_SYSCTL_REFUSED (-100000)

/* True for a name such as "fs/mqueue/msg_max" that lives in the IPC
 * namespace (and so may be written there). */
bool aw_ipc_sysctl_known(const char *name);

/* Whether /proc/sys/<name> exists on this kernel (msg_default came in 3.5). */
bool aw_ipc_sysctl_exists(const char *name);

/* 0 with *value set, or -errno (-ENOENT: no such knob; -EINVAL: not an
 * IPC sysctl, or its text is not a single integer). */
int aw_ipc_sysctl_read(const char *name, long long *value);

/* Write value as decimal text.  0, the kernel's -errno (-EINVAL: out of
 * the knob's range), -EINVAL for a name not on the list, or
 * AW_IPC_SYSCTL_REFUSED when the caller's IPC namespace is not private. */
int aw_ipc_sysctl_write(const struct aw_ctx *ctx, const char *name, long long value);

/* A message for any of the returns above. */
const char *aw_ipc_sysctl_strerror(int rc);

#endif

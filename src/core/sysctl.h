/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The runner's side of the sysctl guard (core/probe.h, "sysctls"). */
#ifndef ABIWATCH_CORE_SYSCTL_H
#define ABIWATCH_CORE_SYSCTL_H

#include "probe.h"

#include <sys/types.h>

/* The inode of the calling process's namespace of that scope
 * (/proc/self/ns/ipc, ...), 0 for AW_SCOPE_GLOBAL or when unknown: the
 * runner records the host's before it forks a probe. */
ino_t aw_ns_ino(enum aw_sysctl_scope scope);

#endif

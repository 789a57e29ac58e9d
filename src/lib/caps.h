/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Capabilities, through libcap: privilege is decided from what the
 * process holds, never from its uid (root on most CI machines lacks
 * CAP_SYS_RESOURCE, and root of a user namespace holds everything that
 * counts for nothing outside it).
 */
#ifndef ABIWATCH_LIB_CAPS_H
#define ABIWATCH_LIB_CAPS_H

#include <stdbool.h>

/* Whether cap is in the effective set of the calling process. */
bool aw_cap_effective(int cap);
/* Whether the calling process holds cap in its effective set and sits in
 * the initial user namespace, where the kernel's capable() checks count. */
bool aw_has_cap(int cap);
bool aw_in_initial_userns(void);
/* Clear cap from the effective set, to test the unprivileged path even
 * where the process holds it.  0 or -errno. */
int aw_drop_cap(int cap);
/* libcap's name of cap ("cap_sys_resource"), or "cap_unknown". */
const char *aw_cap_name(int cap);

#endif

/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The security modules active on the running kernel, in the kernel's
 * order: what decides whether an LSM's knobs exist (kernel.yama.* only
 * where Yama is initialised) and whether its restrictions apply.  A
 * kernel built with a module it did not start (CONFIG_LSM, lsm=) behaves
 * as if it had none, so the configuration alone does not say.
 */
#ifndef ABIWATCH_LIB_LSM_H
#define ABIWATCH_LIB_LSM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The active modules as "lockdown,capability,landlock,bpf": from
 * lsm_list_modules(2) (6.8), else /sys/kernel/security/lsm (securityfs,
 * which systemd mounts).  NULL where neither answers (a kernel before
 * 6.8 without securityfs mounted), with *why saying so.  malloc'd. */
char *aw_lsm_active(const char **why);
/* Each source alone, for a probe that compares them: lsm_list_modules(2)'s
 * names, or NULL with *err its errno (ENOSYS before 6.8); the lsm file
 * of a securityfs mounted at dir, trailing comma and newline cut, or
 * NULL.  malloc'd. */
char *aw_lsm_by_syscall(int *err);
char *aw_lsm_by_securityfs(const char *dir);
/* The names of ids as lsm_list_modules(2) gives them (include/uapi/
 * linux/lsm.h: LSM_ID_*), comma-separated; an unknown id as its number.
 * malloc'd. */
char *aw_lsm_names(const uint64_t *ids, size_t n);
/* Whether the comma-separated list names the module. */
bool aw_lsm_listed(const char *list, const char *lsm);

#endif

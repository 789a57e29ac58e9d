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
/* The kernel's lockdown mode (security/lockdown/lockdown.c,
 * lockdown_read(): every mode space-separated, the one in force in
 * brackets: "none [integrity] confidentiality"): "none", "integrity" or
 * "confidentiality" from the lockdown file of a securityfs mounted at
 * dir; NULL where it cannot be read or holds no bracketed mode.
 * malloc'd. */
char *aw_lockdown_by_securityfs(const char *dir);
/* The mode of the running kernel: "none" where the lockdown module does
 * not run (the list of active modules, as aw_lsm_active() gives it, lacks
 * it), so nothing is locked down; else what securityfs says (where none
 * is mounted, one a child mounts in a mount namespace of its own), or
 * "unknown: " and why.  malloc'd. */
char *aw_lockdown_mode(const char *active_lsms);
/* Whether the comma-separated list names the module. */
bool aw_lsm_listed(const char *list, const char *lsm);

#endif

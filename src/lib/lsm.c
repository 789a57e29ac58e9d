// SPDX-License-Identifier: GPL-2.0-or-later
/* The active security modules: see lsm.h. */
#include "lsm.h"
#include "procfs.h"
#include "util.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#ifndef SYS_lsm_list_modules
#define SYS_lsm_list_modules 461 /* x86-64 and i386 alike: syscall_64.tbl, syscall_32.tbl */
#endif

/* include/uapi/linux/lsm.h (6.8): LSM_ID_CAPABILITY is 100, then one
 * per module in the order they were given ids. */
static const char *const lsm_by_id[] = {
	"capability", "selinux", "smack", "tomoyo", "apparmor", "yama", "loadpin",
	"safesetid", "lockdown", "bpf", "landlock", "ima", "evm", "ipe",
};
#define LSM_ID_FIRST 100

char *aw_lsm_names(const uint64_t *ids, size_t n)
{
	char *out = xstrdup("");
	for (size_t i = 0; i < n; i++) {
		uint64_t k = ids[i] - LSM_ID_FIRST;
		char *next = ids[i] >= LSM_ID_FIRST && k < AW_ARRAY_SIZE(lsm_by_id)
				     ? xasprintf("%s%s%s", out, i ? "," : "", lsm_by_id[k])
				     : xasprintf("%s%s%llu", out, i ? "," : "", (unsigned long long)ids[i]);
		free(out);
		out = next;
	}
	return out;
}

char *aw_lsm_by_syscall(int *err)
{
	uint64_t ids[64];
	uint32_t size = sizeof(ids);
	long n = syscall(SYS_lsm_list_modules, ids, &size, 0);
	*err = n < 0 ? errno : 0;
	return n >= 0 ? aw_lsm_names(ids, (size_t)n) : NULL;
}

char *aw_lsm_by_securityfs(const char *dir)
{
	char *text, *path = xasprintf("%s/lsm", dir);
	size_t len;
	int rc = aw_file_slurp(path, &text, &len);
	free(path);
	if (rc != 0)
		return NULL;
	while (len && (text[len - 1] == '\n' || text[len - 1] == ','))
		text[--len] = '\0';
	return text;
}

char *aw_lsm_active(const char **why)
{
	int err;
	char *list = aw_lsm_by_syscall(&err);
	if (!list)
		list = aw_lsm_by_securityfs("/sys/kernel/security");
	*why = list ? NULL : "no lsm_list_modules(2) (before 6.8) and no /sys/kernel/security/lsm (securityfs not mounted)";
	return list;
}

bool aw_lsm_listed(const char *list, const char *lsm)
{
	size_t n = strlen(lsm);
	for (const char *p = list; p && *p;) {
		const char *comma = strchr(p, ',');
		size_t len = comma ? (size_t)(comma - p) : strlen(p);
		if (len == n && strncmp(p, lsm, n) == 0)
			return true;
		p = comma ? comma + 1 : NULL;
	}
	return false;
}

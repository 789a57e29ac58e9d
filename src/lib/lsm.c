// SPDX-License-Identifier: GPL-2.0-or-later
/* The active security modules: see lsm.h. */
#include "lsm.h"
#include "child.h"
#include "procfs.h"
#include "util.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sched.h>
#include <sys/mount.h>
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

char *aw_lockdown_by_securityfs(const char *dir)
{
	char *text, *path = xasprintf("%s/lockdown", dir), *mode = NULL;
	size_t len;
	int rc = aw_file_slurp(path, &text, &len);
	free(path);
	if (rc != 0)
		return NULL;
	const char *open = memchr(text, '[', len);
	const char *close = open ? memchr(open, ']', len - (size_t)(open - text)) : NULL;
	if (close && close > open + 1)
		mode = xasprintf("%.*s", (int)(close - open - 1), open + 1);
	free(text);
	return mode;
}

#define MODE_MAX 32

/* In a child's own mount namespace, a securityfs of its own: the
 * machine's mounts are never touched, and the mount goes with the
 * child. */
static int read_own_securityfs(void *arg)
{
	char *out = arg;
	if (unshare(CLONE_NEWNS) != 0 || mount("none", "/", "none", MS_REC | MS_PRIVATE, NULL) != 0 ||
	    mount("securityfs", "/sys/kernel/security", "securityfs", MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL) != 0)
		return 1;
	char *mode = aw_lockdown_by_securityfs("/sys/kernel/security");
	if (!mode || strlen(mode) >= MODE_MAX) {
		free(mode);
		return 1;
	}
	strcpy(out, mode);
	free(mode);
	return 0;
}

/* Where no securityfs is mounted (this host's init mounts none), one
 * mounted for the read alone; NULL without the privilege to. */
static char *lockdown_by_own_securityfs(void)
{
	char *shared = aw_shared_alloc(MODE_MAX);
	if (!shared)
		return NULL;
	char *mode = aw_child_run(read_own_securityfs, shared, 10000) == 0 ? xstrdup(shared) : NULL;
	aw_shared_free(shared, MODE_MAX);
	return mode;
}

char *aw_lockdown_mode(const char *active_lsms)
{
	if (active_lsms && !aw_lsm_listed(active_lsms, "lockdown"))
		return xstrdup("none");
	char *mode = aw_lockdown_by_securityfs("/sys/kernel/security");
	if (!mode)
		mode = lockdown_by_own_securityfs();
	if (mode)
		return mode;
	return xstrdup(active_lsms ? "unknown: the lockdown module runs and no securityfs could be read "
				     "(not mounted, and none could be mounted here)"
				   : "unknown: neither the active security modules nor /sys/kernel/security/lockdown are known");
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

// SPDX-License-Identifier: GPL-2.0-or-later
/* Which namespace holds a sysctl, and writes that cannot reach the host:
 * see core/probe.h ("sysctls"). */
#include "context.h"
#include "probe.h"
#include "sysctl.h"
#include "lib/procfs.h"
#include "lib/util.h"

#include <errno.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* The one list of namespaced sysctls, which keeps the host unchanged:
 * only what the kernel registers per namespace.  ipc/ipc_sysctl.c (the
 * System V limits, auto_msgmni a no-op kept for old scripts, the
 * checkpoint/restore next ids) and ipc/mq_sysctl.c (fs/mqueue) per IPC
 * namespace; kernel/utsname_sysctl.c per UTS namespace; kernel/ucount.c
 * (user.*) per user namespace; net.* as a process of a network namespace
 * sees them, since a table the kernel registers for init_net only is
 * not in another namespace's /proc/sys/net at all.  kernel.pid_max is
 * per PID namespace only since 6.14 and counts as global.  The sysctl
 * family's scopes check holds this list against the kernel's, in a VM
 * guest (sysctl.scopes). */
static const struct {
	const char *glob; /* fnmatch(3) over the dotted name */
	enum aw_sysctl_scope scope;
} scopes[] = {
	{ "net.*", AW_SCOPE_NET },
	{ "fs.mqueue.*", AW_SCOPE_IPC },
	{ "kernel.shmmax", AW_SCOPE_IPC },
	{ "kernel.shmall", AW_SCOPE_IPC },
	{ "kernel.shmmni", AW_SCOPE_IPC },
	{ "kernel.shm_rmid_forced", AW_SCOPE_IPC },
	{ "kernel.msgmax", AW_SCOPE_IPC },
	{ "kernel.msgmnb", AW_SCOPE_IPC },
	{ "kernel.msgmni", AW_SCOPE_IPC },
	{ "kernel.auto_msgmni", AW_SCOPE_IPC },
	{ "kernel.sem", AW_SCOPE_IPC },
	{ "kernel.msg_next_id", AW_SCOPE_IPC },
	{ "kernel.sem_next_id", AW_SCOPE_IPC },
	{ "kernel.shm_next_id", AW_SCOPE_IPC },
	{ "kernel.hostname", AW_SCOPE_UTS },
	{ "kernel.domainname", AW_SCOPE_UTS },
	{ "user.*", AW_SCOPE_USER },
};

static const char *const scope_names[] = {
	[AW_SCOPE_GLOBAL] = "global", [AW_SCOPE_NET] = "net", [AW_SCOPE_IPC] = "ipc",
	[AW_SCOPE_UTS] = "uts", [AW_SCOPE_USER] = "user",
};

/* A knob given as a path below /proc/sys, as sysctl(8) names it. */
static char *dotted(const char *knob)
{
	char *name = xstrdup(knob);
	if (strchr(name, '/'))
		for (char *p = name; *p; p++)
			if (*p == '/')
				*p = '.';
	return name;
}

/* A name that maps to one file below /proc/sys: no empty, "." or ".."
 * component, so that "fs/mqueue/../../kernel/pid_max" cannot pass for
 * an IPC knob. */
static bool well_formed(const char *knob)
{
	if (!knob || !*knob)
		return false;
	char sep = strchr(knob, '/') ? '/' : '.';
	for (const char *c = knob;; ) {
		const char *end = strchr(c, sep);
		size_t n = end ? (size_t)(end - c) : strlen(c);
		if (n == 0 || (n == 1 && c[0] == '.') || (n == 2 && c[0] == '.' && c[1] == '.'))
			return false;
		if (!end)
			return true;
		c = end + 1;
	}
}

enum aw_sysctl_scope aw_sysctl_scope(const char *knob)
{
	if (!well_formed(knob))
		return AW_SCOPE_GLOBAL;
	char *name = dotted(knob);
	enum aw_sysctl_scope s = AW_SCOPE_GLOBAL;
	for (size_t i = 0; i < AW_ARRAY_SIZE(scopes) && s == AW_SCOPE_GLOBAL; i++)
		if (fnmatch(scopes[i].glob, name, 0) == 0)
			s = scopes[i].scope;
	free(name);
	return s;
}

const char *aw_sysctl_scope_name(enum aw_sysctl_scope scope)
{
	return scope >= 0 && scope < AW_NSCOPES ? scope_names[scope] : "unknown";
}

ino_t aw_ns_ino(enum aw_sysctl_scope scope)
{
	char path[64];
	struct stat st;
	if (scope <= AW_SCOPE_GLOBAL || scope >= AW_NSCOPES)
		return 0;
	snprintf(path, sizeof(path), "/proc/self/ns/%s", scope_names[scope]);
	return stat(path, &st) == 0 ? st.st_ino : 0;
}

bool aw_private_ns(const struct aw_ctx *ctx, enum aw_sysctl_scope scope)
{
	if (scope <= AW_SCOPE_GLOBAL || scope >= AW_NSCOPES || !ctx->host_ns[scope])
		return false;
	ino_t now = aw_ns_ino(scope);
	return now && now != ctx->host_ns[scope];
}

int aw_sysctl_may_write(const struct aw_ctx *ctx, const char *knob)
{
	enum aw_sysctl_scope s = aw_sysctl_scope(knob);
	if (!ctx || !well_formed(knob))
		return AW_SYSCTL_REFUSED;
	if (s == AW_SCOPE_GLOBAL)
		return ctx->vm_guest ? 0 : AW_SYSCTL_REFUSED;
	return aw_private_ns(ctx, s) ? 0 : AW_SYSCTL_REFUSED;
}

int aw_sysctl_write(const struct aw_ctx *ctx, const char *knob, const char *text)
{
	/* The guard first: nothing it refuses is ever opened. */
	int rc = aw_sysctl_may_write(ctx, knob);
	if (rc)
		return rc;
	char *path = aw_sysctl_path(knob);
	/* A fresh open each time: sysctl writes are parsed from offset 0. */
	rc = aw_file_write(path, text);
	free(path);
	return rc;
}

int aw_sysctl_write_ll(const struct aw_ctx *ctx, const char *knob, long long value)
{
	char text[32];
	snprintf(text, sizeof(text), "%lld\n", value);
	return aw_sysctl_write(ctx, knob, text);
}

const char *aw_sysctl_strerror(int rc)
{
	if (rc == AW_SYSCTL_REFUSED)
		return "refused: the knob's namespace is not the probe's own, so the write could reach the host";
	if (rc == 0)
		return "success";
	return strerror(rc < 0 ? -rc : rc);
}

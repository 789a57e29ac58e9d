// SPDX-License-Identifier: GPL-2.0-or-later
#include "sysctl.h"
#include "lib/proc.h"
#include "probe.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The sysctls registered per IPC namespace (ipc/mq_sysctl.c,
 * ipc/ipc_sysctl.c).  Anything else under /proc/sys is global, and
 * writing it from a probe would change the host. */
static const char *const ipc_knobs[] = {
	"fs/mqueue/queues_max",
	"fs/mqueue/msg_max",
	"fs/mqueue/msgsize_max",
	"fs/mqueue/msg_default",
	"fs/mqueue/msgsize_default",
	"kernel/msgmax",
	"kernel/msgmnb",
	"kernel/msgmni",
	"kernel/msg_next_id",
	"kernel/sem",
	"kernel/sem_next_id",
	"kernel/shmall",
	"kernel/shmmax",
	"kernel/shmmni",
	"kernel/shm_next_id",
	"kernel/shm_rmid_forced",
};

bool aw_ipc_sysctl_known(const char *name)
{
	for (size_t i = 0; i < sizeof(ipc_knobs) / sizeof(ipc_knobs[0]); i++)
		if (name && strcmp(name, ipc_knobs[i]) == 0)
			return true;
	return false;
}

static void knob_path(const char *name, char *buf, size_t len)
{
	snprintf(buf, len, "/proc/sys/%s", name);
}

bool aw_ipc_sysctl_exists(const char *name)
{
	char path[128];

	if (!aw_ipc_sysctl_known(name))
		return false;
	knob_path(name, path, sizeof(path));
	return access(path, F_OK) == 0;
}

int aw_ipc_sysctl_read(const char *name, long long *value)
{
	char path[128], *text, *end;
	size_t len;

	if (!aw_ipc_sysctl_known(name))
		return -EINVAL;
	knob_path(name, path, sizeof(path));
	if (aw_file_slurp(path, &text, &len) != 0)
		return -errno;
	errno = 0;
	long long v = strtoll(text, &end, 10);
	/* kernel/sem holds four numbers: not a single value. */
	int rc = errno || end == text || (*end && *end != '\n') ? -EINVAL : 0;
	free(text);
	if (rc == 0)
		*value = v;
	return rc;
}

int aw_ipc_sysctl_write(const struct aw_ctx *ctx, const char *name, long long value)
{
	char path[128], text[32];

	/* The name check first: nothing outside the list is ever opened. */
	if (!aw_ipc_sysctl_known(name))
		return -EINVAL;
	if (!ctx || !aw_private_ipc(ctx))
		return AW_IPC_SYSCTL_REFUSED;
	knob_path(name, path, sizeof(path));
	snprintf(text, sizeof(text), "%lld\n", value);
	/* A fresh open each time: sysctl writes are parsed from offset 0. */
	return aw_file_write(path, text);
}

const char *aw_ipc_sysctl_strerror(int rc)
{
	if (rc == AW_IPC_SYSCTL_REFUSED)
		return "refused: not in a private IPC namespace, so the write could reach the host";
	if (rc == 0)
		return "success";
	return strerror(rc < 0 ? -rc : rc);
}

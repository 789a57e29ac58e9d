// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The mm family: the process address space as JVMs, CRIU and sandboxes
 * rely on it.  Where anonymous mappings land (THP alignment, 6.7/6.8,
 * and not for 32-bit callers), what MAP_STACK marks, memfd's exec
 * control (6.3), the stack guard gap (4.12), the rlimits a fresh init
 * gets, the vsyscall page, and the vm.* limits with the errno of what
 * they refuse (docs/catalogue.md).  Each file declares its probes in a
 * table; this lists them in order and holds what they share.
 */
#include "mm.h"
#include "parse.h"
#include "lib/errname.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

long mm_read_file(const char *path, char *buf, size_t size)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	size_t used = 0;
	while (used + 1 < size) {
		ssize_t n = read(fd, buf + used, size - 1 - used);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			int err = errno;
			close(fd);
			return -err;
		}
		if (n == 0)
			break;
		used += (size_t)n;
	}
	close(fd);
	buf[used] = '\0';
	return (long)used;
}

int mm_read_long(const char *path, long long *value)
{
	char buf[64], *end;
	long n = mm_read_file(path, buf, sizeof(buf));
	if (n < 0)
		return (int)n;
	errno = 0;
	long long v = strtoll(buf, &end, 10);
	if (errno || end == buf || (*end && strcmp(end, "\n") != 0))
		return -EINVAL;
	*value = v;
	return 0;
}

void mm_observe_boot_param(struct aw_ctx *ctx, const char *item, const char *name)
{
	char cmdline[4096], value[32];
	long n = mm_read_file("/proc/cmdline", cmdline, sizeof(cmdline));
	int rc = n < 0 ? (int)n : mm_cmdline_param(cmdline, (size_t)n, name, value, sizeof(value));

	if (rc && rc != -ENOENT)
		aw_error(ctx, item, "reading %s= of /proc/cmdline: %s", name, aw_errname(rc));
	else
		aw_observe(ctx, item, "%s", rc ? "none" : value);
}

static const struct aw_probe *const tables[] = {
	mm_thp_probes, mm_map_stack_probes, mm_memfd_probes, mm_guard_gap_probes,
	mm_rlimit_probes, mm_vsyscall_probes, mm_limits_probes, NULL,
};

static const struct aw_family mm_family = {
	.name = "mm",
	.summary = "the address space: THP alignment, MAP_STACK, memfd exec control, stack guard gap, init rlimits, vsyscall, vm limits",
	.tables = tables,
	.helper32 = MM_HELPER,
};

AW_FAMILY(mm_family);

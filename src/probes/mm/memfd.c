// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * memfd exec control.  Since 105ff5339f49 (6.3) memfd_create(2) takes
 * MFD_NOEXEC_SEAL (a memfd without exec bits, sealed so that it never
 * gets them: F_SEAL_EXEC) and MFD_EXEC, and vm.memfd_noexec (per PID
 * namespace, a hierarchy since 9876cfe8ec1c, 6.6) decides what a call
 * with neither gets: 0 executable, 1 sealed non-executable, 2 also
 * refuses MFD_EXEC (EACCES; before 202e14222fad, 6.6, also the plain
 * call).  Older kernels refuse both flags with EINVAL.  CRIU restores
 * memfds and runc/Docker execute a memfd copy of themselves: both meet
 * this.  The vm.memfd_noexec values are tried in a user and PID
 * namespace of the probe's own, where a write reaches no one else (and
 * would fail with EPERM if it could).
 */
#include "mm.h"
#include "lib/child.h"
#include "lib/errname.h"
#include "lib/proc.h"
#include "lib/procfs.h"
#include "lib/uapi.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#ifndef F_SEAL_EXEC
#define F_SEAL_EXEC 0x0020
#endif

#define SYSCTL "/proc/sys/vm/memfd_noexec"
#define CHILD_MS 3000

#define SCOPE_ITEMS(n)                                                                              \
	AW_OBS_ITEM("scope" #n ".plain", "memfd_create(MFD_CLOEXEC) with vm.memfd_noexec " #n " in the probe's PID namespace", \
		    .change = "programs that create a memfd and fexecve it (runc, systemd) break, or gain sealed non-executable memfds"), \
	AW_OBS_ITEM("scope" #n ".exec", "memfd_create(MFD_EXEC) with vm.memfd_noexec " #n,            \
		    .change = "a program that asks for an executable memfd gets a different answer"),    \
	AW_OBS_ITEM("scope" #n ".noexec_seal", "memfd_create(MFD_NOEXEC_SEAL) with vm.memfd_noexec " #n, \
		    .change = "a program that asks for a sealed non-executable memfd gets a different answer")

static const struct aw_item memfd_items[] = {
	AW_OBS_ITEM("sysctl", "vm.memfd_noexec as the probe's PID namespace inherits it, or absent",
		    .change = "absent: the kernel predates memfd exec control (6.3); otherwise the default for memfd_create without MFD_EXEC/MFD_NOEXEC_SEAL changed"),
	AW_OBS_ITEM("plain", "memfd_create(MFD_CLOEXEC): the mode and seals of the fd, or the errno",
		    .change = "memfds made without the new flags get other permissions or seals: an fexecve of them, or a later F_ADD_SEALS, may fail"),
	AW_OBS_ITEM("exec", "memfd_create(MFD_EXEC): the mode and seals of the fd, or the errno",
		    .change = "EINVAL: MFD_EXEC is unknown (before 6.3); a program passing it must retry without"),
	AW_OBS_ITEM("noexec_seal", "memfd_create(MFD_NOEXEC_SEAL): the mode and seals of the fd, or the errno",
		    .change = "EINVAL: MFD_NOEXEC_SEAL is unknown (before 6.3); a program passing it must retry without, and gets an executable memfd"),
	AW_OBS_ITEM("add_seal_exec", "F_ADD_SEALS(F_SEAL_EXEC) on an executable memfd made with MFD_ALLOW_SEALING: the seals after, or the errno",
		    .change = "EINVAL: F_SEAL_EXEC is unknown (before 6.3); otherwise sealing exec also seals writes on an executable memfd"),
	AW_OBS_ITEM("fchmod_sealed", "fchmod(0777) of a memfd made with MFD_NOEXEC_SEAL: success or the errno",
		    .change = "a sealed non-executable memfd can (or no longer can) be made executable"),
	SCOPE_ITEMS(0), SCOPE_ITEMS(1), SCOPE_ITEMS(2),
	AW_ITEMS_END
};

/* What memfd_create(flags) gives: "fd MODE seals 0xS" or the errno name. */
static const char *memfd_outcome(unsigned flags, char *buf, size_t size)
{
	int fd = (int)syscall(SYS_memfd_create, "abiwatch", flags);
	struct stat st;

	if (fd < 0)
		return aw_errname(errno);
	int seals = fcntl(fd, F_GET_SEALS);
	if (fstat(fd, &st) != 0)
		snprintf(buf, size, "fd, fstat %s", aw_errname(errno));
	else if (seals < 0)
		snprintf(buf, size, "fd %04o, F_GET_SEALS %s", (unsigned)(st.st_mode & 07777), aw_errname(errno));
	else
		snprintf(buf, size, "fd %04o seals %#x", (unsigned)(st.st_mode & 07777), (unsigned)seals);
	close(fd);
	return buf;
}

static void observe_call(struct aw_ctx *ctx, const char *item, unsigned flags)
{
	char buf[64];
	aw_observe(ctx, item, "%s", memfd_outcome(MFD_CLOEXEC | flags, buf, sizeof(buf)));
}

static void observe_add_seal(struct aw_ctx *ctx)
{
	int fd = (int)syscall(SYS_memfd_create, "abiwatch", MFD_CLOEXEC | MFD_ALLOW_SEALING);
	if (fd < 0) {
		aw_error(ctx, "add_seal_exec", "memfd_create(MFD_ALLOW_SEALING): %s", aw_errname(errno));
		return;
	}
	if (fcntl(fd, F_ADD_SEALS, F_SEAL_EXEC) != 0)
		aw_observe(ctx, "add_seal_exec", "%s", aw_errname(errno));
	else
		aw_observe(ctx, "add_seal_exec", "seals %#x", (unsigned)fcntl(fd, F_GET_SEALS));
	close(fd);
}

static void observe_fchmod(struct aw_ctx *ctx)
{
	int fd = (int)syscall(SYS_memfd_create, "abiwatch", MFD_CLOEXEC | MFD_NOEXEC_SEAL);
	if (fd < 0) {
		aw_unobserved(ctx, "fchmod_sealed", "memfd_create(MFD_NOEXEC_SEAL): %s", aw_errname(errno));
		return;
	}
	aw_observe(ctx, "fchmod_sealed", "%s", fchmod(fd, 0777) == 0 ? "success" : aw_errname(errno));
	close(fd);
}

static struct aw_ctx *scope_ctx;

/* Why a write of the sysctl was refused, for people. */
static const char *write_refusal(int rc)
{
	switch (rc) {
	case -EINVAL:
		return " (below the parent namespace's value)";
	case -EACCES: /* the sysctl's owner check wants the initial namespace's root */
		return " (only uid 0 of the initial user namespace may open it for writing)";
	case -EPERM:
		return " (no CAP_SYS_ADMIN over the PID namespace)";
	default:
		return "";
	}
}

/* PID 1 of a PID namespace of its own: each value in turn, lowest
 * first (a namespace may not go below its parent's). */
static int scope_grandchild(void *arg)
{
	struct aw_ctx *ctx = scope_ctx;
	(void)arg;
	for (int v = 0; v <= 2; v++) {
		char item[32], val[4];
		snprintf(val, sizeof(val), "%d", v);
		int rc = aw_file_write(SYSCTL, val);
		static const char *const calls[] = { "plain", "exec", "noexec_seal" };
		static const unsigned flags[] = { 0, MFD_EXEC, MFD_NOEXEC_SEAL };
		for (int i = 0; i < 3; i++) {
			snprintf(item, sizeof(item), "scope%d.%s", v, calls[i]);
			if (rc)
				aw_unobserved(ctx, item, "writing %d to %s in the probe's PID namespace: %s%s", v,
					      SYSCTL, aw_errname(rc), write_refusal(rc));
			else
				observe_call(ctx, item, flags[i]);
		}
	}
	return 0;
}

static int scope_child(void *arg)
{
	int rc = aw_enter_userns(CLONE_NEWPID);
	(void)arg;
	if (rc) {
		aw_skip_rest(scope_ctx, "a user and PID namespace to set vm.memfd_noexec in: %s", aw_errname(rc));
		return 0;
	}
	/* Forked by hand: as PID 1 of the new namespace, the grandchild's
	 * getppid() is 0, which the library's children take for an
	 * orphaned start. */
	pid_t pid = fork();
	if (pid == 0) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		_exit(scope_grandchild(NULL));
	}
	if (pid < 0)
		return 1;
	rc = aw_child_wait(pid, CHILD_MS);
	return rc < 0 ? 1 : rc;
}

static void memfd_run(struct aw_ctx *ctx)
{
	long long inherited;
	int rc = aw_read_ll(SYSCTL, &inherited);

	if (rc == -ENOENT)
		aw_observe(ctx, "sysctl", "absent");
	else if (rc)
		aw_error(ctx, "sysctl", "reading %s: %s", SYSCTL, aw_errname(rc));
	else
		aw_observe(ctx, "sysctl", "%lld", inherited);
	observe_call(ctx, "plain", 0);
	observe_call(ctx, "exec", MFD_EXEC);
	observe_call(ctx, "noexec_seal", MFD_NOEXEC_SEAL);
	observe_add_seal(ctx);
	observe_fchmod(ctx);
	if (rc == -ENOENT) {
		aw_skip_rest(ctx, "no %s (ENOENT): memfd exec control came in 6.3", SYSCTL);
		return;
	}
	if (rc) {
		aw_skip_rest(ctx, "cannot read %s: %s", SYSCTL, aw_errname(rc));
		return;
	}
	scope_ctx = ctx;
	int status = aw_child_run(scope_child, NULL, CHILD_MS + 1000);
	if (status != 0)
		aw_error_rest(ctx, "the namespace child ended with status %d", status);
}

static const char *const memfd_tags[] = {
	"linux-git:105ff5339f49", "linux-git:202e14222fad", "linux-git:9876cfe8ec1c",
	"man:memfd_create(2)", "man:fcntl(2)", NULL
};

static const char *const memfd_kconfig[] = { "CONFIG_MEMFD_CREATE", "CONFIG_USER_NS", "CONFIG_PID_NS", NULL };

const struct aw_probe mm_memfd_probes[] = {
	{
		.name = "memfd",
		.summary = "memfd exec control: MFD_EXEC, MFD_NOEXEC_SEAL, F_SEAL_EXEC and vm.memfd_noexec",
		.run = memfd_run,
		.items = memfd_items,
		.needs = { .kconfig = memfd_kconfig },
		.tags = memfd_tags,
	},
	AW_PROBES_END,
};

// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Time namespaces (time_namespaces(7), 769071ac9f20, 5.6): unshare
 * (CLONE_NEWTIME) puts the caller's future children in a namespace whose
 * CLOCK_MONOTONIC and CLOCK_BOOTTIME are offset by what is written to
 * /proc/PID/timens_offsets before the first process enters it; no other
 * clock can be offset (EINVAL), and once a process is inside the offsets
 * are fixed (EACCES).  Container runtimes (CRIU restoring a container's
 * clocks, LXC) write them.  Done in a user namespace of the probe's own,
 * so that nothing but the probe's children is touched: the offsets
 * 100 s (monotonic) and 200 s (boottime), then a child reads its clocks
 * by the system call and by the vDSO (whose timens page must apply the
 * same offsets); the differences are rounded to whole seconds.
 */
#include "time.h"
#include "lib/child.h"
#include "lib/errname.h"
#include "lib/procfs.h"
#include "lib/uapi.h"

#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#define OFFSETS "/proc/self/timens_offsets"
#define CHILD_MS 5000

static const char *const ns_absent[] = { "EINVAL", "ENOENT", NULL };

static const struct aw_item timens_items[] = {
	AW_OBS_ITEM("unshare", "unshare(CLONE_NEWUSER | CLONE_NEWTIME): ok or the errno",
		    .object = "unshare", .absent = ns_absent,
		    .change = "containers get (or lose) clocks of their own"),
	AW_OBS_ITEM("offsets.initial", "/proc/self/timens_offsets of a fresh time namespace, lines "
		    "joined by \";\"", .object = "offsets", .absent = ns_absent),
	AW_OBS_ITEM("offsets.written", "the file after writing \"monotonic 100 0\" and "
		    "\"boottime 200 0\"", .object = "offsets"),
	AW_OBS_ITEM("cannot_offset", "the clock ids 0..11 whose offset write fails, with the errno",
		    .object = "offsets",
		    .change = "runtimes restoring a container's clocks can offset other clocks, or fewer"),
	AW_OBS_ITEM("child.monotonic", "CLOCK_MONOTONIC in a child inside minus outside, less "
		    "CLOCK_REALTIME's move between the readings, whole seconds", .object = "child",
		    .unit = "s"),
	AW_OBS_ITEM("child.boottime", "CLOCK_BOOTTIME inside minus outside, less CLOCK_REALTIME's "
		    "move between the readings, whole seconds", .object = "child", .unit = "s"),
	AW_OBS_ITEM("child.realtime", "CLOCK_REALTIME inside minus outside: 0 when the child's "
		    "reading lies between the parent's before the fork and after the wait, else "
		    "how far outside, whole seconds", .object = "child", .unit = "s"),
	AW_OBS_ITEM("after_enter_write", "writing the offsets again once a child is inside: ok or "
		    "the errno", .object = "offsets"),
	AW_CHECK_ITEM("only_monotonic_boottime", "offsets of any clock but MONOTONIC (1) and "
		      "BOOTTIME (7) are refused with EINVAL (time_namespaces(7))", .object = "offsets"),
	AW_CHECK_ITEM("vdso_agrees", "inside, the vDSO's CLOCK_MONOTONIC and BOOTTIME carry the "
		      "same offsets as the system call's (time_namespaces(7))", .object = "child"),
	AW_CHECK_ITEM("fixed_after_enter", "the offsets cannot be written once a process is inside: "
		      "EACCES (time_namespaces(7))", .object = "offsets"),
	AW_ITEMS_END
};

static struct aw_ctx *ns_ctx;

struct reading {
	long long mono, boot, real, vmono, vboot;
};

static long long sys_ns(clockid_t id)
{
	struct timespec ts;
	syscall(SYS_clock_gettime, id, &ts);
	return time_ns(&ts);
}

static long long vdso_ns(clockid_t id)
{
	struct timespec ts;
	clock_gettime(id, &ts);
	return time_ns(&ts);
}

static void observe_file(struct aw_ctx *ctx, const char *item)
{
	char *text;
	size_t len;
	if (aw_file_slurp(OFFSETS, &text, &len) != 0) {
		aw_observe(ctx, item, "%s", aw_errname(errno));
		return;
	}
	while (len && text[len - 1] == '\n')
		text[--len] = '\0';
	for (char *p = text; *p; p++)
		if (*p == '\n')
			*p = ';';
	aw_observe(ctx, item, "%s", text);
	free(text);
}

static int ns_child(void *arg)
{
	(void)arg;
	struct aw_ctx *ctx = ns_ctx;
	int rc = aw_enter_userns(CLONE_NEWTIME);
	if (rc == -EPERM || rc == -ENOSPC) {
		aw_skip_rest_cause(ctx, "userns", "unshare(CLONE_NEWUSER | CLONE_NEWTIME): %s",
				   aw_errname(rc));
		return 0;
	}
	aw_observe(ctx, "unshare", "%s", rc ? aw_errname(rc) : "ok");
	if (rc) {
		aw_skip_rest(ctx, "no time namespace: %s", aw_errname(rc));
		return 0;
	}
	observe_file(ctx, "offsets.initial");

	char refused[256] = "";
	bool only = true;
	for (int id = 0; id < 12; id++) {
		if (id == CLOCK_MONOTONIC || id == CLOCK_BOOTTIME)
			continue;
		char line[32];
		snprintf(line, sizeof(line), "%d 1 0", id);
		int w = aw_file_write(OFFSETS, line);
		only &= w == -EINVAL;
		if (w)
			snprintf(refused + strlen(refused), sizeof(refused) - strlen(refused), "%s%d:%s",
				 *refused ? "," : "", id, aw_errname(w));
	}
	aw_observe(ctx, "cannot_offset", "%s", *refused ? refused : "none");
	aw_expect(ctx, "only_monotonic_boottime", only, "refused: %s", refused);

	rc = aw_file_write(OFFSETS, "monotonic 100 0\nboottime 200 0\n");
	if (rc) {
		aw_skip_rest(ctx, "writing the offsets: %s", aw_errname(rc));
		return 0;
	}
	observe_file(ctx, "offsets.written");

	struct reading *in = aw_shared_alloc(sizeof(*in));
	if (!in) {
		aw_error_rest(ctx, "shared memory: %s", aw_errname(errno));
		return 0;
	}
	long long mono = sys_ns(CLOCK_MONOTONIC), boot = sys_ns(CLOCK_BOOTTIME),
		  real = sys_ns(CLOCK_REALTIME);
	int gate[2];
	if (pipe(gate) != 0) {
		aw_error_rest(ctx, "pipe: %s", aw_errname(errno));
		return 0;
	}
	pid_t pid = fork();
	if (pid == 0) {
		in->mono = sys_ns(CLOCK_MONOTONIC);
		in->boot = sys_ns(CLOCK_BOOTTIME);
		in->real = sys_ns(CLOCK_REALTIME);
		in->vmono = vdso_ns(CLOCK_MONOTONIC);
		in->vboot = vdso_ns(CLOCK_BOOTTIME);
		close(gate[1]);
		/* Stay inside until the parent has tried the write. */
		time_wait_readable(gate[0]);
		_exit(0);
	}
	close(gate[0]);
	if (pid < 0) {
		aw_error_rest(ctx, "fork: %s", aw_errname(errno));
		return 0;
	}
	/* The child has entered at fork; writing now must be refused. */
	rc = aw_file_write(OFFSETS, "monotonic 5 0\n");
	aw_observe(ctx, "after_enter_write", "%s", rc ? aw_errname(rc) : "ok");
	aw_expect(ctx, "fixed_after_enter", rc == -EACCES, "the write: %s", rc ? aw_errname(rc) : "ok");
	close(gate[1]);
	waitpid(pid, NULL, 0);
	long long real_after = sys_ns(CLOCK_REALTIME);

	/* The child read its clocks some time after the parent did: as long
	 * as a loaded machine made it.  REALTIME, which no namespace
	 * offsets, moved by that time too, so each offset is measured
	 * against it; REALTIME itself by whether the child's reading lies
	 * between the parent's before the fork and after the wait. */
	long long elapsed = in->real - real;
	long long dm = time_secs(in->mono - mono - elapsed), db = time_secs(in->boot - boot - elapsed);
	aw_observe_long(ctx, "child.monotonic", dm);
	aw_observe_long(ctx, "child.boottime", db);
	aw_observe_long(ctx, "child.realtime", in->real < real ? time_secs(in->real - real) :
			in->real > real_after ? time_secs(in->real - real_after) : 0);
	long long vm = time_secs(in->vmono - mono - elapsed), vb = time_secs(in->vboot - boot - elapsed);
	aw_expect(ctx, "vdso_agrees", vm == dm && vb == db, "system call %lld/%lld s, vDSO %lld/%lld s",
		  dm, db, vm, vb);
	return 0;
}

static void run_timens(struct aw_ctx *ctx)
{
	ns_ctx = ctx;
	int st = aw_child_run(ns_child, NULL, CHILD_MS);
	if (st != 0)
		aw_error_rest(ctx, "the namespace's child ended with status %d", st);
}

static const char *const timens_tags[] = {
	"man:time_namespaces(7)", "man:unshare(2)", "linux-git:769071ac9f20", NULL,
};

static const char *const timens_kconfig[] = { "CONFIG_TIME_NS", "CONFIG_USER_NS", NULL };

const struct aw_probe time_timens_probes[] = {
	{ .name = "timens", .summary = "time namespaces: offsets, what a child sees, the clocks "
	  "that cannot be offset", .run = run_timens, .items = timens_items, .tags = timens_tags,
	  .needs = { .userns = true, .kconfig = timens_kconfig } },
	AW_PROBES_END
};

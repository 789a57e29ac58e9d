// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * epoll_ctl(2) flags and errors, epoll_pwait2, and the 32-bit caller's
 * struct epoll_event.
 *
 * EPOLLWAKEUP without CAP_BLOCK_SUSPEND: the first version failed with
 * EPERM, which broke an application that set the bit at random, so the
 * kernel drops the bit silently (epoll_ctl(2), BUGS); what it kept shows
 * in the epoll descriptor's fdinfo (fdinfo.c).  Without CONFIG_PM_SLEEP
 * it drops the bit for everyone, so the capable case is a configuration
 * fact.  The unprivileged calls run in a child whose effective set lacks
 * CAP_BLOCK_SUSPEND.  EPOLLEXCLUSIVE (df0108c5da56, 4.5) allows only a
 * few other bits, no epoll target and no EPOLL_CTL_MOD.  An x86-64
 * struct epoll_event is packed to 12 bytes so that it matches i386's
 * natural layout, and the i386 entry points are the native ones: the
 * family's 32-bit helper (m32/) checks the stride and the unaligned data
 * from its side.
 */
#include "fdio.h"
#include "lib/child.h"
#include "lib/errname.h"
#include "core/probe.h"
#include "lib/proc.h"
#include "lib/caps.h"
#include "lib/procfs.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/capability.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#ifndef SYS_epoll_pwait2
#define SYS_epoll_pwait2 441
#endif
#define EPIOCGPARAMS_NR 0x80088a02UL /* _IOR(0x8A, 0x02, struct epoll_params), 6.9 */
#define HELPER_TIMEOUT_MS 5000

static const struct aw_item epoll_items[] = {
	AW_CHECK_ITEM("wakeup_dropped", "epoll_ctl(ADD, EPOLLIN|EPOLLWAKEUP) without "
		      "CAP_BLOCK_SUSPEND succeeds and the bit is not kept (epoll_ctl(2), BUGS)"),
	AW_OBS_ITEM("wakeup.add", "fdinfo events mask (hex) after ADD EPOLLIN|EPOLLWAKEUP "
		    "without CAP_BLOCK_SUSPEND, or the errno",
		    .change = "programs setting EPOLLWAKEUP unprivileged fail (EPERM) or keep it"),
	AW_OBS_ITEM("wakeup.mod", "fdinfo events mask after MOD EPOLLIN|EPOLLWAKEUP|EPOLLET "
		    "without CAP_BLOCK_SUSPEND"),
	AW_OBS_ITEM("wakeup.capable", "fdinfo events mask after ADD EPOLLIN|EPOLLWAKEUP with "
		    "CAP_BLOCK_SUSPEND (20000019 with CONFIG_PM_SLEEP, 19 without)",
		    .change = "EPOLLWAKEUP keeps the system awake, or no longer does (CONFIG_PM_SLEEP)"),
	AW_CHECK_ITEM("exclusive_einval", "EPOLLEXCLUSIVE with EPOLLONESHOT, on an epoll target, "
		      "or in EPOLL_CTL_MOD (either way) fails with EINVAL (epoll_ctl(2))"),
	AW_OBS_ITEM("exclusive.in", "fdinfo events mask after ADD EPOLLIN|EPOLLEXCLUSIVE"),
	AW_OBS_ITEM("exclusive.alone", "fdinfo events mask after ADD EPOLLEXCLUSIVE alone"),
	AW_OBS_ITEM("exclusive.all_ok", "fdinfo events mask after ADD IN|OUT|ERR|HUP|ET|"
		    "EXCLUSIVE|WAKEUP without CAP_BLOCK_SUSPEND"),
	AW_OBS_ITEM("exclusive.oneshot", "ADD EPOLLIN|EPOLLEXCLUSIVE|EPOLLONESHOT"),
	AW_OBS_ITEM("exclusive.rdhup", "ADD EPOLLIN|EPOLLEXCLUSIVE|EPOLLRDHUP"),
	AW_OBS_ITEM("exclusive.pri", "ADD EPOLLIN|EPOLLEXCLUSIVE|EPOLLPRI"),
	AW_OBS_ITEM("exclusive.epoll_target", "ADD EPOLLIN|EPOLLEXCLUSIVE of an epoll descriptor"),
	AW_OBS_ITEM("exclusive.mod_to", "MOD to a mask with EPOLLEXCLUSIVE"),
	AW_OBS_ITEM("exclusive.mod_from", "MOD of an item added with EPOLLEXCLUSIVE"),
	AW_OBS_ITEM("exclusive.del", "DEL of an item added with EPOLLEXCLUSIVE"),
	AW_CHECK_ITEM("ctl_errnos", "epoll_ctl's documented errors: EPERM, EINVAL, ELOOP, "
		      "ENOENT, EEXIST (epoll_ctl(2))"),
	AW_OBS_ITEM("ctl.regular_file", "ADD of a regular file"),
	AW_OBS_ITEM("ctl.not_epoll", "ADD on a descriptor that is not an epoll one"),
	AW_OBS_ITEM("ctl.self", "ADD of an epoll descriptor to itself"),
	AW_OBS_ITEM("ctl.loop", "ADD closing a cycle of two epoll descriptors"),
	AW_OBS_ITEM("ctl.bad_op", "op 99"),
	AW_OBS_ITEM("ctl.mod_missing", "MOD of a descriptor never added"),
	AW_OBS_ITEM("ctl.add_twice", "ADD of a descriptor already added"),
	AW_OBS_ITEM("pwait2", "epoll_pwait2 with timeout {0, 0} on an idle set: events or errno",
		    .change = "programs using epoll_pwait2 (glibc 2.35, Go, libuv) get ENOSYS"),
	AW_OBS_ITEM("pwait2.bad_nsec", "epoll_pwait2 with tv_nsec 1000000000"),
	AW_OBS_ITEM("pwait2.maxevents_0", "epoll_pwait2 with maxevents 0"),
	AW_OBS_ITEM("ioctl_getparams", "ioctl(epfd, EPIOCGPARAMS): 0 or the errno (ENOTTY "
		    "before 6.9)", .change = "programs reading epoll busy-poll parameters fail "
		    "or start working"),
	AW_OBS_ITEM("compat32.sizeof_epoll_event", "sizeof(struct epoll_event) for an i386 "
		    "program", .unit = "B",
		    .change = "32-bit and 64-bit programs no longer agree on the event layout"),
	AW_CHECK_ITEM("compat32.stride", "a 32-bit epoll_wait writes 2 events at byte offsets 0 "
		      "and 12 and nothing beyond"),
	AW_CHECK_ITEM("compat32.data_roundtrip", "a 32-bit caller gets back both 64-bit data "
		      "values, unaligned at offset 4 of each event"),
	AW_OBS_ITEM("compat32.pwait2", "32-bit epoll_pwait2 (441) with a 16-byte "
		    "__kernel_timespec {0, 0}, 2 ready: events or errno"),
	AW_OBS_ITEM("compat32.pwait2.bad_nsec", "32-bit epoll_pwait2 with tv_nsec 1000000000"),
	AW_ITEMS_END
};

struct epoll_params_abi {
	uint32_t busy_poll_usecs;
	uint16_t busy_poll_budget;
	uint8_t prefer_busy_poll;
	uint8_t pad;
};

static int ctl(int ep, int op, int fd, unsigned events)
{
	struct epoll_event ev = { .events = events, .data.u64 = (uint64_t)fd };
	return epoll_ctl(ep, op, fd, &ev) == 0 ? 0 : -errno;
}

/* What the kernel kept for fd in ep: "%x" from fdinfo, or the errno. */
static const char *kept(char buf[FDIO_RES_LEN], int ep, int fd, int rc)
{
	char path[64], *text = NULL;
	size_t len;
	unsigned events;

	if (rc < 0)
		return aw_errname(rc);
	snprintf(path, sizeof(path), "/proc/self/fdinfo/%d", ep);
	if (aw_file_slurp(path, &text, &len) != 0)
		snprintf(buf, FDIO_RES_LEN, "fdinfo: %s", aw_errname(errno));
	else if ((rc = fdio_epoll_events(text, len, fd, &events)) != 0)
		snprintf(buf, FDIO_RES_LEN, "fdinfo: %s", aw_errname(rc));
	else
		snprintf(buf, FDIO_RES_LEN, "%x", events);
	free(text);
	return buf;
}

/* A fresh epoll set watching the read end of a fresh pipe with events:
 * what was kept.  *out_ep and *out_fd let the caller go on (MOD). */
static const char *add_kept(char buf[FDIO_RES_LEN], unsigned events, int *out_ep, int p[2])
{
	int ep = epoll_create1(EPOLL_CLOEXEC);
	if (ep < 0 || pipe2(p, O_CLOEXEC) != 0)
		return aw_errname(errno);
	*out_ep = ep;
	return kept(buf, ep, p[0], ctl(ep, EPOLL_CTL_ADD, p[0], events));
}

static void close3(int ep, int p[2])
{
	close(ep);
	close(p[0]);
	close(p[1]);
}

static void wakeup_unprivileged(struct aw_ctx *ctx)
{
	char buf[FDIO_RES_LEN];
	int ep = -1, p[2];
	const char *add = add_kept(buf, EPOLLIN | EPOLLWAKEUP, &ep, p);

	aw_observe(ctx, "wakeup.add", "%s", add);
	aw_expect(ctx, "wakeup_dropped", strcmp(add, "19") == 0, "fdinfo events %s after ADD "
		  "EPOLLIN|EPOLLWAKEUP (19 expected: EPOLLIN|EPOLLERR|EPOLLHUP)", add);
	if (ep >= 0) {
		int rc = ctl(ep, EPOLL_CTL_MOD, p[0], EPOLLIN | EPOLLWAKEUP | EPOLLET);
		aw_observe(ctx, "wakeup.mod", "%s", kept(buf, ep, p[0], rc));
		close3(ep, p);
	} else {
		aw_error(ctx, "wakeup.mod", "no epoll set");
	}
}

static void wakeup_capable(struct aw_ctx *ctx)
{
	char buf[FDIO_RES_LEN];
	int ep = -1, p[2];

	if (!aw_has_cap(CAP_BLOCK_SUSPEND) || !aw_in_initial_userns()) {
		aw_unobserved(ctx, "wakeup.capable", "the runner lacks CAP_BLOCK_SUSPEND in the "
			      "initial user namespace");
		return;
	}
	aw_observe(ctx, "wakeup.capable", "%s", add_kept(buf, EPOLLIN | EPOLLWAKEUP, &ep, p));
	if (ep >= 0)
		close3(ep, p);
}

/* ADD with events on a fresh set and pipe, then op2 with events2 (0:
 * none): the result of the last call made, as kept() writes it. */
static const char *exclusive_case(char buf[FDIO_RES_LEN], unsigned events, int op2,
				  unsigned events2)
{
	int ep = -1, p[2];
	const char *r = add_kept(buf, events, &ep, p);
	if (ep < 0)
		return r;
	if (op2) {
		int rc = ctl(ep, op2, p[0], events2);
		r = rc < 0 ? aw_errname(rc) : "0";
	}
	close3(ep, p);
	return r;
}

static bool observe_is(struct aw_ctx *ctx, const char *obs, const char *value, const char *want)
{
	aw_observe(ctx, obs, "%s", value);
	return strcmp(value, want) == 0;
}

static void exclusive(struct aw_ctx *ctx)
{
	char buf[FDIO_RES_LEN];
	const unsigned ex = EPOLLEXCLUSIVE;
	bool ok = true;

	aw_observe(ctx, "exclusive.in", "%s", exclusive_case(buf, EPOLLIN | ex, 0, 0));
	aw_observe(ctx, "exclusive.alone", "%s", exclusive_case(buf, ex, 0, 0));
	aw_observe(ctx, "exclusive.all_ok", "%s", exclusive_case(buf, EPOLLIN | EPOLLOUT | EPOLLERR |
		   EPOLLHUP | EPOLLET | ex | EPOLLWAKEUP, 0, 0));
	ok &= observe_is(ctx, "exclusive.oneshot", exclusive_case(buf, EPOLLIN | ex | EPOLLONESHOT,
								   0, 0), "EINVAL");
	aw_observe(ctx, "exclusive.rdhup", "%s", exclusive_case(buf, EPOLLIN | ex | EPOLLRDHUP, 0, 0));
	aw_observe(ctx, "exclusive.pri", "%s", exclusive_case(buf, EPOLLIN | ex | EPOLLPRI, 0, 0));
	ok &= observe_is(ctx, "exclusive.mod_to", exclusive_case(buf, EPOLLIN, EPOLL_CTL_MOD,
								  EPOLLIN | ex), "EINVAL");
	ok &= observe_is(ctx, "exclusive.mod_from", exclusive_case(buf, EPOLLIN | ex, EPOLL_CTL_MOD,
								    EPOLLIN), "EINVAL");
	aw_observe(ctx, "exclusive.del", "%s", exclusive_case(buf, EPOLLIN | ex, EPOLL_CTL_DEL, 0));
	int outer = epoll_create1(EPOLL_CLOEXEC), inner = epoll_create1(EPOLL_CLOEXEC);
	int rc = outer < 0 || inner < 0 ? -errno : ctl(outer, EPOLL_CTL_ADD, inner, EPOLLIN | ex);
	ok &= observe_is(ctx, "exclusive.epoll_target", rc < 0 ? aw_errname(rc) : "0", "EINVAL");
	aw_expect(ctx, "exclusive_einval", ok, "see the exclusive.* observations");
	close(outer);
	close(inner);
}

static bool ctl_case(struct aw_ctx *ctx, const char *obs, int rc, int want)
{
	aw_observe(ctx, obs, "%s", rc < 0 ? aw_errname(rc) : "0");
	return rc == want;
}

static void ctl_errors(struct aw_ctx *ctx)
{
	int a = epoll_create1(EPOLL_CLOEXEC), b = epoll_create1(EPOLL_CLOEXEC), p[2] = { -1, -1 };
	int file = aw_anon_file("fdio-regular");
	bool ok = a >= 0 && b >= 0 && file >= 0 && pipe2(p, O_CLOEXEC) == 0;

	ok &= ctl_case(ctx, "ctl.regular_file", ctl(a, EPOLL_CTL_ADD, file, EPOLLIN), -EPERM);
	ok &= ctl_case(ctx, "ctl.not_epoll", ctl(p[0], EPOLL_CTL_ADD, p[1], EPOLLOUT), -EINVAL);
	ok &= ctl_case(ctx, "ctl.self", ctl(a, EPOLL_CTL_ADD, a, EPOLLIN), -EINVAL);
	int first = ctl(a, EPOLL_CTL_ADD, b, EPOLLIN);
	ok &= first == 0 && ctl_case(ctx, "ctl.loop", ctl(b, EPOLL_CTL_ADD, a, EPOLLIN), -ELOOP);
	if (first != 0)
		aw_error(ctx, "ctl.loop", "adding b to a: %s", aw_errname(first));
	ok &= ctl_case(ctx, "ctl.bad_op", ctl(a, 99, p[0], EPOLLIN), -EINVAL);
	ok &= ctl_case(ctx, "ctl.mod_missing", ctl(a, EPOLL_CTL_MOD, p[0], EPOLLIN), -ENOENT);
	first = ctl(a, EPOLL_CTL_ADD, p[0], EPOLLIN);
	ok &= first == 0 && ctl_case(ctx, "ctl.add_twice", ctl(a, EPOLL_CTL_ADD, p[0], EPOLLIN), -EEXIST);
	if (first != 0)
		aw_error(ctx, "ctl.add_twice", "the first ADD: %s", aw_errname(first));
	aw_expect(ctx, "ctl_errnos", ok, "see the ctl.* observations");
	int fds[] = { a, b, p[0], p[1], file };
	for (size_t i = 0; i < sizeof(fds) / sizeof(fds[0]); i++)
		if (fds[i] >= 0)
			close(fds[i]);
}

static int unprivileged_child(void *arg)
{
	struct aw_ctx *ctx = arg;
	int rc = aw_drop_cap(CAP_BLOCK_SUSPEND);
	if (rc != 0) {
		aw_error(ctx, "wakeup_dropped", "dropping CAP_BLOCK_SUSPEND: %s", aw_errname(rc));
		return 1;
	}
	wakeup_unprivileged(ctx);
	exclusive(ctx);
	return 0;
}

static long pwait2(int ep, long sec, long nsec, int maxevents)
{
	struct epoll_event ev[4];
	struct timespec ts = { sec, nsec };
	long r = syscall(SYS_epoll_pwait2, ep, ev, maxevents, &ts, NULL, 0);
	return r < 0 ? -errno : r;
}

static void pwait2_and_ioctl(struct aw_ctx *ctx)
{
	char buf[FDIO_RES_LEN];
	int ep = epoll_create1(EPOLL_CLOEXEC);
	struct epoll_params_abi params;

	if (ep < 0) {
		aw_error(ctx, "pwait2", "epoll_create1: %s", aw_errname(errno));
		return;
	}
	long r = pwait2(ep, 0, 0, 4);
	aw_observe(ctx, "pwait2", "%s", fdio_res(buf, r, (int)-r));
	r = pwait2(ep, 0, 1000000000L, 4);
	aw_observe(ctx, "pwait2.bad_nsec", "%s", fdio_res(buf, r, (int)-r));
	r = pwait2(ep, 0, 0, 0);
	aw_observe(ctx, "pwait2.maxevents_0", "%s", fdio_res(buf, r, (int)-r));
	memset(&params, 0xff, sizeof(params));
	r = ioctl(ep, EPIOCGPARAMS_NR, &params);
	aw_observe(ctx, "ioctl_getparams", "%s", fdio_res(buf, r, errno));
	close(ep);
}

static void epoll_run(struct aw_ctx *ctx)
{
	static const char *const own[] = { NULL };
	const struct aw_helper helper = {
		.name = FDIO_HELPER, .prefix = "compat32.", .own = own,
		.timeout_ms = HELPER_TIMEOUT_MS,
	};
	int st = aw_child_run(unprivileged_child, ctx, 5000);

	if (st != 0)
		aw_note(ctx, "the unprivileged child ended with %d", st);
	wakeup_capable(ctx);
	ctl_errors(ctx);
	pwait2_and_ioctl(ctx);
	aw_helper_report(ctx, &helper);
}

static const char *const epoll_tags[] = {
	"man:epoll_ctl(2)", "man:epoll_wait(2)", "man:epoll(7)", "linux-git:df0108c5da56",
	"linux-git:58169a52ebc9", "linux-git:18e2bf0edf4d", NULL,
};
static const char *const epoll_kconfig[] = { "CONFIG_EPOLL", "CONFIG_IA32_EMULATION", NULL };

const struct aw_probe fdio_epoll_probes[] = {
	{ .name = "epoll", .summary = "epoll_ctl flags and errors (EPOLLWAKEUP, EPOLLEXCLUSIVE), "
	  "epoll_pwait2, EPIOCGPARAMS, and struct epoll_event for 32-bit callers", .run = epoll_run,
	  .items = epoll_items, .tags = epoll_tags, .needs = { .kconfig = epoll_kconfig } },
	AW_PROBES_END
};

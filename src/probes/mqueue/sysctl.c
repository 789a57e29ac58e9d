// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The ranges the files in /proc/sys/fs/mqueue accept, found by writing them in the
 * probe's private IPC namespace: msg_max and msg_default in
 * [MIN_MSGMAX, HARD_MSGMAX], the sizes in [MIN_MSGSIZEMAX,
 * HARD_MSGSIZEMAX] (ipc/mq_sysctl.c), queues_max any int since 3.14
 * (f3713fd9cff7; [1, 1024] in 3.5 - 3.13).  Admins and container
 * runtimes write these; a narrowed range fails their writes.
 */
#include "mq_util.h"
#include "lib/procfs.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

/* Far outside any int, so a bound found there means "no bound". */
#define SEARCH_SPAN (1LL << 40)

#define KNOB_ITEMS(k, u)                                                          \
	AW_OBS_ITEM(k ".min", "smallest value fs.mqueue." k " accepts", .unit = (u)),  \
	AW_OBS_ITEM(k ".max", "largest value fs.mqueue." k " accepts", .unit = (u)),   \
	AW_OBS_ITEM(k ".initial", "fs.mqueue." k " in a fresh IPC namespace (compiled-in default)", \
		    .unit = (u))

static const struct aw_item sysctl_items[] = {
	KNOB_ITEMS("msg_max", "messages"),
	KNOB_ITEMS("msgsize_max", "B"),
	KNOB_ITEMS("msg_default", "messages"),
	KNOB_ITEMS("msgsize_default", "B"),
	KNOB_ITEMS("queues_max", "queues"),
	AW_ITEMS_END
};

static const char *const knobs[] = {
	"msg_max", "msgsize_max", "msg_default", "msgsize_default", "queues_max",
};

struct writer {
	struct aw_ctx *ctx;
	char path[64];
	bool invert; /* the predicate is "rejected" rather than "accepted" */
};

/* 1 when the knob accepts x (or rejects it, inverted); EINVAL is the
 * kernel's out-of-range answer, anything else breaks the search. */
static int accepts(long long x, void *arg)
{
	struct writer *w = arg;
	int rc = aw_sysctl_write_ll(w->ctx, w->path, x);

	if (rc != 0 && rc != -EINVAL)
		return rc == AW_SYSCTL_REFUSED ? -EPERM : rc;
	return (rc == 0) != w->invert;
}

static void observe_bound(struct aw_ctx *ctx, const char *obs, int rc, long long v,
			  bool unbounded)
{
	if (rc < 0)
		aw_unobserved(ctx, obs, "writing failed: %s", aw_errname(rc));
	else if (unbounded)
		aw_observe(ctx, obs, "unbounded");
	else
		aw_observe_long(ctx, obs, v);
}

/* Smallest accepted: the first x in [-SPAN, initial] that is accepted. */
static void search_min(struct writer *w, const char *obs, long long initial)
{
	long long v = initial;

	w->invert = false;
	int rc = mqu_first_true(-SEARCH_SPAN, initial, accepts, w, &v);
	observe_bound(w->ctx, obs, rc, v, rc == 0 && v == -SEARCH_SPAN);
}

/* Largest accepted: one below the first x in [initial, SPAN] rejected. */
static void search_max(struct writer *w, const char *obs, long long initial)
{
	long long v = initial;

	w->invert = true;
	int rc = mqu_first_true(initial, SEARCH_SPAN, accepts, w, &v);
	/* rc 1: even SPAN was accepted. */
	observe_bound(w->ctx, obs, rc < 0 ? rc : 0, v - 1, rc == 1);
}

static void probe_knob(struct aw_ctx *ctx, const char *knob)
{
	struct writer w = { .ctx = ctx };
	char obs[3][48];
	long long initial;

	snprintf(w.path, sizeof(w.path), "fs/mqueue/%s", knob);
	snprintf(obs[0], sizeof(obs[0]), "%s.initial", knob);
	snprintf(obs[1], sizeof(obs[1]), "%s.min", knob);
	snprintf(obs[2], sizeof(obs[2]), "%s.max", knob);
	int rc = aw_sysctl_read_ll(w.path, &initial);
	if (rc) {
		const char *why = rc == -ENOENT ? "no such knob on this kernel" : aw_errname(rc);
		for (int i = 0; i < 3; i++)
			aw_unobserved(ctx, obs[i], "reading /proc/sys/%s: %s", w.path, why);
		return;
	}
	aw_observe_long(ctx, obs[0], initial);
	search_min(&w, obs[1], initial);
	search_max(&w, obs[2], initial);
	/* Later knobs must see the namespace as it was. */
	rc = aw_sysctl_write_ll(ctx, w.path, initial);
	if (rc)
		aw_note(ctx, "restoring %s to %lld: %s", knob, initial, aw_sysctl_strerror(rc));
}

static void sysctl_run(struct aw_ctx *ctx)
{
	if (!aw_private_ipc(ctx)) {
		aw_skip_rest(ctx, "%s", "not in a private IPC namespace: knobs must not be written");
		return;
	}
	for (size_t i = 0; i < AW_ARRAY_SIZE(knobs); i++)
		probe_knob(ctx, knobs[i]);
}

static const char *const sysctl_tags[] = {
	"man:mq_overview(7)", "linux-git:b231cca4381e", "linux-git:93e6f119c0ce",
	"linux-git:5b5c4d1a1440", "linux-git:cef0184c115e", "linux-git:f3713fd9cff7", NULL
};

static const char *const sysctl_files[] = { "/proc/sys/fs/mqueue/msg_max", NULL };
static const char *const sysctl_kconfig[] = { "CONFIG_POSIX_MQUEUE_SYSCTL", "CONFIG_IPC_NS", NULL };

const struct aw_probe mq_sysctl_probes[] = {
	{
		.name = "sysctl",
		.summary = "ranges and initial values of the fs.mqueue sysctls in a fresh namespace",
		.run = sysctl_run,
		.items = sysctl_items,
		.needs = { .files = sysctl_files, .kconfig = sysctl_kconfig },
		.tags = sysctl_tags,
	},
	AW_PROBES_END,
};

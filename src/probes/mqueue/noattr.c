// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * mq_open(O_CREAT) with attr NULL: what shape the queue gets and which
 * settings it follows.  The answer changed twice: fixed constants before
 * 2.6.28, the system maxima from 2.6.28 (b231cca4381e), and since 3.5
 * the msg_default/msgsize_default knobs clamped to the maxima
 * (cef0184c115e).  Programs that never pass an attr rely on it.
 */
#include "mq_util.h"
#include "lib/caps.h"
#include "lib/procfs.h"

#include <errno.h>
#include <linux/capability.h>
#include <stdio.h>

#define QNAME "/aw_noattr"

static const struct aw_item noattr_items[] = {
	AW_OBS_ITEM("maxmsg", "mq_maxmsg of a queue created with attr NULL in a fresh IPC namespace",
		    .unit = "messages"),
	AW_OBS_ITEM("msgsize", "mq_msgsize of a queue created with attr NULL in a fresh IPC namespace",
		    .unit = "B"),
	AW_OBS_ITEM("source", "which knobs an attr-NULL queue follows: default_knobs, maxima or fixed"),
	AW_OBS_ITEM("era", "the documented behaviour source belongs to, with its kernels",
		    .change = "programs that create queues without attributes get other sizes"),
	AW_CHECK_ITEM("clamp", "with msg_default > msg_max the queue gets min(default, max), likewise for msgsize"),
	AW_CHECK_ITEM("rlimit_exceeded", "attr NULL fails with EMFILE when the defaults' charge exceeds RLIMIT_MSGQUEUE"),
	AW_ITEMS_END
};

struct knobs {
	long long msg_max, msgsize_max, msg_default, msgsize_default;
	bool have_defaults; /* msg_default and msgsize_default exist (>= 3.5) */
};

/* Set the knobs that exist; -errno (or the refusal) of the first failure. */
static int set_knobs(struct aw_ctx *ctx, const struct knobs *k)
{
	int rc = aw_sysctl_write_ll(ctx, MQU_KNOB_MSG_MAX, k->msg_max);
	if (!rc)
		rc = aw_sysctl_write_ll(ctx, MQU_KNOB_MSGSIZE_MAX, k->msgsize_max);
	if (!rc && k->have_defaults)
		rc = aw_sysctl_write_ll(ctx, MQU_KNOB_MSG_DEFAULT, k->msg_default);
	if (!rc && k->have_defaults)
		rc = aw_sysctl_write_ll(ctx, MQU_KNOB_MSGSIZE_DEFAULT, k->msgsize_default);
	return rc;
}

static int read_knobs(struct knobs *k)
{
	int rc = aw_sysctl_read_ll(MQU_KNOB_MSG_MAX, &k->msg_max);
	if (!rc)
		rc = aw_sysctl_read_ll(MQU_KNOB_MSGSIZE_MAX, &k->msgsize_max);
	k->have_defaults = aw_sysctl_exists(MQU_KNOB_MSG_DEFAULT) &&
			   aw_sysctl_exists(MQU_KNOB_MSGSIZE_DEFAULT);
	if (!rc && k->have_defaults)
		rc = aw_sysctl_read_ll(MQU_KNOB_MSG_DEFAULT, &k->msg_default);
	if (!rc && k->have_defaults)
		rc = aw_sysctl_read_ll(MQU_KNOB_MSGSIZE_DEFAULT, &k->msgsize_default);
	return rc;
}

/* With the knobs set as k, create an attr-NULL queue; knobs restored after. */
static int trial(struct aw_ctx *ctx, const struct knobs *initial,
		 const struct knobs *k, struct mqu_shape *got)
{
	int rc = set_knobs(ctx, k);

	if (!rc)
		rc = mqu_try_create(QNAME, NULL, got);
	int rc2 = set_knobs(ctx, initial);
	return rc ? rc : rc2;
}

static void check_rlimit_exceeded(struct aw_ctx *ctx, int fresh_rc,
				  const struct mqu_shape *fresh)
{
	const char *c = "rlimit_exceeded";

	if (fresh_rc) {
		aw_error(ctx, c, "attr NULL failed already at the normal rlimit: %s",
			 aw_errname(fresh_rc));
		return;
	}
	/* One byte below the payload alone: whatever the kernel adds for
	 * bookkeeping, and whatever this uid holds elsewhere, it cannot fit. */
	long long limit = (long long)fresh->maxmsg * fresh->msgsize - 1;
	int rc = mqu_rlimit_set_soft((rlim_t)limit);
	if (rc) {
		aw_error(ctx, c, "setrlimit(RLIMIT_MSGQUEUE, %lld): %s", limit, aw_errname(rc));
		return;
	}
	rc = mqu_try_create(QNAME, NULL, NULL);
	int rrc = mqu_rlimit_restore_soft();
	if (rrc)
		aw_note(ctx, "restoring RLIMIT_MSGQUEUE failed: %s", aw_errname(rrc));
	aw_expect(ctx, c, rc == -EMFILE,
		  "expected EMFILE for a %ldx%ld default queue with RLIMIT_MSGQUEUE %lld, got %s",
		  fresh->maxmsg, fresh->msgsize, limit, aw_errname(rc));
}

/* The default knobs set below the maxima: does the queue follow them? */
static void trial_defaults_lowered(struct aw_ctx *ctx, const struct knobs *init,
				   struct mqu_trial *t)
{
	struct knobs k = *init;

	t->done = false;
	if (!init->have_defaults)
		return;
	k.msg_default = t->set.maxmsg = 3;
	k.msgsize_default = t->set.msgsize = 1024;
	int rc = trial(ctx, init, &k, &t->got);
	if (rc)
		aw_note(ctx, "trial with msg_default 3, msgsize_default 1024: %s",
			aw_sysctl_strerror(rc));
	t->done = rc == 0;
}

/* The maxima raised above the fresh shape, defaults untouched.  Small
 * enough (16 x 9216) that the charge fits the default rlimit. */
static void trial_maxima_raised(struct aw_ctx *ctx, const struct knobs *init,
				const struct mqu_shape *fresh, struct mqu_trial *t)
{
	struct knobs k = *init;

	k.msg_max = t->set.maxmsg = fresh->maxmsg + 6;
	k.msgsize_max = t->set.msgsize = fresh->msgsize + 1024;
	int rc = trial(ctx, init, &k, &t->got);
	if (rc)
		aw_note(ctx, "trial with msg_max %ld, msgsize_max %ld: %s",
			t->set.maxmsg, t->set.msgsize, aw_sysctl_strerror(rc));
	t->done = rc == 0;
}

static void observe_source(struct aw_ctx *ctx, const struct knobs *init,
			   int fresh_rc, const struct mqu_shape *fresh)
{
	struct mqu_trial lowered, raised;

	if (fresh_rc) {
		aw_unobserved(ctx, "source", "attr NULL failed: %s", aw_errname(fresh_rc));
		aw_unobserved(ctx, "era", "no source was observed");
		return;
	}
	if (!init->have_defaults)
		aw_note(ctx, "no msg_default/msgsize_default knobs: a kernel before 3.5");
	trial_defaults_lowered(ctx, init, &lowered);
	trial_maxima_raised(ctx, init, fresh, &raised);
	if (!raised.done && !lowered.done) {
		aw_unobserved(ctx, "source", "no trial could be made (see notes)");
		aw_unobserved(ctx, "era", "no source was observed");
		return;
	}
	enum mqu_source s = mqu_classify_source(fresh, &lowered, &raised);
	if (s == MQU_SRC_OTHER)
		aw_note(ctx, "source unclear: defaults 3x1024 gave %ldx%ld, maxima %ldx%ld gave %ldx%ld",
			lowered.got.maxmsg, lowered.got.msgsize, raised.set.maxmsg,
			raised.set.msgsize, raised.got.maxmsg, raised.got.msgsize);
	aw_observe(ctx, "source", "%s", mqu_source_name(s));
	mqu_observe_era(ctx, "era", mqu_noattr_eras, mqu_source_name(s));
}

static void check_clamp(struct aw_ctx *ctx, const struct knobs *init)
{
	const struct knobs k = { .msg_max = 4, .msgsize_max = 1024, .msg_default = 8,
				 .msgsize_default = 4096, .have_defaults = true };
	const struct mqu_shape want = { 4, 1024 };
	struct mqu_shape got = { 0, 0 };

	if (!init->have_defaults) {
		aw_skip(ctx, "clamp", "no msg_default knob: a kernel before 3.5");
		return;
	}
	int rc = trial(ctx, init, &k, &got);
	if (rc) {
		aw_error(ctx, "clamp", "setting knobs or creating the queue: %s",
			 aw_sysctl_strerror(rc));
		return;
	}
	aw_expect(ctx, "clamp", mqu_shape_eq(&got, &want),
		  "with msg_default 8 > msg_max 4 and msgsize_default 4096 > msgsize_max 1024 "
		  "expected a 4x1024 queue, got %ldx%ld", got.maxmsg, got.msgsize);
}

/* An observation from a 0/-errno result: the value, or why not. */
static void observe_rc(struct aw_ctx *ctx, const char *obs, int rc, long long value,
		       const char *what)
{
	if (rc == 0)
		aw_observe_long(ctx, obs, value);
	else
		aw_unobserved(ctx, obs, "%s failed: %s", what, aw_errname(rc));
}

static void noattr_run(struct aw_ctx *ctx)
{
	struct mqu_shape fresh = { 0, 0 };
	struct knobs init;
	int rc;

	if (!aw_private_ipc(ctx)) {
		aw_skip_rest(ctx, "%s", "not in a private IPC namespace: knobs must not be moved");
		return;
	}
	/* The unprivileged path: with CAP_SYS_RESOURCE the checks differ. */
	if ((rc = aw_drop_cap(CAP_SYS_RESOURCE)) != 0 ||
	    (rc = read_knobs(&init)) != 0) {
		aw_error_rest(ctx, "%s", aw_errname(rc));
		return;
	}
	int fresh_rc = mqu_try_create(QNAME, NULL, &fresh);
	observe_rc(ctx, "maxmsg", fresh_rc, fresh.maxmsg, "mq_open(attr NULL)");
	observe_rc(ctx, "msgsize", fresh_rc, fresh.msgsize, "mq_open(attr NULL)");
	check_rlimit_exceeded(ctx, fresh_rc, &fresh);
	observe_source(ctx, &init, fresh_rc, &fresh);
	check_clamp(ctx, &init);
}

static const char *const noattr_tags[] = {
	"posix:mq_open", "man:mq_open(3)", "man:mq_overview(7)",
	"linux-git:b231cca4381e", "linux-git:858ee3784e81", "linux-git:cef0184c115e",
	"linux-git:d40dcdb0172a", NULL
};

const struct aw_probe mq_noattr_probes[] = {
	{
		.name = "noattr",
		.summary = "shape of a queue created without attributes, and the knobs it follows",
		.run = noattr_run,
		.items = noattr_items,
		.needs = { .kconfig = mqu_kconfig },
		.tags = noattr_tags,
	},
	AW_PROBES_END,
};

// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * mq_open(O_CREAT) with an attr, on the unprivileged path (no
 * CAP_SYS_RESOURCE): the limits a program meets when it asks for a shape.
 * EINVAL above msg_max/msgsize_max and for non-positive values (POSIX,
 * mq_open(3)); EMFILE past RLIMIT_MSGQUEUE (d40dcdb0172a; ENOMEM before);
 * EOVERFLOW where the size computation would overflow (113289cc086f).
 */
#include "mq_util.h"
#include "lib/caps.h"
#include "lib/procfs.h"

#include <errno.h>
#include <linux/capability.h>
#include <stdio.h>

#define QNAME "/aw_attr"

static const struct aw_item attr_items[] = {
	AW_CHECK_ITEM("einval_above_msg_max", "maxmsg one above msg_max fails with EINVAL"),
	AW_CHECK_ITEM("einval_above_msgsize_max", "msgsize one above msgsize_max fails with EINVAL"),
	AW_CHECK_ITEM("accepted_at_max", "maxmsg == msg_max and msgsize == msgsize_max are accepted"),
	AW_CHECK_ITEM("einval_nonpositive", "maxmsg or msgsize of 0 or -1 fails with EINVAL"),
	AW_CHECK_ITEM("emfile_beyond_rlimit", "a queue whose charge exceeds RLIMIT_MSGQUEUE fails with EMFILE"),
	AW_OBS_ITEM("total_overflow_errno", "errno for 65536 x 16 MiB with the maxima raised to allow it"),
	AW_ITEMS_END
};

/* Expect mq_open to fail with want for shape s; describe the first miss. */
static bool expect_errno(struct aw_ctx *ctx, const char *check, long maxmsg,
			 long msgsize, int want, const char *why)
{
	struct mqu_shape s = { maxmsg, msgsize };
	int rc = mqu_try_create(QNAME, &s, NULL);

	if (rc == -want)
		return true;
	aw_fail(ctx, check, "maxmsg %ld, msgsize %ld (%s): expected %s, got %s",
		maxmsg, msgsize, why, aw_errname(want), aw_errname(rc));
	return false;
}

static void check_above_max(struct aw_ctx *ctx, long long msg_max, long long msgsize_max)
{
	char why[64];

	snprintf(why, sizeof(why), "msg_max is %lld", msg_max);
	if (expect_errno(ctx, "einval_above_msg_max", (long)msg_max + 1, 128, EINVAL, why))
		aw_pass(ctx, "einval_above_msg_max");
	snprintf(why, sizeof(why), "msgsize_max is %lld", msgsize_max);
	if (expect_errno(ctx, "einval_above_msgsize_max", 1, (long)msgsize_max + 1, EINVAL, why))
		aw_pass(ctx, "einval_above_msgsize_max");
}

static void check_at_max(struct aw_ctx *ctx, long long msg_max, long long msgsize_max)
{
	const struct mqu_shape tries[] = {
		{ (long)msg_max, 128 }, { 1, (long)msgsize_max }, { (long)msg_max, (long)msgsize_max },
	};

	for (size_t i = 0; i < AW_ARRAY_SIZE(tries); i++) {
		int rc = mqu_try_create(QNAME, &tries[i], NULL);
		if (rc == -EMFILE) {
			/* The rlimit is per uid: other processes' queues count. */
			aw_error(ctx, "accepted_at_max", "%ldx%ld: EMFILE, RLIMIT_MSGQUEUE is "
				 "exhausted (queues of this uid elsewhere count too)",
				 tries[i].maxmsg, tries[i].msgsize);
			return;
		}
		if (rc) {
			aw_fail(ctx, "accepted_at_max", "maxmsg %ld, msgsize %ld (msg_max %lld, "
				"msgsize_max %lld): expected success, got %s", tries[i].maxmsg,
				tries[i].msgsize, msg_max, msgsize_max, aw_errname(rc));
			return;
		}
	}
	aw_pass(ctx, "accepted_at_max");
}

static void check_nonpositive(struct aw_ctx *ctx)
{
	const struct mqu_shape tries[] = { { 0, 128 }, { 1, 0 }, { -1, 128 }, { 1, -1 } };

	for (size_t i = 0; i < AW_ARRAY_SIZE(tries); i++)
		if (!expect_errno(ctx, "einval_nonpositive", tries[i].maxmsg,
				  tries[i].msgsize, EINVAL, "not positive"))
			return;
	aw_pass(ctx, "einval_nonpositive");
}

static void check_emfile(struct aw_ctx *ctx)
{
	/* 2 x 8192 is within the maxima but its payload alone is twice the
	 * lowered soft limit, so the charge exceeds it whatever else counts. */
	int rc = mqu_rlimit_set_soft(8192);

	if (rc) {
		aw_error(ctx, "emfile_beyond_rlimit", "setrlimit: %s", aw_errname(rc));
		return;
	}
	if (expect_errno(ctx, "emfile_beyond_rlimit", 2, 8192, EMFILE,
			 "RLIMIT_MSGQUEUE lowered to 8192"))
		aw_pass(ctx, "emfile_beyond_rlimit");
	rc = mqu_rlimit_restore_soft();
	if (rc)
		aw_note(ctx, "restoring RLIMIT_MSGQUEUE failed: %s", aw_errname(rc));
}

static int raise_maxima(struct aw_ctx *ctx, long long msg_max, long long msgsize_max)
{
	int rc = aw_sysctl_write_ll(ctx, MQU_KNOB_MSG_MAX, msg_max);
	return rc ? rc : aw_sysctl_write_ll(ctx, MQU_KNOB_MSGSIZE_MAX, msgsize_max);
}

/* 2^16 x 2^24 bytes: 1 TiB, which overflows a 32-bit size_t (EOVERFLOW)
 * and exceeds any rlimit on 64-bit (EMFILE). */
static void observe_overflow(struct aw_ctx *ctx, long long msg_max, long long msgsize_max)
{
	const char *o = "total_overflow_errno";
	const struct mqu_shape big = { MQU_HARD_MSGMAX, MQU_HARD_MSGSIZEMAX };
	int rc = raise_maxima(ctx, big.maxmsg, big.msgsize);

	if (rc) {
		aw_unobserved(ctx, o, "cannot raise msg_max/msgsize_max to %ld/%ld: %s",
			      big.maxmsg, big.msgsize, aw_sysctl_strerror(rc));
		raise_maxima(ctx, msg_max, msgsize_max);
		return;
	}
	rc = mqu_try_create(QNAME, &big, NULL);
	aw_observe(ctx, o, "%s", rc ? aw_errname(rc) : "none");
	rc = raise_maxima(ctx, msg_max, msgsize_max);
	if (rc)
		aw_note(ctx, "restoring the maxima failed: %s", aw_sysctl_strerror(rc));
}

static void attr_run(struct aw_ctx *ctx)
{
	long long msg_max, msgsize_max;
	int rc;

	if ((rc = aw_drop_cap(CAP_SYS_RESOURCE)) != 0 ||
	    (rc = aw_sysctl_read_ll(MQU_KNOB_MSG_MAX, &msg_max)) != 0 ||
	    (rc = aw_sysctl_read_ll(MQU_KNOB_MSGSIZE_MAX, &msgsize_max)) != 0) {
		aw_error_rest(ctx, "%s", aw_errname(rc));
		return;
	}
	check_above_max(ctx, msg_max, msgsize_max);
	check_at_max(ctx, msg_max, msgsize_max);
	check_nonpositive(ctx);
	check_emfile(ctx);
	observe_overflow(ctx, msg_max, msgsize_max);
}

static const char *const attr_tags[] = {
	"posix:mq_open", "man:mq_open(3)", "man:mq_overview(7)", "man:getrlimit(2)",
	"linux-git:d40dcdb0172a", "linux-git:113289cc086f", NULL
};

const struct aw_probe mq_attr_probes[] = {
	{
		.name = "attr",
		.summary = "limits on the attributes an unprivileged mq_open may ask for",
		.run = attr_run,
		.items = attr_items,
		.needs = { .kconfig = mqu_kconfig },
		.tags = attr_tags,
	},
	AW_PROBES_END,
};

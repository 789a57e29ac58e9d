// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * mq_getattr() and mq_setattr(): the attributes a queue reports, that
 * mq_curmsgs follows the queue, and that mq_setattr changes O_NONBLOCK
 * and nothing else (POSIX: "The values of mq_maxmsg, mq_msgsize, and
 * mq_curmsgs shall be ignored"), per open queue description.
 */
#include "mq_util.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define QNAME "/aw_attrs"

static const struct aw_item getsetattr_items[] = {
	AW_CHECK_ITEM("getattr_reports_shape", "mq_getattr reports the mq_maxmsg and mq_msgsize the queue was created with, mq_flags 0 and mq_curmsgs 0"),
	AW_CHECK_ITEM("getattr_flags_nonblock", "on a descriptor opened with O_NONBLOCK, mq_flags is O_NONBLOCK"),
	AW_CHECK_ITEM("curmsgs_tracks", "mq_curmsgs counts the messages in the queue, seen from every descriptor"),
	AW_OBS_ITEM("reserved_zeroed", "yes when mq_getattr clears the reserved words of struct mq_attr"),
	AW_CHECK_ITEM("setattr_only_nonblock", "mq_setattr applies O_NONBLOCK from mq_flags and ignores mq_maxmsg, mq_msgsize and mq_curmsgs"),
	AW_CHECK_ITEM("setattr_returns_old", "mq_setattr stores the attributes from before the call in *omqstat"),
	AW_CHECK_ITEM("nonblock_takes_effect", "after mq_setattr(O_NONBLOCK) an empty receive fails with EAGAIN; after clearing it, the receive blocks"),
	AW_CHECK_ITEM("nonblock_per_description", "O_NONBLOCK set through one descriptor does not change another mq_open of the same queue"),
	AW_OBS_ITEM("dup_shares_nonblock", "yes when a dup() of the descriptor sees O_NONBLOCK set through the original"),
	AW_OBS_ITEM("setattr_other_flags", "errno of mq_setattr with mq_flags O_NONBLOCK | O_APPEND, or success"),
	AW_CHECK_ITEM("setattr_failure_changes_nothing", "a failed mq_setattr leaves the attributes as they were"),
	AW_CHECK_ITEM("ebadf", "mq_getattr and mq_setattr on -1 and on a pipe fail with EBADF"),
	AW_ITEMS_END
};

static const struct mqu_shape shape = { 4, 32 };

static bool attr_is(const struct mq_attr *a, long flags, long maxmsg, long msgsize, long cur)
{
	return a->mq_flags == flags && a->mq_maxmsg == maxmsg && a->mq_msgsize == msgsize &&
	       a->mq_curmsgs == cur;
}

#define ATTR_FMT "{flags %#lx, maxmsg %ld, msgsize %ld, curmsgs %ld}"
#define ATTR_ARGS(a) (long)(a).mq_flags, (long)(a).mq_maxmsg, (long)(a).mq_msgsize, \
		     (long)(a).mq_curmsgs

static void check_getattr(struct aw_ctx *ctx, mqd_t q)
{
	struct mq_attr a;

	memset(&a, 0xa5, sizeof(a));
	int rc = mqu_getattr(q, &a);
	aw_expect(ctx, "getattr_reports_shape", rc == 0 && attr_is(&a, 0, 4, 32, 0),
		  "created 4x32: %s, " ATTR_FMT, aw_errname(rc), ATTR_ARGS(a));
	/* glibc's struct mq_attr ends in reserved words, as the kernel's. */
	bool zero = true;
	for (size_t i = 0; i < AW_ARRAY_SIZE(a.__pad); i++)
		zero = zero && a.__pad[i] == 0;
	if (rc == 0)
		aw_observe(ctx, "reserved_zeroed", "%s", zero ? "yes" : "no");
	else
		aw_unobserved(ctx, "reserved_zeroed", "mq_getattr: %s", aw_errname(rc));
	int nb = (int)mqu_rc(mq_open(QNAME, O_RDONLY | O_NONBLOCK));
	rc = nb < 0 ? nb : mqu_getattr(nb, &a);
	aw_expect(ctx, "getattr_flags_nonblock", rc == 0 && a.mq_flags == O_NONBLOCK,
		  "opened O_NONBLOCK: %s, mq_flags %#lx", aw_errname(rc), (long)a.mq_flags);
	if (nb >= 0)
		mq_close(nb);
}

static void check_curmsgs(struct aw_ctx *ctx, mqd_t q)
{
	char buf[32];
	struct mq_attr a = { 0 }, b = { 0 };
	long seen[4] = { -2, -2, -2, -2 };
	int other = (int)mqu_rc(mq_open(QNAME, O_RDONLY));
	int rc = other < 0 ? other : 0;

	for (int step = 0; step < 4 && rc == 0; step++) {
		if (step == 1 || step == 2)
			rc = mqu_send(q, "c", 1, 0);
		if (step == 3)
			rc = mqu_recv(q, buf, sizeof(buf), NULL) < 0 ? -EIO : 0;
		if (rc == 0)
			rc = mqu_getattr(q, &a) ? -EIO : mqu_getattr(other, &b) ? -EIO : 0;
		seen[step] = a.mq_curmsgs == b.mq_curmsgs ? a.mq_curmsgs : -1;
	}
	aw_expect(ctx, "curmsgs_tracks", rc == 0 && seen[0] == 0 && seen[1] == 1 &&
		  seen[2] == 2 && seen[3] == 1,
		  "empty, 1 sent, 2 sent, 1 received: mq_curmsgs %ld %ld %ld %ld (-1: the two "
		  "descriptors disagree)%s%s", seen[0], seen[1], seen[2], seen[3],
		  rc ? "; a call failed: " : "", rc ? aw_errname(rc) : "");
	if (other >= 0)
		mq_close(other);
	mqu_drain(q);
}

static void check_setattr(struct aw_ctx *ctx, mqd_t q)
{
	struct mq_attr before, set = { .mq_flags = O_NONBLOCK, .mq_maxmsg = 99,
				       .mq_msgsize = 999, .mq_curmsgs = 7 };
	struct mq_attr old, after;

	mqu_send(q, "s", 1, 0);
	int rc = mqu_getattr(q, &before);
	memset(&old, 0, sizeof(old));
	if (rc == 0)
		rc = (int)mqu_rc(mq_setattr(q, &set, &old));
	if (rc == 0)
		rc = mqu_getattr(q, &after);
	if (rc) {
		aw_error(ctx, "setattr_only_nonblock", "%s", aw_errname(rc));
		aw_error(ctx, "setattr_returns_old", "%s", aw_errname(rc));
		mqu_drain(q);
		return;
	}
	aw_expect(ctx, "setattr_only_nonblock", attr_is(&after, O_NONBLOCK, 4, 32, 1),
		  "set " ATTR_FMT " on a 4x32 queue holding 1 message, got " ATTR_FMT,
		  ATTR_ARGS(set), ATTR_ARGS(after));
	aw_expect(ctx, "setattr_returns_old", attr_is(&old, before.mq_flags, before.mq_maxmsg,
						      before.mq_msgsize, before.mq_curmsgs),
		  "before " ATTR_FMT ", *omqstat " ATTR_FMT, ATTR_ARGS(before), ATTR_ARGS(old));
	mqu_drain(q);
	set.mq_flags = 0;
	mq_setattr(q, &set, NULL);
}

static int set_flags(mqd_t q, long flags)
{
	struct mq_attr a = { .mq_flags = flags };

	return (int)mqu_rc(mq_setattr(q, &a, NULL));
}

static void check_nonblock(struct aw_ctx *ctx, mqd_t q)
{
	char buf[32];
	struct mq_attr a = { 0 }, d = { 0 };
	int other = (int)mqu_rc(mq_open(QNAME, O_RDONLY));
	int dup_fd = dup(q);

	int rc = set_flags(q, O_NONBLOCK);
	long empty = rc ? rc : mqu_recv(q, buf, sizeof(buf), NULL);
	int orc = other < 0 ? other : mqu_getattr(other, &a);
	int drc = dup_fd < 0 ? -errno : mqu_getattr(dup_fd, &d);
	int rc2 = set_flags(q, 0);
	struct timespec t = aw_deadline_ms(20);
	long blocked = rc2 ? rc2 : mqu_rc(mq_timedreceive(q, buf, sizeof(buf), NULL, &t));
	aw_expect(ctx, "nonblock_takes_effect", empty == -EAGAIN && blocked == -ETIMEDOUT,
		  "with O_NONBLOCK set: %s (expected EAGAIN); cleared, with a 20 ms deadline: %s "
		  "(expected ETIMEDOUT)", aw_errname((int)empty), aw_errname((int)blocked));
	aw_expect(ctx, "nonblock_per_description", orc == 0 && a.mq_flags == 0,
		  "another mq_open of the queue: %s, mq_flags %#lx (expected 0)",
		  aw_errname(orc), (long)a.mq_flags);
	if (drc == 0)
		aw_observe(ctx, "dup_shares_nonblock", "%s", d.mq_flags == O_NONBLOCK ? "yes" : "no");
	else
		aw_unobserved(ctx, "dup_shares_nonblock", "dup or mq_getattr: %s", aw_errname(drc));
	if (other >= 0)
		mq_close(other);
	if (dup_fd >= 0)
		close(dup_fd);
	rc = set_flags(q, O_NONBLOCK | O_APPEND);
	aw_observe(ctx, "setattr_other_flags", "%s", aw_errname(rc));
	if (rc == 0)
		aw_skip(ctx, "setattr_failure_changes_nothing", "%s",
			"mq_setattr with O_APPEND succeeded: no failure to look at");
	else if ((rc = mqu_getattr(q, &a)) != 0)
		aw_error(ctx, "setattr_failure_changes_nothing", "mq_getattr: %s", aw_errname(rc));
	else
		aw_expect(ctx, "setattr_failure_changes_nothing", a.mq_flags == 0,
			  "mq_flags %#lx after the failed mq_setattr (was 0)", (long)a.mq_flags);
	set_flags(q, 0);
}

static void check_ebadf(struct aw_ctx *ctx)
{
	struct mq_attr a = { 0 };
	int p[2];

	if (pipe(p) != 0) {
		aw_error(ctx, "ebadf", "pipe: %s", aw_errname(errno));
		return;
	}
	int g1 = mqu_getattr(-1, &a), g2 = mqu_getattr(p[0], &a);
	int s1 = (int)mqu_rc(mq_setattr(-1, &a, NULL)), s2 = (int)mqu_rc(mq_setattr(p[1], &a, NULL));
	aw_expect(ctx, "ebadf", g1 == -EBADF && g2 == -EBADF && s1 == -EBADF && s2 == -EBADF,
		  "mq_getattr on -1 / a pipe: %s / %s, mq_setattr: %s / %s", aw_errname(g1),
		  aw_errname(g2), aw_errname(s1), aw_errname(s2));
	close(p[0]);
	close(p[1]);
}

static void getsetattr_run(struct aw_ctx *ctx)
{
	int q = mqu_open_new(QNAME, O_RDWR, 0600, &shape);

	if (q < 0) {
		aw_error_rest(ctx, "creating a 4x32 queue: %s", aw_errname(q));
		return;
	}
	check_getattr(ctx, q);
	check_curmsgs(ctx, q);
	check_setattr(ctx, q);
	check_nonblock(ctx, q);
	check_ebadf(ctx);
	mq_close(q);
	mq_unlink(QNAME);
}

static const char *const getsetattr_tags[] = {
	"posix:mq_getattr", "posix:mq_setattr", "man:mq_getattr(3)", NULL
};

const struct aw_probe mq_getsetattr_probes[] = {
	{
		.name = "getsetattr",
		.summary = "what mq_getattr reports and what mq_setattr may change",
		.run = getsetattr_run,
		.items = getsetattr_items,
		.needs = { .kconfig = mqu_kconfig },
		.tags = getsetattr_tags,
	},
	AW_PROBES_END,
};

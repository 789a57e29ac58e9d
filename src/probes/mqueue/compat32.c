// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * 32-bit callers.  A program built for i386 reaches an x86_64 kernel
 * through the compat entry points, where struct mq_attr (four longs and
 * four reserved), struct sigevent, siginfo and struct timespec have their
 * 32-bit layouts and are converted; i386 also has two timed entry points
 * of each kind (the 32-bit-time legacy ones and the time64 ones of 5.1).
 * The family's static 32-bit helper (m32/helper.c) runs the attribute,
 * send/receive, timeout, notification and limit contracts through them
 * and reports each item itself through the probe library (core/helper.h),
 * so every key carries the caller's width: mqueue.compat32.*.  The
 * layouts must not change the answers, which the integration test
 * compares with the native probes'.
 */
#include "mq_util.h"
#include "core/probe.h"

#include <fcntl.h>
#include <linux/capability.h>
#include <sys/prctl.h>

#define HELPER "abiwatch-mqueue-m32"
#define FOREIGN_Q "/aw_m32_pre"
#define MADE_Q "/aw_m32_made"
#define HELPER_TIMEOUT_MS 8000

static const struct aw_item compat32_items[] = {
	AW_OBS_ITEM("abi", "the helper's data model: ilp32 for an i386 program"),
	AW_OBS_ITEM("sizeof_mq_attr", "sizeof(struct mq_attr) for a 32-bit caller", .unit = "B"),
	AW_CHECK_ITEM("attr.getattr_shape", "32-bit mq_getattr reports the shape a 32-bit mq_open created"),
	AW_CHECK_ITEM("attr.curmsgs_tracks", "32-bit mq_curmsgs follows sends and receives"),
	AW_CHECK_ITEM("attr.setattr_only_nonblock", "32-bit mq_setattr changes O_NONBLOCK only"),
	AW_CHECK_ITEM("attr.foreign_shape", "a queue made by a 64-bit process (7x300, 2 messages) reads the same from a 32-bit one"),
	AW_CHECK_ITEM("attr.created_shape", "a queue a 32-bit process made as 5x200 reads the same from a 64-bit one"),
	AW_CHECK_ITEM("sendrecv.priority_order", "32-bit callers: highest priority first"),
	AW_CHECK_ITEM("sendrecv.fifo_within_priority", "32-bit callers: FIFO within a priority"),
	AW_CHECK_ITEM("sendrecv.einval_prio_at_max", "32-bit callers: priority 32768 and UINT_MAX fail with EINVAL"),
	AW_CHECK_ITEM("sendrecv.emsgsize_send", "32-bit callers: mq_msgsize + 1 bytes fail with EMSGSIZE"),
	AW_CHECK_ITEM("sendrecv.emsgsize_receive_short_buffer", "32-bit callers: a buffer below mq_msgsize fails with EMSGSIZE"),
	AW_CHECK_ITEM("sendrecv.zero_length_message", "32-bit callers: a 0-byte message keeps its priority"),
	AW_CHECK_ITEM("sendrecv.eagain_receive_empty", "32-bit callers: O_NONBLOCK receive on an empty queue fails with EAGAIN"),
	AW_CHECK_ITEM("sendrecv.eagain_send_full", "32-bit callers: O_NONBLOCK send on a full queue fails with EAGAIN"),
	AW_CHECK_ITEM("sendrecv.ebadf_wrong_mode", "32-bit callers: the wrong access mode fails with EBADF"),
	AW_CHECK_ITEM("timed.legacy.etimedout_past", "mq_timedsend/receive (279/280, 32-bit time_t): a past deadline gives ETIMEDOUT"),
	AW_CHECK_ITEM("timed.legacy.etimedout_near", "the legacy entry point: ETIMEDOUT 30 ms ahead, not before the deadline"),
	AW_CHECK_ITEM("timed.legacy.einval_nsec", "the legacy entry point: tv_nsec -1 or 1000000000 gives EINVAL"),
	AW_CHECK_ITEM("timed.time64.etimedout_past", "mq_timedsend/receive_time64 (418/419): a past deadline gives ETIMEDOUT"),
	AW_CHECK_ITEM("timed.time64.etimedout_near", "the time64 entry point: ETIMEDOUT 30 ms ahead, not before the deadline"),
	AW_CHECK_ITEM("timed.time64.einval_nsec", "the time64 entry point: tv_nsec -1 or 1000000000 gives EINVAL"),
	AW_CHECK_ITEM("timed.time64.beyond_2038", "the time64 entry point accepts a deadline of 2^33 s (after 2038)"),
	AW_OBS_ITEM("timed.time64.nsec_padding_ignored", "yes when the time64 entry point ignores the upper 32 bits of a compat tv_nsec"),
	AW_CHECK_ITEM("notify.signal", "32-bit mq_notify(SIGEV_SIGNAL): the signal comes with SI_MESGQ, the sigev_value and the sender's pid"),
	AW_OBS_ITEM("limits.noattr.maxmsg", "mq_maxmsg of an attr-NULL queue made by a 32-bit caller",
		    .unit = "messages"),
	AW_OBS_ITEM("limits.noattr.msgsize", "mq_msgsize of an attr-NULL queue made by a 32-bit caller",
		    .unit = "B"),
	AW_CHECK_ITEM("limits.einval_above_msg_max", "32-bit callers: maxmsg msg_max + 1 fails with EINVAL without CAP_SYS_RESOURCE"),
	AW_CHECK_ITEM("limits.emfile_beyond_rlimit", "32-bit callers: a queue beyond RLIMIT_MSGQUEUE fails with EMFILE"),
	AW_OBS_ITEM("limits.charge.1x128", "bytes a 1x128 queue of a 32-bit caller charges against RLIMIT_MSGQUEUE",
		    .unit = "B"),
	AW_ITEMS_END
};

static void check_created(struct aw_ctx *ctx)
{
	struct mq_attr a = { 0 };
	int q = (int)mqu_rc(mq_open(MADE_Q, O_RDONLY));
	int rc = q < 0 ? q : mqu_getattr(q, &a);

	aw_expect(ctx, "attr.created_shape", rc == 0 && a.mq_maxmsg == 5 && a.mq_msgsize == 200 &&
		  a.mq_curmsgs == 0, "%s made by the helper: %s, %ldx%ld with %ld messages",
		  MADE_Q, aw_errname(rc), (long)a.mq_maxmsg, (long)a.mq_msgsize, (long)a.mq_curmsgs);
	if (q >= 0)
		mq_close(q);
	mq_unlink(MADE_Q);
}

static int make_foreign(void)
{
	int q = mqu_open_new(FOREIGN_Q, O_RDWR, 0600, &(struct mqu_shape){ 7, 300 });
	int rc = q < 0 ? q : mqu_send(q, "f", 1, 0);

	if (rc == 0)
		rc = mqu_send(q, "g", 1, 3);
	if (q >= 0)
		mq_close(q);
	return rc;
}

/* The limit checks are about the unprivileged path: for root, exec
 * fills the permitted set from the bounding set, so drop it there. */
static void drop_sys_resource(void *arg)
{
	(void)arg;
	prctl(PR_CAPBSET_DROP, CAP_SYS_RESOURCE, 0, 0, 0);
}

static void compat32_run(struct aw_ctx *ctx)
{
	static const char *const args[] = { "--foreign", FOREIGN_Q ":7:300:2",
					    "--make", MADE_Q ":5:200", NULL };
	static const char *const own[] = { "attr.created_shape", NULL };
	const struct aw_helper helper = {
		.name = HELPER, .args = args, .prefix = "", .own = own,
		.timeout_ms = HELPER_TIMEOUT_MS, .before_exec = drop_sys_resource,
	};
	int rc = make_foreign();

	if (rc)
		aw_error_rest(ctx, "setting up the helper's queue: %s", aw_errname(rc));
	/* Only a helper that got through everything made the queue. */
	else if (aw_helper_report(ctx, &helper))
		check_created(ctx);
	else if (!aw_reported(ctx, "attr.created_shape"))
		aw_error(ctx, "attr.created_shape", "the 32-bit helper did not finish");
	mq_unlink(FOREIGN_Q);
	mq_unlink(MADE_Q);
}

static const char *const compat32_tags[] = {
	"posix:mq_getattr", "posix:mq_setattr", "posix:mq_send", "posix:mq_receive",
	"posix:mq_timedreceive", "posix:mq_notify", "man:mq_overview(7)", "man:getrlimit(2)", NULL
};

static const char *const compat32_kconfig[] = { "CONFIG_POSIX_MQUEUE", "CONFIG_IA32_EMULATION",
						"CONFIG_COMPAT_32BIT_TIME", "CONFIG_USER_NS", NULL };

const struct aw_probe mq_compat32_probes[] = {
	{
		.name = "compat32",
		.summary = "the attribute, send/receive, timeout, notification and limit contracts for 32-bit callers",
		.run = compat32_run,
		.items = compat32_items,
		.needs = { .kconfig = compat32_kconfig },
		.tags = compat32_tags,
	},
	AW_PROBES_END,
};

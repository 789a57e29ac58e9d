// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * 32-bit callers.  A program built for i386 reaches an x86_64 kernel
 * through the compat entry points, where struct mq_attr (four longs and
 * four reserved), struct sigevent, siginfo and struct timespec have their
 * 32-bit layouts and are converted; i386 also has two timed entry points
 * of each kind (the 32-bit-time legacy ones and the time64 ones of 5.1).
 * The family's static 32-bit helper (m32/helper.c) runs the attribute,
 * send/receive, timeout, notification and limit contracts through them
 * and reports in the line format of m32/proto.h; this probe runs it,
 * parses what it wrote (m32_parse.c) and reports each item, so every key
 * carries the caller's width: mqueue.compat32.*.  The layouts must not
 * change the answers, which the integration test compares with the
 * native probes'.
 */
#include "mq_util.h"
#include "m32_parse.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/capability.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define HELPER "abiwatch-mqueue-m32"
#define FOREIGN_Q "/aw_m32_pre"
#define MADE_Q "/aw_m32_made"
#define OUTPUT_MAX (MQM_LINE_MAX * (MQM_RECORDS_MAX + 2))
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

struct helper_run {
	char *out;
	size_t len;
	int exec_err;   /* errno of execv, 0 if it started */
	int status;     /* aw_child_wait-style status, or -ETIMEDOUT */
};

static __attribute__((noreturn)) void exec_helper(const char *path, int out_fd, int err_fd)
{
	char *argv[] = { (char *)HELPER, (char *)"--foreign", (char *)(FOREIGN_Q ":7:300:2"),
			 (char *)"--make", (char *)(MADE_Q ":5:200"), NULL };

	/* The limit checks are about the unprivileged path: for root, exec
	 * fills the permitted set from the bounding set, so drop it there. */
	prctl(PR_CAPBSET_DROP, CAP_SYS_RESOURCE, 0, 0, 0);
	if (dup2(out_fd, STDOUT_FILENO) < 0)
		_exit(127);
	execv(path, argv);
	int e = errno;
	if (write(err_fd, &e, sizeof(e)) != sizeof(e))
		_exit(126);
	_exit(127);
}

/* Read the helper's stdout until EOF or the deadline. */
static void collect(int fd, struct helper_run *r, long deadline_ms)
{
	struct timespec start, now;

	clock_gettime(CLOCK_MONOTONIC, &start);
	while (r->len < OUTPUT_MAX) {
		clock_gettime(CLOCK_MONOTONIC, &now);
		long left = deadline_ms - ((now.tv_sec - start.tv_sec) * 1000 +
					   (now.tv_nsec - start.tv_nsec) / 1000000);
		struct pollfd p = { .fd = fd, .events = POLLIN };
		if (left <= 0 || poll(&p, 1, (int)left) <= 0)
			return;
		ssize_t n = read(fd, r->out + r->len, OUTPUT_MAX - r->len);
		if (n <= 0)
			return;
		r->len += (size_t)n;
	}
}

static int run_helper(const char *path, struct helper_run *r)
{
	int out[2], err[2];

	r->out = malloc(OUTPUT_MAX);
	if (!r->out || pipe2(out, O_CLOEXEC) != 0)
		return -ENOMEM;
	if (pipe2(err, O_CLOEXEC) != 0) {
		close(out[0]);
		close(out[1]);
		return -errno;
	}
	pid_t pid = fork();
	if (pid == 0)
		exec_helper(path, out[1], err[1]);
	close(out[1]);
	close(err[1]);
	if (pid < 0) {
		close(out[0]);
		close(err[0]);
		return -errno;
	}
	if (read(err[0], &r->exec_err, sizeof(r->exec_err)) != sizeof(r->exec_err))
		r->exec_err = 0;
	close(err[0]);
	if (!r->exec_err)
		collect(out[0], r, HELPER_TIMEOUT_MS);
	close(out[0]);
	r->status = aw_child_wait(pid, r->exec_err ? 1000 : 500);
	return 0;
}

static const struct aw_item *declared(const char *name)
{
	for (const struct aw_item *it = compat32_items; it->name; it++)
		if (strcmp(it->name, name) == 0)
			return it;
	return NULL;
}

struct records {
	struct mqm_record *r;
	size_t n;
};

#define DUPLICATE 1

static int keep(const struct mqm_record *rec, void *arg)
{
	struct records *rs = arg;

	for (size_t i = 0; i < rs->n; i++)
		if (strcmp(rs->r[i].name, rec->name) == 0)
			return DUPLICATE;
	rs->r[rs->n++] = *rec;
	return 0;
}

static void report(struct aw_ctx *ctx, const struct mqm_record *r)
{
	const struct aw_item *it = declared(r->name);

	if (!it || (it->kind == AW_CHECK) != (r->kind == MQM_CHECK) ||
	    strcmp(r->name, "attr.created_shape") == 0) {
		aw_note(ctx, "the helper reported %s, which this probe does not declare as that kind",
			r->name);
		return;
	}
	if (r->kind == MQM_OBS)
		aw_observe(ctx, r->name, "%s", r->text);
	else if (r->kind == MQM_UNOBS)
		aw_unobserved(ctx, r->name, "%s", r->text);
	else if (r->status == MQM_PASS)
		aw_pass(ctx, r->name);
	else if (r->status == MQM_FAIL)
		aw_fail(ctx, r->name, "%s", r->text);
	else
		aw_skip(ctx, r->name, "%s", r->text);
}

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

/* Whether the helper reported every item but the probe's own. */
static bool complete(const struct records *rs)
{
	for (const struct aw_item *it = compat32_items; it->name; it++) {
		bool seen = strcmp(it->name, "attr.created_shape") == 0;
		for (size_t i = 0; i < rs->n && !seen; i++)
			seen = strcmp(rs->r[i].name, it->name) == 0;
		if (!seen)
			return false;
	}
	return true;
}

static void parse_and_report(struct aw_ctx *ctx, const struct helper_run *hr)
{
	struct records rs = { calloc(MQM_RECORDS_MAX, sizeof(struct mqm_record)), 0 };
	struct mqm_error err = { 0, NULL };

	if (!rs.r) {
		aw_error_rest(ctx, "%s", "out of memory");
		return;
	}
	/* Nothing is reported unless the whole output is well-formed. */
	int rc = mqm_parse(hr->out, hr->len, keep, &rs, &err);
	if (rc == DUPLICATE) {
		aw_error_rest(ctx, "the 32-bit helper reported an item twice (exit status %d)",
			      hr->status);
	} else if (rc != 0) {
		aw_error_rest(ctx, "the 32-bit helper's output (exit status %d), line %zu: %s",
			      hr->status, err.line, err.why ? err.why : "?");
	} else {
		for (size_t i = 0; i < rs.n; i++)
			report(ctx, &rs.r[i]);
		/* Only a helper that got through everything made the queue. */
		if (complete(&rs))
			check_created(ctx);
		else
			aw_error(ctx, "attr.created_shape", "the 32-bit helper did not finish "
				 "(exit status %d)", hr->status);
		aw_error_rest(ctx, "the 32-bit helper did not report this (exit status %d)", hr->status);
	}
	free(rs.r);
}

static void compat32_run(struct aw_ctx *ctx)
{
	char *path = aw_helper_path(HELPER);
	struct helper_run hr = { NULL, 0, 0, 0 };

	if (!path) {
		char *why = aw_helper_missing(HELPER);
		aw_skip_rest(ctx, "%s", why);
		free(why);
		return;
	}
	if (aw_i386_refused()) {
		aw_skip_rest(ctx, "%s", aw_i386_refused());
		free(path);
		return;
	}
	int rc = make_foreign();
	if (rc == 0)
		rc = run_helper(path, &hr);
	if (rc)
		aw_error_rest(ctx, "setting up or starting the helper: %s", aw_errname(rc));
	else if (hr.exec_err) {
		char *why = aw_helper_exec_failed(path, hr.exec_err);
		aw_skip_rest(ctx, "%s", why);
		free(why);
	} else
		parse_and_report(ctx, &hr);
	mq_unlink(FOREIGN_Q);
	mq_unlink(MADE_Q);
	free(hr.out);
	free(path);
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

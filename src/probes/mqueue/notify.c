// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * mq_notify() with SIGEV_SIGNAL: when the signal comes and what it
 * carries.  POSIX: the registered process is notified of "message
 * arrival at an empty message queue", not while a receiver is blocked
 * (the message goes to the receiver "as if the message queue remains
 * empty"), and the registration is removed when the notification is
 * sent.  mq_notify(3): si_code SI_MESGQ, si_value the sigev_value, si_pid
 * and si_uid the PID and real user ID of the sending process.  The
 * signal is blocked and fetched with sigtimedwait(), so no handler runs.
 */
#include "mq_util.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <sys/stat.h>
#include <sys/syscall.h>

#define QNAME "/aw_notify"
#define COOKIE 0x5ee1
/* The kernel queues the signal inside the mq_send that notifies
 * (ipc/mqueue.c, __do_notify() under the queue's lock), and a sender
 * child is waited for before we look: so whether a signal came is known
 * when the send returned.  One that must not come is looked for as
 * pending (0 ms: no wait whose length a loaded machine could outrun);
 * one that must come is waited for with a bound against a hang only. */
#define COME_MS 10000
#define QUIET_MS 0

static const struct aw_item notify_items[] = {
	AW_CHECK_ITEM("signal_delivered", "a message sent by another process to the empty queue delivers the registered signal"),
	AW_CHECK_ITEM("si_code_mesgq", "the signal's si_code is SI_MESGQ"),
	AW_CHECK_ITEM("si_value", "the signal's si_value is the registered sigev_value"),
	AW_CHECK_ITEM("si_pid_sender", "the signal's si_pid is the PID of the sending process"),
	AW_CHECK_ITEM("si_uid_sender_real", "the signal's si_uid is the real user ID of the sending process (not its effective one)"),
	AW_CHECK_ITEM("only_empty_to_nonempty", "a message arriving at a non-empty queue notifies nobody; the next arrival at the empty queue does"),
	AW_CHECK_ITEM("not_sent_to_blocked_receiver", "no signal when the message goes to a receiver blocked in mq_receive"),
	AW_CHECK_ITEM("registration_survives_blocked_receiver", "after such a message the registration is still there: the next arrival notifies"),
	AW_CHECK_ITEM("one_shot", "a notification removes the registration: the next arrival sends nothing, and registering again works"),
	AW_ITEMS_END
};

static int notify_signal(mqd_t q, int cookie)
{
	struct sigevent ev = { .sigev_notify = SIGEV_SIGNAL, .sigev_signo = SIGUSR1 };

	ev.sigev_value.sival_int = cookie;
	return (int)mqu_rc(mq_notify(q, &ev));
}

/* Whether SIGUSR1 comes within ms: 1 yes, 0 no, -errno. */
static int signal_within(int ms, siginfo_t *si)
{
	return aw_wait_signal(SIGUSR1, ms, si);
}

/* 0 sent; 3 no queue; 4 mq_send failed. */
static int sender_child(void *arg)
{
	(void)arg;
	mqd_t q = mq_open(QNAME, O_WRONLY);
	if (q == (mqd_t)-1)
		return 3;
	return mq_send(q, "n", 1, 0) == 0 ? 0 : 4;
}

static void report_siginfo(struct aw_ctx *ctx, const siginfo_t *si, pid_t sender, int become)
{
	aw_expect(ctx, "si_code_mesgq", si->si_code == SI_MESGQ, "si_code %d, SI_MESGQ is %d",
		  si->si_code, SI_MESGQ);
	aw_expect(ctx, "si_value", si->si_value.sival_int == COOKIE, "si_value %#x, registered %#x",
		  si->si_value.sival_int, COOKIE);
	aw_expect(ctx, "si_pid_sender", si->si_pid == sender, "si_pid %d, the sender is %d",
		  (int)si->si_pid, (int)sender);
	if (become)
		aw_skip(ctx, "si_uid_sender_real", "%s", aw_become_user_why(become));
	else
		aw_expect(ctx, "si_uid_sender_real", si->si_uid == AW_NOBODY,
			  "si_uid %u; the sender's real uid is %d, its effective %d",
			  (unsigned)si->si_uid, AW_NOBODY, AW_NOBODY2);
}

static void check_delivery(struct aw_ctx *ctx, mqd_t q)
{
	static const char *const rest[] = { "signal_delivered", "si_code_mesgq", "si_value",
					    "si_pid_sender", "si_uid_sender_real" };
	siginfo_t si;
	int become = 0;
	int rc = notify_signal(q, COOKIE);
	/* Real uid 65534, effective 65533: si_uid must be the real one. */
	pid_t pid = rc ? rc : aw_child_start_as(AW_NOBODY, AW_NOBODY2, sender_child, NULL, &become);

	if (become) /* No unprivileged uid here: the same uid sends. */
		pid = aw_child_start(sender_child, NULL);
	int status = pid < 0 ? (int)pid : aw_child_wait(pid, 5000);
	if (status != 0) {
		for (size_t i = 0; i < AW_ARRAY_SIZE(rest); i++)
			aw_error(ctx, rest[i], "registering or the sending child failed: %s",
				 status < 0 ? aw_errname(status) : "child error");
		mq_notify(q, NULL);
		mqu_drain(q);
		return;
	}
	int got = signal_within(COME_MS, &si);
	if (aw_expect(ctx, "signal_delivered", got == 1, "no SIGUSR1 within %d ms (%s)", COME_MS,
		      got < 0 ? aw_errname(got) : "timed out"))
		report_siginfo(ctx, &si, pid, become);
	else
		for (size_t i = 1; i < AW_ARRAY_SIZE(rest); i++)
			aw_skip(ctx, rest[i], "no signal was delivered");
	mqu_drain(q);
}

static void check_empty_transition(struct aw_ctx *ctx, mqd_t q)
{
	siginfo_t si;
	int rc = mqu_send(q, "1", 1, 0);

	if (rc == 0)
		rc = notify_signal(q, COOKIE);
	if (rc == 0)
		rc = mqu_send(q, "2", 1, 0);
	int early = rc ? rc : signal_within(QUIET_MS, &si);
	mqu_drain(q);
	int late = early < 0 ? early : mqu_send(q, "3", 1, 0);
	if (late == 0)
		late = signal_within(COME_MS, &si);
	aw_expect(ctx, "only_empty_to_nonempty", early == 0 && late == 1,
		  "registered on a queue holding 1 message: the second message %s; after "
		  "draining, the next one %s", early == 1 ? "sent the signal" : early == 0 ?
		  "sent nothing" : aw_errname(early), late == 1 ? "sent it" : late == 0 ?
		  "sent nothing" : aw_errname(late));
	mq_notify(q, NULL);
	mqu_drain(q);
	aw_flush_signal(SIGUSR1);
}

static int receiver_child(void *arg)
{
	const mqd_t *q = arg;
	char buf[32];

	return mq_receive(*q, buf, sizeof(buf), NULL) == 1 ? 0 : 1;
}

static void check_blocked_receiver(struct aw_ctx *ctx, mqd_t q)
{
	siginfo_t si;
	int rc = notify_signal(q, COOKIE);
	pid_t pid = rc ? rc : aw_child_start(receiver_child, &q);

	rc = pid < 0 ? (int)pid : aw_wait_blocked(pid, SYS_mq_timedreceive, MQU_BOUND_MS);
	if (rc == 0)
		rc = mqu_send(q, "b", 1, 0);
	int status = pid < 0 ? (int)pid : aw_child_wait(pid, MQU_BOUND_MS);
	if (rc || status) {
		aw_error(ctx, "not_sent_to_blocked_receiver", "the receiving child: %s",
			 rc ? aw_errname(rc) : "did not get the message");
		aw_error(ctx, "registration_survives_blocked_receiver", "the receiving child failed");
	} else {
		int got = signal_within(QUIET_MS, &si);
		aw_expect(ctx, "not_sent_to_blocked_receiver", got == 0,
			  "the message went to the blocked receiver, and SIGUSR1 %s",
			  got == 1 ? "came anyway" : aw_errname(got));
		int next = mqu_send(q, "n", 1, 0);
		int again = next ? next : signal_within(COME_MS, &si);
		aw_expect(ctx, "registration_survives_blocked_receiver", again == 1,
			  "the next message to the empty queue: %s", again == 0 ?
			  "no signal" : aw_errname(again));
	}
	mq_notify(q, NULL);
	mqu_drain(q);
	aw_flush_signal(SIGUSR1);
}

static void check_one_shot(struct aw_ctx *ctx, mqd_t q)
{
	siginfo_t si;
	int rc = notify_signal(q, COOKIE);
	int first = rc ? rc : mqu_send(q, "1", 1, 0);

	if (first == 0)
		first = signal_within(COME_MS, &si);
	mqu_drain(q);
	int second = first != 1 ? first : mqu_send(q, "2", 1, 0);
	if (second == 0)
		second = signal_within(QUIET_MS, &si);
	mqu_drain(q);
	int again = notify_signal(q, COOKIE);
	aw_expect(ctx, "one_shot", first == 1 && second == 0 && again == 0,
		  "first arrival: %s; second: %s (expected nothing); registering again: %s",
		  first == 1 ? "signal" : aw_errname(first), second == 1 ? "signal" :
		  second == 0 ? "nothing" : aw_errname(second), aw_errname(again));
	mq_notify(q, NULL);
}

static void notify_run(struct aw_ctx *ctx)
{
	int rc = aw_block_signal(SIGUSR1);
	int q = rc ? rc : mqu_open_new(QNAME, O_RDWR, 0666, &(struct mqu_shape){ 4, 32 });

	/* The sender may be another user: the umask must leave it write. */
	if (q >= 0 && fchmod(q, 0666) != 0)
		rc = -errno;
	if (q < 0 || rc) {
		aw_error_rest(ctx, "blocking SIGUSR1 or creating the queue: %s",
			      aw_errname(q < 0 ? q : rc));
		return;
	}
	check_delivery(ctx, q);
	check_empty_transition(ctx, q);
	check_blocked_receiver(ctx, q);
	check_one_shot(ctx, q);
	mq_close(q);
	mq_unlink(QNAME);
}

static const char *const notify_tags[] = {
	"posix:mq_notify", "man:mq_notify(3)", "man:sigaction(2)", "linux-git:a03fcb730b4f", NULL
};

const struct aw_probe mq_notify_probes[] = {
	{
		.name = "notify",
		.summary = "when mq_notify's SIGEV_SIGNAL comes, and what its siginfo carries",
		.run = notify_run,
		.items = notify_items,
		.needs = { .kconfig = mqu_kconfig },
		.tags = notify_tags,
	},
	AW_PROBES_END,
};

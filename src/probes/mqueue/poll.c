// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A queue descriptor is a file descriptor on Linux, and poll(2),
 * select(2) and epoll(7) report it readable while the queue holds a
 * message and writable while it has room (mq_overview(7): "the queue
 * descriptor can be monitored using select(2), poll(2), or epoll(7)").
 * Event loops that multiplex queues with sockets rely on this, and on
 * being woken when another process sends or receives.
 */
#include "mq_util.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <sys/epoll.h>
#include <sys/select.h>
#include <sys/syscall.h>
#include <unistd.h>

#define QNAME "/aw_poll"
#define MAXMSG 2
#define ALL_EVENTS (POLLIN | POLLPRI | POLLOUT | POLLRDNORM | POLLRDBAND | POLLWRNORM | POLLWRBAND)

static const struct aw_item poll_items[] = {
	AW_OBS_ITEM("events.empty", "poll(2) revents of an empty queue, all events asked for"),
	AW_OBS_ITEM("events.partial", "poll(2) revents of a queue holding 1 of 2 messages"),
	AW_OBS_ITEM("events.full", "poll(2) revents of a full queue"),
	AW_CHECK_ITEM("poll_readable", "poll reports POLLIN exactly when the queue holds a message"),
	AW_CHECK_ITEM("poll_writable", "poll reports POLLOUT exactly when the queue has room"),
	AW_CHECK_ITEM("select_matches", "select(2) finds the descriptor readable and writable as poll does"),
	AW_CHECK_ITEM("epoll_matches", "epoll_wait reports EPOLLIN and EPOLLOUT as poll does"),
	AW_CHECK_ITEM("epoll_wakes_on_send", "an epoll_wait blocked on an empty queue returns EPOLLIN when another process sends"),
	AW_CHECK_ITEM("poll_wakes_on_receive", "a poll blocked on a full queue returns POLLOUT when another process receives"),
	AW_OBS_ITEM("wronly_pollin", "yes when an O_WRONLY descriptor of a non-empty queue reports POLLIN"),
	AW_ITEMS_END
};

enum { EMPTY, PARTIAL, FULL, NSTATES };
static const char *const state_names[] = { "empty", "partial", "full" };

struct readiness {
	bool in, out;
};

static int by_poll(mqd_t q, short *revents)
{
	struct pollfd p = { .fd = q, .events = ALL_EVENTS };
	int n = poll(&p, 1, 0);

	*revents = p.revents;
	return n < 0 ? -errno : 0;
}

static int by_select(mqd_t q, struct readiness *r)
{
	fd_set rd, wr;
	struct timeval tv = { 0, 0 };

	FD_ZERO(&rd);
	FD_ZERO(&wr);
	FD_SET(q, &rd);
	FD_SET(q, &wr);
	if (select(q + 1, &rd, &wr, NULL, &tv) < 0)
		return -errno;
	r->in = FD_ISSET(q, &rd);
	r->out = FD_ISSET(q, &wr);
	return 0;
}

static int by_epoll(int ep, struct readiness *r)
{
	struct epoll_event ev = { 0 };
	int n = epoll_wait(ep, &ev, 1, 0);

	if (n < 0)
		return -errno;
	r->in = n == 1 && (ev.events & EPOLLIN);
	r->out = n == 1 && (ev.events & EPOLLOUT);
	return 0;
}

static const char *const state_obs[] = { "events.empty", "events.partial", "events.full" };
static const char *const state_checks[] = { "poll_readable", "poll_writable", "select_matches",
					    "epoll_matches" };

/* Fill in the three readings of each state: poll, select, epoll. */
static int read_states(mqd_t q, short *rev, struct readiness *sel, struct readiness *epo)
{
	struct epoll_event ev = { .events = EPOLLIN | EPOLLOUT };
	int ep = epoll_create1(EPOLL_CLOEXEC);
	int rc = ep < 0 ? -errno : epoll_ctl(ep, EPOLL_CTL_ADD, q, &ev) ? -errno : 0;

	for (int s = EMPTY; s < NSTATES && rc == 0; s++) {
		if (s != EMPTY)
			rc = mqu_send(q, "p", 1, 0);
		if (rc == 0)
			rc = by_poll(q, &rev[s]);
		if (rc == 0)
			rc = by_select(q, &sel[s]);
		if (rc == 0)
			rc = by_epoll(ep, &epo[s]);
	}
	if (ep >= 0)
		close(ep);
	return rc;
}

static void check_states(struct aw_ctx *ctx, mqd_t q)
{
	struct readiness sel[NSTATES], epo[NSTATES];
	short rev[NSTATES];
	bool in_ok = true, out_ok = true, sel_ok = true, epo_ok = true;
	char names[96];
	int rc = read_states(q, rev, sel, epo);

	if (rc) {
		for (size_t i = 0; i < AW_ARRAY_SIZE(state_obs); i++)
			aw_unobserved(ctx, state_obs[i], "epoll, poll, select or mq_send failed: %s",
				      aw_errname(rc));
		for (size_t i = 0; i < AW_ARRAY_SIZE(state_checks); i++)
			aw_error(ctx, state_checks[i], "epoll, poll, select or mq_send failed: %s",
				 aw_errname(rc));
		return;
	}
	for (int s = EMPTY; s < NSTATES; s++) {
		aw_observe(ctx, state_obs[s], "%s",
			   mqu_poll_names((unsigned short)rev[s], names, sizeof(names)));
		bool in = rev[s] & POLLIN, out = rev[s] & POLLOUT;
		bool same = sel[s].in == in && sel[s].out == out && epo[s].in == in && epo[s].out == out;
		in_ok = in_ok && in == (s != EMPTY);
		out_ok = out_ok && out == (s != FULL);
		sel_ok = sel_ok && sel[s].in == in && sel[s].out == out;
		epo_ok = epo_ok && epo[s].in == in && epo[s].out == out;
		if (!same)
			aw_note(ctx, "%s queue: poll in %d out %d, select %d %d, epoll %d %d",
				state_names[s], in, out, sel[s].in, sel[s].out, epo[s].in, epo[s].out);
	}
	aw_expect(ctx, "poll_readable", in_ok, "POLLIN on empty/partial/full: %d %d %d",
		  !!(rev[0] & POLLIN), !!(rev[1] & POLLIN), !!(rev[2] & POLLIN));
	aw_expect(ctx, "poll_writable", out_ok, "POLLOUT on empty/partial/full: %d %d %d",
		  !!(rev[0] & POLLOUT), !!(rev[1] & POLLOUT), !!(rev[2] & POLLOUT));
	aw_expect(ctx, "select_matches", sel_ok, "select disagrees with poll (see notes)");
	aw_expect(ctx, "epoll_matches", epo_ok, "epoll disagrees with poll (see notes)");
}

static void observe_wronly(struct aw_ctx *ctx)
{
	int w = (int)mqu_rc(mq_open(QNAME, O_WRONLY));
	short rev = 0;
	int rc = w < 0 ? w : mqu_send(w, "w", 1, 0);

	if (rc == 0)
		rc = by_poll(w, &rev);
	if (rc)
		aw_unobserved(ctx, "wronly_pollin", "%s", aw_errname(rc));
	else
		aw_observe(ctx, "wronly_pollin", "%s", rev & POLLIN ? "yes" : "no");
	if (w >= 0)
		mq_close(w);
}

struct waker {
	mqd_t q;
	bool receive;   /* make room (else send) */
	long nr;        /* the call the parent blocks in */
	int saw_block;  /* the parent was seen blocked: 1, or 0 */
};

static int waker_child(void *arg)
{
	struct waker *w = arg;
	char buf[16];

	w->saw_block = aw_wait_blocked(getppid(), w->nr, MQU_BOUND_MS) == 0;
	if (w->receive)
		return mqu_recv(w->q, buf, sizeof(buf), NULL) == 1 ? 0 : 1;
	return mqu_send(w->q, "w", 1, 0) == 0 ? 0 : 1;
}

/* Block in epoll_wait (EPOLLIN, empty queue) or poll (POLLOUT, full
 * queue) while a child sends or receives. */
static void check_wake(struct aw_ctx *ctx, mqd_t q, bool receive)
{
	const char *c = receive ? "poll_wakes_on_receive" : "epoll_wakes_on_send";
	struct waker *w = aw_shared_alloc(sizeof(*w));
	struct epoll_event ev = { .events = EPOLLIN };
	int ep = -1, rc = w ? 0 : -ENOMEM, n = -1;
	bool ready = false;

	for (int i = 0; receive && i < MAXMSG && rc == 0; i++)
		rc = mqu_send(q, "f", 1, 0);
	if (rc == 0 && !receive) {
		ep = epoll_create1(EPOLL_CLOEXEC);
		rc = ep < 0 ? -errno : epoll_ctl(ep, EPOLL_CTL_ADD, q, &ev) ? -errno : 0;
	}
	if (rc == 0) {
		*w = (struct waker){ q, receive, receive ? SYS_poll : SYS_epoll_wait, 0 };
		pid_t pid = aw_child_start(waker_child, w);
		struct pollfd p = { .fd = q, .events = POLLOUT };
		if (pid < 0) {
			rc = (int)pid;
		} else {
			n = receive ? poll(&p, 1, 3000) : epoll_wait(ep, &ev, 1, 3000);
			ready = n == 1 && (receive ? (p.revents & POLLOUT) : (ev.events & EPOLLIN));
			rc = aw_child_wait(pid, 3000);
		}
	}
	if (rc)
		aw_error(ctx, c, "setting up or the child: %s", rc > 0 ? "child failed" : aw_errname(rc));
	else
		aw_expect(ctx, c, ready, "%s returned %d without the event", receive ? "poll" :
			  "epoll_wait", n);
	if (rc == 0 && ready && !w->saw_block)
		aw_note(ctx, "%s: the child did not see this process blocked before it acted", c);
	if (ep >= 0)
		close(ep);
	aw_shared_free(w, sizeof(*w));
	mqu_drain(q);
}

static void poll_run(struct aw_ctx *ctx)
{
	int q = mqu_open_new(QNAME, O_RDWR, 0600, &(struct mqu_shape){ MAXMSG, 16 });

	if (q < 0) {
		aw_error_rest(ctx, "creating the queue: %s", aw_errname(q));
		return;
	}
	check_states(ctx, q);
	mqu_drain(q);
	observe_wronly(ctx);
	mqu_drain(q);
	check_wake(ctx, q, false);
	check_wake(ctx, q, true);
	mq_close(q);
	mq_unlink(QNAME);
}

static const char *const poll_tags[] = {
	"man:mq_overview(7)", "man:poll(2)", "man:select(2)", "man:epoll(7)", NULL
};

const struct aw_probe mq_poll_probes[] = {
	{
		.name = "poll",
		.summary = "queue descriptors in poll, select and epoll",
		.run = poll_run,
		.items = poll_items,
		.needs = { .kconfig = mqu_kconfig },
		.tags = poll_tags,
	},
	AW_PROBES_END,
};

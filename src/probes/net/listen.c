// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * net.listen: the backlog listen(fd, N) grants, and what a connection
 * beyond it gets.  The kernel clamps N to net.core.somaxconn (per network
 * namespace; 128 until 19f92a030ca6 raised the default to 4096 in 5.4)
 * and keeps it as sk_max_ack_backlog, which inet_diag reports as the
 * listener's idiag_wqueue (what ss(8) shows as Send-Q; sock_diag(7)).
 * The accept queue is full when it holds more than the backlog
 * (sk_acceptq_is_full()), so listen(fd, 1) takes two connections that
 * are never accepted; a third SYN is dropped and its non-blocking
 * connect() stays in SYN-SENT (listen(2): "the client may ... receive an
 * error ... or, if the underlying protocol supports retransmission, the
 * request may be ignored so that a later reattempt at connection
 * succeeds").  The two queued connections are waited for with poll()
 * (bounded only against a broken kernel), so no timing decides.
 */
#include "net.h"
#include "lib/errname.h"
#include "lib/procfs.h"

#include <errno.h>
#include <linux/inet_diag.h>
#include <linux/netlink.h>
#include <linux/sock_diag.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static const struct aw_item listen_items[] = {
	AW_OBS_ITEM("somaxconn", "net.core.somaxconn in a fresh network namespace (4096 since "
		    "19f92a030ca6, 5.4; 128 before)", .unit = "connections",
		    .change = "listen() backlogs are clamped lower or higher: servers under bursts drop "
			      "connections, or stop dropping them"),
	AW_OBS_ITEM("backlog.0", "the backlog listen(fd, 0) grants (inet_diag idiag_wqueue)",
		    .unit = "connections", .object = "backlog"),
	AW_OBS_ITEM("backlog.1", "the backlog listen(fd, 1) grants", .unit = "connections",
		    .object = "backlog"),
	AW_OBS_ITEM("backlog.128", "the backlog listen(fd, 128) grants", .unit = "connections",
		    .object = "backlog"),
	AW_OBS_ITEM("backlog.4096", "the backlog listen(fd, 4096) grants", .unit = "connections",
		    .object = "backlog", .change = "servers asking for 4096 get a smaller queue"),
	AW_OBS_ITEM("backlog.65535", "the backlog listen(fd, 65535) grants: the somaxconn clamp",
		    .unit = "connections", .object = "backlog",
		    .change = "servers asking for a large backlog (nginx, redis: 511 and more) get "
			      "another queue length"),
	AW_OBS_ITEM("backlog.negative", "the backlog listen(fd, -1) grants (negative: somaxconn)",
		    .unit = "connections", .object = "backlog"),
	AW_OBS_ITEM("queue.backlog1.completed", "connections completed, never accepted, on a "
		    "listen(fd, 1) socket before one is dropped (the queue holds backlog + 1)",
		    .unit = "connections", .object = "queue",
		    .change = "a server's accept queue holds one connection more or less than it asked for"),
	AW_OBS_ITEM("queue.beyond.connect", "a non-blocking connect() to that full queue",
		    .object = "queue"),
	AW_OBS_ITEM("queue.beyond.state", "the TCP state of that connection right after "
		    "(TCP_INFO tcpi_state): SYN_SENT while its SYN is dropped", .object = "queue",
		    .change = "clients of an overloaded server get refused at once instead of retrying, or "
			      "the reverse"),
	AW_ITEMS_END
};

/* The backlog of the TCP listener on 127.0.0.1:port, from inet_diag:
 * >= 0, or -errno (-ENOENT: no such listener in the dump). */
static long long diag_backlog(int port)
{
	struct {
		struct nlmsghdr nlh;
		struct inet_diag_req_v2 req;
	} msg;
	char buf[8192];
	long long found = -ENOENT;
	int fd = socket(AF_NETLINK, SOCK_DGRAM | SOCK_CLOEXEC, NETLINK_SOCK_DIAG);

	if (fd < 0)
		return -errno;
	memset(&msg, 0, sizeof(msg));
	msg.nlh.nlmsg_len = sizeof(msg);
	msg.nlh.nlmsg_type = SOCK_DIAG_BY_FAMILY;
	msg.nlh.nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP;
	msg.req.sdiag_family = AF_INET;
	msg.req.sdiag_protocol = IPPROTO_TCP;
	msg.req.idiag_states = 1U << 10; /* TCP_LISTEN */
	if (send(fd, &msg, sizeof(msg), 0) != (ssize_t)sizeof(msg)) {
		found = -errno;
		goto out;
	}
	for (;;) {
		ssize_t n = recv(fd, buf, sizeof(buf), 0);
		if (n < 0) {
			found = -errno;
			goto out;
		}
		if (n == 0)
			goto out;
		for (struct nlmsghdr *h = (struct nlmsghdr *)buf; NLMSG_OK(h, (size_t)n);
		     h = NLMSG_NEXT(h, n)) {
			if (h->nlmsg_type == NLMSG_DONE)
				goto out;
			if (h->nlmsg_type == NLMSG_ERROR) {
				struct nlmsgerr *e = NLMSG_DATA(h);
				found = e->error ? e->error : -EIO;
				goto out;
			}
			struct inet_diag_msg *d = NLMSG_DATA(h);
			if (ntohs(d->id.idiag_sport) == port)
				found = d->idiag_wqueue;
		}
	}
out:
	close(fd);
	return found;
}

static int listener(int backlog, struct sockaddr_in *a)
{
	int one = 1;
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	a->sin_family = AF_INET;
	a->sin_port = htons(NET_PORT);
	a->sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (fd < 0)
		return -errno;
	if (setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)) != 0 ||
	    bind(fd, (struct sockaddr *)a, sizeof(*a)) != 0 || listen(fd, backlog) != 0) {
		int e = -errno;
		close(fd);
		return e;
	}
	return fd;
}

static void observe_backlog(struct aw_ctx *ctx, const char *obs, int n)
{
	struct sockaddr_in a;
	int fd = listener(n, &a);
	if (fd < 0) {
		aw_error(ctx, obs, "listen(%d): %s", n, aw_errname(-fd));
		return;
	}
	long long b = diag_backlog(NET_PORT);
	if (b >= 0)
		aw_observe_long(ctx, obs, b);
	else
		aw_unobserved(ctx, obs, "inet_diag (NETLINK_SOCK_DIAG): %s", aw_errname((int)-b));
	close(fd);
}

static const char *tcp_state_name(int s)
{
	static const char *const names[] = { "?", "ESTABLISHED", "SYN_SENT", "SYN_RECV", "FIN_WAIT1",
					     "FIN_WAIT2", "TIME_WAIT", "CLOSE", "CLOSE_WAIT", "LAST_ACK",
					     "LISTEN", "CLOSING", "NEW_SYN_RECV" };
	return s >= 0 && s < (int)(sizeof(names) / sizeof(names[0])) ? names[s] : "?";
}

#define MAXQ 4

static void queue(struct aw_ctx *ctx)
{
	struct sockaddr_in a;
	int c[MAXQ + 1], done = 0;
	int l = listener(1, &a);

	if (l < 0) {
		aw_error_rest(ctx, "listen(1): %s", aw_errname(-l));
		return;
	}
	for (int i = 0; i <= MAXQ; i++)
		c[i] = -1;
	/* Connect one at a time; each either completes (waited for) or its
	 * SYN is dropped, which ends the count. */
	for (;;) {
		int fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
		if (fd < 0) {
			aw_error_rest(ctx, "socket: %s", aw_errname(errno));
			goto out;
		}
		c[done] = fd;
		int rc = connect(fd, (struct sockaddr *)&a, sizeof(a));
		int err = errno;
		struct tcp_info ti;
		socklen_t len = sizeof(ti);
		memset(&ti, 0, sizeof(ti));
		/* Whether the accept queue took it: a listener's accept queue
		 * length is what inet_diag calls idiag_rqueue; simpler, the
		 * connection is established once its handshake ran, which on
		 * loopback happens in the connect() call's softirq. */
		if (getsockopt(fd, IPPROTO_TCP, TCP_INFO, &ti, &len) != 0) {
			aw_error_rest(ctx, "TCP_INFO: %s", aw_errname(errno));
			goto out;
		}
		if (ti.tcpi_state == 2 /* SYN_SENT */ && done < MAXQ) {
			/* Not yet or never: wait for writability, bounded. */
			int r = net_wait(fd, POLLOUT, 300);
			(void)r;
			len = sizeof(ti);
			getsockopt(fd, IPPROTO_TCP, TCP_INFO, &ti, &len);
		}
		if (ti.tcpi_state != 1 /* ESTABLISHED */ || done == MAXQ) {
			char buf[NET_RES_LEN];
			aw_observe_long(ctx, "queue.backlog1.completed", done);
			aw_observe(ctx, "queue.beyond.connect", "%s", net_res(buf, rc, err));
			aw_observe(ctx, "queue.beyond.state", "%s", tcp_state_name(ti.tcpi_state));
			done++;
			goto out;
		}
		done++;
	}
out:
	for (int i = 0; i <= MAXQ; i++)
		if (c[i] >= 0)
			close(c[i]);
	close(l);
}

static void run_listen(struct aw_ctx *ctx)
{
	long long v;
	if (!net_setup(ctx))
		return;
	int rc = aw_sysctl_read_ll("net.core.somaxconn", &v);
	if (rc == 0)
		aw_observe_long(ctx, "somaxconn", v);
	else
		aw_unobserved(ctx, "somaxconn", "read: %s", aw_errname(-rc));
	observe_backlog(ctx, "backlog.0", 0);
	observe_backlog(ctx, "backlog.1", 1);
	observe_backlog(ctx, "backlog.128", 128);
	observe_backlog(ctx, "backlog.4096", 4096);
	observe_backlog(ctx, "backlog.65535", 65535);
	observe_backlog(ctx, "backlog.negative", -1);
	queue(ctx);
}

static const char *const listen_tags[] = {
	"linux-git:19f92a030ca6", "man:listen(2)", "man:sock_diag(7)", NULL,
};

/* NETLINK_SOCK_DIAG asks for "net-pf-16-proto-4-type-2" (inet_diag) and
 * its TCP handler (tcp_diag), modules in Debian's kernels. */
static const char *const listen_modules[] = { "inet_diag", "tcp_diag", NULL };

const struct aw_probe net_listen_probes[] = {
	{ .name = "listen", .summary = "the backlog listen() grants, the somaxconn clamp, a connect beyond it",
	  .run = run_listen, .items = listen_items, .tags = listen_tags,
	  .needs = { .modules = listen_modules } },
	AW_PROBES_END
};

// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * net.udp: UDP_SEGMENT (GSO, 4.18, bec1f6f69736) and UDP_GRO (5.0,
 * e20cf8d3f1f7) acceptance, and what a connected UDP socket learns when
 * its datagram reaches a closed port of 127.0.0.1: udp(7) says the ICMP
 * port unreachable becomes ECONNREFUSED on the next call, and with
 * IP_RECVERR (ip(7)) a struct sock_extended_err on the error queue.
 * ICMP errors to loopback escape the per-destination limit
 * (icmpv4_xrlim_allow()) but not the global token bucket
 * (net.ipv4.icmp_msgs_per_sec and icmp_msgs_burst, ip-sysctl.rst), which
 * a busy machine can drain: so an error that does not come is asked for
 * again with another datagram, REFUSED_TRIES times, each waited for with
 * poll(POLLERR).  The bound is against a kernel that never answers.
 */
#include "net.h"
#include "lib/errname.h"

#include <errno.h>
#include <linux/errqueue.h>
#include <netinet/udp.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#ifndef UDP_SEGMENT
#define UDP_SEGMENT 103
#endif
#ifndef UDP_GRO
#define UDP_GRO 104
#endif

static const char *const absent_opt[] = { "ENOPROTOOPT", NULL };

static const struct aw_item udp_items[] = {
	AW_OBS_ITEM("segment", "setsockopt(UDP_SEGMENT, 1400) (4.18)", .absent = absent_opt,
		    .change = "QUIC stacks batching datagrams with GSO must fall back, or can batch"),
	AW_OBS_ITEM("gro", "setsockopt(UDP_GRO, 1) (5.0)", .absent = absent_opt),
	AW_OBS_ITEM("refused.recv", "recv() on a connected UDP socket after its datagram met a "
		    "closed port: the pending error", .object = "refused",
		    .change = "UDP clients (DNS resolvers) no longer learn at once that nobody listens"),
	AW_OBS_ITEM("refused.errqueue", "with IP_RECVERR: the error queue's sock_extended_err "
		    "(errno, origin, ICMP type and code)", .object = "refused"),
	AW_ITEMS_END
};

static void setopt(struct aw_ctx *ctx, const char *obs, int opt, int value)
{
	int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	int rc = fd < 0 ? -1 : setsockopt(fd, IPPROTO_UDP, opt, &value, sizeof(value));
	net_observe_rc(ctx, obs, rc);
	if (fd >= 0)
		close(fd);
}

#define REFUSED_TRIES 4
#define REFUSED_WAIT_MS 2500
/* Both sockets waiting their longest, and the rest of the probe. */
#define UDP_TIMEOUT_S (2 * REFUSED_TRIES * REFUSED_WAIT_MS / 1000 + 10)

/* Send on the connected socket until its error is there: 0 or -errno. */
static int await_refusal(int fd)
{
	for (int i = 0; i < REFUSED_TRIES; i++) {
		if (send(fd, "x", 1, 0) != 1)
			return -errno;
		int r = net_wait(fd, POLLERR, REFUSED_WAIT_MS);
		if (r != 0)
			return r > 0 ? 0 : r;
	}
	return -ETIMEDOUT;
}

/* A UDP socket connected to a closed port of 127.0.0.1 whose error
 * arrived: the socket or -errno. */
static int refused_socket(bool recverr)
{
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons(NET_PORT + 1),
				 .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	int one = 1;
	int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	int rc = 0;

	if (fd < 0)
		return -errno;
	if ((recverr && setsockopt(fd, IPPROTO_IP, IP_RECVERR, &one, sizeof(one)) != 0) ||
	    connect(fd, (struct sockaddr *)&a, sizeof(a)) != 0)
		rc = -errno;
	else
		rc = await_refusal(fd);
	if (rc != 0) {
		close(fd);
		return rc;
	}
	return fd;
}

static void run_udp(struct aw_ctx *ctx)
{
	char buf[16];

	if (!net_setup(ctx))
		return;
	setopt(ctx, "segment", UDP_SEGMENT, 1400);
	setopt(ctx, "gro", UDP_GRO, 1);

	int fd = refused_socket(false);
	if (fd < 0) {
		aw_error(ctx, "refused.recv", "no error arrived: %s", aw_errname(-fd));
	} else {
		net_observe_rc(ctx, "refused.recv", recv(fd, buf, sizeof(buf), 0));
		close(fd);
	}

	fd = refused_socket(true);
	if (fd < 0) {
		aw_error(ctx, "refused.errqueue", "no error arrived: %s", aw_errname(-fd));
		return;
	}
	union {
		struct cmsghdr h;
		char b[CMSG_SPACE(sizeof(struct sock_extended_err) + sizeof(struct sockaddr_in))];
	} u;
	struct iovec iov = { .iov_base = buf, .iov_len = sizeof(buf) };
	struct msghdr m = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = u.b,
			    .msg_controllen = sizeof(u.b) };
	if (recvmsg(fd, &m, MSG_ERRQUEUE) < 0) {
		aw_observe(ctx, "refused.errqueue", "%s", aw_errname(errno));
	} else {
		struct cmsghdr *h = CMSG_FIRSTHDR(&m);
		if (!h || h->cmsg_level != IPPROTO_IP || h->cmsg_type != IP_RECVERR) {
			aw_observe(ctx, "refused.errqueue", "no IP_RECVERR message");
		} else {
			struct sock_extended_err e;
			memcpy(&e, CMSG_DATA(h), sizeof(e));
			aw_observe(ctx, "refused.errqueue", "%s origin=%u type=%u code=%u",
				   aw_errname((int)e.ee_errno), e.ee_origin, e.ee_type, e.ee_code);
		}
	}
	close(fd);
}

static const char *const udp_tags[] = {
	"linux-git:bec1f6f69736", "linux-git:e20cf8d3f1f7", "man:udp(7)", "man:ip(7)", NULL,
};

const struct aw_probe net_udp_probes[] = {
	{ .name = "udp", .summary = "UDP_SEGMENT and UDP_GRO, ICMP port unreachable on a connected socket",
	  .run = run_udp, .items = udp_items, .tags = udp_tags, .timeout_s = UDP_TIMEOUT_S },
	AW_PROBES_END
};

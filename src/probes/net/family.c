// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The net family: sockets where kernel changes broke servers.  The
 * dual-stack bind() conflicts that moved with bhash2 (28044fc1d495, 6.1,
 * fixed by ea111449501e and d91ef1e1b55f), listen() backlogs and the
 * somaxconn clamp (19f92a030ca6), socket buffer sizes, AF_UNIX
 * credentials and pidfds, TCP and UDP options, the 32-bit layouts, and,
 * in a VM guest only, the net.* knobs of the initial network namespace
 * (docs/catalogue.md, "net").
 *
 * Every probe runs in a network namespace of its own (the runner makes
 * one; net_setup() checks it is not abiwatch's before anything is
 * touched) and brings up its loopback there: no address, route or port
 * of the host changes.  Items are exact: where a result needs the other
 * end of a loopback connection to have acted, the probe waits for it
 * (poll) with a bound only a broken kernel reaches, so no timing decides
 * a value.
 */
#include "net.h"
#include "lib/errname.h"

#include <errno.h>
#include <net/if.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

static int lo_up(void)
{
	struct ifreq ifr;
	int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	int rc = 0;

	if (fd < 0)
		return -errno;
	memset(&ifr, 0, sizeof(ifr));
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "lo");
	if (ioctl(fd, SIOCGIFFLAGS, &ifr) != 0) {
		rc = -errno;
	} else if (!(ifr.ifr_flags & IFF_UP)) {
		ifr.ifr_flags |= IFF_UP;
		if (ioctl(fd, SIOCSIFFLAGS, &ifr) != 0)
			rc = -errno;
	}
	close(fd);
	return rc;
}

bool net_setup(struct aw_ctx *ctx)
{
	/* The one guard of the family: nothing below may reach the host. */
	if (!aw_private_ns(ctx, AW_SCOPE_NET)) {
		aw_error_rest(ctx, "not in a network namespace of the probe's own: nothing touched");
		return false;
	}
	int rc = lo_up();
	if (rc != 0) {
		aw_error_rest(ctx, "bringing up lo in the probe's network namespace: %s", aw_errname(-rc));
		return false;
	}
	return true;
}

const char *net_res(char buf[NET_RES_LEN], long long rc, int err)
{
	if (rc < 0)
		return aw_errname(err);
	snprintf(buf, NET_RES_LEN, "%lld", rc);
	return buf;
}

void net_observe_rc(struct aw_ctx *ctx, const char *obs, long long rc)
{
	int err = errno;
	char buf[NET_RES_LEN];
	aw_observe(ctx, obs, "%s", net_res(buf, rc, err));
}

long long net_getsockopt_int(int fd, int level, int opt)
{
	int v = 0;
	socklen_t len = sizeof(v);
	if (getsockopt(fd, level, opt, &v, &len) != 0)
		return -errno;
	return v;
}

int net_wait(int fd, short events, int timeout_ms)
{
	struct pollfd p = { .fd = fd, .events = events };
	int n;
	do
		n = poll(&p, 1, timeout_ms);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		return -errno;
	return n == 0 ? 0 : p.revents;
}

int net_tcp_pair(int *client, int *server)
{
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = 0,
				 .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	socklen_t alen = sizeof(a);
	int l = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	int rc = 0;

	*client = *server = -1;
	if (l < 0)
		return -errno;
	if (bind(l, (struct sockaddr *)&a, sizeof(a)) != 0 || listen(l, 4) != 0 ||
	    getsockname(l, (struct sockaddr *)&a, &alen) != 0) {
		rc = -errno;
		goto out;
	}
	*client = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (*client < 0 || connect(*client, (struct sockaddr *)&a, sizeof(a)) != 0) {
		rc = -errno;
		goto out;
	}
	*server = accept4(l, NULL, NULL, SOCK_CLOEXEC);
	if (*server < 0)
		rc = -errno;
out:
	if (rc != 0) {
		if (*client >= 0)
			close(*client);
		*client = -1;
	}
	close(l);
	return rc;
}

static const struct aw_probe *const tables[] = {
	net_bind_probes, net_listen_probes, net_sockbuf_probes, net_unix_probes,
	net_tcp_probes, net_udp_probes, net_compat32_probes, net_initns_probes, NULL,
};

static const struct aw_family net_family = {
	.name = "net",
	.summary = "sockets: dual-stack bind conflicts, listen backlogs, buffer sizes, AF_UNIX, TCP and UDP options",
	.tables = tables,
	.helper32 = NET_HELPER,
};

AW_FAMILY(net_family);

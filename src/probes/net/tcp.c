// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * net.tcp: a TCP connection over 127.0.0.1 in the probe's namespace.
 * The size of struct tcp_info getsockopt(TCP_INFO) fills (the kernel
 * copies min(its size, the caller's) and writes that length back, so
 * the struct grows with kernels: tcpi_total_rto and friends came with
 * 3868ab0f1925 in 6.7); the default congestion control
 * (net.ipv4.tcp_congestion_control, which a new namespace copies from
 * the initial one); TCP_NODELAY and TCP_CORK of a new socket (tcp(7):
 * off); SO_ZEROCOPY and MSG_ZEROCOPY (4.14, msg_zerocopy.rst); and
 * splice(2) from a TCP socket into a pipe, sendfile(2) from a file into
 * a TCP socket and from a TCP socket into a pipe, which the fdio family
 * could not try with its loopback down.  Data is waited for with poll()
 * before it is spliced, bounded only against a broken kernel.
 */
#include "net.h"
#include "lib/errname.h"
#include "lib/proc.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/errqueue.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/sendfile.h>
#include <unistd.h>

#ifndef SO_ZEROCOPY
#define SO_ZEROCOPY 60
#endif
#ifndef MSG_ZEROCOPY
#define MSG_ZEROCOPY 0x4000000
#endif

static const char *const absent_opt[] = { "ENOPROTOOPT", "EOPNOTSUPP", NULL };

static const struct aw_item tcp_items[] = {
	AW_OBS_ITEM("tcp_info.size", "the length getsockopt(TCP_INFO) writes back for a 1024-byte "
		    "buffer: sizeof the kernel's struct tcp_info", .unit = "B",
		    .change = "the struct grew (fields appended): programs reading new fields must check "
			      "the length; a shrink would break readers of the last fields"),
	/* A new namespace starts from the initial one's default, which a
	 * machine's set-up may have chosen (net.ipv4.tcp_congestion_control). */
	AW_OBS_ITEM("congestion", "TCP_CONGESTION of a new socket: the default congestion control",
		    .varies_with = "setup", .change = "connections use another algorithm by default: throughput and fairness change"),
	AW_OBS_ITEM("nodelay.default", "TCP_NODELAY of a new socket"),
	AW_OBS_ITEM("cork.default", "TCP_CORK of a new socket"),
	AW_OBS_ITEM("zerocopy.tcp", "setsockopt(SO_ZEROCOPY, 1) on a TCP socket (4.14)",
		    .absent = absent_opt, .object = "zerocopy"),
	AW_OBS_ITEM("zerocopy.tcp.send", "send(MSG_ZEROCOPY) of 4 bytes on a connected TCP socket "
		    "with SO_ZEROCOPY", .object = "zerocopy"),
	AW_OBS_ITEM("zerocopy.tcp.send_without", "send(MSG_ZEROCOPY) of 4 bytes without SO_ZEROCOPY "
		    "(ignored: the flag is not checked before 4.14's socket option)", .object = "zerocopy"),
	AW_OBS_ITEM("zerocopy.udp", "setsockopt(SO_ZEROCOPY, 1) on a UDP socket (5.0)",
		    .absent = absent_opt, .object = "zerocopy"),
	AW_OBS_ITEM("zerocopy.unix", "setsockopt(SO_ZEROCOPY, 1) on a unix stream socket",
		    .absent = absent_opt, .object = "zerocopy"),
	AW_OBS_ITEM("splice.tcp_to_pipe", "splice(TCP socket -> pipe), 4 bytes pending",
		    .object = "splice", .change = "proxies splicing sockets to pipes (haproxy) fail or "
						  "fall back to copying"),
	AW_OBS_ITEM("splice.pipe_to_tcp", "splice(pipe holding 4 bytes -> TCP socket)", .object = "splice"),
	AW_OBS_ITEM("sendfile.file_to_tcp", "sendfile(TCP socket <- 9-byte regular file)",
		    .object = "sendfile", .change = "web servers sending files with sendfile fail"),
	AW_OBS_ITEM("sendfile.tcp_to_pipe", "sendfile(pipe <- TCP socket), 4 bytes pending",
		    .object = "sendfile"),
	AW_ITEMS_END
};

static void observe_int_opt(struct aw_ctx *ctx, const char *obs, int fd, int level, int opt)
{
	long long v = net_getsockopt_int(fd, level, opt);
	char buf[NET_RES_LEN];
	aw_observe(ctx, obs, "%s", net_res(buf, v, v < 0 ? (int)-v : 0));
}

static void zerocopy_opt(struct aw_ctx *ctx, const char *obs, int family, int type)
{
	int one = 1;
	int fd = socket(family, type | SOCK_CLOEXEC, 0);
	int rc = fd < 0 ? -1 : setsockopt(fd, SOL_SOCKET, SO_ZEROCOPY, &one, sizeof(one));
	net_observe_rc(ctx, obs, rc);
	if (fd >= 0)
		close(fd);
}

/* Send data on c and wait until s can read it. */
static int feed(int c, int s, const char *data)
{
	size_t n = strlen(data);
	if (send(c, data, n, MSG_NOSIGNAL) != (ssize_t)n)
		return -errno;
	int r = net_wait(s, POLLIN, 5000);
	return r > 0 ? 0 : r == 0 ? -ETIMEDOUT : r;
}

static void drain(int fd)
{
	char buf[256];
	while (recv(fd, buf, sizeof(buf), MSG_DONTWAIT) > 0)
		;
}

static void data_moves(struct aw_ctx *ctx, int c, int s)
{
	int p[2] = { -1, -1 };
	int file = aw_anon_file("net-sendfile");
	int rc;

	if (pipe2(p, O_NONBLOCK | O_CLOEXEC) != 0 || file < 0 || write(file, "abiwatch\n", 9) != 9) {
		aw_error_rest(ctx, "pipe or file: %s", aw_errname(errno));
		goto out;
	}
	rc = feed(c, s, "abcd");
	if (rc != 0)
		aw_error(ctx, "splice.tcp_to_pipe", "data did not arrive: %s", aw_errname(-rc));
	else
		net_observe_rc(ctx, "splice.tcp_to_pipe", splice(s, NULL, p[1], NULL, 100, SPLICE_F_NONBLOCK));
	drain(s);
	{
		char junk[64];
		while (read(p[0], junk, sizeof(junk)) > 0)
			;
	}
	if (write(p[1], "wxyz", 4) != 4) {
		aw_error(ctx, "splice.pipe_to_tcp", "write: %s", aw_errname(errno));
	} else {
		net_observe_rc(ctx, "splice.pipe_to_tcp", splice(p[0], NULL, c, NULL, 100, SPLICE_F_NONBLOCK));
		net_wait(s, POLLIN, 5000);
		drain(s);
	}
	off_t off = 0;
	net_observe_rc(ctx, "sendfile.file_to_tcp", sendfile(c, file, &off, 9));
	net_wait(s, POLLIN, 5000);
	drain(s);
	{
		char junk[64];
		while (read(p[0], junk, sizeof(junk)) > 0)
			;
	}
	rc = feed(c, s, "efgh");
	if (rc != 0)
		aw_error(ctx, "sendfile.tcp_to_pipe", "data did not arrive: %s", aw_errname(-rc));
	else
		net_observe_rc(ctx, "sendfile.tcp_to_pipe", sendfile(p[1], s, NULL, 100));
out:
	if (p[0] >= 0)
		close(p[0]);
	if (p[1] >= 0)
		close(p[1]);
	if (file >= 0)
		close(file);
}

static void run_tcp(struct aw_ctx *ctx)
{
	int c, s, one = 1;
	unsigned char info[1024];
	char cc[64];
	socklen_t len;

	if (!net_setup(ctx))
		return;
	int rc = net_tcp_pair(&c, &s);
	if (rc != 0) {
		aw_error_rest(ctx, "a TCP connection over 127.0.0.1: %s", aw_errname(-rc));
		return;
	}
	len = sizeof(info);
	if (getsockopt(c, IPPROTO_TCP, TCP_INFO, info, &len) != 0)
		aw_observe(ctx, "tcp_info.size", "%s", aw_errname(errno));
	else
		aw_observe_long(ctx, "tcp_info.size", len);
	len = sizeof(cc) - 1;
	memset(cc, 0, sizeof(cc));
	if (getsockopt(c, IPPROTO_TCP, TCP_CONGESTION, cc, &len) != 0)
		aw_observe(ctx, "congestion", "%s", aw_errname(errno));
	else
		aw_observe(ctx, "congestion", "%s", cc);
	observe_int_opt(ctx, "nodelay.default", c, IPPROTO_TCP, TCP_NODELAY);
	observe_int_opt(ctx, "cork.default", c, IPPROTO_TCP, TCP_CORK);

	zerocopy_opt(ctx, "zerocopy.tcp", AF_INET, SOCK_STREAM);
	zerocopy_opt(ctx, "zerocopy.udp", AF_INET, SOCK_DGRAM);
	zerocopy_opt(ctx, "zerocopy.unix", AF_UNIX, SOCK_STREAM);
	net_observe_rc(ctx, "zerocopy.tcp.send_without", send(c, "abcd", 4, MSG_ZEROCOPY | MSG_NOSIGNAL));
	net_wait(s, POLLIN, 5000);
	drain(s);
	if (setsockopt(c, SOL_SOCKET, SO_ZEROCOPY, &one, sizeof(one)) != 0)
		aw_unobserved(ctx, "zerocopy.tcp.send", "SO_ZEROCOPY: %s", aw_errname(errno));
	else
		net_observe_rc(ctx, "zerocopy.tcp.send", send(c, "abcd", 4, MSG_ZEROCOPY | MSG_NOSIGNAL));
	net_wait(s, POLLIN, 5000);
	drain(s);
	close(c);
	close(s);
	/* A fresh pair for the data moves: no zerocopy notifications queued. */
	rc = net_tcp_pair(&c, &s);
	if (rc != 0) {
		aw_error_rest(ctx, "a second TCP connection: %s", aw_errname(-rc));
		return;
	}
	data_moves(ctx, c, s);
	close(c);
	close(s);
}

static const char *const tcp_tags[] = {
	"linux-git:3868ab0f1925", "man:tcp(7)", "man:splice(2)", "man:sendfile(2)", NULL,
};

const struct aw_probe net_tcp_probes[] = {
	{ .name = "tcp", .summary = "tcp_info size, congestion control, TCP options, zerocopy, splice and sendfile",
	  .run = run_tcp, .items = tcp_items, .tags = tcp_tags },
	AW_PROBES_END
};

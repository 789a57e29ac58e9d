// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * net.sockbuf: SO_RCVBUF and SO_SNDBUF of TCP, UDP and unix stream and
 * datagram sockets: the default, and what getsockopt() gives back after
 * setsockopt() of 1, 4096 and 1 GiB.  socket(7): the kernel doubles the
 * value set "to allow space for bookkeeping overhead", and this doubled
 * value is returned; the value is clamped to net.core.rmem_max or
 * wmem_max (doubled) and raised to a minimum, SOCK_MIN_RCVBUF and
 * SOCK_MIN_SNDBUF of include/net/sock.h, which follow sizeof(struct
 * sk_buff) and so move between kernels.  TCP's defaults come from
 * net.ipv4.tcp_rmem and tcp_wmem (per network namespace, copied from
 * the initial one), the others' from net.core.rmem_default and
 * wmem_default, which only the initial namespace shows: the defaults
 * and the clamp are the host's settings where it changed them.
 */
#include "net.h"
#include "lib/errname.h"

#include <errno.h>
#include <stdio.h>
#include <unistd.h>

#define SET_OBS(k, opt, what)                                                                     \
	AW_OBS_ITEM(k "." opt ".default", what " " opt " of a new socket", .unit = "B",           \
		    .object = k "." opt, .varies_with = "setup",                                  \
		    .change = "programs that never set the buffer get another size: throughput and " \
			      "how much a peer may queue change"),                               \
	AW_OBS_ITEM(k "." opt ".set_1", what " " opt " read back after setting 1: the minimum", \
		    .unit = "B", .object = k "." opt,                                             \
		    .change = "the smallest buffer moved (SOCK_MIN_* follow sizeof(struct sk_buff))"), \
	AW_OBS_ITEM(k "." opt ".set_4096", what " " opt " read back after setting 4096 (doubled: 8192)", \
		    .unit = "B", .object = k "." opt,                                             \
		    .change = "programs computing buffer sizes from what they set (halving the value "  \
			      "read back) are off by the new factor"),                           \
	AW_OBS_ITEM(k "." opt ".set_1g", what " " opt " read back after setting 1 GiB: the "    \
		    "doubled r/wmem_max clamp", .unit = "B", .object = k "." opt,                 \
		    .varies_with = "setup",                                                       \
		    .change = "the clamp of buffer requests moved")

static const struct aw_item sockbuf_items[] = {
	AW_CHECK_ITEM("doubled", "socket(7): the value set is doubled and read back doubled "
		      "(4096 -> 8192, SO_RCVBUF and SO_SNDBUF of UDP)"),
	SET_OBS("tcp", "rcvbuf", "TCP"), SET_OBS("tcp", "sndbuf", "TCP"),
	SET_OBS("udp", "rcvbuf", "UDP"), SET_OBS("udp", "sndbuf", "UDP"),
	SET_OBS("unix_stream", "rcvbuf", "unix stream"), SET_OBS("unix_stream", "sndbuf", "unix stream"),
	SET_OBS("unix_dgram", "rcvbuf", "unix datagram"), SET_OBS("unix_dgram", "sndbuf", "unix datagram"),
	AW_ITEMS_END
};

static const struct kind {
	const char *name;
	int family, type;
} kinds[] = {
	{ "tcp", AF_INET, SOCK_STREAM },
	{ "udp", AF_INET, SOCK_DGRAM },
	{ "unix_stream", AF_UNIX, SOCK_STREAM },
	{ "unix_dgram", AF_UNIX, SOCK_DGRAM },
};

static const struct opt {
	const char *name;
	int opt;
} opts[] = { { "rcvbuf", SO_RCVBUF }, { "sndbuf", SO_SNDBUF } };

/* What getsockopt gives after setsockopt(value) on a new socket (value
 * < 0: nothing set), or -errno. */
static long long after_set(const struct kind *k, int opt, int value)
{
	int fd = socket(k->family, k->type | SOCK_CLOEXEC, 0);
	long long r;
	if (fd < 0)
		return -errno;
	if (value >= 0 && setsockopt(fd, SOL_SOCKET, opt, &value, sizeof(value)) != 0)
		r = -errno;
	else
		r = net_getsockopt_int(fd, SOL_SOCKET, opt);
	close(fd);
	return r;
}

static void run_sockbuf(struct aw_ctx *ctx)
{
	static const struct { const char *suffix; int value; } sets[] = {
		{ "default", -1 }, { "set_1", 1 }, { "set_4096", 4096 }, { "set_1g", 1 << 30 },
	};
	bool doubled = true;
	char name[96], buf[NET_RES_LEN];

	if (!net_setup(ctx))
		return;
	for (size_t k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++)
		for (size_t o = 0; o < 2; o++)
			for (size_t s = 0; s < sizeof(sets) / sizeof(sets[0]); s++) {
				long long v = after_set(&kinds[k], opts[o].opt, sets[s].value);
				snprintf(name, sizeof(name), "%s.%s.%s", kinds[k].name, opts[o].name,
					 sets[s].suffix);
				aw_observe(ctx, name, "%s", net_res(buf, v, v < 0 ? (int)-v : 0));
				if (k == 1 && s == 2 && v != 8192)
					doubled = false;
			}
	aw_expect(ctx, "doubled", doubled, "UDP SO_RCVBUF/SO_SNDBUF set to 4096 did not read back 8192");
}

static const char *const sockbuf_tags[] = { "man:socket(7)", "man:tcp(7)", "man:udp(7)", "man:unix(7)", NULL };

const struct aw_probe net_sockbuf_probes[] = {
	{ .name = "sockbuf", .summary = "SO_RCVBUF/SO_SNDBUF defaults, doubling, minimum and clamp",
	  .run = run_sockbuf, .items = sockbuf_items, .tags = sockbuf_tags },
	AW_PROBES_END
};

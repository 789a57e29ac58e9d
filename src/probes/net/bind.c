// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * net.bind: the bind() conflict matrix of TCP, which dual-stack servers
 * meet when they bind [::]:P and 0.0.0.0:P (or a loopback address) on one
 * port.  28044fc1d495 (6.1) moved the conflict check to the bhash2 table
 * hashed by port and address, and a series of regressions followed:
 * gramine's test saw bind(0.0.0.0:P) succeed while [::]:P without
 * IPV6_V6ONLY listened (gramine#1326, 6.0 -> 6.2); ea111449501e and
 * d91ef1e1b55f (6.9, backported to the stable series) fixed the
 * v6-only wildcard cases, with the selftest net/bind_wildcard.c as the
 * anchor.
 *
 * A cell is FIRST.SECOND.OPTS1_STATE-OPTS2: a first TCP socket bound
 * to FIRST with the options OPTS1 (and listening, for STATE
 * "listening"), then a second bound to SECOND with OPTS2 on the same
 * port; its value is the second bind's result, 0 or the errno.
 * Addresses: v4_any 0.0.0.0, v4_lo 127.0.0.1, v6_any [::], v6_lo [::1]
 * (each of the two also with IPV6_V6ONLY: v6_any_v6only, v6_lo_v6only),
 * mapped_any [::ffff:0.0.0.0], mapped_lo [::ffff:127.0.0.1].
 * IPV6_V6ONLY is set explicitly on every AF_INET6 socket, so the
 * namespace's net.ipv6.bindv6only does not decide; a v4-mapped address
 * has no v6-only form (bind() refuses it with EINVAL).  Options: plain,
 * reuseaddr (SO_REUSEADDR), reuseport (SO_REUSEPORT), reuseaddrport
 * (both), each socket its own, so that a cell whose sockets disagree
 * (the first SO_REUSEADDR, the second plain) shows which socket's option
 * a rule reads.  Every ordered pair of addresses is there, so both orders
 * are: 8 x 8 addresses x 4 x 4 options x 2 states = 2048 cells, whose
 * objects in a diff are the address pairs (the name less its last part).
 * Each cell has a port of its own, closed before the next, so that no
 * cell sees what an earlier one left.  bind3.* are the three-socket
 * cases d91ef1e1b55f fixed: the third bind's result.  timewait.* bind
 * 127.0.0.1:P while a TIME_WAIT connection holds it: bhash2 missed
 * TIME_WAIT sockets until 936a192f9740 (6.1.y; Jiri Slaby's report), so
 * bind() succeeded where it had failed with EADDRINUSE.
 *
 * The checks hold the cells whose answer is documented: ipv6(7) (an
 * AF_INET6 socket without IPV6_V6ONLY also takes IPv4, with it an IPv4
 * and an IPv6 program can bind one port), socket(7) (SO_REUSEADDR: "a
 * socket may bind, except when there is an active listening socket
 * bound to the address"; SO_REUSEPORT: it "must be set on each socket
 * (including the first socket)", and then they may bind one address),
 * bind(2) (EADDRINUSE: the address is in use).
 */
#include "net.h"
#include "lib/errname.h"

#include <arpa/inet.h>
#include <errno.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

enum {
	A_V4_ANY, A_V4_LO, A_V6_ANY, A_V6_ANY_V6ONLY, A_V6_LO, A_V6_LO_V6ONLY, A_MAPPED_ANY,
	A_MAPPED_LO, NADDR
};
enum { O_PLAIN, O_REUSEADDR, O_REUSEPORT, O_REUSEADDRPORT, NOPT };
enum { S_BOUND, S_LISTENING, NSTATE };
#define NCELLS (NADDR * NADDR * NOPT * NSTATE * NOPT)

/* Cell i binds port BIND_PORT + i, the bind3 cases the ports after
 * them: below the ephemeral range (32768 up in a fresh namespace), so
 * that the connection timewait makes can never take one of them. */
#define BIND_PORT 20000

static const struct addr {
	const char *name;
	int family;
	const char *text;
	int v6only;
} addrs[NADDR] = {
	[A_V4_ANY] = { "v4_any", AF_INET, "0.0.0.0", 0 },
	[A_V4_LO] = { "v4_lo", AF_INET, "127.0.0.1", 0 },
	[A_V6_ANY] = { "v6_any", AF_INET6, "::", 0 },
	[A_V6_ANY_V6ONLY] = { "v6_any_v6only", AF_INET6, "::", 1 },
	[A_V6_LO] = { "v6_lo", AF_INET6, "::1", 0 },
	[A_V6_LO_V6ONLY] = { "v6_lo_v6only", AF_INET6, "::1", 1 },
	[A_MAPPED_ANY] = { "mapped_any", AF_INET6, "::ffff:0.0.0.0", 0 },
	[A_MAPPED_LO] = { "mapped_lo", AF_INET6, "::ffff:127.0.0.1", 0 },
};

static const struct opts {
	const char *name;
	bool reuseaddr, reuseport;
} opts[NOPT] = {
	[O_PLAIN] = { "plain", false, false },
	[O_REUSEADDR] = { "reuseaddr", true, false },
	[O_REUSEPORT] = { "reuseport", false, true },
	[O_REUSEADDRPORT] = { "reuseaddrport", true, true },
};
static const char *const states[NSTATE] = { "bound", "listening" };

/* One cell: the first socket's address, options and state, the second's
 * address and options. */
struct cell {
	int first, opts1, state, second, opts2;
};

static const struct aw_item bind_items[] = {
	AW_CHECK_ITEM("doc.v6_any_takes_v4", "ipv6(7): [::] without IPV6_V6ONLY, listening, "
		      "makes bind(0.0.0.0) on its port fail with EADDRINUSE (gramine#1326)"),
	AW_CHECK_ITEM("doc.v6only_shares_port", "ipv6(7): [::] with IPV6_V6ONLY and 0.0.0.0 bind one "
		      "port, in both orders, bound or listening"),
	AW_CHECK_ITEM("doc.same_address_in_use", "bind(2): a second bind of 127.0.0.1:P and of [::1]:P "
		      "without options fails with EADDRINUSE"),
	AW_CHECK_ITEM("doc.reuseaddr_bound", "socket(7): with SO_REUSEADDR on both, 127.0.0.1:P binds "
		      "again while the first socket is only bound"),
	AW_CHECK_ITEM("doc.reuseaddr_listening", "socket(7): with SO_REUSEADDR on both, 127.0.0.1:P "
		      "fails with EADDRINUSE while the first socket listens"),
	AW_CHECK_ITEM("doc.reuseport_listening", "socket(7): with SO_REUSEPORT on both, 127.0.0.1:P "
		      "binds again while the first socket listens"),
	AW_CHECK_ITEM("doc.reuseport_each_socket", "socket(7): SO_REUSEPORT on one of two sockets "
		      "only (the first or the second) shares nothing: EADDRINUSE, 127.0.0.1 and [::1]"),
	AW_OBS_ITEM("bind3.v4_any.v6_any_v6only.v4_lo", "0.0.0.0, [::] IPV6_V6ONLY, then "
		    "127.0.0.1 on one port: the third bind (EADDRINUSE since d91ef1e1b55f)",
		    .object = "bind3",
		    .change = "a server can bind a port another already holds on the IPv4 wildcard, "
			      "or stops being able to"),
	AW_OBS_ITEM("bind3.mapped_any.v6_any_v6only.v4_lo", "[::ffff:0.0.0.0], [::] IPV6_V6ONLY, then "
		    "127.0.0.1: the third bind (EADDRINUSE since d91ef1e1b55f)", .object = "bind3",
		    .change = "a server can bind a port another already holds on the IPv4 wildcard, "
			      "or stops being able to"),
	AW_OBS_ITEM("bind3.v4_any.v6_any_v6only.mapped_lo", "0.0.0.0, [::] IPV6_V6ONLY, then "
		    "[::ffff:127.0.0.1]: the third bind (EADDRINUSE since d91ef1e1b55f)", .object = "bind3",
		    .change = "a server can bind a port another already holds on the IPv4 wildcard, "
			      "or stops being able to"),
	AW_OBS_ITEM("timewait.plain", "bind() of 127.0.0.1:P while a TIME_WAIT connection holds it "
		    "(EADDRINUSE; 0 from 28044fc1d495 until 936a192f9740)", .object = "timewait",
		    .change = "a restarting server binds over a TIME_WAIT connection it should not, or "
			      "without SO_REUSEADDR no longer can"),
	AW_OBS_ITEM("timewait.reuseaddr", "the same bind with SO_REUSEADDR on the new socket only "
		    "(the connection's socket did not set it, and both must: EADDRINUSE)",
		    .object = "timewait",
		    .change = "a program that sets SO_REUSEADDR takes over a port whose TIME_WAIT "
			      "connection did not agree to it, or the reverse"),
	/* No .object: the name less its last part, the address pair, so
	 * that diff shows a pair's changed cells on one line. */
	AW_OBS_ITEM("*", "FIRST.SECOND.OPTS1_STATE-OPTS2: the second bind() on FIRST's port, 0 or "
		    "the errno, after FIRST was bound with OPTS1 (and listening, for STATE listening), "
		    "the second socket with OPTS2",
		    .change = "a dual-stack server's second bind fails with EADDRINUSE, or a second "
			      "server silently shares the port (which rule changed: the cells' names)"),
	AW_ITEMS_END
};

static void to_sockaddr(const struct addr *a, uint16_t port, struct sockaddr_storage *ss,
			socklen_t *len)
{
	memset(ss, 0, sizeof(*ss));
	if (a->family == AF_INET) {
		struct sockaddr_in *s = (struct sockaddr_in *)ss;
		s->sin_family = AF_INET;
		s->sin_port = htons(port);
		inet_pton(AF_INET, a->text, &s->sin_addr);
		*len = sizeof(*s);
	} else {
		struct sockaddr_in6 *s = (struct sockaddr_in6 *)ss;
		s->sin6_family = AF_INET6;
		s->sin6_port = htons(port);
		inet_pton(AF_INET6, a->text, &s->sin6_addr);
		*len = sizeof(*s);
	}
}

static int set_flag(int fd, int level, int opt, int on)
{
	return setsockopt(fd, level, opt, &on, sizeof(on));
}

/* A socket bound to a:port with o's options: the socket, or -1 with
 * *err set (the bind's errno; a failed setup gives -2 and the errno). */
static int bound(const struct addr *a, const struct opts *o, uint16_t port, int *err)
{
	struct sockaddr_storage ss;
	socklen_t len;
	int fd = socket(a->family, SOCK_STREAM | SOCK_CLOEXEC, 0);

	*err = 0;
	if (fd < 0)
		goto setup_failed;
	if (a->family == AF_INET6 && set_flag(fd, IPPROTO_IPV6, IPV6_V6ONLY, a->v6only) != 0)
		goto setup_failed;
	if (o->reuseaddr && set_flag(fd, SOL_SOCKET, SO_REUSEADDR, 1) != 0)
		goto setup_failed;
	if (o->reuseport && set_flag(fd, SOL_SOCKET, SO_REUSEPORT, 1) != 0)
		goto setup_failed;
	to_sockaddr(a, port, &ss, &len);
	if (bind(fd, (struct sockaddr *)&ss, len) != 0) {
		*err = errno;
		close(fd);
		return -1;
	}
	return fd;
setup_failed:
	*err = errno;
	if (fd >= 0)
		close(fd);
	return -2;
}

/* The result of the cell's second bind on port: 0, an errno, or -errno
 * of a setup that failed (the first bind or listen).  Both sockets are
 * closed: never connected, they leave nothing behind on the port. */
static int try_cell(const struct cell *c, uint16_t port)
{
	int err, fd1, fd2, rc;

	fd1 = bound(&addrs[c->first], &opts[c->opts1], port, &err);
	if (fd1 < 0)
		return -(err ? err : EIO);
	if (c->state == S_LISTENING && listen(fd1, 1) != 0) {
		rc = -errno;
		close(fd1);
		return rc;
	}
	fd2 = bound(&addrs[c->second], &opts[c->opts2], port, &err);
	if (fd2 == -2)
		rc = -(err ? err : EIO);
	else
		rc = fd2 >= 0 ? 0 : err;
	if (fd2 >= 0)
		close(fd2);
	close(fd1);
	return rc;
}

/* The cell's place in the matrix, and so its port: the order of the
 * report's nested loops. */
static int cell_index(const struct cell *c)
{
	return (((c->first * NADDR + c->second) * NOPT + c->opts1) * NSTATE + c->state) * NOPT +
	       c->opts2;
}

static void cell_name(char *buf, size_t size, const struct cell *c)
{
	snprintf(buf, size, "%s.%s.%s_%s-%s", addrs[c->first].name, addrs[c->second].name,
		 opts[c->opts1].name, states[c->state], opts[c->opts2].name);
}

static int matrix[NCELLS];

/* Pass when every cell of cells (ended by first = -1) gave want. */
static void check_cells(struct aw_ctx *ctx, const char *check, int want, const struct cell *cells)
{
	char name[128];

	for (const struct cell *c = cells; c->first >= 0; c++) {
		int got = matrix[cell_index(c)];
		if (got != want) {
			cell_name(name, sizeof(name), c);
			aw_fail(ctx, check, "%s gave %s, expected %s", name,
				got ? aw_errname(got) : "0", want ? aw_errname(want) : "0");
			return;
		}
	}
	aw_pass(ctx, check);
}

#define SAME(f, s, o, st) { f, o, st, s, o }
#define END { -1, 0, 0, 0, 0 }

static void checks(struct aw_ctx *ctx)
{
	static const struct cell v6_takes_v4[] = { SAME(A_V6_ANY, A_V4_ANY, O_PLAIN, S_LISTENING), END };
	static const struct cell v6only[] = {
		SAME(A_V6_ANY_V6ONLY, A_V4_ANY, O_PLAIN, S_BOUND),
		SAME(A_V6_ANY_V6ONLY, A_V4_ANY, O_PLAIN, S_LISTENING),
		SAME(A_V4_ANY, A_V6_ANY_V6ONLY, O_PLAIN, S_BOUND),
		SAME(A_V4_ANY, A_V6_ANY_V6ONLY, O_PLAIN, S_LISTENING), END };
	static const struct cell same[] = {
		SAME(A_V4_LO, A_V4_LO, O_PLAIN, S_BOUND), SAME(A_V6_LO, A_V6_LO, O_PLAIN, S_BOUND),
		SAME(A_V4_LO, A_V4_LO, O_PLAIN, S_LISTENING), SAME(A_V6_LO, A_V6_LO, O_PLAIN, S_LISTENING),
		END };
	static const struct cell ra_bound[] = { SAME(A_V4_LO, A_V4_LO, O_REUSEADDR, S_BOUND), END };
	static const struct cell ra_listen[] = { SAME(A_V4_LO, A_V4_LO, O_REUSEADDR, S_LISTENING), END };
	static const struct cell rp_listen[] = { SAME(A_V4_LO, A_V4_LO, O_REUSEPORT, S_LISTENING), END };
	/* socket(7): "must be set on each socket (including the first socket)". */
	static const struct cell rp_each[] = {
		{ A_V4_LO, O_REUSEPORT, S_BOUND, A_V4_LO, O_PLAIN },
		{ A_V4_LO, O_REUSEPORT, S_LISTENING, A_V4_LO, O_PLAIN },
		{ A_V4_LO, O_PLAIN, S_BOUND, A_V4_LO, O_REUSEPORT },
		{ A_V4_LO, O_PLAIN, S_LISTENING, A_V4_LO, O_REUSEPORT },
		{ A_V6_LO, O_REUSEPORT, S_LISTENING, A_V6_LO, O_PLAIN },
		{ A_V6_LO, O_PLAIN, S_LISTENING, A_V6_LO, O_REUSEPORT }, END };

	check_cells(ctx, "doc.v6_any_takes_v4", EADDRINUSE, v6_takes_v4);
	check_cells(ctx, "doc.v6only_shares_port", 0, v6only);
	check_cells(ctx, "doc.same_address_in_use", EADDRINUSE, same);
	check_cells(ctx, "doc.reuseaddr_bound", 0, ra_bound);
	check_cells(ctx, "doc.reuseaddr_listening", EADDRINUSE, ra_listen);
	check_cells(ctx, "doc.reuseport_listening", 0, rp_listen);
	check_cells(ctx, "doc.reuseport_each_socket", EADDRINUSE, rp_each);
}

/* Three sockets without options on port: the third bind's result, as
 * try_cell() gives it. */
static int triple(int a, int b, int c, uint16_t port)
{
	int err, fd[3], rc = 0;
	const int which[3] = { a, b, c };

	for (int i = 0; i < 3; i++) {
		fd[i] = bound(&addrs[which[i]], &opts[O_PLAIN], port, &err);
		if (fd[i] < 0) {
			rc = (i < 2 || fd[i] == -2) ? -(err ? err : EIO) : err;
			while (i-- > 0)
				close(fd[i]);
			return rc;
		}
	}
	for (int i = 0; i < 3; i++)
		close(fd[i]);
	return 0;
}

static void observe(struct aw_ctx *ctx, const char *name, int rc)
{
	if (rc < 0)
		aw_error(ctx, name, "setting up the first socket: %s", aw_errname(-rc));
	else if (rc == 0)
		aw_observe(ctx, name, "0");
	else
		aw_observe(ctx, name, "%s", aw_errname(rc));
}

/* A TCP connection over 127.0.0.1 closed actively by its client, so that
 * the client's 127.0.0.1:port is held by a TIME_WAIT socket: the port, or
 * -errno.  Each step waits for the peer's segment (poll), bounded only
 * against a broken kernel. */
static int timewait_port(void)
{
	struct sockaddr_in a;
	socklen_t alen = sizeof(a);
	char c;
	int cl, sv, rc;

	rc = net_tcp_pair(&cl, &sv);
	if (rc != 0)
		return rc;
	rc = -ETIMEDOUT;
	if (getsockname(cl, (struct sockaddr *)&a, &alen) != 0) {
		rc = -errno;
		goto out;
	}
	/* client FIN first; the server reads EOF, then sends its FIN; the
	 * client reads EOF once it has taken it, and is in TIME_WAIT. */
	if (shutdown(cl, SHUT_WR) != 0 || net_wait(sv, POLLIN, 5000) <= 0 || read(sv, &c, 1) != 0)
		goto out;
	close(sv);
	sv = -1;
	if (net_wait(cl, POLLIN, 5000) <= 0 || read(cl, &c, 1) != 0)
		goto out;
	rc = ntohs(a.sin_port);
out:
	close(cl);
	if (sv >= 0)
		close(sv);
	return rc;
}

static void timewait(struct aw_ctx *ctx)
{
	int port = timewait_port();
	if (port < 0) {
		aw_error(ctx, "timewait.plain", "making a TIME_WAIT connection: %s", aw_errname(-port));
		aw_error(ctx, "timewait.reuseaddr", "making a TIME_WAIT connection: %s", aw_errname(-port));
		return;
	}
	for (int reuse = 0; reuse < 2; reuse++) {
		struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons((uint16_t)port),
					 .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
		int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
		int rc = fd < 0 || (reuse && setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &reuse, sizeof(reuse)) != 0)
				 ? -1 : bind(fd, (struct sockaddr *)&a, sizeof(a));
		net_observe_rc(ctx, reuse ? "timewait.reuseaddr" : "timewait.plain", rc);
		if (fd >= 0)
			close(fd);
	}
}

/* Every cell in the order of cell_index(), each on its port: whether a
 * first socket could not be set up somewhere. */
static bool run_cells(struct aw_ctx *ctx)
{
	char name[128];
	bool setup_failed = false;
	struct cell c;

	for (c.first = 0; c.first < NADDR; c.first++)
		for (c.second = 0; c.second < NADDR; c.second++)
			for (c.opts1 = 0; c.opts1 < NOPT; c.opts1++)
				for (c.state = 0; c.state < NSTATE; c.state++)
					for (c.opts2 = 0; c.opts2 < NOPT; c.opts2++) {
						int i = cell_index(&c);
						matrix[i] = try_cell(&c, (uint16_t)(BIND_PORT + i));
						setup_failed |= matrix[i] < 0;
						cell_name(name, sizeof(name), &c);
						observe(ctx, name, matrix[i]);
					}
	return setup_failed;
}

static void run_bind(struct aw_ctx *ctx)
{
	const uint16_t port3 = BIND_PORT + NCELLS;

	if (!net_setup(ctx))
		return;
	bool setup_failed = run_cells(ctx);
	observe(ctx, "bind3.v4_any.v6_any_v6only.v4_lo",
		triple(A_V4_ANY, A_V6_ANY_V6ONLY, A_V4_LO, port3));
	observe(ctx, "bind3.mapped_any.v6_any_v6only.v4_lo",
		triple(A_MAPPED_ANY, A_V6_ANY_V6ONLY, A_V4_LO, port3 + 1));
	observe(ctx, "bind3.v4_any.v6_any_v6only.mapped_lo",
		triple(A_V4_ANY, A_V6_ANY_V6ONLY, A_MAPPED_LO, port3 + 2));
	timewait(ctx);
	if (setup_failed)
		aw_error_rest(ctx, "a first socket could not be set up (see the cells in error)");
	else
		checks(ctx);
}

static const char *const bind_tags[] = {
	"linux-git:28044fc1d495", "linux-git:ea111449501e", "linux-git:d91ef1e1b55f",
	"linux-git:936a192f9740",
	"man:ipv6(7)", "man:socket(7)", "man:bind(2)", NULL,
};

const struct aw_probe net_bind_probes[] = {
	{ .name = "bind", .summary = "TCP bind() conflicts of v4, v6 and v4-mapped addresses on one port",
	  .run = run_bind, .items = bind_items, .tags = bind_tags },
	AW_PROBES_END
};

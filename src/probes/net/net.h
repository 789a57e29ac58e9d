/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What the net family's files share: their probe tables, the network
 * namespace check every probe starts with, loopback, and the way a
 * result is written (a count in decimal or an errno name). */
#ifndef ABIWATCH_NET_H
#define ABIWATCH_NET_H

#include "core/probe.h"

#include <stdbool.h>
#include <netinet/in.h>
#include <sys/socket.h>

#define NET_HELPER "abiwatch-net-m32"

extern const struct aw_probe net_bind_probes[], net_listen_probes[], net_sockbuf_probes[],
	net_unix_probes[], net_tcp_probes[], net_udp_probes[], net_compat32_probes[],
	net_initns_probes[];

/* Make sure the calling process is in a network namespace other than the
 * one abiwatch runs in (the runner gives each probe one; a probe never
 * touches the host's) and bring its loopback up, so that 127.0.0.1 and
 * ::1 answer.  True when that holds; else every item of the probe is
 * skipped (or an error) with the reason, and the probe must return. */
bool net_setup(struct aw_ctx *ctx);

/* The text of a call's result: rc in decimal when rc >= 0, else the name
 * of err ("EADDRINUSE").  In buf, which must hold NET_RES_LEN. */
#define NET_RES_LEN 32
const char *net_res(char buf[NET_RES_LEN], long long rc, int err);
/* Observe obs as net_res() writes rc with the errno of the call that has
 * just returned rc. */
void net_observe_rc(struct aw_ctx *ctx, const char *obs, long long rc);

/* An int socket option: its value, or -errno. */
long long net_getsockopt_int(int fd, int level, int opt);

/* Wait (up to timeout_ms, a bound for a broken kernel, never the answer)
 * until fd has one of events: the revents, 0 when the bound passed, or
 * -errno. */
int net_wait(int fd, short events, int timeout_ms);

/* A connected TCP pair over 127.0.0.1: the client and the accepted
 * server socket, both blocking.  0 or -errno. */
int net_tcp_pair(int *client, int *server);

/* The port the probes use: nothing else listens in their namespace. */
#define NET_PORT 47000

#endif

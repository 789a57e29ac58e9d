// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * surface.sockets: which socket(2) families, types and protocols the
 * kernel has, and which SOL_SOCKET options each family's sockets answer,
 * so that a family or protocol that appears or vanishes (DCCP, removed in
 * 6.16; MPTCP's IPPROTO_MPTCP, 5.6; a family a distribution stops
 * building) is one diff line.  Who breaks: servers and libraries that
 * open a protocol at start-up without a fallback (SCTP users such as
 * Diameter and SIGTRAN stacks, MPTCP-aware proxies, systemd's socket
 * units, ping(8) through ICMP ping sockets), and container runtimes whose
 * policies list families (socket(2), address_families(7), the kernel's
 * include/linux/socket.h for the numbers, include/uapi/linux/in.h for
 * the protocols).
 *
 *   socket.AF.TYPE            socket(AF, TYPE | SOCK_CLOEXEC, 0): "ok" or
 *                             the errno (EAFNOSUPPORT: no such family;
 *                             ESOCKTNOSUPPORT, EPROTONOSUPPORT, EINVAL:
 *                             the family has not that type; EPERM,
 *                             EACCES: privilege, ping_group_range)
 *   socket.AF.TYPE.PROTOCOL   the same with a named protocol
 *   socket.other_families     families above the named ones (to 63)
 *                             that do not answer EAFNOSUPPORT
 *   sockopt.AF.socket         the socket sockopt.AF.accepted was asked
 *                             of: the first type of stream, dgram,
 *                             seqpacket, raw, rdm the family makes
 *   sockopt.AF.accepted       getsockopt(SOL_SOCKET, N) for N 1..99: the
 *                             options that answer (anything but
 *                             ENOPROTOOPT), by name (asm-generic/socket.h)
 *   unpriv.refused            the sockets root made that a child which
 *                             became nobody is refused, each with its
 *                             errno: raw and packet sockets need
 *                             CAP_NET_RAW (net/ipv4/af_inet.c
 *                             inet_create(), net/packet/af_packet.c
 *                             packet_create()), ping sockets a group of
 *                             ping_group_range (net/ipv4/ping.c
 *                             ping_init_sock())
 *
 * Every socket is closed at once; all live in the probe's own network
 * namespace (the runner gives each probe one), so no address, route or
 * binding reaches the host.  What a namespace does not hold is a module:
 * socket() of a family or protocol whose module is not loaded asks the
 * host's modprobe for "net-pf-N" (net/socket.c, __sock_create()) or
 * "net-pf-N-proto-P[-type-T]" (net/ipv4/af_inet.c, net/ipv6/af_inet6.c,
 * net/netlink/af_netlink.c), and the module then stays loaded on the
 * host.  So outside the VM guest a socket whose alias modules.alias
 * lists, for a module /proc/modules does not show, is not made: a skip
 * that names the module (a kernel without modules, or whose module is
 * loaded or built in, is asked everything).  In the VM guest, a machine
 * thrown away after the run, the modules are carried (needs.modules) and
 * loaded on demand as an installed machine would.
 */
#include "surface.h"
#include "lib/caps.h"
#include "lib/child.h"
#include "lib/errname.h"
#include "lib/procfs.h"
#include "lib/util.h"

#include <errno.h>
#include <fnmatch.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/utsname.h>
#include <unistd.h>

/* AF(name, number): the families of include/linux/socket.h (6.18). */
#define SOCKET_FAMILIES(AF)                                                                          \
	AF(af_unix, 1) AF(af_inet, 2) AF(af_ax25, 3) AF(af_ipx, 4) AF(af_appletalk, 5)                 \
	AF(af_netrom, 6) AF(af_bridge, 7) AF(af_atmpvc, 8) AF(af_x25, 9) AF(af_inet6, 10)              \
	AF(af_rose, 11) AF(af_decnet, 12) AF(af_netbeui, 13) AF(af_security, 14) AF(af_key, 15)        \
	AF(af_netlink, 16) AF(af_packet, 17) AF(af_ash, 18) AF(af_econet, 19) AF(af_atmsvc, 20)        \
	AF(af_rds, 21) AF(af_sna, 22) AF(af_irda, 23) AF(af_pppox, 24) AF(af_wanpipe, 25)              \
	AF(af_llc, 26) AF(af_ib, 27) AF(af_mpls, 28) AF(af_can, 29) AF(af_tipc, 30)                    \
	AF(af_bluetooth, 31) AF(af_iucv, 32) AF(af_rxrpc, 33) AF(af_isdn, 34) AF(af_phonet, 35)        \
	AF(af_ieee802154, 36) AF(af_caif, 37) AF(af_alg, 38) AF(af_nfc, 39) AF(af_vsock, 40)           \
	AF(af_kcm, 41) AF(af_qipcrtr, 42) AF(af_smc, 43) AF(af_xdp, 44) AF(af_mctp, 45)

/* T(name, number): the types tried with protocol 0. */
#define SOCKET_TYPES(T) T(sock_stream, 1) T(sock_dgram, 2) T(sock_seqpacket, 5) T(sock_raw, 3) T(sock_rdm, 4)

/* P(family, type, protocol name, family number, type number, protocol
 * number): the named protocols (include/uapi/linux/in.h, in6.h,
 * netlink.h), with the version that brought the newer ones. */
#define SOCKET_PROTOCOLS(P)                                                                          \
	P(af_inet, sock_stream, ipproto_tcp, 2, 1, 6) P(af_inet, sock_dgram, ipproto_udp, 2, 2, 17)    \
	P(af_inet, sock_dgram, ipproto_udplite, 2, 2, 136) P(af_inet, sock_stream, ipproto_sctp, 2, 1, 132) \
	P(af_inet, sock_seqpacket, ipproto_sctp, 2, 5, 132) P(af_inet, sock_stream, ipproto_mptcp, 2, 1, 262) \
	P(af_inet, sock_dgram, ipproto_icmp, 2, 2, 1) P(af_inet, sock_raw, ipproto_icmp, 2, 3, 1)      \
	P(af_inet, sock_dccp, ipproto_dccp, 2, 6, 33) P(af_inet, sock_raw, ipproto_raw, 2, 3, 255)     \
	P(af_inet6, sock_stream, ipproto_tcp, 10, 1, 6) P(af_inet6, sock_dgram, ipproto_udp, 10, 2, 17) \
	P(af_inet6, sock_dgram, ipproto_udplite, 10, 2, 136) P(af_inet6, sock_stream, ipproto_sctp, 10, 1, 132) \
	P(af_inet6, sock_seqpacket, ipproto_sctp, 10, 5, 132) P(af_inet6, sock_stream, ipproto_mptcp, 10, 1, 262) \
	P(af_inet6, sock_dgram, ipproto_icmpv6, 10, 2, 58) P(af_inet6, sock_raw, ipproto_icmpv6, 10, 3, 58) \
	P(af_inet6, sock_dccp, ipproto_dccp, 10, 6, 33)                                                \
	P(af_netlink, sock_raw, netlink_route, 16, 3, 0) P(af_netlink, sock_raw, netlink_usersock, 16, 3, 2) \
	P(af_netlink, sock_raw, netlink_sock_diag, 16, 3, 4) P(af_netlink, sock_raw, netlink_nflog, 16, 3, 5) \
	P(af_netlink, sock_raw, netlink_xfrm, 16, 3, 6) P(af_netlink, sock_raw, netlink_selinux, 16, 3, 7) \
	P(af_netlink, sock_raw, netlink_iscsi, 16, 3, 8) P(af_netlink, sock_raw, netlink_audit, 16, 3, 9) \
	P(af_netlink, sock_raw, netlink_fib_lookup, 16, 3, 10) P(af_netlink, sock_raw, netlink_connector, 16, 3, 11) \
	P(af_netlink, sock_raw, netlink_netfilter, 16, 3, 12) P(af_netlink, sock_raw, netlink_kobject_uevent, 16, 3, 15) \
	P(af_netlink, sock_raw, netlink_generic, 16, 3, 16) P(af_netlink, sock_raw, netlink_scsitransport, 16, 3, 18) \
	P(af_netlink, sock_raw, netlink_rdma, 16, 3, 20) P(af_netlink, sock_raw, netlink_crypto, 16, 3, 21) \
	P(af_netlink, sock_raw, netlink_smc, 16, 3, 22)

/* The SOL_SOCKET options by number (include/uapi/asm-generic/socket.h;
 * 81 to 84 came in 6.13 to 6.18), the old time_t forms by their _OLD
 * names; 54 and 58 are control-message types only. */
static const char *const sockopt_names[] = {
	[1] = "SO_DEBUG", "SO_REUSEADDR", "SO_TYPE", "SO_ERROR", "SO_DONTROUTE", "SO_BROADCAST",
	"SO_SNDBUF", "SO_RCVBUF", "SO_KEEPALIVE", "SO_OOBINLINE", "SO_NO_CHECK", "SO_PRIORITY",
	"SO_LINGER", "SO_BSDCOMPAT", "SO_REUSEPORT", "SO_PASSCRED", "SO_PEERCRED", "SO_RCVLOWAT",
	"SO_SNDLOWAT", "SO_RCVTIMEO_OLD", "SO_SNDTIMEO_OLD", "SO_SECURITY_AUTHENTICATION",
	"SO_SECURITY_ENCRYPTION_TRANSPORT", "SO_SECURITY_ENCRYPTION_NETWORK", "SO_BINDTODEVICE",
	"SO_GET_FILTER", "SO_DETACH_FILTER", "SO_PEERNAME", "SO_TIMESTAMP_OLD", "SO_ACCEPTCONN",
	"SO_PEERSEC", "SO_SNDBUFFORCE", "SO_RCVBUFFORCE", "SO_PASSSEC", "SO_TIMESTAMPNS_OLD", "SO_MARK",
	"SO_TIMESTAMPING_OLD", "SO_PROTOCOL", "SO_DOMAIN", "SO_RXQ_OVFL", "SO_WIFI_STATUS", "SO_PEEK_OFF",
	"SO_NOFCS", "SO_LOCK_FILTER", "SO_SELECT_ERR_QUEUE", "SO_BUSY_POLL", "SO_MAX_PACING_RATE",
	"SO_BPF_EXTENSIONS", "SO_INCOMING_CPU", "SO_ATTACH_BPF", "SO_ATTACH_REUSEPORT_CBPF",
	"SO_ATTACH_REUSEPORT_EBPF", "SO_CNX_ADVICE", "SCM_TIMESTAMPING_OPT_STATS", "SO_MEMINFO",
	"SO_INCOMING_NAPI_ID", "SO_COOKIE", "SCM_TIMESTAMPING_PKTINFO", "SO_PEERGROUPS", "SO_ZEROCOPY",
	"SO_TXTIME", "SO_BINDTOIFINDEX", "SO_TIMESTAMP_NEW", "SO_TIMESTAMPNS_NEW", "SO_TIMESTAMPING_NEW",
	"SO_RCVTIMEO_NEW", "SO_SNDTIMEO_NEW", "SO_DETACH_REUSEPORT_BPF", "SO_PREFER_BUSY_POLL",
	"SO_BUSY_POLL_BUDGET", "SO_NETNS_COOKIE", "SO_BUF_LOCK", "SO_RESERVE_MEM", "SO_TXREHASH",
	"SO_RCVMARK", "SO_PASSPIDFD", "SO_PEERPIDFD", "SO_DEVMEM_LINEAR", "SO_DEVMEM_DMABUF",
	"SO_DEVMEM_DONTNEED", "SCM_TS_OPT_ID", "SO_RCVPRIORITY", "SO_PASSRIGHTS", "SO_INQ",
};
#define SOCKOPT_MAX 99

/* A family or a type: its uapi name and number. */
struct named_nr {
	const char *name;
	int nr;
};
#define NAMED_ROW(n, nr) { #n, nr },
static const struct named_nr families[] = { SOCKET_FAMILIES(NAMED_ROW) };
#define FAMILY_MAX 63
static const struct named_nr types[] = { SOCKET_TYPES(NAMED_ROW) };

struct protocol {
	const char *family, *type, *name;
	int family_nr, type_nr, nr;
};
#define PROTO_ROW(f, t, p, fnr, tnr, pnr) { #f, #t, #p, fnr, tnr, pnr },
static const struct protocol protocols[] = { SOCKET_PROTOCOLS(PROTO_ROW) };

static const char *const socket_absent[] = { "EAFNOSUPPORT", "EPROTONOSUPPORT", "ESOCKTNOSUPPORT",
					     "EINVAL", "EPROTOTYPE", NULL };
static const char *const sockopt_absent[] = { "none made", NULL };

#define TYPE_ITEM(f, t)                                                                              \
	AW_OBS_ITEM("socket." #f "." #t, "socket(" #f ", " #t ", 0): ok or the errno",            \
		    .change = "an errno -> ok: the family has the type now; ok -> an errno: programs opening it fail", \
		    .object = "socket." #f, .absent = socket_absent),
#define FAMILY_TYPES(f, nr) TYPE_ITEM(f, sock_stream) TYPE_ITEM(f, sock_dgram) TYPE_ITEM(f, sock_seqpacket) \
	TYPE_ITEM(f, sock_raw) TYPE_ITEM(f, sock_rdm)
#define PROTO_ITEM(f, t, p, fnr, tnr, pnr)                                                           \
	AW_OBS_ITEM("socket." #f "." #t "." #p, "socket(" #f ", " #t ", " #p "): ok or the errno",   \
		    .change = "an errno -> ok: the protocol appeared; ok -> an errno: its users fail to open it", \
		    .object = "socket." #f, .absent = socket_absent),
#define SOCKOPT_ITEMS(f, nr)                                                                         \
	AW_OBS_ITEM("sockopt." #f ".socket", "the socket of " #f " sockopt." #f ".accepted was asked of (its type), or none made", \
		    .object = "sockopt." #f, .absent = sockopt_absent),                                    \
	AW_OBS_ITEM("sockopt." #f ".accepted", "the SOL_SOCKET options getsockopt answers on a socket of " #f " (anything but ENOPROTOOPT), by name", \
		    .change = "a socket option appeared (or vanished) for the family: programs setting it get ENOPROTOOPT where it is missing", \
		    .object = "sockopt." #f, .absent = sockopt_absent),

/* The modules of Debian's cloud kernels (6.1, 6.12) that socket() of a
 * family or protocol of the tables loads on demand ("net-pf-N" and
 * "net-pf-N-proto-P" are their aliases): the VM guest carries them and
 * its modprobe loads them when asked, as an installed machine would. */
static const char *const sockets_modules[] = {
	"sctp", "dccp_ipv4", "dccp_ipv6", "tipc", "rds", "vsock", "af_key", "kcm", "smc", "af_alg",
	"nfnetlink", "nfnetlink_log", "xfrm_user", "crypto_user", "scsi_transport_iscsi", NULL,
};

static const struct aw_item sockets_items[] = {
	SOCKET_FAMILIES(FAMILY_TYPES)
	SOCKET_PROTOCOLS(PROTO_ITEM)
	AW_OBS_ITEM("socket.other_families", "families numbered above the named ones (to 63) that socket() does not answer EAFNOSUPPORT, with the type that made a socket (none: none)",
		    .change = "a new address family appeared that this table does not name yet"),
	SOCKET_FAMILIES(SOCKOPT_ITEMS)
	AW_OBS_ITEM("unpriv.refused", "the sockets root made that a child which became nobody (every capability cleared) is refused, as FAMILY.TYPE[.PROTOCOL]:ERRNO (none: none)",
		    .change = "a socket an unprivileged program could open is refused now, or the other way round: "
			      "ping(8) without setuid, rootless containers' networking, packet capture as a user",
		    .object = "socket.unpriv"),
	AW_ITEMS_END
};

/* ---- modules a socket() would load on the host ---- */

struct modules {
	bool checked;  /* the kernel has modules: /proc/modules exists */
	char *alias;   /* modules.alias of the running kernel, or NULL */
	char *loaded;  /* /proc/modules */
};

static void modules_load(struct modules *m)
{
	size_t len;
	memset(m, 0, sizeof(*m));
	if (aw_file_slurp("/proc/modules", &m->loaded, &len) != 0)
		return; /* no module support: nothing can be loaded */
	m->checked = true;
	struct utsname u;
	if (uname(&u) == 0) {
		char *path = xasprintf("/lib/modules/%s/modules.alias", u.release);
		if (aw_file_slurp(path, &m->alias, &len) != 0)
			m->alias = NULL;
		free(path);
	}
}

static void modules_free(struct modules *m)
{
	free(m->alias);
	free(m->loaded);
}

/* Whether /proc/modules lists module (its "-" and "_" alike). */
static bool module_loaded(const struct modules *m, const char *module)
{
	size_t len = strlen(module);
	for (const char *line = m->loaded; line && *line;) {
		bool same = true;
		for (size_t i = 0; i < len && same; i++) {
			char a = line[i] == '-' ? '_' : line[i], b = module[i] == '-' ? '_' : module[i];
			same = a == b;
		}
		if (same && line[len] == ' ')
			return true;
		const char *nl = strchr(line, '\n');
		line = nl ? nl + 1 : NULL;
	}
	return false;
}

/* The module modules.alias gives for alias that is not loaded (malloc'd),
 * or NULL: none, or loaded already. */
static char *module_to_load(const struct modules *m, const char *alias)
{
	for (const char *line = m->alias; line && *line;) {
		const char *nl = strchr(line, '\n');
		size_t l = nl ? (size_t)(nl - line) : strlen(line);
		char pat[256], mod[128];
		char *entry = strndup(line, l);
		if (entry && sscanf(entry, "alias %255s %127s", pat, mod) == 2 && fnmatch(pat, alias, 0) == 0 &&
		    !module_loaded(m, mod)) {
			free(entry);
			return xstrdup(mod);
		}
		free(entry);
		line = nl ? nl + 1 : NULL;
	}
	return NULL;
}

/* Why socket(family, type, protocol) is not made here: it would load a
 * module on the host (malloc'd), or NULL. */
static char *would_load(const struct modules *m, int family, int type, int protocol)
{
	if (!m->checked)
		return NULL;
	char aliases[3][64];
	int n = 0;
	snprintf(aliases[n++], sizeof(aliases[0]), "net-pf-%d", family);
	if (protocol) {
		snprintf(aliases[n++], sizeof(aliases[0]), "net-pf-%d-proto-%d-type-%d", family, protocol, type);
		snprintf(aliases[n++], sizeof(aliases[0]), "net-pf-%d-proto-%d", family, protocol);
	}
	for (int i = 0; i < n; i++) {
		char *mod = module_to_load(m, aliases[i]);
		if (mod) {
			char *why = xasprintf("socket() would load module %s (%s in modules.alias, not in /proc/modules) "
					      "on the host, which abiwatch leaves as it was", mod, aliases[i]);
			free(mod);
			return why;
		}
	}
	return NULL;
}

/* ---- the sweep ---- */

#define NFAMILIES AW_ARRAY_SIZE(families)
#define NTYPES AW_ARRAY_SIZE(types)
#define NPROTOCOLS AW_ARRAY_SIZE(protocols)

/* Which sockets root made (the unprivileged sweep asks those again) and,
 * in memory shared with that child, the errno each gave it (0: made). */
struct made {
	bool type[NFAMILIES][NTYPES], protocol[NPROTOCOLS];
};
struct unpriv_answers {
	int type[NFAMILIES][NTYPES], protocol[NPROTOCOLS];
};

/* 0 and the socket, or the errno. */
static int make_socket(int family, int type, int protocol, int *fd)
{
	*fd = socket(family, type | SOCK_CLOEXEC, protocol);
	return *fd < 0 ? errno : 0;
}

static int try_socket(int family, int type, int protocol)
{
	int fd;
	int rc = make_socket(family, type, protocol, &fd);
	if (rc == 0)
		close(fd);
	return rc;
}

static bool observe_socket(struct aw_ctx *ctx, const struct modules *m, const char *item, int family, int type,
			   int protocol, bool guest)
{
	char *why = guest ? NULL : would_load(m, family, type, protocol);
	if (why) {
		aw_skip(ctx, item, "%s", why);
		free(why);
		return false;
	}
	int rc = try_socket(family, type, protocol);
	aw_observe(ctx, item, "%s", rc ? aw_errname(rc) : "ok");
	return rc == 0;
}

/* getsockopt(SOL_SOCKET, N) for every N on fd: the names that answer. */
static void observe_sockopts(struct aw_ctx *ctx, const char *item, int fd)
{
	char list[4096] = "";
	for (int opt = 1; opt <= SOCKOPT_MAX; opt++) {
		unsigned char buf[512];
		socklen_t len = sizeof(buf);
		if (getsockopt(fd, SOL_SOCKET, opt, buf, &len) != 0 && errno == ENOPROTOOPT)
			continue;
		char num[16];
		const char *name = (size_t)opt < AW_ARRAY_SIZE(sockopt_names) && sockopt_names[opt] ? sockopt_names[opt] : NULL;
		if (!name) {
			snprintf(num, sizeof(num), "%d", opt);
			name = num;
		}
		size_t l = strlen(list);
		snprintf(list + l, sizeof(list) - l, "%s%s", l ? "," : "", name);
	}
	aw_observe(ctx, item, "%s", *list ? list : "none");
}

static void observe_family(struct aw_ctx *ctx, const struct modules *m, const struct named_nr *f, bool guest,
			   bool made[NTYPES])
{
	char item[96];
	const struct named_nr *first = NULL;
	char *why = guest ? NULL : would_load(m, f->nr, 0, 0);
	for (size_t t = 0; t < AW_ARRAY_SIZE(types); t++) {
		snprintf(item, sizeof(item), "socket.%s.%s", f->name, types[t].name);
		if (why) {
			aw_skip(ctx, item, "%s", why);
			continue;
		}
		int rc = try_socket(f->nr, types[t].nr, 0);
		aw_observe(ctx, item, "%s", rc ? aw_errname(rc) : "ok");
		made[t] = rc == 0;
		if (rc == 0 && !first)
			first = &types[t];
	}
	char sock_item[96], opt_item[96];
	snprintf(sock_item, sizeof(sock_item), "sockopt.%s.socket", f->name);
	snprintf(opt_item, sizeof(opt_item), "sockopt.%s.accepted", f->name);
	if (why) {
		aw_skip(ctx, sock_item, "%s", why);
		aw_skip(ctx, opt_item, "%s", why);
		free(why);
		return;
	}
	int fd;
	if (!first || make_socket(f->nr, first->nr, 0, &fd) != 0) {
		aw_observe(ctx, sock_item, "none made");
		aw_observe(ctx, opt_item, "none made");
		return;
	}
	aw_observe(ctx, sock_item, "%s", first->name);
	observe_sockopts(ctx, opt_item, fd);
	close(fd);
}

static void observe_other_families(struct aw_ctx *ctx, const struct modules *m, bool guest)
{
	char list[512] = "";
	for (int nr = families[AW_ARRAY_SIZE(families) - 1].nr + 1; nr <= FAMILY_MAX; nr++) {
		char *why = guest ? NULL : would_load(m, nr, 0, 0);
		if (why) {
			aw_note(ctx, "family %d: %s", nr, why);
			free(why);
			continue;
		}
		for (size_t t = 0; t < AW_ARRAY_SIZE(types); t++) {
			int rc = try_socket(nr, types[t].nr, 0);
			if (rc == EAFNOSUPPORT)
				break;
			if (rc == 0) {
				size_t l = strlen(list);
				snprintf(list + l, sizeof(list) - l, "%s%d:%s", l ? "," : "", nr, types[t].name);
				break;
			}
		}
	}
	aw_observe(ctx, "socket.other_families", "%s", *list ? list : "none");
}

/* ---- the same sockets as nobody ---- */

struct unpriv_child {
	const struct made *made;
	struct unpriv_answers *answers; /* shared */
};

static int unpriv_child(void *arg)
{
	struct unpriv_child *c = arg;
	for (size_t f = 0; f < NFAMILIES; f++)
		for (size_t t = 0; t < NTYPES; t++)
			if (c->made->type[f][t])
				c->answers->type[f][t] = try_socket(families[f].nr, types[t].nr, 0);
	for (size_t i = 0; i < NPROTOCOLS; i++)
		if (c->made->protocol[i])
			c->answers->protocol[i] = try_socket(protocols[i].family_nr, protocols[i].type_nr, protocols[i].nr);
	return 0;
}

static void add_refusal(char **list, const char *name, int err)
{
	char *next = xasprintf("%s%s%s:%s", *list, **list ? "," : "", name, aw_errname(err));
	free(*list);
	*list = next;
}

/* Only what root made is asked again, so that the child loads no module
 * root's sweep did not (the family's is loaded by then). */
static char *refusals(const struct made *made, const struct unpriv_answers *a)
{
	char *list = xstrdup(""), name[128];
	for (size_t f = 0; f < NFAMILIES; f++)
		for (size_t t = 0; t < NTYPES; t++)
			if (made->type[f][t] && a->type[f][t]) {
				snprintf(name, sizeof(name), "%s.%s", families[f].name, types[t].name);
				add_refusal(&list, name, a->type[f][t]);
			}
	for (size_t i = 0; i < NPROTOCOLS; i++)
		if (made->protocol[i] && a->protocol[i]) {
			const struct protocol *p = &protocols[i];
			snprintf(name, sizeof(name), "%s.%s.%s", p->family, p->type, p->name);
			add_refusal(&list, name, a->protocol[i]);
		}
	return list;
}

/* In the initial user namespace a child becomes nobody; in one of an
 * unprivileged run a plain child is unprivileged already, since socket()
 * asks for capabilities in the network namespace's owner. */
static void observe_unprivileged(struct aw_ctx *ctx, const struct made *made)
{
	struct unpriv_answers *answers = aw_shared_alloc(sizeof(*answers));
	struct unpriv_child c = { made, answers };
	int refused = 0;
	int st = !answers                 ? -ENOMEM
		 : aw_in_initial_userns() ? aw_child_run_as(AW_NOBODY, AW_NOBODY, unpriv_child, &c, 30000, &refused)
					  : aw_child_run(unpriv_child, &c, 30000);
	if (st == 0) {
		char *list = refusals(made, answers);
		aw_observe(ctx, "unpriv.refused", "%s", *list ? list : "none");
		free(list);
	} else {
		aw_error(ctx, "unpriv.refused", "the unprivileged child: %s",
			 refused ? aw_become_user_why(refused) : st < 0 ? aw_errname(-st) : "it did not end well");
	}
	if (answers)
		aw_shared_free(answers, sizeof(*answers));
}

static void sockets_run(struct aw_ctx *ctx)
{
	struct modules m;
	struct made made = { 0 };
	bool guest = aw_vm_guest(ctx);
	modules_load(&m);
	for (size_t i = 0; i < NFAMILIES; i++)
		observe_family(ctx, &m, &families[i], guest, made.type[i]);
	for (size_t i = 0; i < NPROTOCOLS; i++) {
		const struct protocol *p = &protocols[i];
		char item[128];
		snprintf(item, sizeof(item), "socket.%s.%s.%s", p->family, p->type, p->name);
		made.protocol[i] = observe_socket(ctx, &m, item, p->family_nr, p->type_nr, p->nr, guest);
	}
	observe_other_families(ctx, &m, guest);
	modules_free(&m);
	observe_unprivileged(ctx, &made);
}

static const char *const tags[] = { "man:socket(2)", "man:address_families(7)", "man:socket(7)", NULL };

const struct aw_probe surface_sockets_probes[] = {
	{
		.name = "sockets",
		.summary = "socket(2) for every address family, type and named protocol, and the SOL_SOCKET options each family answers",
		.run = sockets_run,
		.items = sockets_items,
		.needs = { .modules = sockets_modules },
		.tags = tags,
		.timeout_s = 60,
	},
	AW_PROBES_END,
};

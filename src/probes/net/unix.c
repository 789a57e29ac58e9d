// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * net.unix: AF_UNIX sockets as unix(7) describes them: the peer's
 * credentials (SO_PEERCRED), the peer's pidfd (SO_PEERPIDFD,
 * 7b26952a91cf) and pidfds passed with every message (SO_PASSPIDFD,
 * SCM_PIDFD, 5e2ff6704a27), both 6.5; the number of descriptors one
 * SCM_RIGHTS message may carry (SCM_MAX_FD, 253: more is EINVAL);
 * SCM_CREDENTIALS with SO_PASSCRED; autobind names ("\0" and five hex
 * digits, unix(7)) and abstract names up to the whole sun_path;
 * SOCK_SEQPACKET boundaries and MSG_TRUNC; MSG_PEEK with SO_PEEK_OFF
 * (socket(7)); and a datagram sender facing a full receiver, which
 * net.unix.max_dgram_qlen (per network namespace) bounds: with
 * MSG_DONTWAIT, EAGAIN; without it, the sender sleeps until the receiver
 * reads (unix(7)), which a child shows by sleeping in sendto().
 */
#include "net.h"
#include "lib/child.h"
#include "lib/errname.h"
#include "lib/procfs.h"

#include <ctype.h>
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <unistd.h>

#ifndef SO_PASSPIDFD
#define SO_PASSPIDFD 76
#endif
#ifndef SO_PEERPIDFD
#define SO_PEERPIDFD 77
#endif
#ifndef SCM_PIDFD
#define SCM_PIDFD 0x04
#endif

static const char *const absent_opt[] = { "ENOPROTOOPT", NULL };
static const char *const absent_cmsg[] = { "none", NULL };

static const struct aw_item unix_items[] = {
	AW_CHECK_ITEM("peercred", "unix(7): SO_PEERCRED of a socketpair() end gives the pid, uid "
		      "and gid of the process that made it"),
	AW_CHECK_ITEM("scm_credentials", "unix(7): with SO_PASSCRED, a message sent without "
		      "credentials arrives with SCM_CREDENTIALS of the sender"),
	AW_CHECK_ITEM("seqpacket.boundaries", "unix(7): SOCK_SEQPACKET keeps message boundaries: "
		      "two sends of 2 bytes are two reads of 2"),
	AW_OBS_ITEM("peerpidfd", "getsockopt(SO_PEERPIDFD) on a socketpair end (6.5): \"pidfd\" "
		    "when it gives a pidfd of the peer, else the errno", .absent = absent_opt, .object = "peerpidfd",
		    .change = "services authenticating peers by pidfd (dbus-broker, systemd) can use it, "
			      "or fall back to racy pids"),
	AW_OBS_ITEM("passpidfd", "setsockopt(SO_PASSPIDFD, 1) (6.5): 0 or the errno",
		    .absent = absent_opt, .object = "passpidfd"),
	AW_OBS_ITEM("passpidfd.cmsg", "the control messages a byte sent then carries, "
		    "with SO_PASSPIDFD set: SCM_PIDFD, or none", .absent = absent_cmsg,
		    .object = "passpidfd"),
	AW_OBS_ITEM("scm_rights.max", "the most descriptors one SCM_RIGHTS message carries "
		    "(SCM_MAX_FD: 253 since 2.6.38)", .unit = "fds",
		    .change = "programs passing many descriptors at once (fd-passing servers, "
			      "socket activation) get EINVAL, or may pass more"),
	AW_OBS_ITEM("scm_rights.over", "sendmsg() with one descriptor more than that"),
	AW_OBS_ITEM("autobind.len", "the address length getsockname() gives after an autobind "
		    "(bind with only sun_family): 2 + 1 + 5", .unit = "B", .object = "autobind"),
	AW_OBS_ITEM("autobind.form", "the autobind name's form: a NUL byte, then hex digits",
		    .object = "autobind",
		    .change = "programs parsing autobound names (ss, lsof, dbus) misread them"),
	AW_OBS_ITEM("abstract.full", "bind() of an abstract name filling the whole sun_path "
		    "(addrlen = sizeof(struct sockaddr_un)): 0 or the errno", .object = "abstract"),
	AW_OBS_ITEM("abstract.full.len", "getsockname()'s length for it", .unit = "B",
		    .object = "abstract"),
	AW_OBS_ITEM("abstract.over", "bind() with addrlen one byte beyond struct sockaddr_un",
		    .object = "abstract"),
	AW_OBS_ITEM("seqpacket.trunc", "recvmsg() of a 4-byte SOCK_SEQPACKET message into 1 byte: "
		    "the count returned and whether MSG_TRUNC is set", .object = "seqpacket"),
	AW_OBS_ITEM("peek_off.stream", "stream: SO_PEEK_OFF 0, 6 bytes sent, two MSG_PEEK of 3: "
		    "what the second peek reads", .object = "peek_off",
		    .change = "programs peeking at a stream in steps read the same bytes again, or not"),
	AW_OBS_ITEM("peek_off.dgram", "datagram: SO_PEEK_OFF 0, one 6-byte message, two MSG_PEEK "
		    "of 3: what the second peek reads", .object = "peek_off"),
	AW_OBS_ITEM("max_dgram_qlen", "net.unix.max_dgram_qlen in a fresh network namespace",
		    .unit = "messages"),
	AW_OBS_ITEM("dgram_full.sent", "1-byte datagrams a non-blocking sender connected to a bound "
		    "receiver that never reads gets in before a send fails", .unit = "messages",
		    .object = "dgram_full",
		    .change = "datagram producers (syslog clients) block or drop after another count"),
	AW_OBS_ITEM("dgram_full.errno", "the errno of that failing send (MSG_DONTWAIT)",
		    .object = "dgram_full",
		    .change = "a non-blocking sender to a full receiver gets another error"),
	AW_OBS_ITEM("dgram_full.blocking", "a blocking send to that full receiver: blocks (until the "
		    "receiver reads), sent at once, or the errno",
		    .object = "dgram_full",
		    .change = "loggers writing to /dev/log stall, or lose messages they expected to wait for"),
	AW_ITEMS_END
};

static int send_byte_with(int fd, int level, int type, const void *data, size_t len)
{
	char c = 'x';
	struct iovec iov = { .iov_base = &c, .iov_len = 1 };
	union {
		struct cmsghdr h;
		char buf[CMSG_SPACE(300 * sizeof(int))];
	} u;
	struct msghdr m = { .msg_iov = &iov, .msg_iovlen = 1 };
	if (data) {
		memset(&u, 0, sizeof(u));
		m.msg_control = u.buf;
		m.msg_controllen = CMSG_SPACE(len);
		struct cmsghdr *h = CMSG_FIRSTHDR(&m);
		h->cmsg_level = level;
		h->cmsg_type = type;
		h->cmsg_len = CMSG_LEN(len);
		memcpy(CMSG_DATA(h), data, len);
	}
	return sendmsg(fd, &m, MSG_DONTWAIT | MSG_NOSIGNAL) < 0 ? -errno : 0;
}

/* Receive one byte; close every descriptor that arrives; describe the
 * control messages (comma-separated names) into desc, and copy the first
 * SCM_CREDENTIALS into *cred when given. */
static int recv_describe(int fd, char *desc, size_t desclen, struct ucred *cred)
{
	char c;
	struct iovec iov = { .iov_base = &c, .iov_len = 1 };
	union {
		struct cmsghdr h;
		char buf[CMSG_SPACE(300 * sizeof(int)) + 256];
	} u;
	struct msghdr m = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = u.buf,
			    .msg_controllen = sizeof(u.buf) };
	size_t used = 0;

	desc[0] = '\0';
	if (recvmsg(fd, &m, MSG_DONTWAIT | MSG_CMSG_CLOEXEC) < 0)
		return -errno;
	for (struct cmsghdr *h = CMSG_FIRSTHDR(&m); h; h = CMSG_NXTHDR(&m, h)) {
		const char *name = "other";
		if (h->cmsg_level == SOL_SOCKET && h->cmsg_type == SCM_RIGHTS) {
			name = "SCM_RIGHTS";
			size_t n = (h->cmsg_len - CMSG_LEN(0)) / sizeof(int);
			for (size_t i = 0; i < n; i++) {
				int f;
				memcpy(&f, CMSG_DATA(h) + i * sizeof(int), sizeof(f));
				close(f);
			}
		} else if (h->cmsg_level == SOL_SOCKET && h->cmsg_type == SCM_CREDENTIALS) {
			name = "SCM_CREDENTIALS";
			if (cred)
				memcpy(cred, CMSG_DATA(h), sizeof(*cred));
		} else if (h->cmsg_level == SOL_SOCKET && h->cmsg_type == SCM_PIDFD) {
			name = "SCM_PIDFD";
			int f;
			memcpy(&f, CMSG_DATA(h), sizeof(f));
			close(f);
		}
		used += (size_t)snprintf(desc + used, used < desclen ? desclen - used : 0, "%s%s",
					 used ? "," : "", name);
	}
	if (!desc[0])
		snprintf(desc, desclen, "none");
	return 0;
}

static void creds(struct aw_ctx *ctx, int sv[2])
{
	struct ucred uc;
	socklen_t len = sizeof(uc);
	int one = 1;
	char desc[128];

	if (getsockopt(sv[0], SOL_SOCKET, SO_PEERCRED, &uc, &len) != 0)
		aw_fail(ctx, "peercred", "getsockopt(SO_PEERCRED): %s", aw_errname(errno));
	else
		aw_expect(ctx, "peercred", uc.pid == getpid() && uc.uid == geteuid() && uc.gid == getegid(),
			  "pid %d uid %u gid %u, expected %d %u %u", (int)uc.pid, uc.uid, uc.gid,
			  (int)getpid(), geteuid(), getegid());

	int pfd = -1;
	len = sizeof(pfd);
	if (getsockopt(sv[0], SOL_SOCKET, SO_PEERPIDFD, &pfd, &len) != 0)
		aw_observe(ctx, "peerpidfd", "%s", aw_errname(errno));
	else {
		aw_observe(ctx, "peerpidfd", pfd >= 0 ? "pidfd" : "no descriptor");
		if (pfd >= 0)
			close(pfd);
	}

	/* SCM_CREDENTIALS */
	memset(&uc, 0, sizeof(uc));
	if (setsockopt(sv[1], SOL_SOCKET, SO_PASSCRED, &one, sizeof(one)) != 0 ||
	    send_byte_with(sv[0], 0, 0, NULL, 0) != 0 || recv_describe(sv[1], desc, sizeof(desc), &uc) != 0)
		aw_fail(ctx, "scm_credentials", "SO_PASSCRED, send, recvmsg: %s", aw_errname(errno));
	else
		aw_expect(ctx, "scm_credentials", strstr(desc, "SCM_CREDENTIALS") && uc.pid == getpid() &&
			  uc.uid == geteuid(), "control messages %s, pid %d uid %u", desc, (int)uc.pid, uc.uid);
	one = 0;
	setsockopt(sv[1], SOL_SOCKET, SO_PASSCRED, &one, sizeof(one));

	one = 1;
	if (setsockopt(sv[1], SOL_SOCKET, SO_PASSPIDFD, &one, sizeof(one)) != 0) {
		aw_observe(ctx, "passpidfd", "%s", aw_errname(errno));
		aw_observe(ctx, "passpidfd.cmsg", "none");
	} else {
		aw_observe(ctx, "passpidfd", "0");
		if (send_byte_with(sv[0], 0, 0, NULL, 0) != 0 || recv_describe(sv[1], desc, sizeof(desc), NULL) != 0)
			aw_error(ctx, "passpidfd.cmsg", "send/recvmsg: %s", aw_errname(errno));
		else
			aw_observe(ctx, "passpidfd.cmsg", "%s", desc);
	}
}

static void rights(struct aw_ctx *ctx, int sv[2])
{
	int fds[300];
	char desc[128];
	int max = 0, over = 0;

	for (int i = 0; i < 300; i++)
		fds[i] = 0; /* stdin, sent again and again */
	for (int n = 250; n < 300; n++) {
		int rc = send_byte_with(sv[0], SOL_SOCKET, SCM_RIGHTS, fds, (size_t)n * sizeof(int));
		if (rc != 0) {
			over = -rc;
			break;
		}
		max = n;
		recv_describe(sv[1], desc, sizeof(desc), NULL);
	}
	aw_observe_long(ctx, "scm_rights.max", max);
	aw_observe(ctx, "scm_rights.over", "%s", over ? aw_errname(over) : "accepted up to 299");
}

static void names(struct aw_ctx *ctx)
{
	struct sockaddr_un a;
	socklen_t len = sizeof(a);
	int fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);

	memset(&a, 0, sizeof(a));
	a.sun_family = AF_UNIX;
	if (fd < 0 || bind(fd, (struct sockaddr *)&a, sizeof(sa_family_t)) != 0 ||
	    getsockname(fd, (struct sockaddr *)&a, &len) != 0) {
		aw_error(ctx, "autobind.len", "autobind: %s", aw_errname(errno));
		aw_error(ctx, "autobind.form", "autobind: %s", aw_errname(errno));
	} else {
		size_t n = len - offsetof(struct sockaddr_un, sun_path), hex = 0;
		aw_observe_long(ctx, "autobind.len", len);
		for (size_t i = 1; i < n && isxdigit((unsigned char)a.sun_path[i]); i++)
			hex++;
		if (n >= 1 && a.sun_path[0] == '\0' && hex == n - 1)
			aw_observe(ctx, "autobind.form", "NUL + %zu hex digits", hex);
		else
			aw_observe(ctx, "autobind.form", "other (%zu bytes)", n);
	}
	if (fd >= 0)
		close(fd);

	struct { struct sockaddr_un a; char extra[8]; } big;
	memset(&big, 'a', sizeof(big));
	big.a.sun_family = AF_UNIX;
	big.a.sun_path[0] = '\0';
	fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	int rc = fd < 0 ? -1 : bind(fd, (struct sockaddr *)&big.a, sizeof(struct sockaddr_un));
	net_observe_rc(ctx, "abstract.full", rc);
	len = sizeof(big);
	if (rc == 0 && getsockname(fd, (struct sockaddr *)&big, &len) == 0)
		aw_observe_long(ctx, "abstract.full.len", len);
	else
		aw_unobserved(ctx, "abstract.full.len", "the bind failed");
	if (fd >= 0)
		close(fd);
	memset(&big, 'b', sizeof(big));
	big.a.sun_family = AF_UNIX;
	big.a.sun_path[0] = '\0';
	fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	rc = fd < 0 ? -1 : bind(fd, (struct sockaddr *)&big.a, sizeof(struct sockaddr_un) + 1);
	net_observe_rc(ctx, "abstract.over", rc);
	if (fd >= 0)
		close(fd);
}

static void seqpacket(struct aw_ctx *ctx)
{
	int sv[2];
	char buf[16];

	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv) != 0) {
		aw_error(ctx, "seqpacket.boundaries", "socketpair: %s", aw_errname(errno));
		aw_error(ctx, "seqpacket.trunc", "socketpair: %s", aw_errname(errno));
		return;
	}
	ssize_t r1 = -1, r2 = -1;
	if (send(sv[0], "ab", 2, 0) == 2 && send(sv[0], "cd", 2, 0) == 2) {
		r1 = recv(sv[1], buf, sizeof(buf), MSG_DONTWAIT);
		r2 = recv(sv[1], buf, sizeof(buf), MSG_DONTWAIT);
	}
	aw_expect(ctx, "seqpacket.boundaries", r1 == 2 && r2 == 2, "reads of %zd and %zd bytes", r1, r2);
	struct iovec iov = { .iov_base = buf, .iov_len = 1 };
	struct msghdr m = { .msg_iov = &iov, .msg_iovlen = 1 };
	ssize_t r = send(sv[0], "wxyz", 4, 0) == 4 ? recvmsg(sv[1], &m, MSG_DONTWAIT) : -1;
	if (r < 0)
		aw_error(ctx, "seqpacket.trunc", "send/recvmsg: %s", aw_errname(errno));
	else
		aw_observe(ctx, "seqpacket.trunc", "%zd%s", r, (m.msg_flags & MSG_TRUNC) ? " MSG_TRUNC" : "");
	close(sv[0]);
	close(sv[1]);
}

static void peek_off(struct aw_ctx *ctx, const char *obs, int type)
{
	int sv[2], zero = 0;
	char a[4] = "", b[4] = "";

	if (socketpair(AF_UNIX, type | SOCK_CLOEXEC, 0, sv) != 0) {
		aw_error(ctx, obs, "socketpair: %s", aw_errname(errno));
		return;
	}
	if (setsockopt(sv[1], SOL_SOCKET, SO_PEEK_OFF, &zero, sizeof(zero)) != 0) {
		aw_observe(ctx, obs, "SO_PEEK_OFF %s", aw_errname(errno));
	} else if (send(sv[0], "abcdef", 6, 0) != 6) {
		aw_error(ctx, obs, "send: %s", aw_errname(errno));
	} else {
		ssize_t r1 = recv(sv[1], a, 3, MSG_PEEK | MSG_DONTWAIT);
		int e1 = errno;
		ssize_t r2 = recv(sv[1], b, 3, MSG_PEEK | MSG_DONTWAIT);
		int e2 = errno;
		if (r1 < 0)
			aw_observe(ctx, obs, "first peek %s", aw_errname(e1));
		else if (r2 < 0)
			aw_observe(ctx, obs, "%s", aw_errname(e2));
		else
			aw_observe(ctx, obs, "%.*s", (int)r2, b);
	}
	close(sv[0]);
	close(sv[1]);
}

/* How long the blocking sender may take to sleep, and then to end once
 * there is room: a bound against a kernel that never does. */
#define BLOCK_BOUND_MS 5000

static int blocking_send_child(void *arg)
{
	int fd = *(int *)arg;
	return send(fd, "x", 1, MSG_NOSIGNAL) == 1 ? 0 : errno & 0xff;
}

/* A blocking send on s, whose receiver r is full: "blocks" when the child
 * sleeps in sendto() until one datagram is read from r. */
static void observe_blocking_send(struct aw_ctx *ctx, int s, int r)
{
	pid_t pid = aw_child_start(blocking_send_child, &s);
	int rc = pid < 0 ? (int)pid : aw_wait_blocked(pid, SYS_sendto, BLOCK_BOUND_MS);
	if (pid < 0) {
		aw_error(ctx, "dgram_full.blocking", "fork: %s", aw_errname(-rc));
		return;
	}
	char c;
	bool blocked = rc == 0;
	if (blocked)
		(void)!recv(r, &c, 1, MSG_DONTWAIT);
	int status = aw_child_wait(pid, BLOCK_BOUND_MS);
	if (blocked && status == 0)
		aw_observe(ctx, "dgram_full.blocking", "blocks");
	else if (!blocked && status == 0)
		aw_observe(ctx, "dgram_full.blocking", "sent at once");
	else if (status > 0 && status < 128)
		aw_observe(ctx, "dgram_full.blocking", "%s", aw_errname(status));
	else
		aw_unobserved(ctx, "dgram_full.blocking", "the sender %s (status %d)",
			      blocked ? "blocked and never ended" : "neither blocked nor ended", status);
}

static void dgram_full(struct aw_ctx *ctx)
{
	struct sockaddr_un a = { .sun_family = AF_UNIX };
	socklen_t alen = offsetof(struct sockaddr_un, sun_path) + 1 + 15;
	long long q;
	int rc = aw_sysctl_read_ll("net.unix.max_dgram_qlen", &q);

	if (rc == 0)
		aw_observe_long(ctx, "max_dgram_qlen", q);
	else
		aw_unobserved(ctx, "max_dgram_qlen", "read: %s", aw_errname(-rc));
	memcpy(a.sun_path, "\0abiwatch-net-q", 16);
	int r = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	int s = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (r < 0 || s < 0 || bind(r, (struct sockaddr *)&a, alen) != 0 ||
	    connect(s, (struct sockaddr *)&a, alen) != 0) {
		aw_error(ctx, "dgram_full.sent", "setup: %s", aw_errname(errno));
		aw_error(ctx, "dgram_full.errno", "setup: %s", aw_errname(errno));
		aw_error(ctx, "dgram_full.blocking", "setup: %s", aw_errname(errno));
	} else {
		int n = 0, err = 0;
		while (n < 100000) {
			if (send(s, "x", 1, MSG_DONTWAIT) != 1) {
				err = errno;
				break;
			}
			n++;
		}
		aw_observe_long(ctx, "dgram_full.sent", n);
		aw_observe(ctx, "dgram_full.errno", "%s", err ? aw_errname(err) : "none in 100000");
		if (err == EAGAIN)
			observe_blocking_send(ctx, s, r);
		else
			aw_unobserved(ctx, "dgram_full.blocking", "the receiver never filled");
	}
	if (r >= 0)
		close(r);
	if (s >= 0)
		close(s);
}

static void run_unix(struct aw_ctx *ctx)
{
	int sv[2];

	if (!net_setup(ctx))
		return;
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0) {
		aw_error_rest(ctx, "socketpair: %s", aw_errname(errno));
		return;
	}
	creds(ctx, sv);
	close(sv[0]);
	close(sv[1]);
	if (socketpair(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0, sv) != 0) {
		aw_error_rest(ctx, "socketpair: %s", aw_errname(errno));
		return;
	}
	rights(ctx, sv);
	close(sv[0]);
	close(sv[1]);
	names(ctx);
	seqpacket(ctx);
	peek_off(ctx, "peek_off.stream", SOCK_STREAM);
	peek_off(ctx, "peek_off.dgram", SOCK_DGRAM);
	dgram_full(ctx);
}

static const char *const unix_tags[] = {
	"linux-git:7b26952a91cf", "linux-git:5e2ff6704a27", "man:unix(7)", "man:socket(7)", NULL,
};

const struct aw_probe net_unix_probes[] = {
	{ .name = "unix", .summary = "AF_UNIX credentials, pidfds, SCM_RIGHTS limit, names, seqpacket, peek offsets",
	  .run = run_unix, .items = unix_items, .tags = unix_tags },
	AW_PROBES_END
};

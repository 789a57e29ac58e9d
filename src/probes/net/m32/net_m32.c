// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * abiwatch-net-m32: the net family's 32-bit caller, built by the
 * Makefile's m32 rule (gcc -m32 -static) into build/m32/.  An i386
 * struct cmsghdr is 12 bytes with 4-byte alignment (CMSG_LEN(n) = 12 + n),
 * and the kernel's compat recvmsg/sendmsg (net/compat.c) translates it
 * from and to the 16-byte 64-bit layout: a wrong translation loses or
 * shifts the descriptors of SCM_RIGHTS.  SO_RCVTIMEO and SO_SNDTIMEO
 * take an 8-byte struct timeval on i386 (SO_*TIMEO_OLD, 20 and 21), and
 * since 5.1 (a9beb86ae6e5) also a 16-byte one of 64-bit fields
 * (SO_*TIMEO_NEW, 66 and 67), which y2038-safe C libraries use.  It
 * reports the compat32 probe's items as lines of the probe protocol on
 * stdout (lib/wire.h).
 */
#include "lib/errname.h"
#include "lib/wire.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

_Static_assert(sizeof(void *) == 4, "build with -m32: the point is the i386 layout");

#define SO_RCVTIMEO_OLD_ 20
#define SO_SNDTIMEO_OLD_ 21
#define SO_RCVTIMEO_NEW_ 66
#define SO_SNDTIMEO_NEW_ 67

struct tv32 {
	int32_t sec, usec;
};
struct tv64 {
	int64_t sec, usec;
};

static void rights(void)
{
	int sv[2];
	char c = 'x';
	struct iovec iov = { .iov_base = &c, .iov_len = 1 };
	union {
		struct cmsghdr h;
		char buf[64];
	} u;
	struct msghdr m = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = u.buf };
	int fds[2] = { 0, 1 };

	aw_out_observe("sizeof_cmsghdr", "%zu", sizeof(struct cmsghdr));
	if (socketpair(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0, sv) != 0) {
		aw_out_fail("scm_rights.roundtrip", "socketpair: %s", aw_errname(errno));
		aw_out_unobserved("scm_rights.cmsg_len", "socketpair: %s", aw_errname(errno));
		aw_out_unobserved("scm_credentials.cmsg_len", "socketpair: %s", aw_errname(errno));
		return;
	}
	memset(&u, 0, sizeof(u));
	m.msg_controllen = CMSG_SPACE(sizeof(fds));
	struct cmsghdr *h = CMSG_FIRSTHDR(&m);
	h->cmsg_level = SOL_SOCKET;
	h->cmsg_type = SCM_RIGHTS;
	h->cmsg_len = CMSG_LEN(sizeof(fds));
	memcpy(CMSG_DATA(h), fds, sizeof(fds));
	if (sendmsg(sv[0], &m, 0) != 1) {
		aw_out_fail("scm_rights.roundtrip", "sendmsg: %s", aw_errname(errno));
		aw_out_unobserved("scm_rights.cmsg_len", "sendmsg: %s", aw_errname(errno));
	} else {
		memset(&u, 0, sizeof(u));
		m.msg_controllen = sizeof(u.buf);
		if (recvmsg(sv[1], &m, MSG_DONTWAIT | MSG_CMSG_CLOEXEC) != 1) {
			aw_out_fail("scm_rights.roundtrip", "recvmsg: %s", aw_errname(errno));
			aw_out_unobserved("scm_rights.cmsg_len", "recvmsg: %s", aw_errname(errno));
		} else {
			h = CMSG_FIRSTHDR(&m);
			int got[2] = { -1, -1 };
			struct stat a, b;
			if (h && h->cmsg_type == SCM_RIGHTS && h->cmsg_len >= CMSG_LEN(sizeof(got)))
				memcpy(got, CMSG_DATA(h), sizeof(got));
			aw_out_observe("scm_rights.cmsg_len", "%u", h ? (unsigned)h->cmsg_len : 0U);
			bool same = got[0] >= 0 && got[1] >= 0 && fstat(got[0], &a) == 0 && fstat(0, &b) == 0 &&
				    a.st_ino == b.st_ino && a.st_dev == b.st_dev && fstat(got[1], &a) == 0 &&
				    fstat(1, &b) == 0 && a.st_ino == b.st_ino && a.st_dev == b.st_dev;
			aw_out_expect("scm_rights.roundtrip", same && !(m.msg_flags & MSG_CTRUNC),
				      "the two descriptors did not arrive as stdin and stdout (%d, %d, flags %#x)",
				      got[0], got[1], (unsigned)m.msg_flags);
			for (int i = 0; i < 2; i++)
				if (got[i] >= 0)
					close(got[i]);
		}
	}
	int one = 1;
	memset(&u, 0, sizeof(u));
	m.msg_control = u.buf;
	m.msg_controllen = sizeof(u.buf);
	if (setsockopt(sv[1], SOL_SOCKET, SO_PASSCRED, &one, sizeof(one)) != 0 || send(sv[0], "y", 1, 0) != 1 ||
	    recvmsg(sv[1], &m, MSG_DONTWAIT) != 1) {
		aw_out_unobserved("scm_credentials.cmsg_len", "SO_PASSCRED, send, recvmsg: %s", aw_errname(errno));
	} else {
		h = CMSG_FIRSTHDR(&m);
		aw_out_observe("scm_credentials.cmsg_len", "%u", h ? (unsigned)h->cmsg_len : 0U);
	}
	close(sv[0]);
	close(sv[1]);
}

/* item: an old option (8-byte timeval) set to t and read back. */
static void timeo_old(int fd, int opt, const char *item, struct tv32 t)
{
	struct tv32 back = { 0, 0 };
	socklen_t len = sizeof(back);
	if (setsockopt(fd, SOL_SOCKET, opt, &t, sizeof(t)) != 0 ||
	    getsockopt(fd, SOL_SOCKET, opt, &back, &len) != 0)
		aw_out_observe(item, "%s", aw_errname(errno));
	else
		aw_out_observe(item, "%u bytes: %d.%06d", (unsigned)len, back.sec, back.usec);
}

/* item: a new option (16-byte timeval) set to t, read back through its
 * old twin. */
static void timeo_new(int fd, int opt, int old_opt, const char *item, struct tv64 t)
{
	struct tv32 back = { 0, 0 };
	socklen_t len = sizeof(back);
	if (setsockopt(fd, SOL_SOCKET, opt, &t, sizeof(t)) != 0)
		aw_out_observe(item, "%s", aw_errname(errno));
	else if (getsockopt(fd, SOL_SOCKET, old_opt, &back, &len) != 0)
		aw_out_observe(item, "set; read back old: %s", aw_errname(errno));
	else
		aw_out_observe(item, "set; read back old: %u bytes: %d.%06d", (unsigned)len, back.sec,
			       back.usec);
}

static void timeo(void)
{
	static const char *const items[] = { "rcvtimeo.old", "rcvtimeo.new", "sndtimeo.old", "sndtimeo.new" };
	int sv[2];
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0) {
		int e = errno;
		for (size_t i = 0; i < sizeof(items) / sizeof(items[0]); i++)
			aw_out_unobserved(items[i], "socketpair: %s", aw_errname(e));
		return;
	}
	timeo_old(sv[0], SO_RCVTIMEO_OLD_, "rcvtimeo.old", (struct tv32){ 2, 500000 });
	timeo_new(sv[0], SO_RCVTIMEO_NEW_, SO_RCVTIMEO_OLD_, "rcvtimeo.new", (struct tv64){ 3, 500000 });
	timeo_old(sv[0], SO_SNDTIMEO_OLD_, "sndtimeo.old", (struct tv32){ 1, 0 });
	timeo_new(sv[0], SO_SNDTIMEO_NEW_, SO_SNDTIMEO_OLD_, "sndtimeo.new", (struct tv64){ 4, 500000 });
	close(sv[0]);
	close(sv[1]);
}

int main(int argc, char **argv)
{
	aw_helper_hello(argc, argv);
	rights();
	timeo();
	return 0;
}

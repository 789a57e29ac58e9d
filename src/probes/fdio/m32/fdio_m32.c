// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * abiwatch-fdio-m32: the fdio family's 32-bit caller, built by the
 * Makefile's m32 rule (gcc -m32 -static) into build/m32/.  An i386
 * struct epoll_event is {u32 events; u64 data} with the u64 4-byte
 * aligned: 12 bytes, which the x86-64 uapi header matches by packing, so
 * i386's epoll_ctl, epoll_wait and epoll_pwait are the native entry
 * points.  It watches two pipes with distinct 64-bit data values, makes
 * both ready and checks where epoll_wait writes the events: at offsets
 * 0 and 12, data intact at offsets 4 and 16, nothing beyond.  Then
 * epoll_pwait2 (441), whose timeout is a 16-byte __kernel_timespec on
 * i386 too.  It reports the epoll probe's compat32.* items, without the
 * prefix, as lines of the probe protocol on stdout (lib/wire.h).
 */
#include "lib/errname.h"
#include "lib/wire.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/syscall.h>
#include <unistd.h>

#define NR_EPOLL_PWAIT2 441
#define SENTINEL 0xa5

_Static_assert(sizeof(void *) == 4, "build with -m32: the point is the i386 layout");

static const uint64_t datum[2] = { 0x1122334455667788ULL, 0x8877665544332211ULL };

struct kernel_timespec64 {
	int64_t tv_sec;
	int64_t tv_nsec;
};

static uint64_t u64_at(const unsigned char *p)
{
	uint64_t v;
	memcpy(&v, p, sizeof(v));
	return v;
}

static uint32_t u32_at(const unsigned char *p)
{
	uint32_t v;
	memcpy(&v, p, sizeof(v));
	return v;
}

/* An epoll set with two ready pipes whose data are datum[]: the set, or
 * -errno. */
static int ready_set(int pipes[2][2])
{
	int ep = epoll_create1(EPOLL_CLOEXEC);
	if (ep < 0)
		return -errno;
	for (int i = 0; i < 2; i++) {
		struct epoll_event ev = { .events = EPOLLIN, .data.u64 = datum[i] };
		if (pipe2(pipes[i], O_CLOEXEC) != 0 || write(pipes[i][1], "r", 1) != 1 ||
		    epoll_ctl(ep, EPOLL_CTL_ADD, pipes[i][0], &ev) != 0)
			return -errno;
	}
	return ep;
}

static void layout(int ep)
{
	unsigned char buf[36];
	memset(buf, SENTINEL, sizeof(buf));
	long n = syscall(SYS_epoll_wait, ep, buf, 3, 0);
	int err = errno;
	bool in0 = u32_at(buf) == EPOLLIN, in1 = u32_at(buf + 12) == EPOLLIN;
	bool tail = true;
	for (size_t i = 24; i < sizeof(buf); i++)
		tail &= buf[i] == SENTINEL;
	aw_out_expect("stride", n == 2 && in0 && in1 && tail, "epoll_wait returned %ld (%s); "
		      "events at 0: %#x, at 12: %#x; bytes 24..35 %s", n, n < 0 ? aw_errname(err) : "-",
		      u32_at(buf), u32_at(buf + 12), tail ? "untouched" : "written");
	uint64_t a = u64_at(buf + 4), b = u64_at(buf + 16);
	bool both = (a == datum[0] && b == datum[1]) || (a == datum[1] && b == datum[0]);
	aw_out_expect("data_roundtrip", n == 2 && both, "data at 4: %#llx, at 16: %#llx",
		      (unsigned long long)a, (unsigned long long)b);
}

static void pwait2(int ep)
{
	unsigned char buf[36];
	struct kernel_timespec64 zero = { 0, 0 }, bad = { 0, 1000000000 };
	long n = syscall(NR_EPOLL_PWAIT2, ep, buf, 3, &zero, NULL, 0);
	if (n < 0)
		aw_out_observe("pwait2", "%s", aw_errname(errno));
	else
		aw_out_observe("pwait2", "%ld", n);
	n = syscall(NR_EPOLL_PWAIT2, ep, buf, 3, &bad, NULL, 0);
	if (n < 0)
		aw_out_observe("pwait2.bad_nsec", "%s", aw_errname(errno));
	else
		aw_out_observe("pwait2.bad_nsec", "%ld", n);
}

int main(int argc, char **argv)
{
	int pipes[2][2];

	aw_helper_hello(argc, argv);
	if (argc != 1) {
		fprintf(stderr, "usage: abiwatch-fdio-m32 [--hello]\n");
		return 2;
	}
	aw_out_observe("sizeof_epoll_event", "%zu", sizeof(struct epoll_event));
	int ep = ready_set(pipes);
	if (ep < 0) {
		const char *why = aw_errname(ep);
		aw_out_fail("stride", "setting up two ready pipes: %s", why);
		aw_out_fail("data_roundtrip", "setting up two ready pipes: %s", why);
		aw_out_unobserved("pwait2", "setting up: %s", why);
		aw_out_unobserved("pwait2.bad_nsec", "setting up: %s", why);
		return 1;
	}
	layout(ep);
	pwait2(ep);
	return 0;
}

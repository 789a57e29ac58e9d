// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * eventfd, timerfd and signalfd: the sizes a read or write must have and
 * the errors around them (eventfd(2), timerfd_create(2), signalfd(2)).
 * Two kinds of change hide here.  d31563b5f9bb (6.9) made eventfd's
 * write take exactly 8 bytes (a 16-byte write succeeded, using the first
 * 8).  timerfd and signalfd gained ->read_iter after 6.1, so readv(2)
 * with two small iovecs, which the kernel used to hand to ->read one
 * iovec at a time (each too small: EINVAL), now sees the whole length.
 * Every descriptor is non-blocking but for one read of a timer set in
 * the past, which returns on every kernel as soon as the timer fires.
 */
#include "fdio.h"
#include "lib/child.h"
#include "lib/errname.h"
#include "lib/proc.h"
#include "lib/procfs.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/signalfd.h>
#include <sys/timerfd.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

/* Observe what a create call with bad arguments gave, and close what
 * it may have made. */
static void observe_created(struct aw_ctx *ctx, const char *obs, int fd)
{
	fdio_observe_rc(ctx, obs, fd);
	if (fd >= 0)
		close(fd);
}

/* readv into two iovecs of half each: the bytes or -1 with errno. */
static ssize_t readv_halves(int fd, void *buf, size_t half)
{
	struct iovec iov[2] = { { buf, half }, { (char *)buf + half, half } };
	return readv(fd, iov, 2);
}

/* ---- eventfd ---- */

static const struct aw_item eventfd_items[] = {
	AW_CHECK_ITEM("sizes_documented", "read and write of fewer than 8 bytes fail with EINVAL, "
		      "a read of 16 returns 8 (eventfd(2))"),
	AW_CHECK_ITEM("limits_documented", "writing 2^64-1 fails with EINVAL; with the counter "
		      "at 2^64-2 a non-blocking write fails with EAGAIN (eventfd(2))"),
	AW_CHECK_ITEM("semaphore", "EFD_SEMAPHORE with counter 3: reads give 1, 1, 1, then "
		      "EAGAIN (eventfd(2))"),
	AW_OBS_ITEM("read_4", "read(efd, 4 bytes)"),
	AW_OBS_ITEM("read_empty", "non-blocking read(efd, 8) with the counter at 0"),
	AW_OBS_ITEM("read_16", "read(efd, 16 bytes) with the counter at 3"),
	AW_OBS_ITEM("readv_4_4", "readv(efd, {4, 4}) with the counter at 3"),
	AW_OBS_ITEM("write_4", "write(efd, 4 bytes)"),
	AW_OBS_ITEM("write_16", "write(efd, 16 bytes): 8 before d31563b5f9bb (6.9), then EINVAL",
		    .change = "programs writing a 16-byte buffer to an eventfd (a struct, a "
		    "padded value) fail with EINVAL"),
	AW_OBS_ITEM("writev_4_4", "writev(efd, {4, 4})"),
	AW_OBS_ITEM("write_max", "write(efd, 2^64-1)"),
	AW_OBS_ITEM("counter_max", "the counter read back after writing 2^64-2, hex"),
	AW_OBS_ITEM("write_over_max", "non-blocking write(efd, 1) with the counter at 2^64-2"),
	AW_OBS_ITEM("bad_flag", "eventfd(0, 1 << 5)"),
	AW_OBS_ITEM("fdinfo_keys", "the eventfd's own keys in /proc/self/fdinfo",
		    .change = "tools reading eventfd state from fdinfo find other fields"),
	AW_ITEMS_END
};

static ssize_t write_u64(int fd, uint64_t v)
{
	return write(fd, &v, sizeof(v));
}

static void eventfd_sizes(struct aw_ctx *ctx, int efd)
{
	uint64_t buf[2] = { 0, 0 };
	ssize_t r4 = read(efd, buf, 4);
	int e4 = errno;
	fdio_observe_res(ctx, "read_4", r4, e4);
	fdio_observe_rc(ctx, "read_empty", read(efd, buf, 8));
	ssize_t r16 = write_u64(efd, 3) == 8 ? read(efd, buf, 16) : -1;
	int e16 = errno;
	uint64_t got = buf[0];
	fdio_observe_res(ctx, "read_16", r16, e16);
	fdio_observe_rc(ctx, "readv_4_4", write_u64(efd, 3) == 8 ? readv_halves(efd, buf, 4) : -1);
	ssize_t w4 = write(efd, buf, 4);
	int ew4 = errno;
	fdio_observe_res(ctx, "write_4", w4, ew4);
	aw_expect(ctx, "sizes_documented", r4 == -1 && e4 == EINVAL && w4 == -1 && ew4 == EINVAL &&
		  r16 == 8 && got == 3, "read 4: %s, write 4: %s, read 16: %zd (value %llu)",
		  aw_errname(r4 < 0 ? e4 : 0), aw_errname(w4 < 0 ? ew4 : 0), r16,
		  (unsigned long long)got);
	buf[0] = 1;
	fdio_observe_rc(ctx, "write_16", write(efd, buf, 16));
	struct iovec iov[2] = { { buf, 4 }, { (char *)buf + 4, 4 } };
	fdio_observe_rc(ctx, "writev_4_4", writev(efd, iov, 2));
	(void)!read(efd, buf, 8); /* whatever a write left */
}

static void eventfd_limits(struct aw_ctx *ctx, int efd)
{
	uint64_t v = 0;
	ssize_t wmax = write_u64(efd, UINT64_MAX);
	int emax = errno;
	fdio_observe_res(ctx, "write_max", wmax, emax);
	ssize_t w = write_u64(efd, UINT64_MAX - 1);
	ssize_t over = write_u64(efd, 1);
	int eover = errno;
	fdio_observe_res(ctx, "write_over_max", over, eover);
	if (w == 8 && read(efd, &v, 8) == 8)
		aw_observe(ctx, "counter_max", "%llx", (unsigned long long)v);
	else
		aw_error(ctx, "counter_max", "writing 2^64-2 and reading it back: %s", aw_errname(errno));
	aw_expect(ctx, "limits_documented", wmax == -1 && emax == EINVAL && over == -1 &&
		  eover == EAGAIN, "write 2^64-1: %s, write 1 at 2^64-2: %s",
		  aw_errname(wmax < 0 ? emax : 0), aw_errname(over < 0 ? eover : 0));
}

static void eventfd_semaphore(struct aw_ctx *ctx)
{
	int efd = eventfd(3, EFD_SEMAPHORE | EFD_NONBLOCK | EFD_CLOEXEC);
	char text[64] = "";
	size_t used = 0;
	uint64_t v;

	for (int i = 0; i < 4 && efd >= 0; i++) {
		ssize_t r = read(efd, &v, 8);
		used += (size_t)snprintf(text + used, sizeof(text) - used, "%s%s", i ? "," : "",
					 r == 8 ? (v == 1 ? "1" : "other") : aw_errname(errno));
	}
	aw_expect(ctx, "semaphore", strcmp(text, "1,1,1,EAGAIN") == 0, "reads gave %s", text);
	if (efd >= 0)
		close(efd);
}

static void eventfd_fdinfo(struct aw_ctx *ctx, int efd)
{
	char path[64], *text = NULL, keys[256];
	size_t len;
	snprintf(path, sizeof(path), "/proc/self/fdinfo/%d", efd);
	int rc = aw_file_slurp(path, &text, &len) != 0 ? -errno
							: fdio_fdinfo_keys(text, len, keys, sizeof(keys));
	if (rc == 0)
		aw_observe(ctx, "fdinfo_keys", "%s", keys);
	else
		aw_error(ctx, "fdinfo_keys", "%s: %s", path, aw_errname(rc));
	free(text);
}

static void eventfd_run(struct aw_ctx *ctx)
{
	int efd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	if (efd < 0) {
		aw_error_rest(ctx, "eventfd: %s", aw_errname(errno));
		return;
	}
	eventfd_sizes(ctx, efd);
	eventfd_limits(ctx, efd);
	eventfd_fdinfo(ctx, efd);
	close(efd);
	eventfd_semaphore(ctx);
	observe_created(ctx, "bad_flag", eventfd(0, 1 << 5));
}

/* ---- timerfd ---- */

static const struct aw_item timerfd_items[] = {
	AW_CHECK_ITEM("sizes_documented", "read of fewer than 8 bytes fails with EINVAL; a "
		      "non-blocking read of an unarmed timer fails with EAGAIN (timerfd_create(2))"),
	AW_OBS_ITEM("read_4", "read(tfd, 4 bytes)"),
	AW_OBS_ITEM("read_unarmed", "non-blocking read(tfd, 8) of an unarmed timer"),
	AW_OBS_ITEM("write", "write(tfd, 8 bytes)"),
	AW_OBS_ITEM("readv_4_4", "readv(tfd, {4, 4}) of an expired timer: EINVAL while "
		    "timerfd has only ->read (6.1), 8 with ->read_iter",
		    .change = "programs reading timerfd with readv or io_uring vectored reads "
		    "get EINVAL, or start working"),
	AW_OBS_ITEM("expirations", "the count an 8-byte read returns once the past timer fired"),
	AW_OBS_ITEM("read_consumed", "non-blocking read after the expiration was read"),
	AW_OBS_ITEM("bad_flags", "timerfd_create(CLOCK_MONOTONIC, 1)"),
	AW_OBS_ITEM("bad_clock", "timerfd_create(99, 0)"),
	AW_ITEMS_END
};

/* A one-shot timer set in the past: it fires at once, so a blocking
 * read returns within microseconds on every kernel. */
static void timerfd_expired(struct aw_ctx *ctx, int tfd)
{
	uint64_t buf[2] = { 0, 0 };
	struct itimerspec past = { .it_value = { 0, 1 } };

	if (timerfd_settime(tfd, TFD_TIMER_ABSTIME, &past, NULL) != 0) {
		aw_error(ctx, "readv_4_4", "timerfd_settime: %s", aw_errname(errno));
		return;
	}
	ssize_t v = readv_halves(tfd, buf, 4);
	fdio_observe_rc(ctx, "readv_4_4", v);
	/* Where readv refused, the expiration is still there to read. */
	if (v != 8 && read(tfd, buf, 8) != 8) {
		aw_error(ctx, "expirations", "read: %s", aw_errname(errno));
	} else {
		aw_observe(ctx, "expirations", "%llu", (unsigned long long)buf[0]);
	}
	int fl = fcntl(tfd, F_GETFL);
	if (fl < 0 || fcntl(tfd, F_SETFL, fl | O_NONBLOCK) != 0) {
		aw_error(ctx, "read_consumed", "O_NONBLOCK: %s", aw_errname(errno));
		return;
	}
	fdio_observe_rc(ctx, "read_consumed", read(tfd, buf, 8));
}

static void timerfd_run(struct aw_ctx *ctx)
{
	uint64_t buf[2] = { 0, 0 };
	int tfd = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
	if (tfd < 0) {
		aw_error_rest(ctx, "timerfd_create: %s", aw_errname(errno));
		return;
	}
	ssize_t r4 = read(tfd, buf, 4);
	int e4 = errno;
	fdio_observe_res(ctx, "read_4", r4, e4);
	ssize_t r8 = read(tfd, buf, 8);
	int e8 = errno;
	fdio_observe_res(ctx, "read_unarmed", r8, e8);
	aw_expect(ctx, "sizes_documented", r4 == -1 && e4 == EINVAL && r8 == -1 && e8 == EAGAIN,
		  "read 4: %s, read 8 unarmed: %s", aw_errname(r4 < 0 ? e4 : 0),
		  aw_errname(r8 < 0 ? e8 : 0));
	fdio_observe_rc(ctx, "write", write(tfd, buf, 8));
	close(tfd);
	tfd = timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC); /* blocking: see timerfd_expired() */
	if (tfd < 0)
		aw_error(ctx, "readv_4_4", "timerfd_create: %s", aw_errname(errno));
	else
		timerfd_expired(ctx, tfd);
	if (tfd >= 0)
		close(tfd);
	observe_created(ctx, "bad_flags", timerfd_create(CLOCK_MONOTONIC, 1));
	observe_created(ctx, "bad_clock", timerfd_create(99, 0));
}

/* ---- signalfd ---- */

static const struct aw_item signalfd_items[] = {
	AW_CHECK_ITEM("sizes_documented", "a read smaller than one 128-byte record fails with "
		      "EINVAL; a read of 200 with two signals pending returns one whole record "
		      "(signalfd(2))"),
	AW_OBS_ITEM("record_size", "sizeof(struct signalfd_siginfo)", .unit = "B"),
	AW_OBS_ITEM("read_127", "read(sfd, 127 bytes) with a signal pending"),
	AW_OBS_ITEM("read_empty", "non-blocking read(sfd, 128), nothing pending"),
	AW_OBS_ITEM("read_200", "read(sfd, 200) with SIGUSR1 and SIGUSR2 pending"),
	AW_OBS_ITEM("read_256", "read(sfd, 256) with one signal pending"),
	AW_OBS_ITEM("readv_64_64", "readv(sfd, {64, 64}) with one signal pending: EINVAL while "
		    "signalfd has only ->read (6.1), 128 with ->read_iter",
		    .change = "programs reading signalfd with readv or io_uring vectored reads "
		    "get EINVAL, or start working"),
	AW_OBS_ITEM("write", "write(sfd, 128 bytes)"),
	AW_OBS_ITEM("bad_flags", "signalfd(-1, mask, 1)"),
	AW_ITEMS_END
};

static void signalfd_reads(struct aw_ctx *ctx, int sfd)
{
	char buf[256];
	raise(SIGUSR1);
	ssize_t r127 = read(sfd, buf, 127);
	int e127 = errno;
	fdio_observe_res(ctx, "read_127", r127, e127);
	raise(SIGUSR2);
	ssize_t r200 = read(sfd, buf, 200);
	int e200 = errno;
	fdio_observe_res(ctx, "read_200", r200, e200);
	aw_expect(ctx, "sizes_documented", r127 == -1 && e127 == EINVAL && r200 == 128,
		  "read 127: %s, read 200: %zd", aw_errname(r127 < 0 ? e127 : 0), r200);
	fdio_observe_rc(ctx, "read_256", read(sfd, buf, 256));
	fdio_observe_rc(ctx, "read_empty", read(sfd, buf, 128));
	raise(SIGUSR1);
	fdio_observe_rc(ctx, "readv_64_64", readv_halves(sfd, buf, 64));
	(void)!read(sfd, buf, 128); /* what readv left pending */
	fdio_observe_rc(ctx, "write", write(sfd, buf, 128));
}

static int signalfd_child(void *arg)
{
	struct aw_ctx *ctx = arg;
	sigset_t mask;

	sigemptyset(&mask);
	sigaddset(&mask, SIGUSR1);
	sigaddset(&mask, SIGUSR2);
	if (sigprocmask(SIG_BLOCK, &mask, NULL) != 0) {
		aw_error_rest(ctx, "sigprocmask: %s", aw_errname(errno));
		return 1;
	}
	aw_observe_long(ctx, "record_size", (long long)sizeof(struct signalfd_siginfo));
	int sfd = signalfd(-1, &mask, SFD_NONBLOCK | SFD_CLOEXEC);
	if (sfd < 0) {
		aw_error_rest(ctx, "signalfd: %s", aw_errname(errno));
		return 1;
	}
	signalfd_reads(ctx, sfd);
	close(sfd);
	observe_created(ctx, "bad_flags", signalfd(-1, &mask, 1));
	return 0;
}

/* The signals are blocked in a child of their own, so that the probe's
 * process keeps its mask. */
static void signalfd_run(struct aw_ctx *ctx)
{
	int st = aw_child_run(signalfd_child, ctx, 5000);
	if (st != 0)
		aw_note(ctx, "the signalfd child ended with %d", st);
}

static const char *const eventfd_tags[] = { "man:eventfd(2)", "linux-git:d31563b5f9bb", NULL };
static const char *const timerfd_tags[] = { "man:timerfd_create(2)", "man:readv(2)", NULL };
static const char *const signalfd_tags[] = { "man:signalfd(2)", "man:readv(2)", NULL };

const struct aw_probe fdio_counter_probes[] = {
	{ .name = "eventfd", .summary = "eventfd read and write sizes, limits, EFD_SEMAPHORE, "
	  "fdinfo", .run = eventfd_run, .items = eventfd_items, .tags = eventfd_tags },
	{ .name = "timerfd", .summary = "timerfd read sizes, readv, errors", .run = timerfd_run,
	  .items = timerfd_items, .tags = timerfd_tags },
	{ .name = "signalfd", .summary = "signalfd read sizes, readv, errors", .run = signalfd_run,
	  .items = signalfd_items, .tags = signalfd_tags },
	AW_PROBES_END
};

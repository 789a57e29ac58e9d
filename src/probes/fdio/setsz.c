// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * F_SETPIPE_SZ and F_GETPIPE_SZ (fcntl(2)): the size is rounded up to a
 * power-of-two number of pages, at least one; an unprivileged caller may
 * not grow a pipe past fs.pipe-max-size (EPERM; CAP_SYS_ADMIN does not
 * exempt, CAP_SYS_RESOURCE does); the pipe cannot shrink below the
 * buffers it holds (EBUSY: buffers, not bytes); more than 2^31 is
 * EINVAL.  Run in a fresh uid (pipe.c), so that no capability and no
 * per-user count decides.  The argument's width changed after 6.1:
 * do_fcntl() now passes an int, so bits above 32 are dropped instead of
 * making the value too big.
 */
#include "fdio.h"
#include "lib/errname.h"
#include "lib/proc.h"
#include "lib/procfs.h"
#include "lib/util.h"

#include <errno.h>
#include <stdlib.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>


static const struct aw_item setsz_items[] = {
	AW_OBS_ITEM("rounding", "F_SETPIPE_SZ results for 0, 1, 4095, 4096, 4097, 12288, 65536 "
		    "on an empty pipe, unprivileged",
		    .change = "programs sizing pipes get other capacities"),
	AW_OBS_ITEM("at_max", "F_SETPIPE_SZ(pipe-max-size): \"pipe-max-size\" when it returns "
		    "exactly that, else the result",
		    .change = "unprivileged programs cannot reach fs.pipe-max-size"),
	AW_OBS_ITEM("above_max", "F_SETPIPE_SZ(pipe-max-size + 1), unprivileged",
		    .change = "unprivileged programs may grow pipes past fs.pipe-max-size, or fail otherwise"),
	AW_OBS_ITEM("at_2g", "F_SETPIPE_SZ(2^31), unprivileged"),
	AW_OBS_ITEM("above_2g", "F_SETPIPE_SZ(2^31 + 1)",
		    .change = "sizes above 2 GiB are refused another way"),
	AW_OBS_ITEM("high_bits", "raw fcntl(F_SETPIPE_SZ, 2^32 + 4096): EINVAL while the "
		    "argument is a long (6.1), 4096 once it is an int",
		    .change = "programs passing a 64-bit size with high bits set get a small pipe "
		    "instead of EINVAL"),
	AW_OBS_ITEM("busy", "shrinking to 4096 a pipe holding one 8192-byte write (two buffers)",
		    .change = "shrinking a pipe that holds data fails or succeeds otherwise"),
	AW_OBS_ITEM("merged", "shrinking to 4096 a pipe holding two 100-byte writes (one buffer)",
		    .change = "shrinking a pipe that holds data fails or succeeds otherwise"),
	AW_OBS_ITEM("not_pipe", "F_GETPIPE_SZ on a regular file"),
	AW_CHECK_ITEM("getsz_follows", "F_GETPIPE_SZ returns what each successful F_SETPIPE_SZ "
		      "returned"),
	AW_CHECK_ITEM("eperm_above_max", "an unprivileged F_SETPIPE_SZ above fs.pipe-max-size "
		      "fails with EPERM (fcntl(2))"),
	AW_CHECK_ITEM("ebusy_below_content", "F_SETPIPE_SZ below the data the pipe holds fails "
		      "with EBUSY (fcntl(2))"),
	AW_ITEMS_END
};

struct setsz {
	struct aw_ctx *ctx;
	long long max_size;
	bool getsz_ok;
	char why[160];
};

/* F_SETPIPE_SZ through the raw system call, so that no C library
 * narrows the argument: the result or -errno; records a mismatch with
 * F_GETPIPE_SZ. */
static long set_size(struct setsz *s, int fd, unsigned long arg)
{
	long r = syscall(SYS_fcntl, fd, F_SETPIPE_SZ, arg);
	if (r < 0)
		return -errno;
	long got = fcntl(fd, F_GETPIPE_SZ);
	if (got != r && s->getsz_ok) {
		s->getsz_ok = false;
		snprintf(s->why, sizeof(s->why), "F_SETPIPE_SZ(%lu) returned %ld, F_GETPIPE_SZ %ld",
			 arg, r, got);
	}
	return r;
}

static const char *res(char buf[FDIO_RES_LEN], long r)
{
	return fdio_res(buf, r, (int)-r);
}

static void rounding(struct setsz *s, int fd)
{
	static const unsigned long args[] = { 0, 1, 4095, 4096, 4097, 12288, 65536 };
	char text[256] = "", buf[FDIO_RES_LEN];
	size_t used = 0;

	for (size_t i = 0; i < sizeof(args) / sizeof(args[0]); i++)
		used += (size_t)snprintf(text + used, sizeof(text) - used, "%s%lu:%s", i ? " " : "",
					 args[i], res(buf, set_size(s, fd, args[i])));
	aw_observe(s->ctx, "rounding", "%s", text);
}

static void limits(struct setsz *s, int fd)
{
	char buf[FDIO_RES_LEN];
	long r = set_size(s, fd, (unsigned long)s->max_size);

	if (r == s->max_size)
		aw_observe(s->ctx, "at_max", "pipe-max-size");
	else
		aw_observe(s->ctx, "at_max", "%s", res(buf, r));
	r = set_size(s, fd, (unsigned long)s->max_size + 1);
	aw_observe(s->ctx, "above_max", "%s", res(buf, r));
	aw_expect(s->ctx, "eperm_above_max", r == -EPERM, "pipe-max-size %lld + 1 gave %s",
		  s->max_size, buf);
	aw_observe(s->ctx, "at_2g", "%s", res(buf, set_size(s, fd, 1UL << 31)));
	aw_observe(s->ctx, "above_2g", "%s", res(buf, set_size(s, fd, (1UL << 31) + 1)));
	aw_observe(s->ctx, "high_bits", "%s", res(buf, set_size(s, fd, (1UL << 32) | aw_page_size())));
}

/* Shrink to one page a 16-page pipe holding the writes given. */
static long shrink_holding(struct setsz *s, const size_t *writes, size_t n)
{
	char *data = xcalloc(2, aw_page_size());
	int p[2];
	long r = 0;

	if (pipe2(p, O_NONBLOCK | O_CLOEXEC) != 0) {
		free(data);
		return -errno;
	}
	for (size_t i = 0; i < n && r == 0; i++)
		if (write(p[1], data, writes[i]) != (ssize_t)writes[i])
			r = -EIO;
	if (r == 0)
		r = set_size(s, p[0], aw_page_size());
	close(p[0]);
	close(p[1]);
	free(data);
	return r;
}

static void contents(struct setsz *s)
{
	const size_t one_big[] = { 2 * aw_page_size() }, two_small[] = { 100, 100 };
	char buf[FDIO_RES_LEN];
	long r = shrink_holding(s, one_big, 1);

	aw_observe(s->ctx, "busy", "%s", res(buf, r));
	aw_expect(s->ctx, "ebusy_below_content", r == -EBUSY, "shrinking a pipe holding two "
		  "pages to one gave %s", buf);
	aw_observe(s->ctx, "merged", "%s", res(buf, shrink_holding(s, two_small, 2)));
}

static int setsz_child(void *arg)
{
	struct setsz *s = arg;
	char buf[FDIO_RES_LEN];
	int p[2];

	if (pipe2(p, O_NONBLOCK | O_CLOEXEC) != 0) {
		aw_error_rest(s->ctx, "pipe2: %s", aw_errname(errno));
		return 1;
	}
	rounding(s, p[0]);
	limits(s, p[0]);
	close(p[0]);
	close(p[1]);
	contents(s);
	int f = aw_anon_file("fdio-not-pipe");
	long r = f < 0 ? -errno : fcntl(f, F_GETPIPE_SZ);
	aw_observe(s->ctx, "not_pipe", "%s", fdio_res(buf, r, errno));
	if (f >= 0)
		close(f);
	aw_expect(s->ctx, "getsz_follows", s->getsz_ok, "%s", s->why);
	return 0;
}

static void setsz_run(struct aw_ctx *ctx)
{
	struct setsz s = { .ctx = ctx, .max_size = -1,
			   .getsz_ok = true };

	aw_sysctl_read_ll("fs.pipe-max-size", &s.max_size);
	if (s.max_size < (long long)aw_page_size()) {
		aw_skip_rest(ctx, "cannot read fs.pipe-max-size");
		return;
	}
	fdio_as_fresh_uid(ctx, setsz_child, &s);
}

static const char *const setsz_tags[] = {
	"man:fcntl(2)", "man:pipe(7)", "ltp:fcntl30", "ltp:fcntl37", NULL,
};

const struct aw_probe fdio_setsz_probes[] = {
	{ .name = "pipe_setsz", .summary = "F_SETPIPE_SZ and F_GETPIPE_SZ: rounding, pipe-max-size, "
	  "EPERM, EBUSY, EINVAL, argument width", .run = setsz_run, .items = setsz_items,
	  .tags = setsz_tags },
	AW_PROBES_END
};

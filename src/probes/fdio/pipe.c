// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Pipes as event loops and job servers use them.
 *
 * pipe_epollet: an edge-triggered epoll on a pipe that is never drained.
 * 1b6b26ae7053 (5.5) woke readers only when the pipe had been empty, so a
 * second write into an undrained pipe gave no edge and realm-core (many
 * Android apps) hung on 5.10; 3a34b13a88ca (5.14) wakes them on every
 * write again, and 3b844826b6c6 keeps that for pipes that were ever
 * polled.  epoll's callback queues the item in the writer's own context
 * before write() returns, so epoll_wait with timeout 0 right after the
 * write sees exactly what the kernel did: no second thread, no timing.
 *
 * pipe_soft_limit: a user over fs.pipe-user-pages-soft gets small pipes
 * (759c01142a5d, 4.5); with one page, a pipe holding one byte at the end
 * of its page counted as full, so GNU make's jobserver hung, until
 * 46c4c9d1beb7 (5.14) made the minimum two pages.  The limit counts per
 * user and exempts CAP_SYS_ADMIN, so a child becomes a fresh uid of its
 * own (fdio_as_fresh_uid()) and fills that uid's count: no sysctl and no
 * existing user's count is touched, and the charge goes with the child.
 */
#include "fdio.h"
#include "lib/child.h"
#include "lib/errname.h"
#include "lib/proc.h"
#include "lib/procfs.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/random.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#define DEFAULT_PIPE (16 * (int)aw_page_size())
#define CHILD_TIMEOUT_MS 10000

/* ---- pipe_epollet ---- */

static const struct aw_item epollet_items[] = {
	AW_CHECK_ITEM("second_write_wakes", "a second write into an undrained pipe watched with "
		      "EPOLLIN|EPOLLET gives a new event (epoll_wait, timeout 0)"),
	AW_OBS_ITEM("pipe_sequence", "events seen by epoll_wait(0) on the read end: empty, "
		    "1st write, again, 2nd write undrained, again, 4097-byte write",
		    .change = "edge-triggered event loops on pipes they do not drain hang "
		    "(realm-core on Android, 5.5 to 5.13)"),
	AW_OBS_ITEM("socket_sequence", "the same sequence on a unix stream socketpair (control)",
		    .change = "edge-triggered event loops on sockets miss or get extra wake-ups"),
	AW_OBS_ITEM("writer_sequence", "EPOLLOUT|EPOLLET on the write end: after ADD, again, "
		    "after a write, after reading 1 byte of a non-full pipe",
		    .change = "writers waiting for EPOLLOUT on a pipe wake at other moments"),
	AW_ITEMS_END
};

/* epoll_wait(ep, 0): the number of events, or -errno. */
static int ready_now(int ep)
{
	struct epoll_event ev[4];
	int n = epoll_wait(ep, ev, 4, 0);
	return n < 0 ? -errno : n;
}

static int watch(int ep, int fd, unsigned events)
{
	struct epoll_event ev = { .events = events, .data.fd = fd };
	return epoll_ctl(ep, EPOLL_CTL_ADD, fd, &ev) == 0 ? 0 : -errno;
}

/* A fresh epoll set watching fd for events: the set, or -errno. */
static int watched(int fd, unsigned events)
{
	int ep = epoll_create1(EPOLL_CLOEXEC);
	if (ep < 0)
		return -errno;
	int rc = watch(ep, fd, events);
	if (rc < 0) {
		close(ep);
		return rc;
	}
	return ep;
}

/* seen[0..n) as "a,b,c" into out: 0, or the first -errno among them. */
static int format_seen(const int *seen, int n, char *out, size_t outlen)
{
	size_t used = 0;
	int rc = 0;
	out[0] = '\0';
	for (int i = 0; i < n; i++) {
		used += (size_t)snprintf(out + used, outlen - used, "%s%d", i ? "," : "", seen[i]);
		if (seen[i] < 0 && rc == 0)
			rc = seen[i];
		if (used >= outlen)
			break;
	}
	return rc;
}

/* Empty, a write, again, a second write undrained, again, a write that
 * starts a new page: "0,1,0,1,0,1" on a fixed kernel. */
static int reader_sequence(int rd, int wr, char *out, size_t outlen)
{
	static char big[4097];
	int ep = watched(rd, EPOLLIN | EPOLLET), seen[6];

	if (ep < 0)
		return ep;
	seen[0] = ready_now(ep);
	seen[1] = write(wr, "x", 1) == 1 ? ready_now(ep) : -errno;
	seen[2] = ready_now(ep);
	seen[3] = write(wr, "y", 1) == 1 ? ready_now(ep) : -errno;
	seen[4] = ready_now(ep);
	seen[5] = write(wr, big, sizeof(big)) == (ssize_t)sizeof(big) ? ready_now(ep) : -errno;
	close(ep);
	return format_seen(seen, 6, out, outlen);
}

/* After ADD, again, after a write, after reading one byte back. */
static int writer_sequence(int rd, int wr, char *out, size_t outlen)
{
	char c;
	int ep = watched(wr, EPOLLOUT | EPOLLET), seen[4];

	if (ep < 0)
		return ep;
	seen[0] = ready_now(ep);
	seen[1] = ready_now(ep);
	seen[2] = write(wr, "ab", 2) == 2 ? ready_now(ep) : -errno;
	seen[3] = read(rd, &c, 1) == 1 ? ready_now(ep) : -errno;
	close(ep);
	return format_seen(seen, 4, out, outlen);
}

typedef int (*sequence_fn)(int rd, int wr, char *out, size_t outlen);

/* Run seq on a fresh pipe (or socketpair) and observe it as obs. */
static void observe_sequence(struct aw_ctx *ctx, const char *obs, bool socket, sequence_fn seq,
			     char *out, size_t outlen)
{
	int p[2];
	int rc = socket ? socketpair(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0, p)
			: pipe2(p, O_NONBLOCK | O_CLOEXEC);

	out[0] = '\0';
	if (rc != 0) {
		aw_error(ctx, obs, "%s: %s", socket ? "socketpair" : "pipe2", aw_errname(errno));
		return;
	}
	rc = seq(p[0], p[1], out, outlen);
	if (rc == 0)
		aw_observe(ctx, obs, "%s", out);
	else
		aw_error(ctx, obs, "%s (%s)", aw_errname(rc), out);
	close(p[0]);
	close(p[1]);
}

static void epollet_run(struct aw_ctx *ctx)
{
	char pipe_seq[64], sock_seq[64], wr_seq[64];

	observe_sequence(ctx, "pipe_sequence", false, reader_sequence, pipe_seq, sizeof(pipe_seq));
	observe_sequence(ctx, "socket_sequence", true, reader_sequence, sock_seq, sizeof(sock_seq));
	observe_sequence(ctx, "writer_sequence", false, writer_sequence, wr_seq, sizeof(wr_seq));
	int fourth = -1;
	if (sscanf(pipe_seq, "%*d,%*d,%*d,%d", &fourth) == 1)
		aw_expect(ctx, "second_write_wakes", fourth == 1,
			  "epoll_wait(0) after a second write into the undrained pipe gave %d "
			  "events (5.5 to 5.13 without 3a34b13a88ca: 0)", fourth);
	else
		aw_error(ctx, "second_write_wakes", "the sequence did not run: %s", pipe_seq);
}

/* ---- a fresh uid ---- */

/* A uid no one uses: random, far above any allocated range, so that its
 * per-user counts start from nothing.  A child that finds it busy says
 * so with FDIO_UID_BUSY and another is tried. */
static uid_t random_uid(void)
{
	unsigned r = 0;
	if (getrandom(&r, sizeof(r), 0) != (ssize_t)sizeof(r))
		r = (unsigned)getpid() * 2654435761u;
	return (uid_t)(0x60000000u + r % 0x10000000u);
}

int fdio_as_fresh_uid(struct aw_ctx *ctx, aw_child_fn fn, void *arg)
{
	for (int attempt = 0; attempt < 3; attempt++) {
		int refused = 0;
		uid_t uid = random_uid();
		int st = aw_child_run_as(uid, uid, fn, arg, CHILD_TIMEOUT_MS, &refused);
		if (refused) {
			/* The uid is random: the reason must not name it, so
			 * that runs give the same snapshot. */
			aw_skip_rest(ctx, "cannot become an unused uid: %s%s", aw_errname(refused),
				     refused == -EINVAL ? " (not mapped: abiwatch runs without "
				     "CAP_SYS_ADMIN)" : "");
			return refused;
		}
		if (st != FDIO_UID_BUSY)
			return st;
		aw_note(ctx, "a random uid already holds pipes; trying another");
	}
	aw_error_rest(ctx, "three random uids were all busy");
	return -EBUSY;
}

/* ---- pipe_soft_limit ---- */

static const struct aw_item soft_items[] = {
	AW_OBS_ITEM("size", "F_GETPIPE_SZ of the first pipe made once the user holds "
		    "fs.pipe-user-pages-soft pages", .unit = "B",
		    .change = "programs over the per-user limit get pipes of another size "
		    "(4096 before 46c4c9d1beb7)"),
	AW_CHECK_ITEM("min_two_pages", "that pipe holds at least two pages (46c4c9d1beb7)"),
	AW_OBS_ITEM("write_after_partial_read", "O_NONBLOCK 1-byte write into that pipe after "
		    "write(size) and read(size - 1): bytes or errno",
		    .change = "job servers and token semaphores on pipes block on a non-full pipe "
		    "(GNU make hung)"),
	AW_CHECK_ITEM("partial_read_frees_room", "that 1-byte write succeeds: a pipe that is not "
		      "full takes a byte"),
	AW_OBS_ITEM("grow", "F_SETPIPE_SZ(65536) on that pipe while over the soft limit",
		    .change = "programs growing pipes past the per-user limit get another answer"),
	AW_OBS_ITEM("size_after_release", "F_GETPIPE_SZ of a new pipe once the filler pipes are "
		    "closed", .unit = "B",
		    .change = "the per-user charge is not given back when pipes close"),
	AW_ITEMS_END
};

struct soft_plan {
	struct aw_ctx *ctx;
	long long soft, max_size;
	int filler_pages; /* each filler is made this big */
	int fillers;      /* so many reach exactly soft pages */
};

static int make_filler(const struct soft_plan *plan, int *fd)
{
	int p[2];
	if (pipe2(p, O_CLOEXEC) != 0)
		return -errno;
	close(p[1]);
	*fd = p[0];
	if (fcntl(p[0], F_GETPIPE_SZ) != DEFAULT_PIPE)
		return FDIO_UID_BUSY;
	if (plan->filler_pages * (int)aw_page_size() == DEFAULT_PIPE ||
	    fcntl(p[0], F_SETPIPE_SZ, plan->filler_pages * (int)aw_page_size()) == plan->filler_pages * (int)aw_page_size())
		return 0;
	/* EPERM: pipes of someone else's already count against the uid. */
	return errno == EPERM ? FDIO_UID_BUSY : -errno;
}

static void small_pipe_contract(struct aw_ctx *ctx, int t[2])
{
	char buf[DEFAULT_PIPE], res[FDIO_RES_LEN];
	int sz = fcntl(t[0], F_GETPIPE_SZ);

	aw_observe_long(ctx, "size", sz);
	aw_expect(ctx, "min_two_pages", sz >= 2 * (int)aw_page_size(), "F_GETPIPE_SZ %d", sz);
	memset(buf, 'j', sizeof(buf));
	if (sz <= 0 || sz > (int)sizeof(buf) || write(t[1], buf, (size_t)sz) != sz ||
	    read(t[0], buf, (size_t)sz - 1) != sz - 1) {
		aw_error(ctx, "write_after_partial_read", "filling the %d-byte pipe: %s", sz,
			 aw_errname(errno));
		aw_error(ctx, "partial_read_frees_room", "the pipe could not be filled");
	} else {
		ssize_t n = write(t[1], "c", 1);
		aw_observe(ctx, "write_after_partial_read", "%s", fdio_res(res, n, errno));
		aw_expect(ctx, "partial_read_frees_room", n == 1, "the 1-byte write gave %s "
			  "(1-page pipes before 46c4c9d1beb7: EAGAIN)", res);
	}
	int g = fcntl(t[0], F_SETPIPE_SZ, DEFAULT_PIPE);
	aw_observe(ctx, "grow", "%s", fdio_res(res, g, errno));
}

static int soft_child(void *arg)
{
	const struct soft_plan *plan = arg;
	struct aw_ctx *ctx = plan->ctx;
	int *fds = calloc((size_t)plan->fillers, sizeof(int)), made = 0, rc = 0, t[2];

	if (!fds)
		return 1;
	struct rlimit rl;
	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < (rlim_t)plan->fillers + 32) {
		rl.rlim_cur = rl.rlim_max;
		setrlimit(RLIMIT_NOFILE, &rl);
	}
	while (made < plan->fillers && (rc = make_filler(plan, &fds[made])) >= 0) {
		made++;
		if (rc == FDIO_UID_BUSY)
			return FDIO_UID_BUSY;
	}
	if (made < plan->fillers) {
		aw_error_rest(ctx, "filler pipe %d of %d (%d pages each): %s", made + 1,
			      plan->fillers, plan->filler_pages, aw_errname(rc));
		return 1;
	}
	if (pipe2(t, O_NONBLOCK | O_CLOEXEC) != 0) {
		aw_error_rest(ctx, "pipe2 over the soft limit: %s", aw_errname(errno));
		return 1;
	}
	small_pipe_contract(ctx, t);
	close(t[0]);
	close(t[1]);
	for (int i = 0; i < made; i++)
		close(fds[i]);
	free(fds);
	if (pipe2(t, O_CLOEXEC) != 0) {
		aw_error(ctx, "size_after_release", "pipe2: %s", aw_errname(errno));
		return 1;
	}
	aw_observe_long(ctx, "size_after_release", fcntl(t[0], F_GETPIPE_SZ));
	return 0;
}

/* Fillers of pipe-max-size need few descriptors; where the sysctls do
 * not divide evenly, default-size ones do (a thousand descriptors). */
static const char *plan_fillers(struct soft_plan *plan)
{
	long long max_pages = plan->max_size / (long long)aw_page_size();

	if (plan->soft <= 0)
		return "fs.pipe-user-pages-soft is 0 (no soft limit)";
	/* Below 64 KiB an unprivileged user's new pipes are smaller anyway. */
	if (plan->max_size < DEFAULT_PIPE)
		return "fs.pipe-max-size is below 65536";
	if (max_pages >= 16 && plan->max_size % (long long)aw_page_size() == 0 && plan->soft % max_pages == 0 &&
	    plan->soft / max_pages <= 4096)
		plan->filler_pages = (int)max_pages;
	else if (plan->soft % 16 == 0 && plan->soft / 16 <= 65536)
		plan->filler_pages = 16;
	else
		return "fs.pipe-user-pages-soft is not a multiple of 16 pages";
	plan->fillers = (int)(plan->soft / plan->filler_pages);
	return NULL;
}

static void soft_run(struct aw_ctx *ctx)
{
	/* -1 where a knob cannot be read: plan_fillers() says why not. */
	struct soft_plan plan = { .ctx = ctx, .soft = -1, .max_size = -1 };
	long long hard = -1;
	aw_sysctl_read_ll("fs.pipe-user-pages-soft", &plan.soft);
	aw_sysctl_read_ll("fs.pipe-max-size", &plan.max_size);
	aw_sysctl_read_ll("fs.pipe-user-pages-hard", &hard);
	const char *why = plan_fillers(&plan);

	if (why) {
		aw_skip_rest(ctx, "%s", why);
		return;
	}
	if (hard > 0 && hard <= plan.soft + 16) {
		aw_skip_rest(ctx, "fs.pipe-user-pages-hard (%lld) leaves no room above the soft "
			     "limit (%lld)", hard, plan.soft);
		return;
	}
	aw_note(ctx, "%d filler pipes of %d pages reach fs.pipe-user-pages-soft = %lld", plan.fillers,
		plan.filler_pages, plan.soft);
	int st = fdio_as_fresh_uid(ctx, soft_child, &plan);
	if (st != 0 && st != FDIO_UID_BUSY)
		aw_note(ctx, "the child ended with %d", st);
}

static const char *const epollet_tags[] = {
	"linux-git:1b6b26ae7053", "linux-git:3a34b13a88ca", "linux-git:3b844826b6c6",
	"man:epoll(7)", "man:pipe(7)", NULL,
};
static const char *const soft_tags[] = {
	"linux-git:759c01142a5d", "linux-git:46c4c9d1beb7", "man:pipe(7)", "man:fcntl(2)",
	"ltp:pipe15", NULL,
};

const struct aw_probe fdio_pipe_probes[] = {
	{ .name = "pipe_epollet", .summary = "edge-triggered epoll on a pipe that is never drained",
	  .run = epollet_run, .items = epollet_items, .tags = epollet_tags },
	{ .name = "pipe_soft_limit", .summary = "pipes of a user over fs.pipe-user-pages-soft, "
	  "in a fresh uid of the probe's own", .run = soft_run, .items = soft_items,
	  .tags = soft_tags },
	AW_PROBES_END
};

// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * inotify on pseudo files: a watch on /proc/self/fd/N reaches the inode
 * behind a descriptor.  Since 6.14 (54dbee0b21e1) files made by
 * alloc_file_pseudo() (anonymous inodes: eventfd, timerfd, epoll...;
 * memfds) give no fsnotify events at all, while pipes and sockets, which
 * have users of their events, still do.  fsnotify runs within the read
 * or write, so the events are there, or not, when it returns: a
 * non-blocking read tells, with no waiting.
 */
#include "vfs.h"
#include "lib/errname.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/inotify.h>
#include <sys/mman.h>
#include <unistd.h>

static const struct aw_item inotify_items[] = {
	AW_OBS_ITEM("eventfd", "IN_MODIFY/IN_ACCESS from a watched /proc/self/fd/N of an eventfd "
		    "written and read: events or none",
		    .change = "programs watching an eventfd or timerfd through inotify stop (or "
		    "start) being woken"),
	AW_OBS_ITEM("memfd", "events from a watched memfd written: events or none",
		    .change = "programs watching a memfd through inotify stop (or start) being woken"),
	AW_OBS_ITEM("pipe", "events from a watched pipe written and read: events or none",
		    .change = "programs watching pipes through inotify (shells' and terminals' "
		    "helpers) stop being woken"),
	AW_ITEMS_END
};

/* Make the I/O on a kind of descriptor: 0 or -errno. */
typedef int (*io_fn)(int fd, int other);

static int io_eventfd(int fd, int other)
{
	(void)other;
	uint64_t v = 1;
	return write(fd, &v, sizeof(v)) == sizeof(v) && read(fd, &v, sizeof(v)) == sizeof(v) ? 0
											      : -errno;
}

static int io_write(int fd, int other)
{
	char c;
	if (write(fd, "x", 1) != 1)
		return -errno;
	return other < 0 || read(other, &c, 1) == 1 ? 0 : -errno;
}

/* Watch fd through /proc, do the I/O, count the events queued: the
 * count, or -errno with *what naming the step. */
static int events_of(int fd, int other, io_fn io, const char **what)
{
	char path[64], buf[4096];
	int in = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
	*what = "inotify_init1";
	if (in < 0)
		return -errno;
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	int count = 0, rc = 0;
	*what = "inotify_add_watch";
	if (inotify_add_watch(in, path, IN_MODIFY | IN_ACCESS) < 0)
		rc = -errno;
	else if ((*what = "the I/O", rc = io(fd, other)) == 0) {
		/* One read: where the inotify descriptor shares the anonymous
		 * inode it watches (before 6.14), reading it makes another
		 * event, for ever. */
		ssize_t n = read(in, buf, sizeof(buf));
		for (char *p = buf; n > 0 && p < buf + n;
		     p += sizeof(struct inotify_event) + ((struct inotify_event *)p)->len)
			count++;
	}
	close(in);
	return rc ? rc : count;
}

static void observe_events(struct aw_ctx *ctx, const char *item, int fd, int other, io_fn io)
{
	const char *what = "making it";
	int n = fd < 0 ? -errno : events_of(fd, other, io, &what);
	if (n < 0)
		aw_unobserved(ctx, item, "%s: %s", what, aw_errname(n));
	else
		aw_observe(ctx, item, "%s", n > 0 ? "events" : "none");
}

static void inotify_run(struct aw_ctx *ctx)
{
	int p[2] = { -1, -1 };
	observe_events(ctx, "eventfd", eventfd(0, EFD_CLOEXEC), -1, io_eventfd);
	observe_events(ctx, "memfd", memfd_create("abiwatch-vfs", MFD_CLOEXEC), -1, io_write);
	if (pipe2(p, O_CLOEXEC) != 0)
		p[1] = -1;
	observe_events(ctx, "pipe", p[1], p[0], io_write);
	/* The descriptors close when the probe's process ends. */
}

static const char *const inotify_tags[] = {
	"linux-git:54dbee0b21e1", "man:inotify(7)", "man:eventfd(2)", "man:memfd_create(2)", NULL,
};

const struct aw_probe vfs_inotify_probes[] = {
	{
		.name = "inotify",
		.summary = "inotify events from pseudo files (eventfd, memfd) against a pipe",
		.run = inotify_run,
		.items = inotify_items,
		.tags = inotify_tags,
	},
	AW_PROBES_END,
};

// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What a descriptor without a file says about itself: a pidfd and the
 * anonymous-inode descriptors (eventfd, timerfd, signalfd, epoll), as
 * lsof and lsfd tell them apart: fstatfs's f_type, fstat's st_mode and
 * st_ino, and the text of the /proc/self/fd link.  In 6.9 pidfds moved
 * to a filesystem of their own (pidfs, cb12fd8e0dab) with an inode per
 * process; 6.10 (db3d841ac9ed) put the "anon_inode:[pidfd]" link and the
 * type-less mode back because lsof broke.
 */
#include "vfs.h"
#include "lib/child.h"
#include "lib/errname.h"
#include "lib/util.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/signalfd.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/timerfd.h>
#include <sys/vfs.h>
#include <unistd.h>

#define ANON_ITEMS(k)                                                                          \
	AW_OBS_ITEM(k ".f_type", "fstatfs f_type of a " k " descriptor, hex",                  \
		    .change = "tools telling descriptors apart by filesystem magic (lsfd) "        \
			      "name them otherwise"),                                          \
	AW_OBS_ITEM(k ".mode", "fstat st_mode of a " k " descriptor, octal with its type bits", \
		    .change = "the type bits (S_IFMT) decide what lsof makes of the descriptor: "  \
			      "with S_IFREG a regular file (pidfs in 6.9, until db3d841ac9ed); the "     \
			      "permission bits only describe it: pidfs gives 0700 (fs/pidfs.c "          \
			      "S_IRWXU), the shared anonymous inode 0600, and no program opens it by them"), \
	AW_OBS_ITEM(k ".link", "the /proc/self/fd link text of a " k " descriptor",            \
		    .change = "lsof and lsfd parse \"anon_inode:[KIND]\"; another text is "       \
			      "shown raw or misread")

static const struct aw_item anon_items[] = {
	AW_CHECK_ITEM("anon_inode_link", "every descriptor's /proc/self/fd link begins with "
		      "\"anon_inode:\" (what lsof parses)"),
	ANON_ITEMS("pidfd"),
	AW_OBS_ITEM("pidfd.ino_per_process", "whether pidfds of two processes have distinct st_ino "
		    "(yes/no)", .change = "programs comparing pidfds by st_ino (a unique id per "
		    "process since pidfs) must not on older kernels, where all share one inode"),
	AW_OBS_ITEM("pidfd.ino_shared", "whether a pidfd has the st_ino of an eventfd (the one "
		    "shared anonymous inode; yes/no)",
		    .change = "pidfds left (or joined) the shared anonymous inode: st_ino-based "
		    "identity of pidfds changes"),
	ANON_ITEMS("eventfd"),
	AW_OBS_ITEM("eventfd.ino_shared", "whether two eventfds share one st_ino (yes/no)",
		    .change = "programs keying descriptors by (st_dev, st_ino) merge or split them"),
	ANON_ITEMS("timerfd"),
	AW_OBS_ITEM("timerfd.ino_shared", "whether a timerfd has the st_ino of an eventfd (yes/no)",
		    .change = "programs keying descriptors by (st_dev, st_ino) merge or split them"),
	ANON_ITEMS("signalfd"),
	AW_OBS_ITEM("signalfd.ino_shared", "whether a signalfd has the st_ino of an eventfd (yes/no)",
		    .change = "programs keying descriptors by (st_dev, st_ino) merge or split them"),
	ANON_ITEMS("epoll"),
	AW_OBS_ITEM("epoll.ino_shared", "whether an epoll descriptor has the st_ino of an eventfd "
		    "(yes/no)",
		    .change = "programs keying descriptors by (st_dev, st_ino) merge or split them"),
	AW_ITEMS_END
};

/* One descriptor looked at: what lsof sees. */
struct anon_view {
	int err; /* of making, fstat, fstatfs or readlink: 0 or errno */
	const char *what;
	struct stat st;
	unsigned long f_type;
	char link[128];
};

static void view(int fd, struct anon_view *v)
{
	char proc[64];
	memset(v, 0, sizeof(*v));
	if (fd < 0) {
		v->err = errno;
		v->what = "making it";
		return;
	}
	struct statfs sf;
	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", fd);
	ssize_t n = -1;
	if (fstat(fd, &v->st) != 0)
		v->what = "fstat";
	else if (fstatfs(fd, &sf) != 0)
		v->what = "fstatfs";
	else if ((n = readlink(proc, v->link, sizeof(v->link) - 1)) < 0)
		v->what = "readlink";
	if (v->what) {
		v->err = errno;
		return;
	}
	v->f_type = (unsigned long)sf.f_type;
	v->link[n] = '\0';
}

static const char *yes_no(bool b)
{
	return b ? "yes" : "no";
}

static bool same_inode(const struct anon_view *a, const struct anon_view *b)
{
	return a->st.st_dev == b->st.st_dev && a->st.st_ino == b->st.st_ino;
}

/* KIND.f_type, .mode, .link and .ino_shared (with other, unless NULL). */
static void report_kind(struct aw_ctx *ctx, const char *kind, const struct anon_view *v,
			const struct anon_view *other)
{
	static const char *const fields[] = { "f_type", "mode", "link", "ino_shared" };
	char item[64];
	for (size_t i = 0; i < AW_ARRAY_SIZE(fields); i++) {
		snprintf(item, sizeof(item), "%s.%s", kind, fields[i]);
		if (i == 3 && !other)
			continue;
		if (v->err || (other && i == 3 && other->err))
			aw_unobserved(ctx, item, "%s: %s", v->err ? v->what : "the eventfd",
				      aw_errname(v->err ? v->err : other->err));
		else if (i == 0)
			aw_observe(ctx, item, "0x%08lx", v->f_type);
		else if (i == 1)
			aw_observe(ctx, item, "0%o", (unsigned)v->st.st_mode);
		else if (i == 2)
			aw_observe(ctx, item, "%s", v->link);
		else
			aw_observe(ctx, item, "%s", yes_no(same_inode(v, other)));
	}
}

static int wait_for_kill(void *arg)
{
	(void)arg;
	for (;;)
		pause();
	return 0;
}

static int pidfd_open(pid_t pid)
{
	return (int)syscall(SYS_pidfd_open, pid, 0);
}

/* The pidfd items; *self is the probe's own pidfd. */
static void report_pidfd(struct aw_ctx *ctx, struct anon_view *self,
			 const struct anon_view *eventfd)
{
	struct anon_view child;
	view(pidfd_open(getpid()), self);
	pid_t pid = aw_child_start(wait_for_kill, NULL);
	if (pid < 0) {
		errno = (int)-pid;
		view(-1, &child);
		child.what = "fork";
	} else {
		view(pidfd_open(pid), &child);
		kill(pid, SIGKILL);
		(void)aw_child_wait(pid, 5000);
	}
	report_kind(ctx, "pidfd", self, eventfd);
	const struct anon_view *bad = self->err ? self : child.err ? &child : NULL;
	if (bad)
		aw_unobserved(ctx, "pidfd.ino_per_process", "%s: %s", bad->what, aw_errname(bad->err));
	else
		aw_observe(ctx, "pidfd.ino_per_process", "%s", yes_no(!same_inode(self, &child)));
}

static void anon_run(struct aw_ctx *ctx)
{
	static const char *const kinds[] = { "pidfd", "eventfd", "timerfd", "signalfd", "epoll" };
	struct anon_view v[AW_ARRAY_SIZE(kinds)], ev2;
	sigset_t usr1;
	sigemptyset(&usr1);
	sigaddset(&usr1, SIGUSR1);

	view(eventfd(0, EFD_CLOEXEC), &v[1]);
	view(eventfd(0, EFD_CLOEXEC), &ev2);
	view(timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC), &v[2]);
	view(signalfd(-1, &usr1, SFD_CLOEXEC), &v[3]);
	view(epoll_create1(EPOLL_CLOEXEC), &v[4]);
	report_pidfd(ctx, &v[0], &v[1]);
	report_kind(ctx, "eventfd", &v[1], &ev2);
	for (size_t i = 2; i < AW_ARRAY_SIZE(kinds); i++)
		report_kind(ctx, kinds[i], &v[i], &v[1]);

	for (size_t i = 0; i < AW_ARRAY_SIZE(kinds); i++) {
		if (!v[i].err && strncmp(v[i].link, "anon_inode:", 11) != 0) {
			aw_fail(ctx, "anon_inode_link", "a %s descriptor's link is '%s'", kinds[i],
				v[i].link);
			return;
		}
	}
	aw_pass(ctx, "anon_inode_link");
	/* The descriptors close when the probe's process ends. */
}

static const char *const anon_tags[] = {
	"linux-git:cb12fd8e0dab", "linux-git:db3d841ac9ed", "man:pidfd_open(2)",
	"man:eventfd(2)", "man:timerfd_create(2)", "man:signalfd(2)", "man:epoll_create(2)",
	"man:proc_pid_fd(5)", NULL,
};

const struct aw_probe vfs_anon_probes[] = {
	{
		.name = "anon",
		.summary = "pidfd and anonymous-inode descriptors: filesystem magic, mode, inode "
			   "and /proc/self/fd link, as lsof reads them",
		.run = anon_run,
		.items = anon_items,
		.tags = anon_tags,
	},
	AW_PROBES_END,
};

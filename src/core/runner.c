// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Each probe runs in a child that is PID 1 of a new PID namespace, with
 * its own IPC, mount, UTS and network namespaces and a private tmpfs:
 *
 *   abiwatch ──clone(NEWPID|NEWIPC|NEWNS[|NEWUSER])──> init (pid 1)
 *                                                        └─fork─> probe
 *
 * Nothing a probe does needs undoing.  Its queues and sysctl values live in
 * an IPC namespace that dies with it; its mounts (and loop devices set to
 * autoclear) go with its mount namespace; every process it starts dies
 * with the PID namespace when init exits.  init dies when abiwatch does
 * (PR_SET_PDEATHSIG), so even a SIGKILL of abiwatch leaves nothing behind.
 */
#include "runner.h"
#include "context.h"
#include "hostdir.h"
#include "i386.h"
#include "protocol.h"
#include "status.h"
#include "stuck.h"
#include "load.h"
#include "params.h"
#include "lib/util.h"
#include "lib/caps.h"
#include "lib/mountinfo.h"
#include "core/sysctl.h"
#include "core/env.h"
#include "guest.h"
#include "vm_guest.h"
#include "lib/procfs.h"
#include "lib/steady.h"

#include <ctype.h>
#include <math.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/capability.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

/* How long a killed probe may take to be reaped before it is left behind
 * (a process stuck in uninterruptible sleep, e.g. on a dead FUSE daemon). */
#define REAP_GRACE_S 2.0
/* init's exit status when the isolation itself could not be set up. */
#define EXIT_NO_ISOLATION 125
#define MAX_LINE (1u << 20)

/* Where the probe's private tmpfs is, which init decides. */
static const char *scratch_dir = "/dev/shm";
/* The family options of this run, which each probe's ctx carries. */
static const struct aw_params *run_params;
/* aw_in_vm_guest(), asked once per run: every probe of it sees the same. */
static bool run_in_guest;
/* aw_run_dirfd(): the run's shared directory, or -1. */
static int run_dirfd = -1;
/* How much slower than an idle guest the machine was as the run began:
 * every declared timeout stretches by it (core/load.h). */
static double run_slowness = 1;
/* When the run's time is up (aw_steady_now()), from opts->budget_s.
 * Every deadline of the runner is on that clock, which does not leap. */
static double run_end = INFINITY;
static double run_begin;
/* A second try has this many times the first one's time. */
#define RETRY_STRETCH 2.0

static char *upper(const char *s)
{
	char *u = xstrdup(s);
	for (char *p = u; *p; p++)
		*p = (char)toupper((unsigned char)*p);
	return u;
}

/* Without CAP_SYS_ADMIN, a user namespace of our own grants it there. */
static bool needs_userns(void)
{
	return !aw_cap_effective(CAP_SYS_ADMIN);
}

/* Whether / is the root of a mount.  In a chroot into a plain directory
 * (autopkgtest's chroot server, a hand-made chroot) it is not: / cannot be
 * made private, so what a probe mounted would propagate to the host's
 * peers of the mount holding the chroot, and the kernel refuses a user
 * namespace to a chrooted process.  A kernel without STATX_ATTR_MOUNT_ROOT
 * (before 5.8) cannot tell: yes, as before. */
static bool root_is_mount_point(void)
{
	static int known = -1;
	struct statx stx;
	if (known < 0)
		known = statx(AT_FDCWD, "/", 0, STATX_BASIC_STATS, &stx) != 0 ||
			!(stx.stx_attributes_mask & STATX_ATTR_MOUNT_ROOT) ||
			(stx.stx_attributes & STATX_ATTR_MOUNT_ROOT);
	return known;
}

/* "needs cap_NAME: why", the reason of a skip the machine caused. */
static char *needs_cap(const char *cap, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static char *needs_cap(const char *cap, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *why = xvasprintf(fmt, ap);
	va_end(ap);
	char *reason = aw_cause_reason(cap, why);
	free(why);
	return reason;
}

/* Why this probe cannot run here, or NULL when everything it needs is. */
static char *unmet_needs(const struct aw_probe *p)
{
	if (!root_is_mount_point())
		return xstrdup("in a chroot whose / is not a mount point, a probe's mounts would reach "
			       "the host; bind-mount the directory onto itself before chroot");
	for (const int *c = p->needs.caps; c && *c >= 0; c++) {
		char *name = upper(aw_cap_name(*c));
		char *why = NULL;
		/* The cause is the capability the process lacks: with
		 * CAP_SYS_ADMIN missing, the probe's own user namespace voids
		 * the one it needs. */
		if (!aw_cap_effective(*c))
			why = needs_cap(aw_cap_name(*c), "%s is not held by this process", name);
		else if (needs_userns())
			why = needs_cap("cap_sys_admin", "%s counts in the initial user namespace, "
					"but without CAP_SYS_ADMIN the probe runs in a user "
					"namespace of its own", name);
		free(name);
		if (why)
			return why;
	}
	for (const char *const *f = p->needs.files; f && *f; f++)
		if (access(*f, F_OK) != 0)
			return xasprintf("needs %s: %s", *f, strerror(errno));
	if (p->needs.vm_guest && !run_in_guest)
		return aw_cause_reason("vm", p->needs.vm_guest);
	if (p->needs.userns && aw_userns_refused())
		return aw_cause_reason("userns", aw_userns_refused());
	if (p->needs.i386_programs && aw_i386_refused())
		return aw_cause_reason("i386", aw_i386_refused());
	return NULL;
}

static void write_note(int fd, const char *what)
{
	char *esc = aw_escape(what);
	char *line = xasprintf("N isolation: %s: %s\n", esc, strerror(errno));
	(void)aw_write_all(fd, line, strlen(line));
	free(line);
	free(esc);
}

/* A probe starts with every signal at its default and none blocked,
 * whatever the program that called the runner had installed. */
static void reset_signals(void)
{
	sigset_t none;
	for (int sig = 1; sig < NSIG; sig++)
		signal(sig, SIG_DFL);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
}

static __attribute__((noreturn)) void run_probe(const struct aw_probe_ref *ref, int result_fd,
						 const struct aw_hostdir *hd, const ino_t *host_ns)
{
	int devnull = open("/dev/null", O_RDONLY);
	if (devnull > STDIN_FILENO) {
		dup2(devnull, STDIN_FILENO);
		close(devnull);
	}
	/* A stray printf in a probe must not corrupt the KTAP stream. */
	dup2(STDERR_FILENO, STDOUT_FILENO);
	reset_signals();
	fcntl(result_fd, F_SETFD, FD_CLOEXEC);
	setenv("TMPDIR", scratch_dir, 1);
	if (chdir(scratch_dir) != 0)
		_exit(EXIT_NO_ISOLATION);

	const struct aw_probe *probe = ref->probe;
	struct aw_ctx ctx = {
		.fd = result_fd, .tmpdir = scratch_dir, .data = probe->data,
		.host_dirfd = hd->dirfd, .host_dirname = hd->name, .probe = probe,
		.family = ref->family, .record = aw_record_new(probe), .params = run_params,
		.vm_guest = run_in_guest, .run_dirfd = run_dirfd,
	};
	memcpy(ctx.host_ns, host_ns, sizeof(ctx.host_ns));
	aw_report_unmet_items(&ctx);
	probe->run(&ctx);
	_exit(0);
}

/* Filesystems whose content is a namespace's, not a device's: a mount
 * made outside shows the host's namespace from inside the probe (the
 * host's /dev/mqueue lists the host's queues).  The runner covers each
 * such mount with a fresh instance, which shows the probe's own.  /proc
 * (the PID namespace) is remounted at / below, where probes look. */
static const char *const namespaced_fstypes[] = {
	"mqueue", /* the IPC namespace (ipc/mqueue.c: mq_internal_mount per namespace) */
};

static bool namespaced(const char *fstype)
{
	for (size_t i = 0; i < AW_ARRAY_SIZE(namespaced_fstypes); i++)
		if (strcmp(fstype, namespaced_fstypes[i]) == 0)
			return true;
	return false;
}

static int cover_namespaced_mounts(int result_fd)
{
	struct aw_mount *m;
	size_t n;
	int rc = 0;

	if (aw_mountinfo_read("/proc/self/mountinfo", &m, &n) != 0)
		return 0;
	for (size_t i = 0; i < n && rc == 0; i++) {
		if (!namespaced(m[i].fstype))
			continue;
		if (mount(m[i].fstype, m[i].point, m[i].fstype, MS_NOSUID | MS_NODEV | MS_NOEXEC,
			  NULL) != 0) {
			int err = errno;
			char *what = xasprintf("covering the host's %s mount", m[i].fstype);
			errno = err;
			write_note(result_fd, what);
			free(what);
			rc = -1;
		}
	}
	aw_mountinfo_free(m, n);
	return rc;
}

static int isolate_mounts(int result_fd)
{
	if (mount("none", "/", "none", MS_REC | MS_PRIVATE, NULL) != 0) {
		write_note(result_fd, "making the mount namespace private");
		return -1;
	}
	/* POSIX shared memory and named semaphores live in /dev/shm, which
	 * must not be the host's.  Its private tmpfs is also the probe's
	 * scratch directory: covering /tmp instead would hide the host's
	 * files there (programs, helpers, a user's --path) from the probe. */
	if (access("/dev/shm", F_OK) != 0)
		scratch_dir = "/tmp";
	if (mount("abiwatch", scratch_dir, "tmpfs", MS_NOSUID | MS_NODEV, "mode=1777") != 0) {
		write_note(result_fd, "mounting a private tmpfs");
		return -1;
	}
	if (cover_namespaced_mounts(result_fd) != 0)
		return -1;
	/* A /proc of the new PID namespace, so that pids a probe reads there
	 * (NOTIFY_PID, si_pid) are the ones it knows.  Not essential. */
	(void)mount("proc", "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL);
	return 0;
}

/* PID 1 of the probe's namespace: set up, start the probe, reap, report. */
static __attribute__((noreturn)) void ns_init(const struct aw_probe_ref *ref, int sync_fd,
					       int result_fd, const struct aw_hostdir *hd,
					       const ino_t *host_ns)
{
	char go;

	prctl(PR_SET_PDEATHSIG, SIGKILL);
	/* EOF here means abiwatch died before PDEATHSIG was armed. */
	if (read(sync_fd, &go, 1) != 1)
		_exit(EXIT_NO_ISOLATION);
	close(sync_fd);
	if (isolate_mounts(result_fd) != 0)
		_exit(EXIT_NO_ISOLATION);

	pid_t pid = fork();
	if (pid < 0) {
		write_note(result_fd, "fork");
		_exit(EXIT_NO_ISOLATION);
	}
	if (pid == 0)
		run_probe(ref, result_fd, hd, host_ns);

	int status;
	for (;;) {
		pid_t w = waitpid(-1, &status, 0);
		if (w == pid)
			break;
		if (w < 0 && errno != EINTR)
			_exit(EXIT_NO_ISOLATION);
	}
	char *line = WIFSIGNALED(status)
		? xasprintf("X signal %d\n", WTERMSIG(status))
		: xasprintf("X exit %d\n", WEXITSTATUS(status));
	(void)aw_write_all(result_fd, line, strlen(line));
	free(line);
	_exit(0);
}

static int write_file(pid_t pid, const char *name, const char *text)
{
	char path[64];
	snprintf(path, sizeof(path), "/proc/%d/%s", (int)pid, name);
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	int rc = aw_write_all(fd, text, strlen(text));
	close(fd);
	return rc;
}

/* Make the child root of its user namespace, mapped to our own ids. */
static int map_ids(pid_t pid)
{
	char map[64];
	snprintf(map, sizeof(map), "0 %d 1\n", (int)getuid());
	if (write_file(pid, "uid_map", map) != 0)
		return -1;
	if (write_file(pid, "setgroups", "deny") != 0)
		return -1;
	snprintf(map, sizeof(map), "0 %d 1\n", (int)getgid());
	return write_file(pid, "gid_map", map);
}


struct child {
	pid_t pid;
	int result_fd; /* read end */
};

/* Start init for this probe, handing it hd (the scratch subdirectory of
 * its host_path, opened in our mount namespace, so that the probe holds
 * the very directory the user named).  Returns 0, or -errno with nothing
 * started. */
static int spawn(const struct aw_probe_ref *ref, const struct aw_hostdir *hd, struct child *c)
{
	int sync[2], result[2];
	bool userns = needs_userns();
	/* UTS and network too, so that no probe can rename the host or
	 * touch its interfaces. */
	long flags = CLONE_NEWPID | CLONE_NEWIPC | CLONE_NEWNS | CLONE_NEWUTS | CLONE_NEWNET |
		     SIGCHLD;
	ino_t host_ns[AW_NSCOPES];
	for (int s = 0; s < AW_NSCOPES; s++)
		host_ns[s] = aw_ns_ino((enum aw_sysctl_scope)s);

	if (userns)
		flags |= CLONE_NEWUSER;
	if (pipe2(sync, O_CLOEXEC) != 0)
		return -errno;
	if (pipe2(result, O_CLOEXEC) != 0) {
		int e = -errno;
		close(sync[0]);
		close(sync[1]);
		return e;
	}
	fflush(NULL); /* the child must not inherit unwritten output */
	pid_t pid = (pid_t)syscall(SYS_clone, flags, NULL, NULL, NULL, 0);
	if (pid == 0) {
		close(sync[1]);
		close(result[0]);
		ns_init(ref, sync[0], result[1], hd, host_ns);
	}
	int err = pid < 0 ? -errno : 0;
	close(sync[0]);
	close(result[1]);
	if (pid > 0) {
		setpgid(pid, pid);
		if (userns && map_ids(pid) != 0)
			err = -errno;
		if (err == 0 && write(sync[1], "g", 1) != 1)
			err = -errno;
		if (err != 0) {
			kill(pid, SIGKILL);
			waitpid(pid, NULL, 0);
		}
	}
	close(sync[1]);
	if (err != 0) {
		close(result[0]);
		return err;
	}
	c->pid = pid;
	c->result_fd = result[0];
	return 0;
}

struct collector {
	struct aw_probe_result *r;
	char *buf;
	size_t len;
	bool overlong;
};

static void feed(struct collector *col, const char *data, size_t n)
{
	col->buf = xrealloc(col->buf, col->len + n + 1);
	memcpy(col->buf + col->len, data, n);
	col->len += n;
	col->buf[col->len] = '\0';

	char *start = col->buf, *nl;
	while ((nl = memchr(start, '\n', col->len - (size_t)(start - col->buf)))) {
		*nl = '\0';
		if (!col->overlong)
			aw_protocol_apply(col->r, start);
		col->overlong = false;
		start = nl + 1;
	}
	col->len -= (size_t)(start - col->buf);
	memmove(col->buf, start, col->len);
	if (col->len > MAX_LINE && !col->overlong) {
		aw_probe_result_note(col->r, "protocol error: a report line over 1 MiB was dropped");
		col->overlong = true;
		col->len = 0;
	}
}

enum ending { ENDED, TIMED_OUT, LEFT_BEHIND };

enum read_result { READ_DATA, READ_AGAIN, READ_END };

static enum read_result read_some(struct child *c, struct collector *col)
{
	char data[65536];
	ssize_t n = read(c->result_fd, data, sizeof(data));
	if (n > 0) {
		feed(col, data, (size_t)n);
		return READ_DATA;
	}
	if (n < 0 && (errno == EINTR || errno == EAGAIN))
		return READ_AGAIN;
	return READ_END;
}

static bool reaped(pid_t pid)
{
	int status;
	return waitpid(pid, &status, WNOHANG) == pid;
}

/* End a probe that ran out of time.  A FUSE mount it made itself is
 * aborted first, since a request its daemon never answers would keep a
 * process unkillable; who is stuck elsewhere is returned for the report. */
static char *kill_namespace(struct child *c, struct aw_probe_result *r)
{
	int aborted = aw_abort_own_fuse(c->pid);
	if (aborted > 0) {
		char *note = xasprintf("aborted %d FUSE connection%s the probe had made",
				       aborted, aborted == 1 ? "" : "s");
		aw_probe_result_note(r, note);
		free(note);
	}
	char *stuck = aw_describe_stuck(c->pid);
	kill(-c->pid, SIGKILL);
	kill(c->pid, SIGKILL);
	return stuck;
}

/* A probe in flight: its namespace, what it reported so far, its clock. */
struct flight {
	size_t index;        /* in the run's order */
	struct child c;
	struct collector col;
	struct aw_hostdir hd;
	int pidfd;           /* -1 before 5.3: then the loop looks every 10 ms */
	bool open;           /* the result pipe has not reached its end */
	double start, timeout, deadline;
	enum ending how;
	char *stuck;
	bool retry;          /* the second try, alone, after a timeout */
	bool cut;            /* its deadline is the run's end, not its own */
	struct aw_load_mark load0;
	/* At three quarters of its time the probe's CPU time is looked at,
	 * and again at the deadline: a probe that used none since, with no
	 * process runnable, is blocked (a hang), not starved. */
	double look_at;
	bool looked, working;
	unsigned long long ticks_at_look;
};

/* Take what the probe sent and see whether it ended: true once init is
 * reaped or given up.  At the deadline the namespace is killed; if it
 * still cannot be reaped after a grace period (a process in
 * uninterruptible sleep), it is left behind and the run goes on. */
static bool advance(struct flight *f)
{
	if (f->open)
		f->open = read_some(&f->c, &f->col) != READ_END;
	if (reaped(f->c.pid)) {
		/* No writer is left, so this ends. */
		while (f->open && read_some(&f->c, &f->col) == READ_DATA)
			;
		return true;
	}
	if (!f->looked && aw_steady_now() >= f->look_at) {
		f->ticks_at_look = aw_pidns_activity(f->c.pid).ticks;
		f->looked = true;
	}
	if (aw_steady_now() < f->deadline)
		return false;
	if (f->how != ENDED) {
		/* A FUSE wait turns uninterruptible only once the SIGKILL
		 * arrives, so look again now. */
		if (!f->stuck)
			f->stuck = aw_describe_stuck(f->c.pid);
		f->how = LEFT_BEHIND;
		return true;
	}
	struct aw_pidns_activity a = aw_pidns_activity(f->c.pid);
	f->working = a.runnable || (f->looked && a.ticks > f->ticks_at_look);
	f->stuck = kill_namespace(&f->c, f->col.r);
	f->how = TIMED_OUT;
	/* A namespace of loop-mounted filesystems takes longer to go on a
	 * slow machine. */
	f->deadline = aw_steady_now() + REAP_GRACE_S * run_slowness;
	return false;
}

/* Wait until a probe in flight sends something, one ends, or the first
 * deadline comes. */
static void wait_for_news(struct flight *const *fl, size_t n)
{
	struct pollfd pfd[2 * n];
	size_t np = 0;
	double first = INFINITY;
	bool blind = false;
	for (size_t i = 0; i < n; i++) {
		if (fl[i]->open)
			pfd[np++] = (struct pollfd){ .fd = fl[i]->c.result_fd, .events = POLLIN };
		if (fl[i]->pidfd >= 0)
			pfd[np++] = (struct pollfd){ .fd = fl[i]->pidfd, .events = POLLIN };
		else
			blind = true;
		if (fl[i]->deadline < first)
			first = fl[i]->deadline;
		if (!fl[i]->looked && fl[i]->look_at < first)
			first = fl[i]->look_at;
	}
	double left = first - aw_steady_now();
	if (left > AW_STEADY_POLL_S)
		left = AW_STEADY_POLL_S;
	int ms = left > 0 ? (int)(left * 1000) + 1 : 0;
	/* Without a pidfd (kernels before 5.3), look again every 10 ms. */
	if (blind && ms > 10)
		ms = 10;
	(void)poll(pfd, np, ms);
}

/* A probe the machine did not give the time it needed: a skip for the
 * cause load, which diff and check take for "not comparable". */
static void settle_starved(struct aw_probe_result *r, const char *why)
{
	r->status = AW_ST_SKIP;
	free(r->reason);
	r->reason = aw_cause_reason("load", why);
	aw_probe_result_settle(r, AW_ST_SKIP, r->reason);
}

static void settle(struct aw_probe_result *r, enum ending how, double timeout_s)
{
	if (how != ENDED) {
		r->status = AW_ST_TIMEOUT;
		free(r->reason);
		r->reason = xasprintf("no result within %g s", timeout_s);
		aw_probe_result_settle(r, AW_ST_TIMEOUT, "the probe timed out before reporting this");
		return;
	}
	if (r->status == AW_ST_NONE) {
		r->status = AW_ST_ERROR;
		free(r->reason);
		r->reason = xstrdup("crashed: the probe's namespace ended without a result");
	}
	if (r->status == AW_ST_ERROR && r->end.how == AW_END_EXIT &&
	    r->end.code == EXIT_NO_ISOLATION) {
		/* The isolation could not be built: nothing was tried. */
		r->status = AW_ST_SKIP;
		free(r->reason);
		r->reason = xstrdup(r->nnotes ? r->notes[r->nnotes - 1]
				    : "isolation: could not set up the probe's namespaces");
		aw_probe_result_settle(r, AW_ST_SKIP, r->reason);
		return;
	}
	if (r->status == AW_ST_ERROR) {
		char *why = xasprintf("not reported: the probe %s", r->reason);
		aw_probe_result_settle(r, AW_ST_ERROR, why);
		free(why);
		return;
	}
	aw_probe_result_settle(r, AW_ST_ERROR, "the probe ended without reporting this");
}

/* Why the probe's namespaces could not be made: without CAP_SYS_ADMIN
 * they hang on a user namespace, and where none may be made (a sysctl,
 * a container) the machine is the cause. */
static char *cannot_isolate(int err)
{
	char *why = xasprintf("cannot create private namespaces: %s", strerror(err));
	if (!needs_userns() || (err != EPERM && err != EACCES && err != ENOSPC && err != EINVAL))
		return why;
	char *caused = aw_cause_reason("userns", why);
	free(why);
	return caused;
}

/* The user's --timeout is the user's bound; a probe's own is made for an
 * idle guest and stretches with the machine's slowness, twice that for
 * the second try. */
static double probe_timeout(const struct aw_probe_ref *ref, const struct aw_runner_opts *opts,
			    double slowness, bool retry)
{
	if (opts->timeout_s > 0)
		return opts->timeout_s;
	return aw_params_timeout(run_params, ref->family, ref->probe) * slowness * (retry ? RETRY_STRETCH : 1);
}

/* The slowness a try runs at: the run's, or for a second try what the
 * machine shows now if it is slower. */
static double try_slowness(bool retry)
{
	double now = retry ? aw_slowness_now() : 0;
	return now > run_slowness ? now : run_slowness;
}

/* Why the probe was starved, or NULL: its time was the run's end (a
 * guest's time was up), or it ran out of time twice, the second time
 * alone, while it was working and the machine was loaded. */
static char *starved_why(const struct flight *f)
{
	if (f->how != TIMED_OUT)
		return NULL;
	if (f->cut)
		return xasprintf("starved: no result when the run's time was up, %.0f s after it "
				 "began", f->deadline - run_begin);
	if (!f->retry || !f->working)
		return NULL;
	char *load = aw_load_since(&f->load0);
	if (!load)
		return NULL;
	char *why = xasprintf("starved: no result within %g s while the machine was loaded (%s), "
			      "on its second try, alone", f->timeout, load);
	free(load);
	return why;
}

/* Start the probe, or settle it at once as a skip (what it needs is not
 * here, its namespaces cannot be made): NULL then. */
static struct flight *take_off(const struct aw_probe_ref *ref, size_t index,
			       const struct aw_runner_opts *opts, struct aw_probe_result *r, bool retry)
{
	double start = aw_now();
	char *why = unmet_needs(ref->probe);
	struct aw_hostdir hd = { .dirfd = -1, .hold_fd = -1, .janitor = -1 };
	struct child c = { 0 };
	int err;

	if (!retry)
		aw_probe_result_init(r, ref);
	double steady = aw_steady_now();
	if (!why && steady >= run_end) {
		char *late = xasprintf("starved: not started: the run's time was up, %.0f s after "
				       "it began", run_end - run_begin);
		settle_starved(r, late);
		free(late);
		r->seconds = 0;
		return NULL;
	}
	double slowness = try_slowness(retry);
	/* The probe's own time bounds (its children's, its programs') follow
	 * the same slowness: it inherits this across the fork. */
	aw_deadline_stretch_set(opts->timeout_s > 0 ? 1 : slowness);
	if (!why && ref->probe->host_path)
		(void)aw_hostdir_make(ref->probe->host_path, &hd, &why);
	if (!why && (err = spawn(ref, &hd, &c)) != 0)
		why = cannot_isolate(-err);
	if (why) {
		free(aw_hostdir_release(&hd, true));
		r->status = AW_ST_SKIP;
		r->reason = why;
		aw_probe_result_settle(r, AW_ST_SKIP, why);
		r->seconds = aw_now() - start;
		return NULL;
	}
	struct flight *f = xcalloc(1, sizeof(*f));
	*f = (struct flight){
		.index = index, .c = c, .col = { .r = r }, .hd = hd, .open = true,
		.start = start, .timeout = probe_timeout(ref, opts, slowness, retry),
		.pidfd = (int)syscall(SYS_pidfd_open, c.pid, 0),
		.retry = retry, .load0 = aw_load_mark_now(),
	};
	f->deadline = aw_steady_now() + f->timeout;
	if (f->deadline > run_end) {
		f->deadline = run_end;
		f->cut = true;
	}
	f->look_at = steady + (f->deadline - steady) * 0.75;
	fcntl(c.result_fd, F_SETFL, O_NONBLOCK);
	return f;
}

/* Let go of what the flight held; what the host directory's janitor
 * said becomes a note.  The directory lost meanwhile, malloc'd, or NULL. */
static char *ground(struct flight *f)
{
	struct aw_probe_result *r = f->col.r;
	const char *host_path = r->ref.probe->host_path;

	if (f->pidfd >= 0)
		close(f->pidfd);
	close(f->c.result_fd);
	if (f->how == LEFT_BEHIND) {
		char *note = xasprintf("the probe's processes did not exit after SIGKILL; "
				       "abiwatch carried on without them%s%s",
				       f->stuck ? ": " : "", f->stuck ? f->stuck : "");
		aw_probe_result_note(r, note);
		free(note);
	}
	char *lost = aw_hostdir_lost(host_path, &f->hd);
	/* Only a namespace that was reaped has let go of the pipe. */
	char *left = aw_hostdir_release(&f->hd, f->how != LEFT_BEHIND);
	if (left) {
		char *note = xasprintf("clean-up: the scratch directory %s/%s", host_path, left);
		aw_probe_result_note(r, note);
		free(note);
		free(left);
	}
	free(f->col.buf);
	free(f->stuck);
	return lost;
}

/* The probe has ended (or was left behind): its result, settled. */
static void land(struct flight *f)
{
	struct aw_probe_result *r = f->col.r;
	char *lost = ground(f);
	char *starved = starved_why(f);
	if (starved)
		settle_starved(r, starved);
	else
		settle(r, f->how, f->timeout);
	free(starved);
	if (lost)
		aw_probe_result_void(r, lost);
	free(lost);
	r->seconds = aw_now() - f->start;
	free(f);
}

/* Whether a probe that ran out of its own time gets a second try, alone:
 * the first may have been slowed by what ran beside it or by a moment's
 * load.  Not past the user's --timeout, nor past the run's end, nor for
 * a probe whose processes would not die. */
static bool deserves_retry(const struct flight *f, const struct aw_runner_opts *opts)
{
	return f->how == TIMED_OUT && !f->retry && !f->cut && opts->timeout_s <= 0;
}

/* Forget the first try; the result starts again with a note of it. */
static void clear_for_retry(struct flight *f, size_t beside)
{
	struct aw_probe_result *r = f->col.r;
	free(ground(f));
	struct aw_probe_ref ref = r->ref;
	aw_probe_result_reset(r, &ref);
	char *note = xasprintf("ran again alone: the first try had no result within %g s%s", f->timeout,
			       beside ? ", beside other probes" : "");
	aw_probe_result_note(r, note);
	free(note);
	free(f);
}

/* The probes in flight and how the run hands results on. */
struct schedule {
	const struct aw_probe_ref *refs;
	size_t n;
	const struct aw_runner_opts *opts;
	struct aw_run *run;
	bool *done;
	size_t next_start, next_out;
	struct flight **fl;
	size_t nfl;
	size_t *retry;  /* probes that ran out of time, waiting to run alone */
	size_t nretry;
};

/* Results go out in the run's order, each as soon as those before it
 * have, so that KTAP streams the same whatever ran beside what. */
static void hand_on(struct schedule *s, size_t index)
{
	s->done[index] = true;
	while (s->next_out < s->n && s->done[s->next_out]) {
		if (s->opts->probe_done)
			s->opts->probe_done(&s->run->probes[s->next_out], s->opts->arg);
		s->next_out++;
	}
}

static bool alone(const struct aw_probe_ref *ref)
{
	return ref->probe->alone != NULL;
}

/* Whether the next probe may start now: a slot is free, and neither it
 * nor one in flight must run alone. */
/* Whether the next probe may start now: a slot is free, no second try
 * waits for the others to end, and neither it nor one in flight must run
 * alone (a second try must too). */
static bool may_start(const struct schedule *s, unsigned jobs)
{
	if (s->next_start >= s->n || s->nfl >= jobs || s->nretry)
		return false;
	if (s->nfl == 0)
		return true;
	if (alone(&s->refs[s->next_start]))
		return false;
	for (size_t i = 0; i < s->nfl; i++)
		if (alone(&s->refs[s->fl[i]->index]) || s->fl[i]->retry)
			return false;
	return true;
}

static void start(struct schedule *s, size_t i, bool retry)
{
	struct flight *f = take_off(&s->refs[i], i, s->opts, &s->run->probes[i], retry);
	if (f)
		s->fl[s->nfl++] = f;
	else
		hand_on(s, i);
}

/* A second try starts as soon as nothing else is in flight. */
static void start_what_may(struct schedule *s, unsigned jobs)
{
	while (s->nretry && s->nfl == 0)
		start(s, s->retry[--s->nretry], true);
	while (may_start(s, jobs))
		start(s, s->next_start++, false);
}

/* Land every probe in flight that has ended; how many did. */
static size_t land_ended(struct schedule *s)
{
	size_t landed = 0;
	for (size_t i = 0; i < s->nfl;) {
		struct flight *f = s->fl[i];
		if (!advance(f)) {
			i++;
			continue;
		}
		size_t index = f->index;
		s->fl[i] = s->fl[--s->nfl];
		landed++;
		if (deserves_retry(f, s->opts)) {
			clear_for_retry(f, s->nfl);
			s->retry[s->nretry++] = index;
			continue;
		}
		land(f);
		hand_on(s, index);
	}
	return landed;
}

/* The run's shared directory (aw_run_dirfd()): a tmpfs made and mounted
 * with the new mount API but attached nowhere, so that no mount table,
 * the host's or a probe's, shows it and nothing is left when its last
 * descriptor goes.  It needs CAP_SYS_ADMIN and Linux 5.2; -1 otherwise,
 * and each probe makes what it needs itself. */
static int make_run_dir(void)
{
#if defined(SYS_fsopen) && defined(SYS_fsconfig) && defined(SYS_fsmount)
	if (needs_userns())
		return -1;
	int fs = (int)syscall(SYS_fsopen, "tmpfs", FSOPEN_CLOEXEC);
	if (fs < 0)
		return -1;
	int mnt = -1;
	if (syscall(SYS_fsconfig, fs, FSCONFIG_SET_STRING, "mode", "0700", 0) == 0 &&
	    syscall(SYS_fsconfig, fs, FSCONFIG_CMD_CREATE, NULL, NULL, 0) == 0)
		mnt = (int)syscall(SYS_fsmount, fs, FSMOUNT_CLOEXEC,
				   MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV | MOUNT_ATTR_NOEXEC);
	close(fs);
	return mnt;
#else
	return -1;
#endif
}

/* The run's slowness, measured now (not needed under the user's
 * --timeout), and when its time is up. */
static void set_pace(const struct aw_runner_opts *opts)
{
	run_begin = aw_steady_now();
	run_slowness = opts->timeout_s > 0 ? 1 : aw_slowness_now();
	run_end = opts->budget_s > 0 ? run_begin + opts->budget_s : INFINITY;
	aw_deadline_stretch_set(run_slowness);
}

/* env.load: which probes the machine starved, so that a snapshot says
 * it is not whole; nothing on a run that starved none. */
static void note_starved(struct aw_run *run)
{
	char *names = NULL;
	size_t n = 0;
	for (size_t i = 0; i < run->nprobes; i++) {
		char cause[AW_CAUSE_MAX];
		const char *why;
		const struct aw_probe_result *r = &run->probes[i];
		if (r->status != AW_ST_SKIP || !aw_reason_cause(r->reason, cause, &why) ||
		    strcmp(cause, "load") != 0)
			continue;
		char *more = xasprintf("%s%s%s", names ? names : "", names ? " " : "", r->fullname);
		free(names);
		names = more;
		n++;
	}
	if (!n)
		return;
	char *value = xasprintf("starved %zu of %zu probes: %s", n, run->nprobes, names);
	aw_env_set(&run->env, "load", value);
	free(value);
	free(names);
}

void aw_run_probes(const struct aw_probe_ref *refs, size_t n,
		   const struct aw_runner_opts *opts, struct aw_run *run)
{
	unsigned jobs = opts->jobs > 1 ? opts->jobs : 1;
	run_params = opts->params;
	/* First: the i386 answer's helper runs with a deadline too. */
	set_pace(opts);
	/* Here, so that every probe inherits the one answer. */
	aw_i386_decide();
	run_in_guest = aw_in_vm_guest();
	run_dirfd = make_run_dir();
	run->probes = xcalloc(n, sizeof(*run->probes));
	run->nprobes = n;

	struct schedule s = {
		.refs = refs, .n = n, .opts = opts, .run = run,
		.done = xcalloc(n ? n : 1, sizeof(bool)),
		.fl = xcalloc(jobs, sizeof(struct flight *)),
		.retry = xcalloc(n ? n : 1, sizeof(size_t)),
	};
	for (;;) {
		start_what_may(&s, jobs);
		if (s.nfl == 0)
			break;
		if (land_ended(&s) == 0)
			wait_for_news(s.fl, s.nfl);
	}
	note_starved(run);
	free(s.done);
	free(s.fl);
	free(s.retry);
	if (run_dirfd >= 0)
		close(run_dirfd);
	run_dirfd = -1;
}

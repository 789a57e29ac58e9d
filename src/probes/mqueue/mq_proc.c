// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Processes, identities, signals and deadlines for the mqueue probes.
 *
 * Several contracts are about two processes (a sender and a receiver, the
 * owner of a notification and another process) or about an identity the
 * probe does not have (an unprivileged uid, root of a user namespace).
 * Those parts run in forked children of the probe; they report back
 * through their exit status or shared memory, never through aw_*().
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "mq_util.h"

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <linux/netlink.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/prctl.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

pid_t mqu_child_start(mqu_child_fn fn, void *arg)
{
	pid_t parent = getpid();
	pid_t pid = fork();

	if (pid < 0)
		return -errno;
	if (pid == 0) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (getppid() != parent)
			_exit(127);
		_exit(fn(arg) & 0xff);
	}
	return pid;
}

int mqu_child_wait(pid_t pid, int timeout_ms)
{
	struct timespec start, now;
	int status;

	clock_gettime(CLOCK_MONOTONIC, &start);
	for (;;) {
		pid_t w = waitpid(pid, &status, WNOHANG);
		if (w == pid)
			break;
		if (w < 0 && errno != EINTR)
			return -errno;
		clock_gettime(CLOCK_MONOTONIC, &now);
		long ms = (now.tv_sec - start.tv_sec) * 1000 + (now.tv_nsec - start.tv_nsec) / 1000000;
		if (ms >= timeout_ms) {
			kill(pid, SIGKILL);
			while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
				;
			return -ETIMEDOUT;
		}
		mqu_sleep_ms(1);
	}
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return WEXITSTATUS(status);
}

int mqu_child_run(mqu_child_fn fn, void *arg, int timeout_ms)
{
	pid_t pid = mqu_child_start(fn, arg);

	return pid < 0 ? (int)pid : mqu_child_wait(pid, timeout_ms);
}

void *mqu_shared_alloc(size_t size)
{
	void *p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);

	return p == MAP_FAILED ? NULL : p;
}

void mqu_shared_free(void *p, size_t size)
{
	if (p)
		munmap(p, size);
}

/* Whether id is mapped in this process's user namespace (file is
 * "uid_map" or "gid_map"). */
static bool id_mapped(const char *file, unsigned long id)
{
	char path[32];
	unsigned long inside, outside, count;
	bool mapped = false;

	snprintf(path, sizeof(path), "/proc/self/%s", file);
	FILE *f = fopen(path, "re");
	if (!f)
		return true; /* no user namespaces: every id exists */
	while (!mapped && fscanf(f, "%lu %lu %lu", &inside, &outside, &count) == 3)
		mapped = id >= inside && id - inside < count;
	fclose(f);
	return mapped;
}

int mqu_become_user(uid_t ruid, uid_t euid)
{
	if (!id_mapped("uid_map", ruid) || !id_mapped("uid_map", euid) ||
	    !id_mapped("gid_map", ruid) || !id_mapped("gid_map", euid))
		return -EINVAL;
	if (setgroups(0, NULL) != 0 ||
	    setresgid((gid_t)ruid, (gid_t)euid, (gid_t)euid) != 0 ||
	    setresuid(ruid, euid, euid) != 0)
		return -errno;
	/* A change of uid makes the process non-dumpable, which hands its
	 * /proc/self files to root; it needs them to write a uid_map. */
	if (prctl(PR_SET_DUMPABLE, 1) != 0)
		return -errno;
	return 0;
}

const char *mqu_become_user_why(int rc)
{
	static __thread char buf[160];

	if (rc == -EINVAL)
		return "uid 65534 is not mapped in the probe's user namespace (abiwatch runs "
		       "without CAP_SYS_ADMIN), so no unprivileged uid can be tested";
	snprintf(buf, sizeof(buf), "switching to uid %d: %s%s", MQU_NOBODY, aw_errname(rc),
		 rc == -EPERM ? " (CAP_SETUID or CAP_SETGID is missing)" : "");
	return buf;
}

void mqu_child_become(uid_t ruid, uid_t euid)
{
	int rc = mqu_become_user(ruid, euid);

	if (rc)
		_exit(MQU_EXIT_BECOME + (-rc < 64 ? -rc : 63));
}

int mqu_become_failed(int status)
{
	return status > MQU_EXIT_BECOME && status < MQU_EXIT_BECOME + 64 ?
	       -(status - MQU_EXIT_BECOME) : 0;
}

static int write_proc(const char *name, const char *text)
{
	char path[64];
	int err = 0;

	snprintf(path, sizeof(path), "/proc/self/%s", name);
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	ssize_t n = write(fd, text, strlen(text));
	if (n < 0)
		err = -errno;
	else if ((size_t)n != strlen(text))
		err = -EIO;
	close(fd);
	return err;
}

int mqu_enter_userns(int extra_flags)
{
	char map[32];
	uid_t uid = geteuid();
	gid_t gid = getegid();
	int rc;

	if (unshare(CLONE_NEWUSER | extra_flags) != 0)
		return -errno;
	snprintf(map, sizeof(map), "0 %u 1\n", (unsigned)uid);
	if ((rc = write_proc("uid_map", map)) != 0)
		return rc;
	/* An unprivileged writer of gid_map must first give up setgroups(). */
	if ((rc = write_proc("setgroups", "deny")) != 0 && rc != -ENOENT)
		return rc;
	snprintf(map, sizeof(map), "0 %u 1\n", (unsigned)gid);
	return write_proc("gid_map", map);
}

int mqu_wait_blocked(pid_t pid, long nr, int timeout_ms)
{
	char path[64], text[256];

	snprintf(path, sizeof(path), "/proc/%d/syscall", (int)pid);
	for (int waited = 0; waited <= timeout_ms; waited++) {
		int fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			return -errno;
		ssize_t n = read(fd, text, sizeof(text) - 1);
		int err = n < 0 ? -errno : 0;
		close(fd);
		if (err)
			return err;
		text[n] = '\0';
		long cur;
		if (mqu_parse_proc_syscall(text, &cur) == 0 && cur == nr)
			return 0;
		mqu_sleep_ms(1);
	}
	return -ETIMEDOUT;
}

int mqu_block_signal(int sig)
{
	sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, sig);
	return sigprocmask(SIG_BLOCK, &set, NULL) == 0 ? 0 : -errno;
}

int mqu_wait_signal(int sig, int ms, siginfo_t *si)
{
	struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000 };
	sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, sig);
	memset(si, 0, sizeof(*si));
	for (;;) {
		if (sigtimedwait(&set, si, &ts) == sig)
			return 1;
		if (errno == EAGAIN)
			return 0;
		if (errno != EINTR)
			return -errno;
	}
}

void mqu_flush_signal(int sig)
{
	siginfo_t si;

	while (mqu_wait_signal(sig, 0, &si) == 1)
		;
}

struct timespec mqu_deadline_ms(long ms)
{
	struct timespec t;

	clock_gettime(CLOCK_REALTIME, &t);
	long long ns = (long long)t.tv_nsec + (long long)ms * 1000000;
	t.tv_sec += (time_t)(ns / 1000000000);
	ns %= 1000000000;
	if (ns < 0) {
		ns += 1000000000;
		t.tv_sec--;
	}
	t.tv_nsec = (long)ns;
	return t;
}

bool mqu_realtime_reached(const struct timespec *t)
{
	struct timespec now;

	clock_gettime(CLOCK_REALTIME, &now);
	return now.tv_sec > t->tv_sec || (now.tv_sec == t->tv_sec && now.tv_nsec >= t->tv_nsec);
}

void mqu_sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000 };

	while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
		;
}

volatile sig_atomic_t mqu_signal_count;

static void count_handler(int sig)
{
	(void)sig;
	mqu_signal_count++;
}

int mqu_count_signal(int sig, int flags)
{
	struct sigaction sa = { .sa_handler = count_handler, .sa_flags = flags };

	sigemptyset(&sa.sa_mask);
	mqu_signal_count = 0;
	return sigaction(sig, &sa, NULL) == 0 ? 0 : -errno;
}

int mqu_alarm_ms(long ms)
{
	struct timeval tv = { ms / 1000, (ms % 1000) * 1000 };
	struct itimerval it = { .it_interval = tv, .it_value = tv };

	return setitimer(ITIMER_REAL, &it, NULL) == 0 ? 0 : -errno;
}

void mqu_alarm_cancel(void)
{
	struct itimerval off = { { 0, 0 }, { 0, 0 } };

	setitimer(ITIMER_REAL, &off, NULL);
}

int mqu_notify_netlink(mqd_t q)
{
	static char cookie[32]; /* NOTIFY_COOKIE_LEN, include/uapi/linux/mqueue.h */
	struct sigevent ev;
	int sock = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_ROUTE);

	if (sock < 0)
		return -errno;
	memset(&ev, 0, sizeof(ev));
	ev.sigev_notify = SIGEV_THREAD;
	ev.sigev_signo = sock;
	ev.sigev_value.sival_ptr = cookie;
	if (syscall(SYS_mq_notify, q, &ev) != 0) {
		int rc = -errno;
		close(sock);
		return rc;
	}
	return sock;
}

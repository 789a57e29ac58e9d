// SPDX-License-Identifier: GPL-2.0-or-later
/* Children of a probe: see child.h. */
#include "child.h"
#include "errname.h"
#include "proc.h"
#include "signals.h"
#include "util.h"
#include "lib/procfs.h"
#include "steady.h"

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <sched.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

/* In the child: arm PR_SET_PDEATHSIG, take the identity (ids NULL: keep
 * it), and tell the parent through ready whether that worked. */
static __attribute__((noreturn)) void child_main(pid_t parent, const uid_t *ids, int ready,
						 aw_child_fn fn, void *arg)
{
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	/* The parent died before the line above: nobody would kill us. */
	if (getppid() != parent)
		_exit(127);
	int rc = ids ? aw_become_user(ids[0], ids[1]) : 0;
	if (rc) {
		(void)!write(ready, &rc, sizeof(rc));
		_exit(127);
	}
	close(ready);
	_exit(fn(arg) & 0xff);
}

/* Fork, and return once the child runs fn: its pid, or -errno (with
 * *refused set when the identity was refused). */
static pid_t start(const uid_t *ids, aw_child_fn fn, void *arg, int *refused)
{
	int ready[2];
	pid_t parent = getpid();

	if (refused)
		*refused = 0;
	if (pipe2(ready, O_CLOEXEC) != 0)
		return -errno;
	fflush(NULL); /* the child must not write the parent's buffered output again */
	pid_t pid = fork();
	if (pid == 0) {
		close(ready[0]);
		child_main(parent, ids, ready[1], fn, arg);
	}
	int err = pid < 0 ? -errno : 0;
	close(ready[1]);
	ssize_t n = 0;
	while (pid > 0 && (n = read(ready[0], &err, sizeof(err))) < 0 && errno == EINTR)
		;
	close(ready[0]);
	if (pid > 0 && n == (ssize_t)sizeof(err)) {
		aw_kill_reap(pid);
		if (refused)
			*refused = err;
		return err;
	}
	return pid > 0 ? pid : err;
}

pid_t aw_child_start(aw_child_fn fn, void *arg)
{
	return start(NULL, fn, arg, NULL);
}

pid_t aw_child_start_as(uid_t ruid, uid_t euid, aw_child_fn fn, void *arg, int *refused)
{
	const uid_t ids[2] = { ruid, euid };
	return start(ids, fn, arg, refused);
}

struct aw_child_end aw_child_reap(pid_t pid, int timeout_ms)
{
	double deadline = timeout_ms < 0 ? 0
			  : aw_now() + timeout_ms / 1000.0 * aw_deadline_stretch();
	int status;
	int rc = aw_wait_until(pid, deadline, &status);

	if (rc < 0)
		return (struct aw_child_end){ AW_CHILD_WAIT_FAILED, errno };
	if (rc == 0) {
		aw_kill_reap(pid);
		return (struct aw_child_end){ AW_CHILD_TIMED_OUT, 0 };
	}
	/* Without WUNTRACED waitpid reports no stop: it exited or was killed. */
	if (WIFSIGNALED(status))
		return (struct aw_child_end){ AW_CHILD_KILLED, WTERMSIG(status) };
	return (struct aw_child_end){ AW_CHILD_EXITED, WEXITSTATUS(status) };
}

bool aw_child_end_ok(struct aw_child_end end)
{
	return end.how == AW_CHILD_EXITED && end.code == 0;
}

int aw_child_wait(pid_t pid, int timeout_ms)
{
	struct aw_child_end end = aw_child_reap(pid, timeout_ms);

	switch (end.how) {
	case AW_CHILD_EXITED:
		return end.code;
	case AW_CHILD_KILLED:
		return 128 + end.code;
	case AW_CHILD_TIMED_OUT:
		return -ETIMEDOUT;
	default:
		return -end.code;
	}
}

int aw_child_run(aw_child_fn fn, void *arg, int timeout_ms)
{
	pid_t pid = aw_child_start(fn, arg);
	return pid < 0 ? (int)pid : aw_child_wait(pid, timeout_ms);
}

int aw_child_run_as(uid_t ruid, uid_t euid, aw_child_fn fn, void *arg, int timeout_ms,
		    int *refused)
{
	pid_t pid = aw_child_start_as(ruid, euid, fn, arg, refused);
	return pid < 0 ? (int)pid : aw_child_wait(pid, timeout_ms);
}

void *aw_shared_alloc(size_t size)
{
	void *p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	return p == MAP_FAILED ? NULL : p;
}

void aw_shared_free(void *p, size_t size)
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

int aw_become_user(uid_t ruid, uid_t euid)
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

const char *aw_become_user_why(int rc)
{
	static __thread char buf[160];

	if (rc == -EINVAL)
		return "uid 65534 is not mapped in the probe's user namespace (abiwatch runs "
		       "without CAP_SYS_ADMIN), so no unprivileged uid can be tested";
	snprintf(buf, sizeof(buf), "switching to uid %d: %s%s", AW_NOBODY, aw_errname(rc),
		 rc == -EPERM ? " (CAP_SETUID or CAP_SETGID is missing)" : "");
	return buf;
}

int aw_enter_userns(int extra_flags)
{
	char map[32];
	uid_t uid = geteuid();
	gid_t gid = getegid();
	int rc;

	if (unshare(CLONE_NEWUSER | extra_flags) != 0)
		return -errno;
	snprintf(map, sizeof(map), "0 %u 1\n", (unsigned)uid);
	if ((rc = aw_file_write("/proc/self/uid_map", map)) != 0)
		return rc;
	/* An unprivileged writer of gid_map must first give up setgroups(). */
	if ((rc = aw_file_write("/proc/self/setgroups", "deny")) != 0 && rc != -ENOENT)
		return rc;
	snprintf(map, sizeof(map), "0 %u 1\n", (unsigned)gid);
	return aw_file_write("/proc/self/gid_map", map);
}

int aw_parse_proc_syscall(const char *text, long *nr)
{
	char *end;

	if (!text)
		return -EINVAL;
	if (strncmp(text, "running", 7) == 0)
		return -EAGAIN;
	errno = 0;
	long v = strtol(text, &end, 10);
	if (errno || end == text || (*end != ' ' && *end != '\n' && *end != '\0'))
		return -EINVAL;
	*nr = v;
	return 0;
}

/* The system call pid sleeps in now: 0 with *nr, or -errno. */
static int current_syscall(const char *path, long *nr)
{
	char *text;
	size_t len;
	if (aw_file_slurp(path, &text, &len) != 0)
		return -errno;
	int rc = aw_parse_proc_syscall(text, nr);
	free(text);
	return rc;
}

int aw_wait_blocked(pid_t pid, long nr, int timeout_ms)
{
	char path[64];

	snprintf(path, sizeof(path), "/proc/%d/syscall", (int)pid);
	double tries = timeout_ms * aw_deadline_stretch();
	for (int waited = 0; waited <= tries; waited++) {
		long cur;
		int rc = current_syscall(path, &cur);
		if (rc == 0 && cur == nr)
			return 0;
		/* Not in a call yet, or in another one: look again. */
		if (rc && rc != -EAGAIN && rc != -EINVAL)
			return rc;
		aw_sleep_ms(1);
	}
	return -ETIMEDOUT;
}

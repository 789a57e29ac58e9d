// SPDX-License-Identifier: GPL-2.0-or-later
/* What the process family's probes share (process.h): running a program
 * and looking at it stopped, bounded waits, the words of statuses. */
#include "process.h"
#include "lib/errname.h"
#include "lib/maps.h"
#include "lib/procfs.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/personality.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#ifndef CAP_SYS_RAWIO
#define CAP_SYS_RAWIO 17
#endif

const char *process_signame(int sig)
{
	static __thread char buf[24];
	const char *abbrev = sigabbrev_np(sig);
	if (abbrev)
		snprintf(buf, sizeof(buf), "SIG%s", abbrev);
	else
		snprintf(buf, sizeof(buf), "signal %d", sig);
	return buf;
}

int process_waitpid(pid_t pid, int *status, int options, int timeout_ms)
{
	for (int waited = 0;; waited++) {
		pid_t w = waitpid(pid, status, options | WNOHANG);
		if (w == pid)
			return 1;
		if (w < 0 && errno != EINTR)
			return -errno;
		if (waited >= timeout_ms)
			return 0;
		nanosleep(&(struct timespec){ .tv_nsec = 1000000 }, NULL);
	}
}

const char *process_status_word(int status, char *buf, size_t size)
{
	if (WIFEXITED(status))
		snprintf(buf, size, "exit %d", WEXITSTATUS(status));
	else if (WIFSIGNALED(status))
		snprintf(buf, size, "killed by %s", process_signame(WTERMSIG(status)));
	else if (WIFSTOPPED(status))
		snprintf(buf, size, "stopped by %s", process_signame(WSTOPSIG(status)));
	else
		snprintf(buf, size, "status %#x", (unsigned)status);
	return buf;
}

const char *process_exec_word(const struct pexec *r, char *buf, size_t size)
{
	if (r->timed_out)
		snprintf(buf, size, "hung");
	else if (r->err)
		snprintf(buf, size, "%s", aw_errname(r->err));
	else if (r->stopped)
		snprintf(buf, size, "runs");
	else if (r->sig)
		snprintf(buf, size, "killed by %s", process_signame(r->sig));
	else
		snprintf(buf, size, r->status ? "exit %d" : "runs", r->status);
	return buf;
}

static void look_at(pid_t pid, const struct pexec_how *how, struct pexec *r)
{
	char path[64], *text = NULL;
	size_t len = 0;
	struct aw_map m;

	snprintf(path, sizeof(path), "/proc/%d/maps", (int)pid);
	if (aw_file_slurp(path, &text, &len) == 0) {
		if (aw_maps_by_name(text, len, "[stack]", &m) == 0) {
			memcpy(r->stack, m.perms, sizeof(r->stack));
			r->stack_end = m.end;
		}
		if (how->map_name && aw_maps_by_name(text, len, how->map_name, &m) == 0)
			r->load = m.start;
		free(text);
	}
	snprintf(path, sizeof(path), "/proc/%d/personality", (int)pid);
	if (aw_file_slurp(path, &text, &len) == 0) {
		r->persona = strtoul(text, NULL, 16);
		free(text);
	}
}

int process_exec(const char *path, char *const argv[], char *const envp[],
		 const struct pexec_how *how, struct pexec *r)
{
	int p[2];
	memset(r, 0, sizeof(*r));
	if (pipe2(p, O_CLOEXEC) != 0)
		return -errno;
	pid_t pid = fork();
	if (pid < 0) {
		int e = -errno;
		close(p[0]);
		close(p[1]);
		return e;
	}
	if (pid == 0) {
		close(p[0]);
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		/* root keeps no CAP_SYS_RAWIO across the exec: the bounding set */
		(void)prctl(PR_CAPBSET_DROP, CAP_SYS_RAWIO, 0, 0, 0);
		int null = open("/dev/null", O_RDWR);
		if (null >= 0) {
			dup2(null, 0);
			dup2(null, 1);
			dup2(null, 2);
		}
		if (how->stack_limit) {
			struct rlimit rl;
			getrlimit(RLIMIT_STACK, &rl);
			rl.rlim_cur = how->stack_limit;
			if (rl.rlim_max != RLIM_INFINITY && rl.rlim_max < rl.rlim_cur)
				rl.rlim_cur = rl.rlim_max;
			setrlimit(RLIMIT_STACK, &rl);
		}
		if (how->persona)
			personality(how->persona);
		execve(path, argv, envp);
		int e = errno;
		(void)!write(p[1], &e, sizeof(e));
		_exit(127);
	}
	close(p[1]);
	int e = 0;
	ssize_t n = read(p[0], &e, sizeof(e));
	close(p[0]);
	int status = 0;
	int rc = process_waitpid(pid, &status, WUNTRACED, PROCESS_CHILD_MS);
	if (rc <= 0) {
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
		r->timed_out = true;
		return 0;
	}
	if (n == (ssize_t)sizeof(e)) {
		r->err = e;
		return 0;
	}
	if (WIFSTOPPED(status)) {
		r->stopped = true;
		look_at(pid, how, r);
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
	} else if (WIFSIGNALED(status)) {
		r->sig = WTERMSIG(status);
	} else {
		r->status = WEXITSTATUS(status);
	}
	return 0;
}

/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The system calls of a table (x86_64.tbl, i386.tbl), made in a child
 * process so that whatever a call does to its caller (a umask, an alarm,
 * a session, a signal such as the SIGILL of uretprobe(2) called outside a
 * trampoline) dies with that process.  Shared by the probe and the
 * family's 32-bit helper, which include it; nothing here reports.
 */
#ifndef ABIWATCH_SURFACE_SWEEP_H
#define ABIWATCH_SURFACE_SWEEP_H

#include "lib/errname.h"

#include <errno.h>
#include <stdbool.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

/* A System V IPC key no one uses, for the *get calls without IPC_CREAT. */
#define KEY 0x61627773L
#define A(...) { __VA_ARGS__ }
#define BAD A(-1, -1, -1, -1, -1, -1)

/* A table row: SG rows carry the reason they are swept only in the
 * guest, NS rows the reason they are never swept.  Each user defines
 * SC, SG and NS itself before including a table (as rows, as items);
 * they cannot forward to another macro, whose arguments the commas of
 * an expanded A(...) would split. */
struct surface_call {
	const char *name;
	long nr;
	long args[6];
	const char *guest_only;
	const char *never;
};

/* Seconds a call may block before SIGALRM ends its process ("SIGALRM"
 * in the result: the arguments did not make it fail at once). */
#define SURFACE_CALL_S 2

/* What surface_sweep() leaves for a row it did not call. */
#define SURFACE_NOT_CALLED INT_MIN

/* Call every row of calls[0..n) but the never-swept ones and, unless
 * guest, the guest-only ones, in a child process: codes[i] is then 0
 * when the call returned a value (not kept: a pid or a time differs
 * between runs), its errno, or minus the signal that ended the child
 * during it, after which a new child goes on with the next row.  The
 * calls act on nothing but the child (a umask, an alarm, a session),
 * which exits after the last; it cannot dump core (not dumpable).
 * codes must be shared with the child: MAP_SHARED memory of n + 1 ints,
 * the last for the child's progress.  0, or -errno of fork or waitpid. */
static inline int surface_sweep(const struct surface_call *calls, size_t n, bool guest, int *codes)
{
	volatile int *progress = &codes[n];
	size_t start = 0;

	for (size_t i = 0; i < n; i++)
		codes[i] = SURFACE_NOT_CALLED;
	while (start < n) {
		*progress = -1;
		pid_t pid = fork();
		if (pid < 0)
			return -errno;
		if (pid == 0) {
			struct rlimit none = { 0, 0 };
			sigset_t empty;
			sigemptyset(&empty);
			sigprocmask(SIG_SETMASK, &empty, NULL);
			signal(SIGALRM, SIG_DFL);
			prctl(PR_SET_PDEATHSIG, SIGKILL);
			prctl(PR_SET_DUMPABLE, 0);
			setrlimit(RLIMIT_CORE, &none);
			setsid(); /* no controlling terminal to act on */
			for (size_t i = start; i < n; i++) {
				const struct surface_call *c = &calls[i];
				if (c->never || (c->guest_only && !guest))
					continue;
				*progress = (int)i;
				alarm(SURFACE_CALL_S);
				long r = syscall(c->nr, c->args[0], c->args[1], c->args[2], c->args[3],
						 c->args[4], c->args[5]);
				codes[i] = r >= 0 ? 0 : errno;
			}
			_exit(0);
		}
		int st;
		while (waitpid(pid, &st, 0) < 0)
			if (errno != EINTR)
				return -errno;
		if (!WIFSIGNALED(st) || *progress < 0 || (size_t)*progress < start)
			break;
		codes[*progress] = -WTERMSIG(st);
		start = (size_t)*progress + 1;
	}
	return 0;
}

/* A code of surface_sweep() as the result item reports it: "ok", the
 * errno's name, or the signal's ("SIGILL"). */
static inline const char *surface_result(int code, char *buf, size_t size)
{
	if (code == 0)
		return "ok";
	if (code > 0)
		return aw_errname(code);
	const char *abbrev = sigabbrev_np(-code);
	if (abbrev)
		snprintf(buf, size, "SIG%s", abbrev);
	else
		snprintf(buf, size, "signal %d", -code);
	return buf;
}

/* Calls a kernel may build and still answer ENOSYS, as a call it lacks
 * does, because a switch turns them off: the switch's file exists where
 * the call is built (a built-in's parameters are under /sys/module, mode
 * 0400 files in a 0755 directory, so that an unprivileged run sees them
 * too).  memfd_secret: mm/secretmem.c answers ENOSYS "if
 * (!secretmem_enable || !can_set_direct_map())"; secretmem.enable was
 * off by default until 6.5 (6.1's mm/secretmem.c: "static bool
 * secretmem_enable __ro_after_init;", 6.12's "= 1"), so 6.1 builds the
 * call and refuses it. */
static const struct {
	const char *call, *switch_file;
} surface_switched[] = {
	{ "memfd_secret", "/sys/module/secretmem/parameters/enable" },
};

/* NAME.present for a call that answered code: "yes", "no" (ENOSYS), or
 * "disabled" (ENOSYS from a call built but switched off). */
static inline const char *surface_present(const char *call, int code)
{
	if (code != ENOSYS)
		return "yes";
	for (size_t i = 0; i < sizeof(surface_switched) / sizeof(surface_switched[0]); i++)
		if (strcmp(surface_switched[i].call, call) == 0 && access(surface_switched[i].switch_file, F_OK) == 0)
			return "disabled";
	return "no";
}

/* MAP_SHARED memory for surface_sweep()'s codes, or NULL. */
static inline int *surface_codes(size_t n)
{
	void *p = mmap(NULL, (n + 1) * sizeof(int), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	return p == MAP_FAILED ? NULL : p;
}

static inline void surface_codes_free(int *codes, size_t n)
{
	munmap(codes, (n + 1) * sizeof(int));
}

#endif

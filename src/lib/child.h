/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Children of a probe.  A contract about two processes (a sender and a
 * blocked receiver, the owner of a notification and another process) or
 * about an identity the probe does not have (an unprivileged uid, root of
 * a user namespace it made itself) is tested in children of the probe.
 *
 * A child may report with the aw_* functions of core/probe.h, on the
 * ctx of the probe that started it, as the probe itself does: every
 * process of a probe shares one record of what was reported, so the
 * probe's aw_skip_rest() and the runner's "declared but never reported"
 * see the child's reports, and a child killed at its deadline loses only
 * what it had not reported yet.  Children die with the probe
 * (PR_SET_PDEATHSIG) and with its PID namespace.
 */
#ifndef ABIWATCH_LIB_CHILD_H
#define ABIWATCH_LIB_CHILD_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/* The unprivileged identities the probes' children take: nobody on
 * Debian, and a second uid for "another user". */
#define AW_NOBODY  65534
#define AW_NOBODY2 65533

/* What a child runs; its return value (0..255) is its exit status. */
typedef int (*aw_child_fn)(void *arg);

/* Fork a child that runs fn(arg) and exits with its return value.  The
 * child's pid, or -errno. */
pid_t aw_child_start(aw_child_fn fn, void *arg);
/* As aw_child_start(), but the child becomes real uid ruid and
 * effective uid euid first (aw_become_user()).  When it cannot, fn never
 * runs: the result is then that -errno, also in *refused (else 0), so
 * that the caller can tell "no such identity here" from a failed fork. */
pid_t aw_child_start_as(uid_t ruid, uid_t euid, aw_child_fn fn, void *arg, int *refused);
/* Wait up to timeout_ms (< 0: without a deadline; stretched by
 * aw_deadline_stretch() of lib/steady.h, the machine's slowness in a
 * probe) for a child: its exit
 * status (0..255), 128 + N when killed by signal N, -ETIMEDOUT when the
 * deadline came (the child is then killed and reaped), or -errno. */
int aw_child_wait(pid_t pid, int timeout_ms);
/* How a child ended, as aw_child_reap() found it. */
enum aw_child_how {
	AW_CHILD_EXITED,      /* code: its exit status, 0..255 */
	AW_CHILD_KILLED,      /* code: the number of the signal that killed it */
	AW_CHILD_TIMED_OUT,   /* the deadline came: it was killed and reaped (code 0) */
	AW_CHILD_WAIT_FAILED, /* code: waitpid(2)'s errno (ECHILD: no child of ours) */
};
struct aw_child_end {
	enum aw_child_how how;
	int code;
};
/* Wait up to timeout_ms (< 0: without a deadline; stretched as for
 * aw_child_wait()) for a child, also one not started here (a fork(2),
 * vfork(2) or clone3(2) whose success is what a probe tests), and say
 * how it ended: the plain facts, where aw_child_wait() folds a signal
 * into 128 + N. */
struct aw_child_end aw_child_reap(pid_t pid, int timeout_ms);
/* Whether the child ended by exiting with status 0. */
bool aw_child_end_ok(struct aw_child_end end);
/* Start and wait: the child's status as aw_child_wait() gives it, or the
 * -errno of the start. */
int aw_child_run(aw_child_fn fn, void *arg, int timeout_ms);
int aw_child_run_as(uid_t ruid, uid_t euid, aw_child_fn fn, void *arg, int timeout_ms,
		    int *refused);

/* Zeroed memory shared with the children forked afterwards, for what a
 * child hands back besides its reports; NULL on failure. */
void *aw_shared_alloc(size_t size);
void aw_shared_free(void *p, size_t size);

/* Become ruid/euid (and the gids of the same numbers) for real, effective
 * and saved ids, with no supplementary groups.  Leaving uid 0 this way
 * clears every capability.  The process stays dumpable, so that its
 * /proc/self files (uid_map) remain its own.  0 or -errno (-EINVAL: the
 * id is not mapped in this user namespace). */
int aw_become_user(uid_t ruid, uid_t euid);
/* Why a child could not become AW_NOBODY (rc from aw_become_user()): a
 * message for a skip. */
const char *aw_become_user_why(int rc);
/* unshare(CLONE_NEWUSER | extra_flags) and map uid and gid 0 of the new
 * namespace to the caller's effective ids.  0 or -errno. */
int aw_enter_userns(int extra_flags);

/* Wait up to timeout_ms until pid sleeps in system call nr (from
 * /proc/PID/syscall): the moment a blocking call has really blocked.
 * 0, -ETIMEDOUT, or -errno. */
int aw_wait_blocked(pid_t pid, long nr, int timeout_ms);
/* The system call number in the text of /proc/PID/syscall: 0 with *nr,
 * -EAGAIN when the task is "running" (not in a call), -EINVAL otherwise. */
int aw_parse_proc_syscall(const char *text, long *nr);

#endif

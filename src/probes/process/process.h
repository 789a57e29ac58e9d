/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The process family (family.c): the probe tables of its files, and what
 * they share: running a program in a child and looking at it while it
 * is stopped, and waiting for a child with a bound. */
#ifndef ABIWATCH_PROCESS_H
#define ABIWATCH_PROCESS_H

#include "core/probe.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

extern const struct aw_probe process_exec_probes[];
extern const struct aw_probe process_personality_probes[];
extern const struct aw_probe process_signal_probes[];
extern const struct aw_probe process_ptrace_probes[];
extern const struct aw_probe process_procfs_probes[];
extern const struct aw_probe process_userns_probes[];
extern const struct aw_probe process_pidfd_probes[];
extern const struct aw_probe process_compat32_probes[];

#define PROCESS_HELPER "abiwatch-process-m32"

/* How long a probe's child may take before it counts as hung. */
#define PROCESS_CHILD_MS 3000

/* What execve() of a program in a child came to. */
struct pexec {
	int err;                /* execve's errno; 0: the new image ran */
	int sig;                /* the signal that ended it; 0: none */
	int status;             /* its exit status when it exited */
	bool stopped;           /* it stopped itself: the fields below are set */
	char stack[5];          /* [stack]'s permissions, "" when none */
	unsigned long stack_end;
	unsigned long load;     /* the start of the file's first mapping, 0 */
	unsigned long persona;  /* /proc/PID/personality */
	bool timed_out;
};

/* How to start it. */
struct pexec_how {
	unsigned long persona;  /* personality(2) before execve; 0: none */
	unsigned long stack_limit; /* RLIMIT_STACK before execve; 0: as it is */
	const char *map_name;   /* the file's name in /proc/PID/maps, for .load */
};

/* Run path with argv and envp in a child without CAP_SYS_RAWIO (so that
 * vm.mmap_min_addr applies as it does to users), stdio on /dev/null;
 * when it stops itself, read its maps and personality, then kill it.
 * 0 with *r; -errno when the child could not be started. */
int process_exec(const char *path, char *const argv[], char *const envp[],
		 const struct pexec_how *how, struct pexec *r);
/* "runs", "stopped" (ran and stopped), an errno name, "killed by SIGX",
 * "exit N", "hung": what came of it, for an observation. */
const char *process_exec_word(const struct pexec *r, char *buf, size_t size);

/* "SIGSEGV", "signal 40": a signal's name for reports, in a buffer of
 * the calling thread that the next call reuses. */
const char *process_signame(int sig);

/* waitpid() with a bound: 1 with *status, 0 at the deadline (nothing
 * reaped), -errno.  options as waitpid's (WUNTRACED, __WALL). */
int process_waitpid(pid_t pid, int *status, int options, int timeout_ms);
/* "exit N", "killed by SIGX", "stopped by SIGX", for a wait status. */
const char *process_status_word(int status, char *buf, size_t size);

/* What PTRACE_GET_SYSCALL_INFO (0x420e, 5.3) fills, as ptrace(2) lays
 * out struct ptrace_syscall_info (the entry variant), with room for the
 * larger variants: the uapi header of the build machine may predate it. */
#define PROCESS_PTRACE_GET_SYSCALL_INFO 0x420e
struct process_syscall_info {
	uint8_t op, pad[3];
	uint32_t arch;
	uint64_t ip, sp;
	uint64_t nr, args[6];
	uint64_t more[8];
};

#endif

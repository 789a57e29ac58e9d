/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Programs started by abiwatch, and anonymous files: one spawner for the
 * VM commands (QEMU, dpkg-deb, xz, ldd), the backends (mkfs), the core
 * (the i386 check) and the probes' 32-bit helpers (core/helper.h).
 *
 * Every program runs as a child that dies with abiwatch whatever kills
 * abiwatch (PR_SET_PDEATHSIG(SIGKILL), armed before exec, the parent's pid
 * checked after), with the descriptors it is given and no others, and,
 * where a deadline applies, is killed with its process group at it.
 * Every temporary file is a memfd (an anonymous file with no name in any
 * directory), handed to a child as /proc/self/fd/N, so that nothing is
 * left on the host on any path, a SIGKILL included.  Nothing needs
 * cleaning up.
 */
#ifndef ABIWATCH_LIB_PROC_H
#define ABIWATCH_LIB_PROC_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

struct aw_spawn {
	int in, out, err;      /* the child's stdin/stdout/stderr; -1: /dev/null */
	const int *keep;       /* further descriptors the child inherits as they
				  are (for /proc/self/fd/N paths), -1 ends */
	bool own_pgrp;         /* a process group of its own */
	const char *const *env; /* extra NAME=VALUE settings, NULL-terminated */
	/* Called in the child just before exec, for what only the program's
	 * own process can set up (a capability dropped from the bounding
	 * set); NULL: nothing. */
	void (*before_exec)(void *arg);
	void *before_exec_arg;
};

/* Start argv[0] (searched in PATH when it has no '/') as a child that dies
 * with this process.  The pid, or -1 with errno (also when the program
 * cannot be executed: the child reports exec's errno before exiting). */
pid_t aw_spawn(const char *const argv[], const struct aw_spawn *how);

/* Wait for pid until deadline (aw_now() seconds; <= 0: no deadline).
 * 1 with *status when it ended, 0 at the deadline (still running), -1
 * with errno (and *status 0) when pid is no child of ours to wait for. */
int aw_wait_until(pid_t pid, double deadline, int *status);

/* SIGKILL the child's process group (and the child) and reap it. */
void aw_kill_reap(pid_t pid);

/* What to read of a program's output, for how long, and what came of it
 * (aw_capture()). */
struct aw_capture {
	bool out, err;     /* read its stdout, its stderr (both: as written) */
	double timeout_s;  /* kill it this long after its start (stretched by
			      aw_deadline_stretch(), lib/steady.h); 0: never */
	size_t max;        /* bytes of output kept */
	/* Past max: keep the last max bytes and let it run (a tool's error
	 * comes last); false: kill it, keeping the first max. */
	bool keep_tail;
	/* results */
	char *text;        /* what it wrote, NUL-terminated, malloc'd */
	size_t len;
	int status;        /* its wait status */
	bool timed_out;    /* killed at the deadline */
	bool overflowed;   /* wrote more than max */
};

/* Run argv as aw_spawn(argv, how) does, its captured streams read into
 * cap->text until it ends, and reap it: 0 with cap's results set (free
 * cap->text), or -1 with errno when it could not be started (exec's
 * errno: ENOEXEC, ENOENT...) and nothing to free. */
int aw_capture(const char *const argv[], const struct aw_spawn *how, struct aw_capture *cap);

/* Run argv to the end with stdin from in (-1: /dev/null) and stdout into
 * out (-1: /dev/null); stderr is kept (last 4 KiB) in *err_text when not
 * NULL.  The exit status, or -1 when it could not run or was killed. */
int aw_run_wait(const char *const argv[], int in, int out, char **err_text);

/* An anonymous file (memfd, else an unlinked O_TMPFILE), close-on-exec.
 * -1 with errno. */
int aw_anon_file(const char *name);
/* The path through which a child that inherits fd opens the same file. */
char *aw_fd_path(int fd);

/* Copy len bytes from in at offset off to out's current position. */
int aw_fd_copy(int out, int in, off_t off, size_t len);
/* Copy the whole of regular file in into out, an empty regular file, as
 * a sparse file: what in holds as holes, and every 64 KiB block of it
 * that is all zeros, stays a hole in out, which reads the same.  For
 * filesystem images: mkfs writes megabytes of zeros (XFS's log), which
 * then cost neither memory nor time in the copies.  0, or -1 with errno. */
int aw_copy_sparse(int out, int in);

/* The full path of the program name (malloc'd), or NULL: name itself
 * when it has a '/', else the first executable file of that name in
 * PATH, then in the sbin directories a user's PATH often lacks (mkfs
 * lives there). */
char *aw_which(const char *name);

#endif

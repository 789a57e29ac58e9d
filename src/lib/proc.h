/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Child processes and anonymous files: for `abiwatch vm` and `matrix`,
 * and for the core's own helpers (the i386 check).
 *
 * Everything the VM commands start (QEMU, dpkg-deb, xz, ldd) runs in a
 * process group of its own with PR_SET_PDEATHSIG(SIGKILL), so that it dies
 * with abiwatch whatever kills abiwatch; and every temporary file is a
 * memfd (an anonymous file with no name in any directory), handed to a
 * child as /proc/self/fd/N, so that nothing is left on the host on any
 * path, a SIGKILL included.  Nothing needs cleaning up.
 */
#ifndef ABIWATCH_VM_PROC_H
#define ABIWATCH_VM_PROC_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

struct aw_spawn {
	int in, out, err;      /* the child's stdin/stdout/stderr; -1: /dev/null */
	const int *keep;       /* further descriptors the child inherits as they
				  are (for /proc/self/fd/N paths), -1 ends */
	bool own_pgrp;         /* a process group of its own */
	const char *const *env; /* extra NAME=VALUE settings, NULL-terminated */
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

/* Run argv to the end with stdin from in (-1: /dev/null) and stdout into
 * out (-1: /dev/null); stderr is kept (last 4 KiB) in *err_text when not
 * NULL.  The exit status, or -1 when it could not run or was killed. */
int aw_run_wait(const char *const argv[], int in, int out, char **err_text);

/* An anonymous file (memfd, else an unlinked O_TMPFILE), close-on-exec.
 * -1 with errno. */
int aw_anon_file(const char *name);
/* The path through which a child that inherits fd opens the same file. */
char *aw_fd_path(int fd);

/* The whole content of fd from offset 0 (pread), NUL-terminated; -1 with
 * errno. */
int aw_fd_slurp(int fd, char **data, size_t *len);
/* The whole content of a file by path, NUL-terminated. */
int aw_file_slurp(const char *path, char **data, size_t *len);
/* Copy len bytes from in at offset off to out's current position. */
int aw_fd_copy(int out, int in, off_t off, size_t len);

/* Whether path names an executable found in PATH (or the path itself);
 * malloc'd full path, or NULL. */
char *aw_which(const char *name);

#endif

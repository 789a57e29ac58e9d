/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The scratch subdirectory a probe gets in a directory of the host
 * (struct aw_probe.host_path, --path DIR): the one thing a probe makes
 * that no namespace takes away when it dies.  A janitor process the
 * runner forks makes it (so that it never exists without someone to
 * remove it) and removes it once every holder of a pipe is gone: the
 * runner, which lets go when the probe's namespace has been reaped, and
 * the probe's own processes, which inherit the pipe.  Since a dead
 * process lets go too, the subdirectory goes also when abiwatch is
 * killed (SIGKILL included) or the probe is killed at its timeout, and
 * never while a process of the probe can still write in it.
 *
 * Every wait is bounded, since the directory may be on a filesystem that
 * lists for ever or never answers: the removal gets AW_HOSTDIR_REMOVE_S,
 * and a janitor whose abiwatch is dead waits AW_HOSTDIR_ORPHAN_S at most
 * for the probe's processes to go.  What it cannot remove is named: to
 * the runner, or on the janitor's standard error once abiwatch is dead.
 */
#ifndef ABIWATCH_HOSTDIR_H
#define ABIWATCH_HOSTDIR_H

#include <stdbool.h>
#include <sys/types.h>

/* Seconds the janitor has to empty and remove the subdirectory. */
#define AW_HOSTDIR_REMOVE_S 3.0
/* Seconds a janitor whose abiwatch died waits for the probe's processes. */
#define AW_HOSTDIR_ORPHAN_S 2.0

struct aw_hostdir {
	int dirfd;     /* O_DIRECTORY descriptor of the subdirectory */
	char *name;    /* its name below the host directory */
	int hold_fd;   /* write end of the janitor's pipe */
	int reply_fd;  /* read end of the janitor's answers */
	pid_t janitor;
};

/* Make a fresh subdirectory of host_path and start its janitor.
 * 0, or -1 with *why (malloc'd) and nothing made. */
int aw_hostdir_make(const char *host_path, struct aw_hostdir *h, char **why);
/* Why the subdirectory cannot be trusted any more (someone removed it
 * while the probe worked in it), or NULL. */
char *aw_hostdir_lost(const char *host_path, const struct aw_hostdir *h);
/* Close h->dirfd, let go of the subdirectory, and (wait) for its
 * removal, AW_HOSTDIR_REMOVE_S and a second at most: NULL, or malloc'd
 * "NAME: why" when it was left.  With wait false (the probe's processes
 * are stuck and still hold the pipe) the janitor removes it when they are
 * gone, or gives up AW_HOSTDIR_ORPHAN_S after abiwatch's end. */
char *aw_hostdir_release(struct aw_hostdir *h, bool wait);

#endif

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
 */
#ifndef ABIWATCH_HOSTDIR_H
#define ABIWATCH_HOSTDIR_H

#include <sys/types.h>

struct aw_hostdir {
	int dirfd;     /* O_DIRECTORY descriptor of the subdirectory */
	char *name;    /* its name below the host directory */
	int hold_fd;   /* write end of the janitor's pipe */
	pid_t janitor;
};

/* Make a fresh subdirectory of host_path and start its janitor.
 * 0, or -1 with *why (malloc'd) and nothing made. */
int aw_hostdir_make(const char *host_path, struct aw_hostdir *h, char **why);
/* Why the subdirectory cannot be trusted any more (someone removed it
 * while the probe worked in it), or NULL. */
char *aw_hostdir_lost(const char *host_path, const struct aw_hostdir *h);
/* Close h->dirfd, let go of the subdirectory, and (wait) for its
 * removal; with wait false (the probe's processes are stuck and still
 * hold the pipe) the janitor removes it when they are gone. */
void aw_hostdir_release(struct aw_hostdir *h, int wait);

#endif

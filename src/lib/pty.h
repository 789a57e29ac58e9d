/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Pseudo-terminals from a devpts instance of the caller's own.
 *
 * posix_openpt(3) opens /dev/ptmx, whose slaves appear in the host's
 * /dev/pts, where terminal emulators and sshd see them and kernel.pty.nr
 * counts them against the host's own instance.  A devpts mounted with
 * newinstance in a private mount namespace numbers its ptys from 0 and
 * shows them to nobody else: devpts(5) "Multiple instances",
 * Documentation/filesystems/devpts.rst.  Mounting it needs CAP_SYS_ADMIN
 * over the mount namespace's user namespace (root, or root of a user
 * namespace of one's own: devpts is FS_USERNS_MOUNT).  Nothing here
 * mounts anything outside the directory it is given.
 */
#ifndef ABIWATCH_LIB_PTY_H
#define ABIWATCH_LIB_PTY_H

#include <stddef.h>

/* Mount a new devpts instance on dir (made, mode 0755, when missing),
 * ptmxmode=0666, with options extra appended when not NULL ("max=2").
 * Only for a mount namespace of the caller's own.  0 or -errno. */
int aw_devpts_mount(const char *dir, const char *extra);

/* A pty pair of the devpts instance mounted on dir: its master from
 * DIR/ptmx, unlocked, and its slave opened by its path DIR/N, both with
 * O_RDWR | O_NOCTTY | O_CLOEXEC | flags (O_NONBLOCK).  0 with *master,
 * *slave (and *index, the pty's number, when not NULL), or -errno with
 * nothing left open. */
int aw_pty_open(const char *dir, int flags, int *master, int *slave, int *index);

/* Switch fd's terminal to raw mode (cfmakeraw(3)).  0 or -errno. */
int aw_pty_raw(int fd);

/* The path of pty index of the instance on dir, in buf (size len): 0, or
 * -ENAMETOOLONG. */
int aw_pty_path(const char *dir, int index, char *buf, size_t len);

#endif

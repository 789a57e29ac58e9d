/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * /proc/PID/mountinfo, read into records (proc_pid_mountinfo(5)):
 *
 *   36 35 98:0 /mnt1 /mnt/parent rw,noatime master:1 - ext3 /dev/root rw,errors=continue
 *   (1)(2)(3)  (4)   (5)         (6)       (7)       (8)(9)  (10)      (11)
 *
 * Paths come unescaped (the kernel writes space, tab, newline and
 * backslash as "\040"-style octal), so a mount point with a space in its
 * name is found as it is.  The optional fields (7) may be any number.
 */
#ifndef ABIWATCH_LIB_MOUNTINFO_H
#define ABIWATCH_LIB_MOUNTINFO_H

#include <stddef.h>

struct aw_mount {
	int id, parent;
	unsigned major, minor;
	char *root;     /* the root of the mount within its filesystem */
	char *point;    /* the mount point */
	char *options;  /* per-mount options */
	char *fstype;   /* "ext4", "fuse.cookiefs" */
	char *source;
	char *super;    /* per-superblock options */
};

/* Every well-formed line of path (a mountinfo file): 0 with *mounts
 * (aw_mountinfo_free()) and *n, or -errno when it cannot be read.  A line
 * that is not one is passed over: the kernel writes none. */
int aw_mountinfo_read(const char *path, struct aw_mount **mounts, size_t *n);
/* The same from text (len bytes), for the tests and the fuzzer. */
void aw_mountinfo_parse(const char *text, size_t len, struct aw_mount **mounts, size_t *n);
void aw_mountinfo_free(struct aw_mount *mounts, size_t n);

/* A mountinfo path field unescaped ("\040" is a space), malloc'd. */
char *aw_unescape_mountinfo(const char *s);

#endif

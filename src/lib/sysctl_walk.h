/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A walk of /proc/sys (or any directory of it): every entry with its
 * dotted name, as sysctl(8) spells knobs, in the same order each time.
 * The sysctl family reads every knob, its scopes probe stats them all in
 * several namespaces, and net's initns reads those of the machine's own
 * network namespace: one walk, so that they agree on what a knob is.
 */
#ifndef ABIWATCH_LIB_SYSCTL_WALK_H
#define ABIWATCH_LIB_SYSCTL_WALK_H

#include <stdbool.h>
#include <sys/stat.h>

/* Directories below the root the walk enters, at most: /proc/sys is
 * seven deep (net.ipv4.conf.IFACE.*, net.ipv6.neigh...); a bound for
 * a tree that loops, not one ever met. */
#define AW_SYSCTL_WALK_DEPTH 16

/* One entry of the walk, as the visitor gets it (valid for the call). */
struct aw_sysctl_entry {
	const char *knob;      /* prefix, a dot, the components: "net.ipv4.tcp_mem" */
	const char *path;      /* root, a slash, the components */
	const char *name;      /* the last component, relative to dirfd */
	int dirfd;             /* its directory, open for the call */
	/* Its lstat(2) (never an automount's), or NULL where the walk
	 * stopped: then why says where ("stat: EACCES", "another filesystem
	 * is mounted there, not entered", "open: too deep"). */
	const struct stat *st;
	const char *why;
};

/* Called for each entry; for a directory, true enters it.  A directory
 * it could not enter comes again, with why. */
typedef bool (*aw_sysctl_visit)(const struct aw_sysctl_entry *e, void *arg);

/* Visit every entry below root, each directory's in strcmp(3) order,
 * giving each the dotted name prefix.NAME... (prefix "" for none: then
 * "kernel.ostype" below /proc/sys).  Read only: it never follows a
 * symbolic link, never triggers an automount, never enters another
 * filesystem mounted below root (fs.binfmt_misc on systemd hosts) and
 * stops AW_SYSCTL_WALK_DEPTH directories deep.  0, or -errno when root
 * cannot be opened. */
int aw_sysctl_walk(const char *root, const char *prefix, aw_sysctl_visit visit, void *arg);

#endif

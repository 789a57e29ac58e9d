/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What the fdio family's files share: their probe tables, the way a
 * result is written (bytes or an errno name), and the pure parsers of
 * fdinfo.c, which the unit tests and the fuzzer reach too. */
#ifndef ABIWATCH_FDIO_H
#define ABIWATCH_FDIO_H

#include "core/probe.h"

#include <stddef.h>
#include <sys/types.h>

#define FDIO_HELPER "abiwatch-fdio-m32"

extern const struct aw_probe fdio_pipe_probes[], fdio_setsz_probes[], fdio_splice_probes[],
	fdio_copy_probes[], fdio_epoll_probes[], fdio_counter_probes[];

/* The text of a call's result: its count in decimal when rc >= 0, else
 * the name of err ("EINVAL").  In buf, which must hold FDIO_RES_LEN. */
#define FDIO_RES_LEN 32
const char *fdio_res(char buf[FDIO_RES_LEN], long long rc, int err);

/* Observe obs as fdio_res() writes rc with err; the _rc form takes the
 * errno of the call that has just returned rc (read before anything can
 * change it, since arguments are evaluated before the call). */
void fdio_observe_res(struct aw_ctx *ctx, const char *obs, long long rc, int err);
void fdio_observe_rc(struct aw_ctx *ctx, const char *obs, long long rc);

/* Run fn(arg) in a child that became a random uid no process uses (its
 * per-user pipe count starts at 0, and it holds no capability): the
 * child's status.  A child that finds the uid busy returns
 * FDIO_UID_BUSY and another uid is tried.  Where no uid can be taken
 * (a user namespace without it mapped), every item of the probe is a
 * skip and the result is the -errno. */
#define FDIO_UID_BUSY 3
int fdio_as_fresh_uid(struct aw_ctx *ctx, int (*fn)(void *), void *arg);

/* ---- fdinfo.c: pure ---- */

/* The events mask of target descriptor tfd in the text of an epoll
 * descriptor's /proc/self/fdinfo ("tfd: %8d events: %8x data: ..."):
 * 0 with *events, -ENOENT when no line names tfd, -EINVAL when a tfd
 * line is not of that form. */
int fdio_epoll_events(const char *text, size_t len, int tfd, unsigned *events);

/* The keys of an fdinfo text that are the file's own (not pos, flags,
 * mnt_id, ino), in the order written, comma-separated, into out (size
 * outlen): 0, -EINVAL for a line without "key:", -ENOSPC when they do
 * not fit.  No keys gives "". */
int fdio_fdinfo_keys(const char *text, size_t len, char *out, size_t outlen);

#endif

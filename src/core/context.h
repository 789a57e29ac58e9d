/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What a running probe is handed; opaque to families. */
#ifndef ABIWATCH_CONTEXT_H
#define ABIWATCH_CONTEXT_H

#include "probe.h"

#include <stdbool.h>
#include <sys/types.h>

struct aw_ctx {
	int fd;               /* the result pipe */
	const char *tmpdir;   /* private tmpfs */
	ino_t host_ns[AW_NSCOPES]; /* the runner's namespaces, by scope (aw_ns_ino()) */
	const void *data;     /* struct aw_probe.data */
	int host_dirfd;       /* a fresh subdirectory of struct aw_probe.host_path */
	const char *host_dirname; /* its name there */
	const struct aw_probe *probe;
	const struct aw_family *family; /* the probe's */
	struct aw_record *record; /* what was reported, shared by the probe's processes */
	const struct aw_params *params; /* the family options of the run */
	bool vm_guest;        /* the runner's aw_in_vm_guest(), for the whole run */
	int run_dirfd;        /* aw_run_dirfd(): the run's shared directory, or -1 */
};

/* A new record for probe's items, in memory its forked children share,
 * so that what a child reports counts as reported for the probe too. */
struct aw_record *aw_record_new(const struct aw_probe *probe);
/* Report one line of the protocol (lib/wire.h) as aw_pass() and friends
 * do: type 'C' or 'O' with name and status, 'N' with text only. */
void aw_report_line(struct aw_ctx *ctx, char type, const char *name, const char *status,
		    const char *text);
/* Report each item whose declared needs are not met here (struct
 * aw_item.vm_guest) skipped with its cause: the runner's, before the
 * probe starts. */
void aw_report_unmet_items(struct aw_ctx *ctx);

#endif

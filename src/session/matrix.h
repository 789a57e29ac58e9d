/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The work `abiwatch matrix` starts: each kernel's job (and the host's)
 * run by the scheduler of vm/matrix.h, at most -j at a time, with
 * progress on stderr, then the diffs between neighbours and matrix.txt
 * in the output directory.  cmd/matrix.c only fills struct matrix_opts.
 */
#ifndef ABIWATCH_SESSION_MATRIX_H
#define ABIWATCH_SESSION_MATRIX_H

#include "vm/matrix.h"

#include <stdbool.h>

struct matrix_opts {
	struct aw_matrix m; /* the kernels, the directory, how guests boot */
	bool host, quiet;   /* --host, --quiet */
	const char *apt;       /* --apt PATTERN: the series from the archive */
	const char *apt_cache; /* --apt-cache DIR; NULL: aw_apt_default_cache() */
	bool dry_run;          /* --dry-run: say what would run, run nothing */
};

/* Fetch the --apt series, add the host when asked, make the directory,
 * order the jobs, refuse a kernel given twice, reuse the snapshots the
 * directory has of the same packages, decide KVM or TCG once, run every
 * other job and write what it found.  The exit
 * status: 0 every run passed, 1 a run failed or a VM gave no result, 4
 * every check was skipped, 2 the directory could not be made or written. */
int session_matrix(struct matrix_opts *c);

#endif

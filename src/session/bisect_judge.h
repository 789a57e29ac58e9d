/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * abiwatch bisect: judging one kernel, which every strategy does (boot
 * it running the question's probes, or take the snapshot an earlier run
 * kept), and what they all print of it.  Calls nothing of bisect's.
 */
#ifndef ABIWATCH_SESSION_BISECT_JUDGE_H
#define ABIWATCH_SESSION_BISECT_JUDGE_H

#include "bisect_opts.h"
#include "model/snapshot.h"
#include "vm/kernel.h"

#include <stdbool.h>

/* The snapshot at path, kept by an earlier run, when it can answer the
 * question (it holds every probe the question needs). */
bool bisect_kept(const struct bisect *b, const char *path, struct aw_snapshot *snap);

/* How a kernel was judged. */
enum judged { JUDGED_BOOTED, JUDGED_KEPT, JUDGED_NOT_BOOTED };

/* The answer of kernel k: from the snapshot at snapshot_path when an
 * earlier run kept one that covers the question, else by booting it (the
 * snapshot is saved there, the console beside it when no answer came).
 * snap gets the snapshot (empty when none came).  Progress on stderr
 * names the kernel as label. */
enum judged bisect_judge(const struct bisect *b, const struct aw_kernel_spec *k,
			 const char *label, const char *snapshot_path, struct aw_snapshot *snap,
			 struct aw_answer *a);

/* The pair's differences as `abiwatch diff` shows them, after a line. */
void bisect_print_diff(const struct aw_snapshot *before, const char *before_name,
		       const struct aw_snapshot *after, const char *after_name);

#endif

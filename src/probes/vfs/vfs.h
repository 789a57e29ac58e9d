/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What the vfs family's files share: their probe tables and the pure
 * logic of classify.c (unit-tested in tests/unit/test_vfs.c). */
#ifndef ABIWATCH_VFS_H
#define ABIWATCH_VFS_H

#include "backends/target.h"
#include "core/probe.h"

#include <stdbool.h>
#include <stddef.h>
#include <time.h>

extern const struct aw_probe vfs_anon_probes[], vfs_open_probes[], vfs_fs_probes[],
	vfs_inotify_probes[], vfs_shebang_probes[];
/* The template of a --vfs-path probe (fs.c). */
extern const struct aw_probe vfs_fs_path_template;

/* ---- timestamps (classify.c) ---- */

/* What one pair of changes within one tick said.  A pair is two writes
 * to a file, each followed by fstat, bracketed by two reads of
 * CLOCK_REALTIME_COARSE, the clock current_time() reads (one value a
 * tick); only a pair whose two reads are equal is evidence, since then
 * both changes happened within one tick, however slow the machine was:
 *   VFS_PAIR_FINE    the two mtimes differ: a change got a time finer
 *                    than the tick (ktime_get_real_ts64: multigrain
 *                    timestamps, 6.13+, since the fstat between asked);
 *   VFS_PAIR_TICK    equal, and equal to the coarse clock: the tick's time;
 *   VFS_PAIR_SECOND  equal with tv_nsec 0: the filesystem keeps seconds;
 *   VFS_PAIR_OTHER   equal, neither (a coarser granularity, a server's
 *                    clock). */
enum vfs_pair { VFS_PAIR_FINE, VFS_PAIR_TICK, VFS_PAIR_SECOND, VFS_PAIR_OTHER, VFS_PAIRS };
enum vfs_pair vfs_pair_of(struct timespec m1, struct timespec m2, struct timespec coarse);
/* The class of the pairs counted (count[] by enum vfs_pair), the most
 * frequent one (a rare pair that raced a tick's update does not decide),
 * or NULL when no pair was counted:
 *   "ns" (FINE), "jiffy" (TICK), "second" (SECOND), "coarse" (OTHER). */
const char *vfs_grain_class(const size_t count[VFS_PAIRS]);

/* ---- shebang paths (classify.c) ---- */

#define VFS_SHEBANG_DIR_LEN 200 /* each directory name of the chain */

/* The lengths of the names that, appended to a base of base_len bytes as
 * "/NAME" each, make a path of exactly total bytes: directories of
 * VFS_SHEBANG_DIR_LEN bytes and a last name of 1 to VFS_SHEBANG_DIR_LEN.
 * How many names (at most max, lens[]), or 0 when total cannot be made
 * (too short for one name, or more than max names needed). */
size_t vfs_shebang_layout(size_t base_len, size_t total, size_t *lens, size_t max);

#endif

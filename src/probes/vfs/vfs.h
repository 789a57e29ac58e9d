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

/* The times a loop of changes saw, taken one at a time: how many, how
 * many differed from the one before, the smallest nonzero step between
 * consecutive ones in nanoseconds (-1: none yet; a step back counts by
 * its size), and whether every one had tv_nsec 0.  Start zeroed. */
struct vfs_steps {
	size_t n, changes;
	long long smallest;
	bool some_nsec;
	struct timespec last;
};
void vfs_steps_add(struct vfs_steps *s, struct timespec t);
/* How fine the timestamps a change gets are, from the smallest step
 * (-1: none seen) and whether every time seen had tv_nsec 0:
 *   "ns"      a step under 1 ms, finer than any kernel tick: each change
 *             reads a fine-grained clock (multigrain, 6.13+);
 *   "jiffy"   steps of 1 to 20 ms: the coarse clock, one value a tick
 *             (HZ 1000 down to 50);
 *   "second"  whole seconds (every tv_nsec 0: ext4 with 128-byte inodes);
 *   "coarse"  anything coarser seen, or no step in the time looked. */
const char *vfs_grain_class(long long step_ns, bool all_whole_seconds);

/* ---- shebang paths (classify.c) ---- */

#define VFS_SHEBANG_DIR_LEN 200 /* each directory name of the chain */

/* The lengths of the names that, appended to a base of base_len bytes as
 * "/NAME" each, make a path of exactly total bytes: directories of
 * VFS_SHEBANG_DIR_LEN bytes and a last name of 1 to VFS_SHEBANG_DIR_LEN.
 * How many names (at most max, lens[]), or 0 when total cannot be made
 * (too short for one name, or more than max names needed). */
size_t vfs_shebang_layout(size_t base_len, size_t total, size_t *lens, size_t max);

#endif

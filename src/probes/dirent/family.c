// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The dirent family: directory-stream cookies (getdents64 d_off,
 * telldir/seekdir, lseek on a directory) on each filesystem, at scale, for
 * 64- and 32-bit callers: the interface whose widening on ext4 in 2012
 * broke GlusterFS for a year (docs/catalogue.md, "dirent").  One probe per
 * backend (src/backends/), all sharing dirent_run(); --path LABEL=DIR adds
 * one for a directory the user names.
 */
#include "dirent.h"
#include "cookies.h"
#include "lib/util.h"

#include <errno.h>
#include <linux/capability.h>
#include <stdlib.h>
#include <string.h>

/* Made for the default 10,000 entries in an idle TCG guest of abiwatch
 * vm, with room; the work grows in proportion to the entries (O(N) but
 * for the seeks, which are sampled where a seek walks the listing), so
 * each entry beyond adds its share: at 1,000,000, 3270 s for an idle
 * guest (stretched by the machine's slowness), where a fixed 300 s cut
 * ext4 and xfs off in a 6.12 guest and called that a timeout. */
#define DIRENT_TIMEOUT_S 300
#define DIRENT_TIMEOUT_PER_ENTRY_S 0.003

const struct aw_item dirent_items[] = {
	AW_CHECK_ITEM("unique", "no two entries of one full getdents64 scan share a d_off"),
	AW_CHECK_ITEM("complete", "every created name exactly once plus . and .., also after "
		      "lseek(fd, 0) and rewinddir()"),
	AW_CHECK_ITEM("seek_resume", "lseek(fd, d_off) + getdents64 resumes at the next entry "
		      "(every entry), and so does seekdir(telldir()) (256 sampled positions)"),
	AW_CHECK_ITEM("telldir_matches_doff", "telldir() after readdir() equals that entry's d_off"),
	AW_CHECK_ITEM("terminates", "a scan ends: no (name, d_off) pair twice, at most 3N+1000 entries"),
	AW_CHECK_ITEM("terminates_rename", "a scan ends within 3N+1000 entries while the names "
		      "it lists are renamed between its calls (generic/736), and lists every name "
		      "it did not rename exactly once"),
	AW_CHECK_ITEM("unmodified_once", "names not touched are returned exactly once while N/20 "
		      "new names (4096 at most) are removed and N/20 added during the scan, and "
		      "every 20th name (1 in N/4096 beyond 81,920; the first and last 3 too) is "
		      "removed as the scan passes it"),
	AW_CHECK_ITEM("survivors_once", "after every 20th name (1 in N/4096 beyond 81,920; the "
		      "first and last 3 too) is removed, every other name is listed exactly once: by a fresh getdents64 scan, "
		      "and by a DIR stream opened before and resumed with seekdir() at a cookie "
		      "taken before the removals"),
	AW_CHECK_ITEM("matches_record", "after the changes, a fresh getdents64 scan and a DIR "
		      "stream resumed with seekdir() at a cookie taken earlier list exactly the "
		      "names the probe's own calls left, as does every listing no other check "
		      "holds; fresh scans up to 12 listings in all"),
	AW_OBS_ITEM("cookie_bits", "bits of the largest d_off but the end-of-directory one",
		    .change = "programs packing data above d_off (GlusterFS DHT) lose or corrupt it",
		    .unit = "bit"),
	AW_OBS_ITEM("eof_cookie", "d_off of the last entry (the end-of-directory cookie), hex",
		    .change = "programs comparing d_off with a sentinel stop early or loop"),
	AW_OBS_ITEM("signed", "whether any d_off is negative as off_t (yes/no)",
		    .change = "programs treating a negative d_off as an error or as unset break"),
	AW_OBS_ITEM("headroom_bits", "64 minus cookie_bits: what an encoder may pack above d_off",
		    .change = "encoders that multiply d_off (x * N + i) overflow", .unit = "bit"),
	AW_OBS_ITEM("duplicates", "entries whose d_off an earlier entry of another name had",
		    .change = "resuming at a shared cookie repeats or skips entries (NFS, telldir users)",
		    .unit = "entries"),
	AW_OBS_ITEM("reopen_stable", "each name has the same d_off after a fresh open (yes/no)",
		    .change = "cookies kept across opens (NFS servers, caches) point elsewhere"),
	AW_OBS_ITEM("stable_after_unlink", "after deleting the first tenth (8192 at most): stable, cookies_changed, "
		    "seeks_changed or entries_changed",
		    .change = "a reader that deletes as it goes skips or repeats entries after seekdir"),
	AW_OBS_ITEM("order", "listing order: creation, reverse_creation, hash or other",
		    .change = "programs relying on listing order (tests, archivers) see another order"),
	AW_OBS_ITEM("dots", "\".\" and \"..\" in a listing: both (each once), none, dot_only, "
		    "dotdot_only or repeated",
		    .change = "programs that skip the first two entries unread (assuming . and ..) "
		    "lose real names"),
	/* The same directory seen by a 32-bit caller: one object with the
	 * native items (.object ""), so that diff shows them together. */
	AW_OBS_ITEM("compat32.cookie_bits", "cookie_bits for a 32-bit (compat syscall) caller",
		    .change = "32-bit programs storing d_off or telldir() in 32 bits truncate it", .object = "",
		    .unit = "bit"),
	AW_OBS_ITEM("compat32.eof_cookie", "eof_cookie for a 32-bit caller, hex", .object = ""),
	AW_OBS_ITEM("compat32.duplicates", "duplicates for a 32-bit caller (31-bit hashes collide)",
		    .change = "32-bit programs (and NFS with 32-bit cookies) repeat or skip entries", .object = "",
		    .unit = "entries"),
	AW_OBS_ITEM("compat32.nonlfs_readdir", "a 32-bit non-LFS readdir(3): complete, or the "
		    "errno (EOVERFLOW) and after how many entries",
		    .change = "32-bit programs built without _FILE_OFFSET_BITS=64 cannot list the directory",
		    .object = ""),
	AW_ITEMS_END
};

static const int admin_caps[] = { CAP_SYS_ADMIN, -1 };
static const char *const loop_kconfig[] = { "CONFIG_BLK_DEV_LOOP", NULL };

static const char *const tags_common[] = {
	"posix:readdir", "posix:seekdir", "posix:telldir", "man:readdir(3)", "man:telldir(3)",
	"man:seekdir(3)", "man:getdents(2)", "xfstests:generic/257", "xfstests:generic/471",
	"xfstests:generic/676", "xfstests:generic/736", NULL,
};
static const char *const tags_ext4[] = {
	"linux-git:d1f5273e9adb", "linux-git:c689bdd3bffa", "posix:readdir", "man:readdir(3)",
	"man:telldir(3)", "man:getdents(2)", "xfstests:generic/257", "xfstests:xfs/197", NULL,
};
static const char *const tags_tmpfs[] = {
	"linux-git:a2e459555c5f", "linux-git:6faddda69f62", "linux-git:0e4a862174f2",
	"linux-git:64a7ce76fb90", "linux-git:b662d858131d", "linux-git:68a3a6500314",
	"linux-git:b9b588f22a0c", "posix:readdir", "man:readdir(3)", "xfstests:generic/736", NULL,
};
static const char *const tags_btrfs[] = {
	"linux-git:9b378f6ad48c", "posix:readdir", "man:readdir(3)", "xfstests:generic/471", NULL,
};

#define DIRENT_PROBE(nm, sum, target, tagv, ...)                                   \
	{ .name = (nm), .summary = (sum), .run = dirent_run, .items = dirent_items, \
	  .tags = (tagv), .timeout_s = DIRENT_TIMEOUT_S, .timeout_param = "entries", \
	  .timeout_per_unit_s = DIRENT_TIMEOUT_PER_ENTRY_S, .data = &(target), __VA_ARGS__ }

static const struct aw_probe dirent_probes[] = {
	DIRENT_PROBE("tmpfs", "directory cookies on a fresh tmpfs", aw_target_tmpfs, tags_tmpfs),
	DIRENT_PROBE("ext4", "directory cookies on a fresh ext4 (pinned hash seed), loop-mounted",
		     aw_target_ext4, tags_ext4, .needs = { .caps = admin_caps, .kconfig = loop_kconfig }),
	DIRENT_PROBE("xfs", "directory cookies on a fresh XFS, loop-mounted", aw_target_xfs, tags_common,
		     .needs = { .caps = admin_caps, .kconfig = loop_kconfig }),
	DIRENT_PROBE("btrfs", "directory cookies on a fresh btrfs, loop-mounted", aw_target_btrfs,
		     tags_btrfs, .needs = { .caps = admin_caps, .kconfig = loop_kconfig }),
	DIRENT_PROBE("overlay", "directory cookies in a merged overlayfs directory (tmpfs layers)",
		     aw_target_overlay, tags_common),
	DIRENT_PROBE("overlay_single", "directory cookies in an upper-only overlayfs directory",
		     aw_target_overlay_single, tags_common),
	AW_PROBES_END
};

/* ---- options ---- */

/* The template of a --path probe: the run function, items and tags of
 * every probe here. */
static const struct aw_probe path_template =
	DIRENT_PROBE("path", "directory cookies", aw_target_tmpfs, tags_common);

static struct aw_probe *path_instantiate(const char *value, char **why)
{
	return aw_target_path_probe(&path_template, "directory cookies", value, why);
}

static const char *const yes_no[] = { "yes", "no", NULL };

static const struct aw_param dirent_params[] = {
	{ .name = "fs", .alias = "fs", .metavar = "NAME[,NAME...]", .type = AW_PARAM_LIST, .selects = true,
	  .help = "dirent: the filesystems to probe (tmpfs, ext4, xfs, btrfs, overlay, overlay_single)" },
	{ .name = "path", .alias = "path", .metavar = "LABEL=DIR", .instantiate = path_instantiate,
	  .release = aw_target_path_release,
	  .help = "dirent: also probe a fresh subdirectory of DIR, as dirent.LABEL" },
	{ .name = "entries", .alias = "entries", .metavar = "N", .type = AW_PARAM_INT, .minval = 1,
	  .maxval = DC_MAX_ENTRIES, .dflt = "10000",
	  .help = "dirent: files per directory, 1 to 1000000 (default 10000)" },
	{ .name = "timing", .metavar = "yes|no", .type = AW_PARAM_ENUM, .words = yes_no,
	  .dflt = "no", .help = "dirent: also time bare scans of each directory and note the ratio" },
	{ .name = NULL },
};

static const struct aw_probe *const tables[] = { dirent_probes, NULL };

static const struct aw_family dirent_family = {
	.name = "dirent",
	.summary = "directory-stream cookies (getdents64 d_off, telldir, seekdir) per filesystem, "
		   "for 64- and 32-bit callers",
	.tables = tables,
	.helper32 = "abiwatch-dirent-m32",
	.params = dirent_params,
};

AW_FAMILY(dirent_family);

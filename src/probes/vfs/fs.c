// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What a filesystem does with names and times, one probe per backend
 * (src/backends/target.h, as the dirent family): O_TMPFILE and linking
 * it by its descriptor as an unprivileged user (42bd2af59504, 6.10), the
 * granularity of the times a change gets and gnulib's ordering rule
 * (multigrain timestamps, 6.13), renameat2's flags, POSIX's rename onto
 * the same file, link(2) of a directory, and the link count of a
 * directory (btrfs: always 1).
 */
#include "vfs.h"
#include "lib/util.h"
#include "lib/child.h"
#include "lib/errname.h"
#include "lib/caps.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/capability.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define TIMES_PAIRS 64       /* pairs within one tick that are enough */
#define TIMES_TRIES 200000   /* pairs tried at most (a bound of work) */
#define ORDER_ROUNDS 200   /* rounds of gnulib's sequence */
#define CHILD_MS 10000

static const struct aw_item fs_items[] = {
	AW_OBS_ITEM("tmpfile", "open(dir, O_TMPFILE|O_RDWR): ok or the errno",
		    .change = "programs making unnamed files (systemd, flatpak, editors) fall back "
		    "to named temporary files, or can stop doing so"),
	AW_OBS_ITEM("flink_unprivileged", "linkat(fd, \"\", dir, name, AT_EMPTY_PATH) of its own "
		    "O_TMPFILE without CAP_DAC_READ_SEARCH (uid 65534): ok or the errno",
		    .change = "unprivileged programs can (or can no longer) give an O_TMPFILE a "
		    "name without going through /proc"),
	AW_CHECK_ITEM("flink_procfd", "that process links its O_TMPFILE with linkat(AT_FDCWD, "
		      "\"/proc/self/fd/N\", dir, name, AT_SYMLINK_FOLLOW), as open(2) shows"),
	AW_CHECK_ITEM("tmpfile_excl_unlinkable", "an O_TMPFILE|O_EXCL file cannot be linked "
		      "(ENOENT), as open(2) promises"),
	AW_OBS_ITEM("mtime_granularity", "what two write+fstat within one tick of "
		    "CLOCK_REALTIME_COARSE get: ns (different mtimes), jiffy (both the coarse "
		    "clock's time), second (whole seconds) or coarse (another equal time); the "
		    "most frequent answer of 64 such pairs",
		    .change = "make-like tools and caches comparing mtimes see (or no longer see) "
		    "changes within one clock tick"),
	AW_CHECK_ITEM("mtime_order", "a file written after another never has an older mtime "
		      "(gnulib's write/stat sequence, 200 rounds on fresh files)"),
	AW_OBS_ITEM("rename_noreplace", "renameat2(a, existing b, RENAME_NOREPLACE): EEXIST "
		    "where supported, else the errno",
		    .change = "programs that rename without clobbering (systemd, coreutils mv -n) "
		    "fall back to link+unlink, or no longer need to"),
	AW_OBS_ITEM("rename_exchange", "renameat2(a, b, RENAME_EXCHANGE): ok (swapped) or the errno",
		    .change = "programs swapping two names atomically must fall back, or can stop"),
	AW_OBS_ITEM("rename_whiteout", "renameat2(a, c, RENAME_WHITEOUT): ok or the errno",
		    .change = "overlay-style tools (unprivileged container builders) cannot "
		    "leave whiteouts, or now can"),
	AW_CHECK_ITEM("rename_same", "rename(a, a) succeeds and changes nothing (POSIX)"),
	AW_CHECK_ITEM("rename_hardlink", "rename(a, h) where h is a hard link of a succeeds and "
		      "keeps both names (POSIX)"),
	AW_CHECK_ITEM("link_directory", "link() of a directory fails with EPERM"),
	AW_OBS_ITEM("dir_nlink", "st_nlink of a directory holding three subdirectories (5 where "
		    "subdirectories are counted)",
		    .change = "find(1)'s leaf optimisation and programs counting subdirectories "
		    "by st_nlink - 2 go wrong", .unit = "links"),
	AW_ITEMS_END
};

/* ---- O_TMPFILE and linking it ---- */

static void tmpfile_run(struct aw_ctx *ctx, int dirfd)
{
	int fd = openat(dirfd, ".", O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
	aw_observe(ctx, "tmpfile", "%s", fd >= 0 ? "ok" : aw_errname(errno));
	if (fd >= 0)
		close(fd);
}

struct flink {
	struct aw_ctx *ctx;
	int dirfd; /* where uid 65534 may write */
};

static const char *const flink_items[] = {
	"flink_unprivileged", "flink_procfd", "tmpfile_excl_unlinkable",
};

/* linkat() of descriptor fd's file through /proc/self/fd, as open(2)
 * shows for O_TMPFILE: 0 or -errno. */
static int link_via_proc(int fd, int dirfd, const char *name)
{
	char proc[64];
	if (fd < 0)
		return -EBADF;
	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", fd);
	return linkat(AT_FDCWD, proc, dirfd, name, AT_SYMLINK_FOLLOW) == 0 ? 0 : -errno;
}

static int open_tmpfile(int dirfd, int extra)
{
	int fd = openat(dirfd, ".", O_TMPFILE | O_RDWR | O_CLOEXEC | extra, 0600);
	return fd < 0 ? -errno : fd;
}

/* In a child without CAP_DAC_READ_SEARCH (as uid 65534, or with the
 * capability dropped): the file must be opened by the process that links
 * it, after it lost the capability (6.10 compares its credentials). */
static int flink_child(void *arg)
{
	const struct flink *f = arg;
	int rc = aw_drop_cap(CAP_DAC_READ_SEARCH);
	if (rc != 0) {
		aw_error(f->ctx, flink_items[0], "dropping CAP_DAC_READ_SEARCH: %s", aw_errname(rc));
		return 1;
	}
	int fd = open_tmpfile(f->dirfd, 0);
	if (fd < 0) {
		aw_unobserved(f->ctx, flink_items[0], "no O_TMPFILE here (%s)", aw_errname(fd));
		aw_skip(f->ctx, flink_items[1], "no O_TMPFILE here (%s)", aw_errname(fd));
		aw_skip(f->ctx, flink_items[2], "no O_TMPFILE here (%s)", aw_errname(fd));
		return 0;
	}
	rc = linkat(fd, "", f->dirfd, "flink", AT_EMPTY_PATH);
	aw_observe(f->ctx, flink_items[0], "%s", rc == 0 ? "ok" : aw_errname(errno));

	rc = link_via_proc(open_tmpfile(f->dirfd, 0), f->dirfd, "viaproc");
	aw_expect(f->ctx, flink_items[1], rc == 0, "linkat through /proc: %s", aw_errname(rc));

	int excl = open_tmpfile(f->dirfd, O_EXCL);
	rc = link_via_proc(excl, f->dirfd, "excl");
	if (excl < 0)
		aw_error(f->ctx, flink_items[2], "O_TMPFILE|O_EXCL: %s", aw_errname(excl));
	else
		aw_expect(f->ctx, flink_items[2], rc == -ENOENT,
			  "linkat through /proc of an O_TMPFILE|O_EXCL file: %s",
			  rc == 0 ? "linked" : aw_errname(rc));
	return 0;
}

/* A directory uid 65534 may write in, as a descriptor, or -1 with *why. */
static int open_shared_dir(int dirfd, const char *name, char **why)
{
	int fd = -1;
	if (mkdirat(dirfd, name, 0777) != 0 || fchmodat(dirfd, name, 0777, 0) != 0 ||
	    (fd = openat(dirfd, name, O_DIRECTORY | O_RDONLY | O_CLOEXEC)) < 0)
		*why = xasprintf("a directory uid %d may write in: %s", AW_NOBODY, strerror(errno));
	return fd;
}

static void flink_run(struct aw_ctx *ctx, int dirfd)
{
	char *why = NULL;
	int udir = open_shared_dir(dirfd, "flink", &why);
	if (udir < 0) {
		for (size_t i = 0; i < AW_ARRAY_SIZE(flink_items); i++)
			(i ? aw_skip : aw_unobserved)(ctx, flink_items[i], "%s", why);
		free(why);
		return;
	}
	struct flink arg = { ctx, udir };
	int refused = 0;
	int status = aw_child_run_as(AW_NOBODY, AW_NOBODY, flink_child, &arg, CHILD_MS, &refused);
	if (refused) {
		/* No uid 65534 here (a user namespace mapping only the
		 * caller): the same without the capability. */
		aw_note(ctx, "flink: %s; tested with CAP_DAC_READ_SEARCH dropped instead",
			aw_become_user_why(refused));
		status = aw_child_run(flink_child, &arg, CHILD_MS);
	}
	for (size_t i = 0; i < AW_ARRAY_SIZE(flink_items); i++)
		if (!aw_reported(ctx, flink_items[i]))
			aw_error(ctx, flink_items[i], "the child ended with %d", status);
	close(udir);
}

/* ---- times ---- */

/* One pair: two changes, each seen by fstat, between two reads of the
 * coarse clock.  1 when both reads are equal (*kind says what the pair
 * showed), 0 when a tick passed (no evidence), or -errno. */
static int mtime_pair(int fd, enum vfs_pair *kind)
{
	struct timespec c0, c1;
	struct stat s1, s2;
	clock_gettime(CLOCK_REALTIME_COARSE, &c0);
	if (write(fd, "x", 1) != 1 || fstat(fd, &s1) != 0 || write(fd, "y", 1) != 1 ||
	    fstat(fd, &s2) != 0)
		return -errno;
	clock_gettime(CLOCK_REALTIME_COARSE, &c1);
	if (c0.tv_sec != c1.tv_sec || c0.tv_nsec != c1.tv_nsec)
		return 0;
	*kind = vfs_pair_of(s1.st_mtim, s2.st_mtim, c0);
	return 1;
}

/* Pairs until TIMES_PAIRS fell within a tick, or TIMES_TRIES were tried:
 * counted work, so a loaded machine only discards more pairs.  How many
 * were tried, or -errno. */
static long mtime_pairs(int fd, size_t count[VFS_PAIRS])
{
	size_t within = 0;
	long tried = 0;
	while (within < TIMES_PAIRS && tried < TIMES_TRIES) {
		enum vfs_pair kind = VFS_PAIR_OTHER;
		int rc = mtime_pair(fd, &kind);
		tried++;
		if (rc < 0)
			return rc;
		if (rc > 0) {
			count[kind]++;
			within++;
		}
	}
	return tried;
}

static void granularity_run(struct aw_ctx *ctx, int dirfd)
{
	size_t count[VFS_PAIRS] = { 0 };
	struct timespec tick = { 0 };
	int fd = openat(dirfd, "times", O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0600);
	long tried = fd < 0 ? -errno : mtime_pairs(fd, count);
	if (fd >= 0)
		close(fd);
	if (tried < 0) {
		aw_error(ctx, "mtime_granularity", "write+fstat: %s", aw_errname((int)tried));
		return;
	}
	clock_getres(CLOCK_REALTIME_COARSE, &tick);
	aw_note(ctx, "mtime: %ld pairs tried, within one tick (%ld ns, clock_getres of "
		"CLOCK_REALTIME_COARSE): %zu different, %zu the tick's, %zu whole seconds, %zu other",
		tried, tick.tv_nsec, count[VFS_PAIR_FINE], count[VFS_PAIR_TICK],
		count[VFS_PAIR_SECOND], count[VFS_PAIR_OTHER]);
	const char *grain = vfs_grain_class(count);
	if (grain)
		aw_observe(ctx, "mtime_granularity", "%s", grain);
	else
		aw_unobserved(ctx, "mtime_granularity", "none of %ld pairs of changes fell "
			      "within one tick", tried);
}

static int older(const struct stat *a, const struct stat *b)
{
	if (a->st_mtim.tv_sec != b->st_mtim.tv_sec)
		return a->st_mtim.tv_sec < b->st_mtim.tv_sec;
	return a->st_mtim.tv_nsec < b->st_mtim.tv_nsec;
}

/* One round of the sequence from the 6.6-rc3 revert: f1 is written last,
 * so its mtime must not be older than f2's.  1 when it is, 0, or -errno. */
static int order_round(int dirfd)
{
	struct stat s1, s2;
	int f1 = openat(dirfd, "order1", O_CREAT | O_TRUNC | O_WRONLY | O_CLOEXEC, 0600);
	int f2 = openat(dirfd, "order2", O_CREAT | O_TRUNC | O_WRONLY | O_CLOEXEC, 0600);
	int rc = f1 < 0 || f2 < 0 || write(f1, "a", 1) != 1 || fstat(f2, &s2) != 0 ||
		 write(f2, "b", 1) != 1 || fstat(f2, &s2) != 0 || write(f1, "c", 1) != 1 ||
		 fstat(f1, &s1) != 0 ? -errno : older(&s1, &s2);
	if (f1 >= 0)
		close(f1);
	if (f2 >= 0)
		close(f2);
	(void)unlinkat(dirfd, "order1", 0);
	(void)unlinkat(dirfd, "order2", 0);
	return rc;
}

static void order_run(struct aw_ctx *ctx, int dirfd)
{
	for (int i = 0; i < ORDER_ROUNDS; i++) {
		int rc = order_round(dirfd);
		if (rc < 0) {
			aw_error(ctx, "mtime_order", "round %d: %s", i + 1, aw_errname(rc));
			return;
		}
		if (rc) {
			aw_fail(ctx, "mtime_order", "round %d: the file written last looks older", i + 1);
			return;
		}
	}
	aw_pass(ctx, "mtime_order");
}

/* ---- names ---- */

static int make_file(int dirfd, const char *name)
{
	int fd = openat(dirfd, name, O_CREAT | O_WRONLY | O_CLOEXEC, 0600);
	if (fd < 0)
		return -errno;
	close(fd);
	return 0;
}

static ino_t ino_of(int dirfd, const char *name)
{
	struct stat st;
	return fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW) == 0 ? st.st_ino : 0;
}

static void rename_flags_run(struct aw_ctx *ctx, int d)
{
	int rc = renameat2(d, "a", d, "b", RENAME_NOREPLACE);
	aw_observe(ctx, "rename_noreplace", "%s", rc == 0 ? "replaced" : aw_errname(errno));
	if (rc == 0)
		(void)make_file(d, "a");

	ino_t a = ino_of(d, "a"), b = ino_of(d, "b");
	rc = renameat2(d, "a", d, "b", RENAME_EXCHANGE);
	if (rc != 0)
		aw_observe(ctx, "rename_exchange", "%s", aw_errname(errno));
	else
		aw_observe(ctx, "rename_exchange", "%s",
			   ino_of(d, "a") == b && ino_of(d, "b") == a ? "ok" : "not swapped");

	rc = renameat2(d, "a", d, "c", RENAME_WHITEOUT);
	aw_observe(ctx, "rename_whiteout", "%s", rc == 0 ? "ok" : aw_errname(errno));
}

static void rename_same_run(struct aw_ctx *ctx, int d)
{
	ino_t b = ino_of(d, "b");
	int rc = renameat(d, "b", d, "b");
	int err = errno;
	aw_expect(ctx, "rename_same", rc == 0 && b && ino_of(d, "b") == b, "rename(b, b): %s%s",
		  rc == 0 ? "success" : aw_errname(err), rc == 0 ? ", but b changed" : "");

	struct stat st;
	rc = linkat(d, "b", d, "h", 0);
	if (rc != 0) {
		aw_skip(ctx, "rename_hardlink", "link(b, h): %s", aw_errname(errno));
		return;
	}
	rc = renameat(d, "b", d, "h");
	err = errno;
	bool kept = ino_of(d, "b") == b && ino_of(d, "h") == b && fstatat(d, "b", &st, 0) == 0 &&
		    st.st_nlink == 2;
	aw_expect(ctx, "rename_hardlink", rc == 0 && kept, "rename(b, h) with h a link of b: %s%s",
		  rc == 0 ? "success" : aw_errname(err), rc == 0 ? ", but a name or a link went" : "");
}

static void directories_run(struct aw_ctx *ctx, int d)
{
	int rc = linkat(d, "n", d, "n2", 0);
	aw_expect(ctx, "link_directory", rc != 0 && errno == EPERM, "link(dir, n2): %s",
		  rc == 0 ? "success" : aw_errname(errno));
	struct stat st;
	if (fstatat(d, "n", &st, 0) != 0) {
		aw_unobserved(ctx, "dir_nlink", "stat: %s", strerror(errno));
		return;
	}
	aw_observe(ctx, "dir_nlink", "%lu", (unsigned long)st.st_nlink);
}

static int make_dirs(int d)
{
	static const char *const dirs[] = { "n", "n/s1", "n/s2", "n/s3" };
	for (size_t i = 0; i < AW_ARRAY_SIZE(dirs); i++)
		if (mkdirat(d, dirs[i], 0700) != 0)
			return -errno;
	return 0;
}

static void names_run(struct aw_ctx *ctx, int dirfd)
{
	static const char *const items[] = {
		"rename_noreplace", "rename_exchange", "rename_whiteout", "rename_same",
		"rename_hardlink", "link_directory", "dir_nlink",
	};
	int rc = mkdirat(dirfd, "names", 0700) != 0 ? -errno : 0;
	int d = rc ? -1 : openat(dirfd, "names", O_DIRECTORY | O_RDONLY | O_CLOEXEC);
	if (d >= 0 && !(rc = make_file(d, "a")) && !(rc = make_file(d, "b")))
		rc = make_dirs(d);
	if (d < 0 || rc) {
		for (size_t i = 0; i < AW_ARRAY_SIZE(items); i++)
			aw_error(ctx, items[i], "making the files: %s", aw_errname(d < 0 ? errno : rc));
		if (d >= 0)
			close(d);
		return;
	}
	rename_flags_run(ctx, d);
	rename_same_run(ctx, d);
	directories_run(ctx, d);
	close(d);
}

/* ---- the probe ---- */

static void fs_run(struct aw_ctx *ctx)
{
	struct aw_fs fs;
	char *why = NULL;
	enum aw_fs_rc rc = aw_target_prepare(ctx, 0, &fs, &why);
	if (rc != AW_FS_OK) {
		(rc == AW_FS_SKIP ? aw_skip_rest : aw_error_rest)(ctx, "%s", why);
		free(why);
		return;
	}
	aw_note(ctx, "%s", fs.detail);
	tmpfile_run(ctx, fs.dirfd);
	flink_run(ctx, fs.dirfd);
	granularity_run(ctx, fs.dirfd);
	order_run(ctx, fs.dirfd);
	names_run(ctx, fs.dirfd);
	if (aw_fs_release(&fs, &why) != 0)
		aw_note(ctx, "clean-up: %s", why ? why : "failed");
	free(why);
}

static const int admin_caps[] = { CAP_SYS_ADMIN, -1 };
static const char *const loop_kconfig[] = { "CONFIG_BLK_DEV_LOOP", NULL };
static const char *const fs_tags[] = {
	"linux-git:42bd2af59504", "linux-git:9a87907de359", "linux-git:6ac81fd55e8a",
	"linux-git:647aa768281f", "linux-git:a3c751a50fe6", "man:open(2)", "man:linkat(2)",
	"man:rename(2)", "posix:rename", "posix:link", NULL,
};

#define VFS_FS_PROBE(nm, sum, target, ...)                                                 \
	{ .name = (nm), .summary = (sum), .run = fs_run, .items = fs_items, .tags = fs_tags, \
	  .data = &(target), __VA_ARGS__ }
#define VFS_LOOP .needs = { .caps = admin_caps, .kconfig = loop_kconfig }

const struct aw_probe vfs_fs_path_template = VFS_FS_PROBE("path", "names and times", aw_target_tmpfs);

const struct aw_probe vfs_fs_probes[] = {
	VFS_FS_PROBE("tmpfs", "names and times on a fresh tmpfs", aw_target_tmpfs),
	VFS_FS_PROBE("ext4", "names and times on a fresh ext4, loop-mounted", aw_target_ext4, VFS_LOOP),
	VFS_FS_PROBE("xfs", "names and times on a fresh XFS, loop-mounted", aw_target_xfs, VFS_LOOP),
	VFS_FS_PROBE("btrfs", "names and times on a fresh btrfs, loop-mounted", aw_target_btrfs,
		     VFS_LOOP),
	VFS_FS_PROBE("overlay", "names and times in a merged overlayfs directory (tmpfs layers)",
		     aw_target_overlay),
	AW_PROBES_END,
};

// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * copy_file_range(2) between filesystems and from pseudo files, over the
 * backends (src/backends/) the dirent family uses: bytes or errno per
 * (source, destination) pair.
 *
 * 5dae222a5ff0 (5.3) let the call copy across superblocks through an
 * in-kernel splice; files whose size reads as 0 (/proc, tracefs) then
 * "copied" 0 bytes, which Go's io.Copy fast path and ChromeOS took for
 * the end of the file.  868f9f2f8e00 (5.19, stable 5.10 and 5.15)
 * restored EXDEV unless both files share a ->copy_file_range method
 * (nfs, cifs, fuse, overlayfs).  tmpfs2 is a second tmpfs instance: the
 * same type on another superblock.  Files made through the overlay live
 * in its upper layer, so an overlay-to-overlay copy reaches real files
 * on one tmpfs.  Pseudo files are only read.
 */
#include "fdio.h"
#include "backends/backend.h"
#include "lib/errname.h"
#include "lib/util.h"
#include "lib/proc.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/capability.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define LEN 10000

/* The filesystems, twice: the preprocessor cannot nest one list. */
#define FDIO_FS_A(X, arg) X(arg, tmpfs) X(arg, tmpfs2) X(arg, ext4) X(arg, xfs) X(arg, btrfs) X(arg, overlay)
#define FDIO_FS_B(X, arg) X(arg, tmpfs) X(arg, tmpfs2) X(arg, ext4) X(arg, xfs) X(arg, btrfs) X(arg, overlay)
#define FDIO_PSEUDO(X, arg) X(arg, proc_status) X(arg, proc_version) X(arg, proc_ostype) X(arg, sys_online)

#define PAIR_ITEM(src, dst) AW_OBS_ITEM(#src "_to_" #dst, "copy_file_range of a 10000-byte " \
	"file on " #src " to a new file on " #dst ": bytes or errno", \
	.change = "programs copying across filesystems (cp, Go io.Copy) see another result"),
#define ROW_ITEMS(unused, src) FDIO_FS_A(PAIR_ITEM, src)
#define PSEUDO_ITEM(src, dst) AW_OBS_ITEM(#src "_to_" #dst, "copy_file_range of up to 65536 " \
	"bytes from " #src " to a new file on " #dst ": bytes or errno", \
	.change = "programs copying /proc or /sys files with copy_file_range get 0 bytes " \
	"(5.3 to 5.18) or EXDEV"),
#define PSEUDO_ROW(unused, src) FDIO_FS_A(PSEUDO_ITEM, src)

static const struct aw_item copy_items[] = {
	AW_CHECK_ITEM("same_fs_copies", "a copy within one filesystem copies all 10000 bytes, "
		      "unchanged"),
	AW_CHECK_ITEM("cross_fs_exdev", "a copy between two superblocks that share no "
		      "->copy_file_range method fails with EXDEV (868f9f2f8e00)"),
	AW_CHECK_ITEM("pseudo_exdev", "a copy from a /proc or /sys file fails with EXDEV and "
		      "leaves the destination empty (868f9f2f8e00)"),
	FDIO_FS_B(ROW_ITEMS, unused)
	FDIO_PSEUDO(PSEUDO_ROW, unused)
	AW_ITEMS_END
};

#define NAME_OF(unused, x) #x,
static const char *const fs_names[] = { FDIO_FS_A(NAME_OF, unused) };
static const char *const pseudo_names[] = { FDIO_PSEUDO(NAME_OF, unused) };
static const char *const pseudo_paths[] = {
	"/proc/self/status", "/proc/version", "/proc/sys/kernel/ostype",
	"/sys/devices/system/cpu/online",
};
#define NFS (sizeof(fs_names) / sizeof(fs_names[0]))
#define NPSEUDO (sizeof(pseudo_names) / sizeof(pseudo_names[0]))

struct place {
	struct aw_fs fs;
	bool made;   /* fs is to be released */
	bool ready;
	char *why;   /* why not ready */
	int src;     /* the 10000-byte source file, or -1 */
};

struct verdict {
	bool ok;
	char why[200];
};

/* The first counter-example is the one named. */
static void disprove(struct verdict *v, const char *src, const char *dst, const char *res)
{
	if (!v->ok)
		return;
	v->ok = false;
	snprintf(v->why, sizeof(v->why), "%s to %s gave %s", src, dst, res);
}

static const struct aw_backend *backend_of(size_t i)
{
	static const struct aw_backend *const b[NFS] = {
		&aw_backend_tmpfs, &aw_backend_tmpfs, &aw_backend_ext4, &aw_backend_xfs,
		&aw_backend_btrfs, &aw_backend_overlay,
	};
	return b[i];
}

static void fill(char *buf)
{
	for (size_t i = 0; i < LEN; i++)
		buf[i] = (char)(i * 7 + 3);
}

static void prepare(struct aw_ctx *ctx, size_t i, struct place *p)
{
	char *base = NULL, *why = NULL;
	static char data[LEN];

	p->src = -1;
	/* tmpfs2 is the tmpfs backend again, in a base of its own. */
	base = aw_fs_subdir(aw_tmpdir(ctx), fs_names[i], &why);
	struct aw_fs_opts o = { .base = base, .host_dirfd = -1, .shared_dirfd = aw_run_dirfd(ctx) };
	enum aw_fs_rc rc = base ? aw_fs_prepare(backend_of(i), &o, &p->fs, &why) : AW_FS_ERROR;
	free(base);
	if (rc != AW_FS_OK) {
		p->why = why;
		return;
	}
	p->made = p->ready = true;
	fill(data);
	p->src = openat(p->fs.dirfd, "src", O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (p->src < 0 || write(p->src, data, LEN) != LEN || fsync(p->src) != 0) {
		p->ready = false;
		p->why = xasprintf("writing the source file: %s", aw_errname(errno));
	}
}

/* A new destination file named after the source in place dst. */
static int new_dest(struct place *dst, const char *src_name)
{
	char name[64];
	snprintf(name, sizeof(name), "from_%s", src_name);
	return openat(dst->fs.dirfd, name, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
}

static bool same_content(int fd)
{
	static char want[LEN], got[LEN];
	fill(want);
	return pread(fd, got, LEN, 0) == LEN && memcmp(want, got, LEN) == 0;
}

static void copy_pair(struct aw_ctx *ctx, struct place *places, size_t s, size_t d,
		      struct verdict *same, struct verdict *cross)
{
	char item[64], res[FDIO_RES_LEN];
	snprintf(item, sizeof(item), "%s_to_%s", fs_names[s], fs_names[d]);
	struct place *src = &places[s], *dst = &places[d];
	if (!src->ready || !dst->ready) {
		aw_unobserved(ctx, item, "%s", !src->ready ? src->why : dst->why);
		return;
	}
	int out = new_dest(dst, fs_names[s]);
	loff_t in_off = 0;
	ssize_t n = out < 0 ? -1 : copy_file_range(src->src, &in_off, out, NULL, LEN, 0);
	aw_observe(ctx, item, "%s", fdio_res(res, n, errno));
	if (s == d && !(n == LEN && same_content(out)))
		disprove(same, fs_names[s], fs_names[d], res);
	if (s != d && n != -1)
		disprove(cross, fs_names[s], fs_names[d], res);
	if (s != d && n == -1 && errno != EXDEV)
		disprove(cross, fs_names[s], fs_names[d], res);
	if (out >= 0)
		close(out);
}

static void copy_pseudo(struct aw_ctx *ctx, struct place *places, size_t s, size_t d,
			struct verdict *v)
{
	char item[64], res[FDIO_RES_LEN];
	snprintf(item, sizeof(item), "%s_to_%s", pseudo_names[s], fs_names[d]);
	if (!places[d].ready) {
		aw_unobserved(ctx, item, "%s", places[d].why);
		return;
	}
	int in = open(pseudo_paths[s], O_RDONLY | O_CLOEXEC);
	if (in < 0) {
		aw_unobserved(ctx, item, "%s: %s", pseudo_paths[s], aw_errname(errno));
		return;
	}
	int out = new_dest(&places[d], pseudo_names[s]);
	ssize_t n = out < 0 ? -1 : copy_file_range(in, NULL, out, NULL, 65536, 0);
	int err = errno;
	struct stat st = { 0 };
	if (out >= 0)
		fstat(out, &st);
	aw_observe(ctx, item, "%s", fdio_res(res, n, err));
	if (n != -1 || err != EXDEV || st.st_size != 0)
		disprove(v, pseudo_names[s], fs_names[d], res);
	if (out >= 0)
		close(out);
	close(in);
}

static void copy_run(struct aw_ctx *ctx)
{
	struct place places[NFS];
	struct verdict same = { true, "" }, cross = { true, "" }, pseudo = { true, "" };
	double t0 = aw_now();

	memset(places, 0, sizeof(places));
	for (size_t i = 0; i < NFS; i++)
		prepare(ctx, i, &places[i]);
	aw_note(ctx, "filesystems made in %.3f s", aw_now() - t0);
	for (size_t s = 0; s < NFS; s++)
		for (size_t d = 0; d < NFS; d++)
			copy_pair(ctx, places, s, d, &same, &cross);
	for (size_t s = 0; s < NPSEUDO; s++)
		for (size_t d = 0; d < NFS; d++)
			copy_pseudo(ctx, places, s, d, &pseudo);
	aw_expect(ctx, "same_fs_copies", same.ok, "%s", same.why);
	aw_expect(ctx, "cross_fs_exdev", cross.ok, "%s", cross.why);
	aw_expect(ctx, "pseudo_exdev", pseudo.ok, "%s", pseudo.why);
	for (size_t i = 0; i < NFS; i++) {
		char *why = NULL;
		if (places[i].src >= 0)
			close(places[i].src);
		if (places[i].made && aw_fs_release(&places[i].fs, &why) != 0)
			aw_note(ctx, "clean-up of %s: %s", fs_names[i], why ? why : "failed");
		free(why);
		free(places[i].why);
	}
}

static const char *const copy_tags[] = {
	"linux-git:5dae222a5ff0", "linux-git:868f9f2f8e00", "linux-git:10bc8e4af659",
	"man:copy_file_range(2)", NULL,
};
static const char *const copy_kconfig[] = { "CONFIG_BLK_DEV_LOOP", "CONFIG_OVERLAY_FS", NULL };

const struct aw_probe fdio_copy_probes[] = {
	{ .name = "copy_file_range", .summary = "copy_file_range between tmpfs, ext4, xfs, btrfs "
	  "and overlay, and from /proc and /sys files: bytes or errno per pair", .run = copy_run,
	  .items = copy_items, .tags = copy_tags, .needs = { .kconfig = copy_kconfig },
	  .timeout_s = 60 },
	AW_PROBES_END
};

// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The run function every dirent probe shares: make a fresh directory on
 * the probe's backend, fill it with N empty files, and test what
 * getdents64's d_off, telldir(3) and seekdir(3) promise
 * (docs/catalogue.md, "dirent").  In this order, each on what the one before
 * left:
 *
 *   1. scan A (fresh descriptor, raw getdents64, 1 MiB buffer): terminates,
 *      unique, complete, and the observations of the cookies themselves;
 *      then a DIR stream on a fresh descriptor (reopen_stable,
 *      telldir_matches_doff, complete again and after rewinddir);
 *   2. seek_resume: lseek(fd, d_off) + getdents64 for every entry of A
 *      (a sample where a seek costs time linear in the position),
 *      seekdir(telldir()) for a sample of at most 256 positions;
 *   3. the 32-bit helper on the untouched directory (compat32.*); then
 *      early_changes(): the middle name of scan A unlinked, the one a
 *      quarter of the way renamed;
 *   4. unmodified_once: N/20 names removed and N/20 added while a scan
 *      runs, and population names spread through the listing (every 20th
 *      in scan A's order, the first and last 3) removed as the scan passes
 *      them, and the name it would list next after each call; then a fresh
 *      scan must list the rest again (complete);
 *   5. stable_after_unlink: the first tenth (in scan order) deleted;
 *   6. survivors_once: every 20th name (and the first and last 3) deleted;
 *      each other name once in a fresh scan, and in a DIR stream opened
 *      before and resumed with seekdir() at a cookie taken before
 *      (4 to 6 change at most CHANGES_MAX, STABLE_MAX names: see there);
 *   7. matches_record: a DIR stream resumed with seekdir() at a cookie
 *      taken half way, a fresh scan between;
 *   8. terminates_rename: a scan that renames names as it lists them;
 *      the names it did not rename each once, by the record.
 *
 * Every listing is held against the probe's record of the directory
 * (record.h: the names its own calls made and removed), never against
 * another listing, so that a name a filesystem has lost from every
 * listing since the first change is still expected.
 *
 * Removing names spread among the others is what shows a listing that
 * skips the entry after a removed one (a position that counts entries, an
 * offset map that looks the next entry up from a removed one: commit
 * f70681e9e606; libfuse issue 401): names removed next to each other hide
 * it, the entries skipped being ones that go anyway.
 *
 * Time O(N) but for the seeks (a scan's cookie set is only filled once
 * its cookies stop moving one way, and then it is a hash table); memory
 * O(N): two recorded scans of 12 bytes an entry, the cookie set at 13
 * bytes a slot when used, 10 bytes of per-name state, the DIR pass's 12;
 * the peak is noted at the end (48 to 75 bytes an entry at 1,000,000).
 * Every scan stops after 3N + 1000 entries, and a (name, d_off) pair
 * seen twice in one scan is a cycle: no scan can hang.
 */
#include "dirent.h"
#include "cookies.h"
#include "scan.h"
#include "record.h"
#include "lib/util.h"
#include "lib/child.h"
#include "lib/errname.h"
#include "core/probe.h"
#include "lib/tree.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#define SEEK_BUF 1024       /* one entry at least: reclen <= 24 + 256 */
#define SEEKDIR_SAMPLE 256
#define UNLINK_SAMPLE 256
#define UNLINK_SAMPLE_WALK 64
#define SEEK_SAMPLE 4096    /* positions at most, where seeking is linear in them */
#define SEEK_SAMPLE_MIN 256 /* and at least */
#define SEEK_PROBES 16      /* seeks timed at each end to find out */
#define SEEK_BUDGET_S 5.0   /* what every entry may cost before sampling */
#define PROGRESS_FROM 100000
/*
 * The changes a check makes, bounded (issue 44: their cost at 1,000,000
 * entries).  Up to 81,920 entries nothing is bounded: N/20 names added and
 * removed and every 20th name removed, the first tenth deleted, as
 * before.  Beyond, CHANGES_MAX of each and STABLE_MAX deletions, still
 * spread over the whole directory: the picks one in N/CHANGES_MAX in
 * listing order (with the first and last 3 always, so the first and last
 * blocks), the added names in step with the scan from its first call to
 * its last.  What these catch is a defect of each change, not of their
 * number: a name hidden after an unlink or rename (hidenext, shift,
 * f70681e9e606, libfuse 401), a cookie reused, a name listed twice; each
 * change still goes through the same calls (unlinkat, mknodat on a name
 * that hashes anywhere, between two getdents64 calls of one open file)
 * and every pick still has a survivor after it, so a defect that every
 * unlink or rename shows is shown by 4096 of them as by 50,000; one that
 * only some positions show (a block boundary, two names of one hash) has
 * a pick at each 1 in N/CHANGES_MAX of them, and where names share a
 * cookie (ext4 hash collisions) the first of each such pair is picked as
 * well, up to COLLISION_PICKS, since the stride may pass over all of them.
 */
#define CHANGES_MAX 4096
#define STABLE_MAX 8192     /* stable_after_unlink's deletions (the first tenth) */
#define COLLISION_PICKS 64
/* --dirent-timing's words, in the family's table */
enum { TIMING_YES, TIMING_NO };

struct dr {
	struct aw_ctx *ctx;
	const struct aw_fs_target *t;
	int dirfd;
	uint32_t n;            /* population size */
	size_t cap;            /* bound for a scan */
	char *buf;             /* DS_BIG_BUF bytes */
	struct dc_set set;
	struct ds_scan a, b;   /* the baseline scan and a second one */
	uint64_t *off_by_num;  /* the baseline d_off of each population name */
	uint8_t *scratch;
	struct dr_record rec;  /* what the directory holds, by the probe's own calls */
	char *record_msg;      /* listings that no check of their own holds */
	char *early_error;     /* early_changes() could not change the directory */
	size_t listings;       /* opens of the directory held against the record */
	bool b_current;        /* r->b lists the directory as it stands */
	uint32_t kept[4];      /* see is_kept() */
	size_t nkept;
	uint8_t *pick;         /* the names a phase removes among the others */
	bool use_open;         /* create with open(O_CREAT): mknod refused */
	bool seek_walks;       /* seek_every() found a seek linear in its position */
	char *scan_error;      /* the first listing that failed with an errno */
	bool progress;
	double last_progress;
};

/* Population name num is still there, by the probe's own account. */
static bool pop_has(const struct dr *r, uint32_t num)
{
	return dr_record_has(&r->rec, DC_POP, num);
}

static double elapsed(double since)
{
	return aw_now() - since;
}

static void progress(struct dr *r, const char *what, size_t i, size_t total)
{
	if (!r->progress || (i != total && aw_now() - r->last_progress < 0.5))
		return;
	r->last_progress = aw_now();
	fprintf(stderr, "\r\033[Kdirent.%s: %s %zu/%zu", r->t->label, what, i, total);
	if (i == total)
		fputs("\r\033[K", stderr);
	fflush(stderr);
}

static int make_file(struct dr *r, const char *name)
{
	if (!r->use_open) {
		if (mknodat(r->dirfd, name, S_IFREG | 0644, 0) == 0)
			return 0;
		if (errno != EPERM && errno != ENOSYS && errno != EOPNOTSUPP && errno != EINVAL)
			return -errno;
		r->use_open = true; /* FUSE without mknod, some NFS servers */
	}
	int fd = openat(r->dirfd, name, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	if (fd < 0)
		return -errno;
	close(fd);
	return 0;
}

static int make_files(struct dr *r, enum dc_kind kind, uint32_t count, char **why)
{
	char name[DC_NAME_LEN + 1];
	for (uint32_t i = 0; i < count; i++) {
		dc_name(kind, i, name);
		int rc = make_file(r, name);
		if (rc) {
			*why = xasprintf("creating %s (file %u of %u): %s", name, i + 1, count,
					 aw_errname(-rc));
			return -1;
		}
		dr_record_made(&r->rec, kind, i);
		if (kind == DC_POP)
			progress(r, "creating", i + 1, count);
	}
	return 0;
}

static void unlink_name(struct dr *r, enum dc_kind kind, uint32_t i)
{
	char name[DC_NAME_LEN + 1];
	dc_name(kind, i, name);
	if (unlinkat(r->dirfd, name, 0) == 0)
		dr_record_gone(&r->rec, kind, i);
}

/* A whole scan with the big buffer, bounded. */
#define BIG_SCAN(r) (&(struct ds_scan_opts){ .cap = (r)->cap, .bufsize = DS_BIG_BUF })

/* ---- the baseline scan and what it shows ---- */

static void observe_cookies(struct dr *r)
{
	struct aw_ctx *ctx = r->ctx;
	const struct ds_scan *a = &r->a;
	unsigned bits = dc_bits(ds_max_cookie(a));

	aw_observe_long(ctx, "cookie_bits", bits);
	aw_observe_long(ctx, "headroom_bits", 64 - (long long)bits);
	if (a->ended && a->len)
		aw_observe(ctx, "eof_cookie", "0x%llx", (unsigned long long)ds_eof_cookie(a));
	else
		aw_unobserved(ctx, "eof_cookie", "the scan did not end (see terminates)");
	aw_observe(ctx, "signed", "%s", ds_any_negative(a) ? "yes" : "no");
	aw_observe_long(ctx, "duplicates", (long long)a->shared);

	uint32_t *nums = xmalloc((a->len + 1) * sizeof(*nums));
	uint64_t *offs = xmalloc((a->len + 1) * sizeof(*offs));
	size_t k = 0, dots = 0, dotdots = 0;
	for (size_t i = 0; i < a->len; i++) {
		dots += a->tag[i] == DC_TAG_DOT;
		dotdots += a->tag[i] == DC_TAG_DOTDOT;
		if (dc_tag_is(a->tag[i], DC_POP)) {
			nums[k] = dc_tag_num(a->tag[i]);
			offs[k++] = a->off[i];
		}
	}
	aw_observe(ctx, "order", "%s", dc_order_name(dc_classify_order(nums, offs, k)));
	aw_observe(ctx, "dots", "%s", ds_dots_name(dots, dotdots));
	free(nums);
	free(offs);
}

static void record_offsets(struct dr *r, const struct ds_scan *s)
{
	for (size_t i = 0; i < s->len; i++)
		if (dc_tag_is(s->tag[i], DC_POP) && dc_tag_num(s->tag[i]) < r->n)
			r->off_by_num[dc_tag_num(s->tag[i])] = s->off[i];
}

#define PATTERN_SHOWN 4

/* After dr_census(): the missing names from (kind, num) on that form a
 * run in creation order (names removed may lie within it); its last
 * missing name, and how many are missing in it. */
static uint32_t missing_run(const struct dr *r, enum dc_kind k, uint32_t num, uint32_t opened,
			    uint32_t *count)
{
	uint32_t end = num;
	*count = 0;
	for (uint32_t i = num; i < r->rec.size[k]; i++) {
		if (dr_is_missing(&r->rec, k, i, opened)) {
			end = i;
			(*count)++;
		} else if (!dr_record_removed(&r->rec, k, i)) {
			break;
		}
	}
	return end;
}

/* One run of missing names, from first to last, looked up (does the
 * file exist, though the listing lacks it?) and placed after the removed
 * name of its kind nearest before it in creation order. */
static char *describe_run(const struct dr *r, enum dc_kind k, uint32_t first, uint32_t last,
			  uint32_t count)
{
	char name[DC_NAME_LEN + 1], other[DC_NAME_LEN + 1];
	struct stat st;
	uint32_t before, removed;
	dc_name(k, first, name);
	char *found = fstatat(r->dirfd, name, &st, AT_SYMLINK_NOFOLLOW) == 0
		      ? xstrdup("exists but is not listed")
		      : xasprintf("not listed, and fstatat: %s", aw_errname(errno));
	char *where;
	const char *them = count > 1 ? "them" : "it";
	if (dr_removed_before(&r->rec, k, first, &before, &removed)) {
		dc_name(k, before, other);
		where = xasprintf("%u place%s after removed %s, %u removed before %s", first - before,
				  first - before == 1 ? "" : "s", other, removed, them);
	} else {
		where = xasprintf("no removed name before %s", them);
	}
	char *run;
	if (count > 1) {
		dc_name(k, last, other);
		run = xasprintf("%s to %s (%u in a row; the first %s; %s)", name, other, count, found,
				where);
	} else {
		run = xasprintf("%s (%s; %s)", name, found, where);
	}
	free(found);
	free(where);
	return run;
}

/* The missing names of the last census, in runs in creation order, the
 * first few: "f0000011 (exists but is not listed; 1 place after removed
 * f0000010, 1 removed before it)" where the name after a removed one
 * goes, "f0000023 to f0000026 (4 in a row; ...; 13 places after removed
 * f0000010, 4 removed before them)" where a position that counts entries
 * moves past as many names as went before it. */
static char *missing_pattern(const struct dr *r, uint32_t opened)
{
	char *s = xstrdup("");
	size_t shown = 0;
	for (enum dc_kind k = DC_POP; k < DR_KINDS && shown < PATTERN_SHOWN; k++) {
		for (uint32_t i = 0; i < r->rec.size[k] && shown < PATTERN_SHOWN; i++) {
			if (!dr_is_missing(&r->rec, k, i, opened))
				continue;
			uint32_t count, last = missing_run(r, k, i, opened, &count);
			char *run = describe_run(r, k, i, last, count);
			char *t = xasprintf("%s%s%s", s, shown++ ? ", " : "", run);
			free(run);
			free(s);
			s = t;
			i = last;
		}
	}
	return s;
}

/* Hold listing s, of a stream opened at moment opened, against the
 * record: "WHAT: census[: missing names][; trouble]" appended to *msg
 * when it is not clean; with untouched, only the repeats of names no
 * change touched meanwhile count (dr_census_untouched()).  A listing the
 * filesystem failed says nothing about which names it holds (counting
 * them missing would blame the wrong defect): its first is kept in
 * r->scan_error. */
static void hold(struct dr *r, const struct ds_scan *s, uint32_t opened, bool untouched,
		 const char *what, char **msg)
{
	if (s->err) {
		if (!r->scan_error) {
			char *trouble = ds_scan_trouble(s);
			r->scan_error = xasprintf("%s: %s", what, trouble);
			free(trouble);
		}
		return;
	}
	struct dr_census c;
	dr_census(&r->rec, s, opened, &c);
	if (untouched)
		dr_census_untouched(&c);
	char *trouble = ds_scan_trouble(s);
	if (dr_census_ok(&c) && !trouble)
		return;
	char *d = dr_census_describe(&c);
	char *pattern = c.missing ? missing_pattern(r, opened) : xstrdup("");
	char *t = xasprintf("%s%s%s: %s%s%s%s%s", *msg ? *msg : "", *msg ? "; " : "", what, d,
			    *pattern ? ": " : "", pattern, trouble && *d ? "; " : "",
			    trouble ? trouble : "");
	free(*msg);
	free(d);
	free(pattern);
	free(trouble);
	*msg = t;
}

static void held_into(struct dr *r, const struct ds_scan *s, uint32_t opened, const char *what,
		      char **msg)
{
	hold(r, s, opened, false, what, msg);
}

/* A DIR stream of the directory on a descriptor of its own, opened now;
 * NULL with errno set, nothing left open. */
static DIR *open_stream(const struct dr *r)
{
	int fd = openat(r->dirfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
	if (!d && fd >= 0) {
		int e = errno;
		close(fd);
		errno = e;
	}
	return d;
}

/* The DIR stream pass on a fresh descriptor: each name's d_off against
 * scan A's (reopen_stable), telldir() against d_off, the listing, again
 * after rewinddir(), and seekdir(telldir()) at sampled positions.  Returns the
 * seekdir verdict for seek_resume: NULL (all resumed) or a message. */
static char *dir_stream(struct dr *r, char **complete_msg)
{
	struct aw_ctx *ctx = r->ctx;
	DIR *d = open_stream(r);
	char name[16], name2[16], name3[16];

	if (!d) {
		int e = errno;
		aw_error(ctx, "telldir_matches_doff", "opendir: %s", aw_errname(e));
		return xasprintf("opendir: %s", aw_errname(e));
	}
	r->listings++;
	struct ds_scan pass = { 0 };
	long *tells = NULL;
	size_t alloc = 0, mismatches = 0, n = 0;
	long first_tell = 0;
	uint64_t first_doff = 0;
	uint32_t first_tag = 0, first_moved = 0;
	size_t moved = 0, seen = 0;
	struct dirent *e;
	int err = 0;

	errno = 0;
	while (n < r->cap && (e = readdir(d))) {
		long t = telldir(d);
		uint32_t tag = dc_tag_of(e->d_name);
		if (t != (long)e->d_off && mismatches++ == 0) {
			first_tell = t;
			first_doff = (uint64_t)e->d_off;
			first_tag = tag;
		}
		/* A fresh open: the same cookie for each name as in scan A? */
		if (dc_tag_is(tag, DC_POP) && dc_tag_num(tag) < r->n) {
			seen++;
			if (r->off_by_num[dc_tag_num(tag)] != (uint64_t)e->d_off && moved++ == 0)
				first_moved = tag;
		}
		if (n == alloc) {
			alloc = alloc ? alloc * 2 : 1024;
			tells = xrealloc(tells, alloc * sizeof(*tells));
			pass.tag = xrealloc(pass.tag, alloc * sizeof(*pass.tag));
		}
		tells[n] = t;
		pass.tag[n] = tag;
		n++;
		errno = 0;
	}
	err = n < r->cap ? errno : 0;
	pass.len = n;
	pass.ended = n < r->cap && !err;
	pass.capped = n >= r->cap;
	pass.err = err;
	held_into(r, &pass, dr_record_now(&r->rec), "readdir(3) on a fresh descriptor", complete_msg);
	if (err) {
		aw_unobserved(ctx, "reopen_stable", "readdir failed with %s after %zu entries",
			      aw_errname(err), n);
	} else {
		if (moved || seen != r->n)
			aw_note(ctx, "reopen_stable: %zu of %zu names had another d_off (first %s), "
				"%zu of %u names seen", moved, seen, dc_tag_name(first_moved, name),
				seen, r->n);
		aw_observe(ctx, "reopen_stable", "%s", moved || seen != r->n ? "no" : "yes");
	}
	if (err)
		aw_error(ctx, "telldir_matches_doff", "readdir failed with %s after %zu entries",
			 aw_errname(err), n);
	else if (mismatches)
		aw_fail(ctx, "telldir_matches_doff",
			"%zu of %zu entries: after readdir returned %s with d_off 0x%llx, "
			"telldir() gave 0x%lx", mismatches, n, dc_tag_name(first_tag, name),
			(unsigned long long)first_doff, (unsigned long)first_tell);
	else
		aw_pass(ctx, "telldir_matches_doff");

	/* seekdir(telldir()) resumes at the next entry. */
	size_t positions = n ? n - 1 : 0, wrong = 0;
	size_t samples = dc_sample_count(positions, SEEKDIR_SAMPLE);
	char *seek_msg = NULL;
	for (size_t k = 0; k < samples; k++) {
		size_t p = dc_sample_at(positions, SEEKDIR_SAMPLE, k);
		seekdir(d, tells[p]);
		errno = 0;
		e = readdir(d);
		uint32_t got = e ? dc_tag_of(e->d_name) : 0;
		if ((!e || got != pass.tag[p + 1]) && wrong++ == 0)
			seek_msg = xasprintf("seekdir(telldir()) after %s resumed at %s, not %s",
					     dc_tag_name(pass.tag[p], name),
					     e ? dc_tag_name(got, name2) : "the end",
					     dc_tag_name(pass.tag[p + 1], name3));
	}
	if (wrong) {
		char *t = xasprintf("%s (%zu of %zu sampled positions)", seek_msg, wrong, samples);
		free(seek_msg);
		seek_msg = t;
	}

	/* rewinddir(), then every name once more (generic/471). */
	rewinddir(d);
	n = 0;
	errno = 0;
	while (n < r->cap && (e = readdir(d))) {
		if (n == alloc) {
			alloc = alloc ? alloc * 2 : 1024;
			pass.tag = xrealloc(pass.tag, alloc * sizeof(*pass.tag));
		}
		pass.tag[n++] = dc_tag_of(e->d_name);
		errno = 0;
	}
	pass.len = n;
	pass.ended = n < r->cap && !errno;
	pass.capped = n >= r->cap;
	pass.err = n < r->cap ? errno : 0;
	held_into(r, &pass, dr_record_now(&r->rec), "readdir(3) after rewinddir()", complete_msg);
	closedir(d);
	free(tells);
	free(pass.tag);
	return seek_msg;
}

/* One lseek(fd, d_off of entry p) + getdents64: NULL when it resumed at
 * entry p + 1 (at the end for the last entry), else why not. */
static char *seek_one(const struct ds_scan *a, int fd, size_t p, char *small)
{
	char name[16], name2[16], name3[16];
	bool last = p + 1 == a->len;

	if (lseek(fd, (off_t)a->off[p], SEEK_SET) == (off_t)-1)
		return xasprintf("lseek to 0x%llx (the d_off of %s) failed with %s",
				 (unsigned long long)a->off[p], dc_tag_name(a->tag[p], name),
				 aw_errname(errno));
	long got = syscall(SYS_getdents64, fd, small, SEEK_BUF);
	if (got < 0)
		return xasprintf("getdents64 after lseek to the d_off of %s failed with %s",
				 dc_tag_name(a->tag[p], name), aw_errname(errno));
	if (last && got > 0 && a->ended)
		return xasprintf("lseek to the end-of-directory cookie 0x%llx returned %s, not "
				 "the end", (unsigned long long)a->off[p],
				 dc_tag_name(dc_tag_of(small + 19), name));
	if (!last && got == 0)
		return xasprintf("lseek to 0x%llx (the d_off of %s) then getdents64 returned the "
				 "end, not %s", (unsigned long long)a->off[p],
				 dc_tag_name(a->tag[p], name), dc_tag_name(a->tag[p + 1], name2));
	if (!last && dc_tag_of(small + 19) != a->tag[p + 1])
		return xasprintf("lseek to 0x%llx (the d_off of %s) then getdents64 returned %s, "
				 "not %s", (unsigned long long)a->off[p],
				 dc_tag_name(a->tag[p], name), dc_tag_name(dc_tag_of(small + 19), name2),
				 dc_tag_name(a->tag[p + 1], name3));
	return NULL;
}

static int cmp_double(const void *x, const void *y)
{
	double a = *(const double *)x, b = *(const double *)y;
	return a < b ? -1 : a > b;
}

/* The median time of one seek_one() at positions from .. from+count-1. */
static double seek_cost(const struct ds_scan *a, int fd, size_t from, size_t count,
			char *small)
{
	double t[SEEK_PROBES];
	for (size_t i = 0; i < count; i++) {
		double t0 = aw_now();
		free(seek_one(a, fd, from + i, small));
		t[i] = aw_now() - t0;
	}
	qsort(t, count, sizeof(t[0]), cmp_double);
	return t[count / 2];
}

/* lseek(fd, d_off of entry p) then getdents64 returns entry p + 1, for
 * every p of scan A, on the descriptor scan A read (as generic/257 does:
 * a cookie is only promised to the open file that returned it); the last
 * entry's d_off leads to the end.  Where a seek costs time in proportion
 * to the position (overlayfs walks its merged listing from the start),
 * every entry would be quadratic: then as many evenly spaced positions as
 * SEEK_BUDGET_S pays for (256 to 4096), and a note says so. */
static char *seek_every(struct dr *r, int fd, size_t *checked)
{
	const struct ds_scan *a = &r->a;
	char small[SEEK_BUF];
	char *msg = NULL;
	size_t wrong = 0, positions = a->len;

	*checked = 0;
	if (a->len > SEEK_SAMPLE) {
		double near = seek_cost(a, fd, 0, SEEK_PROBES, small);
		double far = seek_cost(a, fd, a->len - SEEK_PROBES - 1, SEEK_PROBES, small);
		double mean = (near + far) / 2;
		if (far > 8 * near && mean * (double)a->len > SEEK_BUDGET_S) {
			/* As many as the budget pays for, within bounds. */
			double fit = SEEK_BUDGET_S / mean;
			positions = fit > SEEK_SAMPLE ? SEEK_SAMPLE : fit < SEEK_SAMPLE_MIN
				    ? SEEK_SAMPLE_MIN : (size_t)fit;
			r->seek_walks = true;
			aw_note(r->ctx, "seek_resume: a seek costs %.0f us near the start and %.0f us "
				"near the end (it walks the listing): %zu of %zu positions checked, "
				"evenly spaced", near * 1e6, far * 1e6, positions, a->len);
		}
	}
	for (size_t k = 0; k < positions; k++) {
		size_t p = positions == a->len ? k : dc_sample_at(a->len, positions, k);
		char *bad = seek_one(a, fd, p, small);
		(*checked)++;
		if (bad && wrong++ == 0)
			msg = bad;
		else
			free(bad);
		progress(r, "seeking", k + 1, positions);
	}
	if (wrong) {
		char *t = xasprintf("%s (%zu of %zu positions%s)", msg, wrong, *checked,
				    a->shared ? "; some entries share a d_off, see unique" : "");
		free(msg);
		msg = t;
	}
	return msg;
}

/* Everything scan A decides; complete is left to the caller, which adds
 * the scans after the changes of unmodified_once to *complete_msg. */
static bool baseline(struct dr *r, char **complete_msg)
{
	struct aw_ctx *ctx = r->ctx;
	char name[16], name2[16];
	int fd = openat(r->dirfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	if (fd < 0 || ds_scan_fd(fd, r->buf, BIG_SCAN(r), &r->set, &r->a) != 0) {
		aw_error_rest(ctx, "scanning the directory: %s", aw_errname(fd < 0 ? errno : r->a.err));
		if (fd >= 0)
			close(fd);
		return false;
	}
	r->listings++;
	char *trouble = ds_scan_trouble(&r->a);
	if (trouble && r->a.err) /* the filesystem failed: an error, not an endless listing */
		aw_error(ctx, "terminates", "%s", trouble);
	else if (trouble)
		aw_fail(ctx, "terminates", "%s", trouble);
	else
		aw_pass(ctx, "terminates");
	free(trouble);
	if (r->a.shared)
		aw_fail(ctx, "unique", "%zu entries have the d_off of an earlier entry; first: %s "
			"and %s both 0x%llx", r->a.shared, dc_tag_name(r->a.shared_tags[0], name),
			dc_tag_name(r->a.shared_tags[1], name2),
			(unsigned long long)r->a.shared_cookie);
	else
		aw_pass(ctx, "unique");
	observe_cookies(r);
	record_offsets(r, &r->a);
	held_into(r, &r->a, dr_record_now(&r->rec), "first scan", complete_msg);

	char *seekdir_msg = dir_stream(r, complete_msg);

	size_t checked;
	char *lseek_msg = seek_every(r, fd, &checked);
	close(fd);
	if (lseek_msg || seekdir_msg)
		aw_fail(ctx, "seek_resume", "%s%s%s", lseek_msg ? lseek_msg : "",
			lseek_msg && seekdir_msg ? "; " : "", seekdir_msg ? seekdir_msg : "");
	else
		aw_pass(ctx, "seek_resume");
	free(lseek_msg);
	free(seekdir_msg);
	return true;
}

/* ---- names removed among the others ---- */

/* The population names of s not removed yet, each once, in the order s
 * listed them, into order (r->n slots); how many.  Uses r->scratch. */
static size_t live_order(struct dr *r, const struct ds_scan *s, uint32_t *order)
{
	size_t len = 0;
	memset(r->scratch, 0, r->n);
	for (size_t i = 0; i < s->len; i++) {
		uint32_t t = s->tag[i];
		if (!dc_tag_is(t, DC_POP) || dc_tag_num(t) >= r->n)
			continue;
		uint32_t num = dc_tag_num(t);
		if (!pop_has(r, num) || r->scratch[num])
			continue;
		r->scratch[num] = 1;
		order[len++] = num;
	}
	return len;
}

/* One of the names listed next to those early_changes() removed: no
 * check removes them, so that every later listing can show them lost. */
static bool is_kept(const struct dr *r, uint32_t num)
{
	for (size_t i = 0; i < r->nkept; i++)
		if (r->kept[i] == num)
			return true;
	return false;
}

/* r->pick: the names of order (the live population names of listing s)
 * that dc_spread_pick_max() chooses, but the kept ones; how many.  Where
 * CHANGES_MAX widens the stride beyond 20, also the first of each pair
 * of names of s that share a cookie (at most COLLISION_PICKS): every
 * 20th name, as before, came next to some of them. */
static size_t mark_spread(struct dr *r, const struct ds_scan *s, const uint32_t *order,
			  size_t len)
{
	size_t picked = 0;
	memset(r->pick, 0, r->n);
	for (size_t i = 0; i < len; i++) {
		if (dc_spread_pick_max(i, len, CHANGES_MAX) && !is_kept(r, order[i])) {
			r->pick[order[i]] = 1;
			picked++;
		}
	}
	if (dc_spread_stride(len, CHANGES_MAX) <= 20)
		return picked;
	size_t pairs = 0;
	for (size_t i = 1; i < s->len && pairs < COLLISION_PICKS; i++) {
		uint32_t t = s->tag[i - 1], u = s->tag[i];
		if (s->off[i] != s->off[i - 1] || !dc_tag_is(t, DC_POP) || !dc_tag_is(u, DC_POP) ||
		    dc_tag_num(t) >= r->n || dc_tag_num(u) >= r->n)
			continue;
		uint32_t num = dc_tag_num(t);
		if (!pop_has(r, num) || !pop_has(r, dc_tag_num(u)) || r->pick[num] || is_kept(r, num))
			continue;
		r->pick[num] = 1;
		picked++;
		pairs++;
	}
	return picked;
}

/* Remove population name num (a pick) and mark it dead; 0 or an errno. */
static int remove_pick(struct dr *r, uint32_t num)
{
	char name[DC_NAME_LEN + 1];
	dc_name(DC_POP, num, name);
	if (unlinkat(r->dirfd, name, 0) != 0 && errno != ENOENT)
		return errno;
	dr_record_gone(&r->rec, DC_POP, num);
	return 0;
}

/* ---- changes during a scan ---- */

struct churn {
	struct dr *r;
	uint32_t m, done;
	size_t total;
	const uint32_t *order; /* scan A's population, in its order */
	const uint32_t *place; /* of each name in order, or UINT32_MAX */
	size_t order_len;
	size_t seen;           /* entries of the scan looked at for picks */
	uint32_t picks_ahead, picks_passed, next_removed;
	int err;
	char *why;
};

#define PICKS_AHEAD 3 /* the last picks of A's order, removed before the scan reaches them */

static bool churn_remove(struct churn *c, uint32_t num)
{
	int e = remove_pick(c->r, num);
	if (e) {
		char name[DC_NAME_LEN + 1];
		dc_name(DC_POP, num, name);
		c->err = e;
		c->why = xasprintf("unlink %s: %s", name, aw_errname(e));
	}
	return !e;
}

/* After each getdents64 call, keep the removals and additions in step
 * with the scan: by the end, all m of each. */
static void churn_step(void *arg, const struct ds_scan *s)
{
	struct churn *c = arg;
	size_t want = c->total ? (size_t)((unsigned long long)c->m * s->len / c->total) : c->m;
	char name[DC_NAME_LEN + 1];
	if (want > c->m)
		want = c->m;
	/* Population names spread through the listing, each removed as soon
	 * as the scan has passed it (where a cursor that counts entries
	 * shifts), the last few before the scan gets there. */
	for (size_t i = c->order_len; c->seen == 0 && i-- > 0 && i + PICKS_AHEAD >= c->order_len;)
		if (c->r->pick[c->order[i]] && pop_has(c->r, c->order[i]) && !c->err &&
		    churn_remove(c, c->order[i]))
			c->picks_ahead++;
	for (; c->seen < s->len && !c->err; c->seen++) {
		uint32_t t = s->tag[c->seen];
		if (!dc_tag_is(t, DC_POP) || dc_tag_num(t) >= c->r->n)
			continue;
		uint32_t num = dc_tag_num(t);
		if (c->r->pick[num] && pop_has(c->r, num) && churn_remove(c, num))
			c->picks_passed++;
	}
	/* And the name the scan would list next, where an offset map that
	 * looks up the next entry from a removed one goes wrong
	 * (f70681e9e606: tmpfs listed the entry before it again). */
	for (size_t i = s->len; i-- > 0 && !c->err;) {
		uint32_t t = s->tag[i];
		if (!dc_tag_is(t, DC_POP) || dc_tag_num(t) >= c->r->n)
			continue;
		uint32_t at = c->place[dc_tag_num(t)];
		if (at != UINT32_MAX && at + 1 < c->order_len && pop_has(c->r, c->order[at + 1]) &&
		    churn_remove(c, c->order[at + 1]))
			c->next_removed++;
		break;
	}
	while (c->done < want && !c->err) {
		dc_name(DC_ADDED_X, c->done, name);
		if (unlinkat(c->r->dirfd, name, 0) != 0) {
			c->err = errno;
			c->why = xasprintf("unlink %s: %s", name, aw_errname(errno));
			break;
		}
		dr_record_gone(&c->r->rec, DC_ADDED_X, c->done);
		dc_name(DC_ADDED_Y, c->done, name);
		int rc = make_file(c->r, name);
		if (rc) {
			c->err = -rc;
			c->why = xasprintf("creating %s: %s", name, aw_errname(-rc));
			break;
		}
		dr_record_made(&c->r->rec, DC_ADDED_Y, c->done);
		c->done++;
	}
}

/* The names unmodified_once adds and removes during its scan: N/20, 16
 * at least, CHANGES_MAX at most. */
static uint32_t added_count(uint32_t n)
{
	return n / 20 > CHANGES_MAX ? CHANGES_MAX : n / 20 > 16 ? n / 20 : 16;
}

static void unmodified_once(struct dr *r)
{
	struct aw_ctx *ctx = r->ctx;
	uint32_t m = added_count(r->n);
	char *why = NULL;

	if (make_files(r, DC_ADDED_X, m, &why) != 0) {
		aw_error(ctx, "unmodified_once", "%s", why);
		free(why);
		for (uint32_t i = 0; i < m; i++)
			unlink_name(r, DC_ADDED_X, i);
		return;
	}
	uint32_t *order = xmalloc(((size_t)r->n + 1) * sizeof(*order));
	size_t len = live_order(r, &r->a, order);
	size_t picked = mark_spread(r, &r->a, order, len);
	size_t stride = dc_spread_stride(len, CHANGES_MAX);
	uint32_t *place = xmalloc(((size_t)r->n + 1) * sizeof(*place));
	memset(place, 0xff, (size_t)r->n * sizeof(*place));
	for (size_t i = 0; i < len; i++)
		place[order[i]] = (uint32_t)i;
	struct churn c = { .r = r, .m = m, .total = (size_t)r->n + m + 2, .order = order,
			   .place = place, .order_len = len };
	/* Small calls, so that the changes fall between many of them. */
	size_t bufsize = c.total * 32 / 16;
	bufsize = bufsize < 1024 ? 1024 : bufsize > 65536 ? 65536 : bufsize;
	struct ds_scan_opts o = {
		.cap = 3 * c.total + 1000, .bufsize = bufsize, .after_call = churn_step, .arg = &c,
	};
	uint32_t opened = dr_record_now(&r->rec);
	int rc = ds_scan_fresh(r->dirfd, r->buf, &o, &r->set, &r->b);
	r->listings++;
	/* The picks the scan never listed go now: every pick is removed. */
	uint32_t picks_after = 0;
	for (size_t i = 0; i < len && !c.err; i++)
		if (r->pick[order[i]] && pop_has(r, order[i]) && churn_remove(&c, order[i]))
			picks_after++;

	if (c.err) {
		aw_error(ctx, "unmodified_once", "changing the directory during the scan: %s", c.why);
	} else if (rc != 0) {
		aw_error(ctx, "unmodified_once", "scanning: %s", aw_errname(r->b.err));
	} else if (r->b.err) {
		/* A failed listing tells nothing of which names it would have given. */
		aw_error(ctx, "unmodified_once", "scanning: getdents64 failed with %s after %zu entries",
			 aw_errname(r->b.err), r->b.len);
	} else {
		/* Names removed or added during the scan may be listed or not. */
		char *msg = NULL;
		held_into(r, &r->b, opened, "the untouched names", &msg);
		struct dr_census cs;
		dr_census(&r->rec, &r->b, opened, &cs);
		if (msg)
			aw_fail(ctx, "unmodified_once", "with %u names added and %u removed during "
				"the scan, and %zu more spread among the others removed as the scan "
				"passed them, %u more just ahead of it: %s", c.done, c.done, picked,
				c.next_removed, msg);
		else
			aw_pass(ctx, "unmodified_once");
		free(msg);
		aw_note(ctx, "unmodified_once: %u removed and %u added over %zu getdents64 calls; "
			"%zu of the changed names were listed; of %zu names spread through the "
			"listing (1 in %zu, the first and last 3), %u removed just after the scan "
			"passed them, %u before it got there, %u after it; and the next name after "
			"each call, %u names", c.done, c.done, r->b.calls, cs.changed, picked, stride,
			c.picks_passed, c.picks_ahead, picks_after, c.next_removed);
	}
	free(order);
	free(place);
	free(c.why);
	for (uint32_t i = 0; i < m; i++) {
		if (i >= c.done)
			unlink_name(r, DC_ADDED_X, i);
		else
			unlink_name(r, DC_ADDED_Y, i);
	}
}

/* The first tenth of the names, in the order of scan A (made afresh by
 * the caller), deleted: do the others keep their cookies, and does
 * seeking to them still work? */
static void stable_after_unlink(struct dr *r)
{
	struct aw_ctx *ctx = r->ctx;
	const char *obs = "stable_after_unlink";

	if (!r->a.ended) {
		aw_unobserved(ctx, obs, "the scan before deleting did not end normally");
		return;
	}
	if (r->n < 2) {
		aw_unobserved(ctx, obs, "needs 2 entries at least: one to delete, one to keep");
		return;
	}
	record_offsets(r, &r->a);
	/* STABLE_MAX at most: a cursor that counts entries moves by the first
	 * one deleted, a filesystem that repacks its blocks frees the first
	 * ones (8192 names fill more than 30 ext4 or xfs blocks) as it would
	 * with a tenth of a million. */
	uint32_t q = r->n / 10 ? r->n / 10 : 1, deleted = 0;
	if (q > STABLE_MAX)
		q = STABLE_MAX;
	for (size_t i = 0; i < r->a.len && deleted < q; i++) {
		uint32_t t = r->a.tag[i];
		if (!dc_tag_is(t, DC_POP) || dc_tag_num(t) >= r->n || !pop_has(r, dc_tag_num(t)))
			continue;
		char name[DC_NAME_LEN + 1];
		dc_name(DC_POP, dc_tag_num(t), name);
		if (unlinkat(r->dirfd, name, 0) != 0) {
			aw_unobserved(ctx, obs, "unlink %s: %s", name, aw_errname(errno));
			return;
		}
		dr_record_gone(&r->rec, DC_POP, dc_tag_num(t));
		deleted++;
	}
	/* One open for the scan and the seeks after it. */
	uint32_t opened = dr_record_now(&r->rec);
	int fd = openat(r->dirfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0 || ds_scan_fd(fd, r->buf, BIG_SCAN(r), &r->set, &r->b) != 0 || !r->b.ended) {
		aw_unobserved(ctx, obs, "the scan after deleting did not end normally");
		if (fd >= 0)
			close(fd);
		return;
	}
	r->listings++;
	r->b_current = true; /* survivors_once starts from it */
	held_into(r, &r->b, opened, "a fresh scan after stable_after_unlink's deletions",
		  &r->record_msg);
	size_t changed = 0, survivors = 0;
	for (size_t i = 0; i < r->b.len; i++) {
		uint32_t t = r->b.tag[i];
		if (!dc_tag_is(t, DC_POP) || dc_tag_num(t) >= r->n || !pop_has(r, dc_tag_num(t)))
			continue;
		survivors++;
		changed += r->off_by_num[dc_tag_num(t)] != r->b.off[i];
	}
	struct dr_census cs;
	dr_census(&r->rec, &r->b, opened, &cs);

	/* Seeks to old cookies of survivors, at most UNLINK_SAMPLE of them,
	 * UNLINK_SAMPLE_WALK where each walks the listing (overlayfs: 256 of
	 * them cost 9 s at 1,000,000 entries, as long as all the other checks
	 * but the scans): an observation of how the filesystem treats old
	 * cookies, the same for every position, that 64 spread ones show. */
	size_t sample = r->seek_walks ? UNLINK_SAMPLE_WALK : UNLINK_SAMPLE;
	size_t step = r->a.len / sample + 1, tried = 0, wrong = 0;
	char small[SEEK_BUF];
	for (size_t p = 0; fd >= 0 && p + 1 < r->a.len; p += step) {
		uint32_t t = r->a.tag[p], next = r->a.tag[p + 1];
		if (!dc_tag_is(t, DC_POP) || !dc_tag_is(next, DC_POP) || dc_tag_num(t) >= r->n ||
		    dc_tag_num(next) >= r->n || !pop_has(r, dc_tag_num(t)) || !pop_has(r, dc_tag_num(next)))
			continue;
		tried++;
		long got = -1;
		if (lseek(fd, (off_t)r->a.off[p], SEEK_SET) != (off_t)-1)
			got = syscall(SYS_getdents64, fd, small, sizeof(small));
		wrong += got <= 0 || dc_tag_of(small + 19) != next;
	}
	if (fd >= 0)
		close(fd);

	aw_note(ctx, "stable_after_unlink: %u of %u names deleted; %zu of %zu survivors have "
		"another d_off; %zu of %zu sampled seeks to old cookies resumed elsewhere%s",
		deleted, r->n, changed, survivors, wrong, tried,
		cs.missing || cs.ghosts ? "; the listing lost or kept names" : "");
	aw_observe(ctx, obs, "%s", changed ? "cookies_changed" : wrong ? "seeks_changed"
		   : cs.missing || cs.ghosts ? "entries_changed" : "stable");
}

/* The tags readdir() gives, appended to l (at most r->cap in all) until
 * the end, or until *live (the names not removed) reaches stop_after_live
 * when that is not 0; l->err when readdir() failed. */
static void read_stream(struct dr *r, DIR *d, struct ds_scan *l, size_t stop_after_live,
			size_t *live)
{
	struct dirent *e;
	errno = 0;
	while (l->len < r->cap && (!stop_after_live || *live < stop_after_live) &&
	       (e = readdir(d))) {
		uint32_t tag = dc_tag_of(e->d_name);
		if (l->len == l->alloc) {
			l->alloc = l->alloc ? l->alloc * 2 : 1024;
			l->tag = xrealloc(l->tag, l->alloc * sizeof(*l->tag));
		}
		l->tag[l->len++] = tag;
		*live += dc_tag_is(tag, DC_POP) && dc_tag_num(tag) < r->n && pop_has(r, dc_tag_num(tag));
		errno = 0;
	}
	if (l->len >= r->cap)
		l->capped = true;
	else if (errno)
		l->err = errno;
	else if (!stop_after_live || *live < stop_after_live)
		l->ended = true;
}

/* Names spread through the listing (every 20th in the order of a fresh
 * scan, the first and last 3) removed among the others; then every other
 * name exactly once, and no removed one, in a fresh getdents64 scan; and
 * exactly once in a DIR stream opened before the removals, read half way,
 * and resumed with seekdir() to the cookie telldir() gave there.  That
 * stream seeks to the cookie before the removals too, so that the
 * kernel's position is that cookie: a cursor that follows the entries
 * (tmpfs before 6.6) keeps its place, one that counts them loses it. */
static void survivors_once(struct dr *r)
{
	struct aw_ctx *ctx = r->ctx;
	const char *chk = "survivors_once";

	char *msg = NULL;
	/* The scan stable_after_unlink held against the record, if it was
	 * the last change: one full scan fewer. */
	if (!r->b_current) {
		uint32_t opened = dr_record_now(&r->rec);
		if (ds_scan_fresh(r->dirfd, r->buf, BIG_SCAN(r), &r->set, &r->b) != 0 ||
		    !r->b.ended) {
			char *trouble = ds_scan_trouble(&r->b);
			aw_error(ctx, chk, "the scan before the removals did not end normally%s%s",
				 trouble ? ": " : "", trouble ? trouble : "");
			free(trouble);
			return;
		}
		r->listings++;
		held_into(r, &r->b, opened, "a fresh scan before the removals", &msg);
	}
	r->b_current = false;
	uint32_t *order = xmalloc(((size_t)r->n + 1) * sizeof(*order));
	size_t len = live_order(r, &r->b, order);
	if (len < 2) {
		aw_skip(ctx, chk, "needs 2 names at least: one to remove, one to keep (%zu left)", len);
		free(order);
		free(msg);
		return;
	}
	size_t picked = mark_spread(r, &r->b, order, len);
	size_t stride = dc_spread_stride(len, CHANGES_MAX);

	uint32_t opened = dr_record_now(&r->rec);
	DIR *d = open_stream(r);
	if (!d) {
		aw_error(ctx, chk, "opendir: %s", aw_errname(errno));
		free(order);
		free(msg);
		return;
	}
	r->listings++;
	struct ds_scan l = { 0 };
	size_t live = 0;
	read_stream(r, d, &l, len / 2, &live);
	long cookie = telldir(d);
	size_t before = l.len;
	if (!l.err && !l.capped)
		seekdir(d, cookie);
	int err = 0;
	uint32_t bad = 0;
	for (size_t i = 0; i < len && !err; i++)
		if (r->pick[order[i]] && (err = remove_pick(r, order[i])) != 0)
			bad = order[i];
	if (!l.err && !l.capped && !err) {
		seekdir(d, cookie);
		l.ended = false;
		read_stream(r, d, &l, 0, &live);
	}
	closedir(d);

	if (err) {
		char name[16];
		aw_error(ctx, chk, "unlink %s: %s", dc_tag_name(dc_tag(DC_POP, bad), name),
			 aw_errname(err));
		goto out;
	}
	if (l.err) {
		aw_error(ctx, chk, "readdir failed with %s after %zu entries", aw_errname(l.err), l.len);
		goto out;
	}
	/* Names removed after opendir() may be listed or not (POSIX readdir). */
	char *what = xasprintf("readdir(3) on a stream opened before, resumed with seekdir() "
			       "after entry %zu", before);
	held_into(r, &l, opened, what, &msg);
	free(what);
	opened = dr_record_now(&r->rec);
	if (ds_scan_fresh(r->dirfd, r->buf, BIG_SCAN(r), &r->set, &r->b) != 0 && !r->b.err)
		r->b.err = ENOMEM;
	r->listings++;
	if (r->b.err) {
		aw_error(ctx, chk, "getdents64 failed with %s after %zu entries", aw_errname(r->b.err),
			 r->b.len);
		goto out;
	}
	held_into(r, &r->b, opened, "a fresh getdents64 scan", &msg);
	if (msg)
		aw_fail(ctx, chk, "with %zu of %zu names removed, spread among the others: %s",
			picked, len, msg);
	else
		aw_pass(ctx, chk);
	aw_note(ctx, "survivors_once: %zu of %zu names removed (1 in %zu in listing order, the "
		"first and last 3) after a DIR stream listed %zu entries", picked, len, stride, before);
out:
	free(msg);
	free(l.tag);
	free(order);
}

/* ---- the record ---- */

/* The first changes, before any check that changes the directory: the
 * name in the middle of scan A's order unlinked and the one a quarter of
 * the way renamed to its 'r' name, each with names kept on both sides.
 * A listing that loses a neighbour from the first unlink or rename on
 * then has every later scan to show it in; before, the first names
 * removed were the last of the listing, next to each other, and the
 * name they hid went with them. */
static void early_changes(struct dr *r)
{
	uint32_t *order = xmalloc(((size_t)r->n + 1) * sizeof(*order));
	size_t len = live_order(r, &r->a, order);
	char from[DC_NAME_LEN + 1], to[DC_NAME_LEN + 1];

	/* Their neighbours in scan A's order stay to the end. */
	for (size_t i = 0; len >= 4 && i < 2; i++) {
		size_t at = i ? len / 2 : len / 4;
		r->kept[r->nkept++] = order[at - 1];
		r->kept[r->nkept++] = order[at + 1];
	}
	if (len >= 3) {
		uint32_t mid = order[len / 2];
		dc_name(DC_POP, mid, from);
		if (unlinkat(r->dirfd, from, 0) == 0)
			dr_record_gone(&r->rec, DC_POP, mid);
		else
			r->early_error = xasprintf("unlink %s: %s", from, aw_errname(errno));
	}
	if (len >= 4 && !r->early_error) {
		uint32_t quarter = order[len / 4];
		dc_name(DC_POP, quarter, from);
		dc_name(DC_RENAMED, quarter, to);
		if (renameat(r->dirfd, from, r->dirfd, to) == 0) {
			dr_record_gone(&r->rec, DC_POP, quarter);
			dr_record_made(&r->rec, DC_RENAMED, quarter);
		} else {
			r->early_error = xasprintf("rename %s to %s: %s", from, to, aw_errname(errno));
		}
	}
	free(order);
}

/* The population names still there, by the record. */
static size_t pop_present(const struct dr *r)
{
	size_t count = 0;
	for (uint32_t i = 0; i < r->n; i++)
		count += pop_has(r, i);
	return count;
}

/* matches_record: after the checks that change the directory (but
 * terminates_rename, which comes last and holds its own listing against
 * the record, renamed names aside), a DIR
 * stream read half way,
 * a fresh getdents64 scan, and the stream resumed with seekdir() at the
 * cookie telldir() gave half way: each listing, and the scans no check
 * of their own holds, against the record. */
static void matches_record(struct dr *r)
{
	struct aw_ctx *ctx = r->ctx;
	const char *chk = "matches_record";

	if (r->early_error) {
		aw_error(ctx, chk, "changing the directory before the checks: %s", r->early_error);
		return;
	}
	uint32_t opened = dr_record_now(&r->rec);
	DIR *d = open_stream(r);
	if (!d) {
		aw_error(ctx, chk, "opendir: %s", aw_errname(errno));
		return;
	}
	r->listings++;
	struct ds_scan l = { 0 };
	size_t live = 0, half = pop_present(r) / 2;
	read_stream(r, d, &l, half ? half : 1, &live);
	long cookie = telldir(d);
	size_t before = l.len;

	char *msg = r->record_msg;
	r->record_msg = NULL;
	uint32_t fresh = dr_record_now(&r->rec);
	if (ds_scan_fresh(r->dirfd, r->buf, BIG_SCAN(r), &r->set, &r->b) != 0 && !r->b.err)
		r->b.err = ENOMEM;
	r->listings++;
	held_into(r, &r->b, fresh, "a fresh getdents64 scan", &msg);
	if (!l.err && !l.capped && !l.ended) {
		seekdir(d, cookie);
		read_stream(r, d, &l, 0, &live);
	}
	closedir(d);
	char *what = xasprintf("readdir(3) resumed with seekdir() at the cookie telldir() gave "
			       "after entry %zu, a fresh scan between", before);
	held_into(r, &l, opened, what, &msg);
	free(what);
	free(l.tag);

	if (msg)
		aw_fail(ctx, chk, "%s", msg);
	else if (r->b.err || l.err)
		aw_error(ctx, chk, "a listing failed: %s", aw_errname(r->b.err ? r->b.err : l.err));
	else
		aw_pass(ctx, chk);
	aw_note(ctx, "matches_record: %zu listings held against the probe's record of the "
		"directory", r->listings);
	free(msg);
}

/* What terminates_rename's renames work on: between the getdents64 calls
 * of its scan, the names the call listed that are chosen, each renamed
 * to its twin (f... to r..., r... to f...), the record following. */
struct rename_walk {
	struct dr *r;
	uint8_t *chosen;   /* per number: rename this pair's name when listed */
	size_t seen;       /* entries of the scan already looked at */
	size_t renamed;
	size_t again;      /* renames of a name this scan had renamed already */
	int err;
	char *why;
};

/* The twin of a recorded name: f... and r... of one number. */
static enum dc_kind twin_of(enum dc_kind k)
{
	return k == DC_POP ? DC_RENAMED : DC_POP;
}

/* After each getdents64 call: rename the chosen names it listed.  A
 * rename can only fall between two calls (iterate_dir() holds the
 * directory's lock for the whole of one, rename needs it exclusive), so
 * this is every interleaving a concurrent renamer could give, with a
 * count of renames bounded by the entries listed, not by the time the
 * scan takes: the same work idle or loaded. */
static void rename_step(void *arg, const struct ds_scan *s)
{
	struct rename_walk *w = arg;
	char from[DC_NAME_LEN + 1], to[DC_NAME_LEN + 1];

	for (; w->seen < s->len && !w->err; w->seen++) {
		uint32_t t = s->tag[w->seen];
		enum dc_kind k = dc_tag_is(t, DC_POP) ? DC_POP : DC_RENAMED;
		uint32_t num = dc_tag_num(t);
		if (!dc_tag_is(t, k) || num >= w->r->n || !w->chosen[num] ||
		    !dr_record_has(&w->r->rec, k, num))
			continue;
		dc_name(k, num, from);
		dc_name(twin_of(k), num, to);
		if (renameat(w->r->dirfd, from, w->r->dirfd, to) != 0) {
			w->err = errno;
			w->why = xasprintf("rename %s to %s: %s", from, to, aw_errname(errno));
			break;
		}
		dr_record_gone(&w->r->rec, k, num);
		dr_record_made(&w->r->rec, twin_of(k), num);
		w->again += w->chosen[num] == 2;
		w->chosen[num] = 2;
		w->renamed++;
	}
}

/* A scan that renames names as it lists them, as generic/736 does: it
 * must end, within 3N + 1000 entries.  The names renamed are spread over
 * the record as the other checks' changes are (every 20th, 1 in
 * N/CHANGES_MAX beyond 81,920; the first and last 3), and a renamed name
 * is renamed again each time it is listed: a filesystem that gives a
 * renamed entry a place ahead of the cursor (CVE-2024-46701) lists one
 * such name forever and meets the bound, as with every name renamed.
 * A scan that ends is held against the record: each name it did not
 * rename listed exactly once (a rename is a removal and an addition, so
 * a renamed name may be listed twice or not at all), so that a name the
 * renames lost from the listing is named, with fstatat's word on it.
 * Which names exist comes from the record, not from a listing. */
static void terminates_rename(struct dr *r)
{
	struct aw_ctx *ctx = r->ctx;
	const char *chk = "terminates_rename";
	struct rename_walk w = { .r = r, .chosen = xcalloc((size_t)r->n + 1, 1) };
	size_t count = 0, chosen = 0;

	for (uint32_t i = 0; i < r->n; i++)
		count += pop_has(r, i) || dr_record_has(&r->rec, DC_RENAMED, i);
	for (uint32_t i = 0, at = 0; i < r->n; i++) {
		if (!pop_has(r, i) && !dr_record_has(&r->rec, DC_RENAMED, i))
			continue;
		if (dc_spread_pick_max(at++, count, CHANGES_MAX)) {
			w.chosen[i] = 1;
			chosen++;
		}
	}
	if (count == 0) {
		aw_error(ctx, chk, "no names left");
		free(w.chosen);
		return;
	}
	/* Small calls, so that the renames fall between many of them. */
	size_t bufsize = (count + 2) * 32 / 16;
	bufsize = bufsize < 1024 ? 1024 : bufsize > 65536 ? 65536 : bufsize;
	struct ds_scan_opts o = { .cap = 3 * (count + 2) + 1000, .bufsize = bufsize,
				  .after_call = rename_step, .arg = &w };
	uint32_t opened = dr_record_now(&r->rec);
	int rc = ds_scan_fresh(r->dirfd, r->buf, &o, &r->set, &r->b);
	r->listings++;
	char *trouble = ds_scan_trouble(&r->b), *msg = NULL;
	/* Only a listing that ended says which names it holds. */
	if (!w.err && rc == 0 && !trouble)
		hold(r, &r->b, opened, true, "the names it did not rename", &msg);
	if (w.err)
		aw_error(ctx, chk, "renaming during the scan: %s", w.why);
	else if (rc != 0 && !trouble)
		aw_error(ctx, chk, "scanning: %s", aw_errname(r->b.err));
	else if (trouble || msg)
		aw_fail(ctx, chk, "with %zu of %zu names renamed as they were listed (%zu renamed "
			"again when listed again): %s", w.renamed, count, w.again,
			trouble ? trouble : msg);
	else
		aw_pass(ctx, chk);
	free(msg);
	aw_note(ctx, "terminates_rename: %zu entries listed over %zu getdents64 calls (bound "
		"%zu); of %zu names, %zu chosen, %zu renames as the scan listed them, %zu of "
		"names it had renamed already", r->b.len, r->b.calls, o.cap, count, chosen,
		w.renamed, w.again);
	free(trouble);
	free(w.why);
	free(w.chosen);
}

/* ---- 32-bit callers ---- */

/* Two scans of a million entries take seconds; one that takes minutes
 * is stuck (a filesystem that hangs), and costs only these items. */
#define HELPER_TIMEOUT_MS 120000

/* The compat32.* observations: the family's 32-bit helper
 * (m32/dirent_m32.c) scans the untouched directory, inherited as a
 * descriptor, and reports them itself (core/helper.h). */
static void compat32(struct dr *r)
{
	char fd_s[16], cap_s[24], expect_s[24];
	snprintf(fd_s, sizeof(fd_s), "%d", r->dirfd);
	snprintf(cap_s, sizeof(cap_s), "%zu", r->cap);
	snprintf(expect_s, sizeof(expect_s), "%u", r->n + 2);
	const char *const args[] = { fd_s, cap_s, expect_s, NULL };
	const int keep[] = { r->dirfd, -1 };
	const struct aw_helper helper = {
		.name = DIRENT_HELPER, .args = args, .prefix = "compat32.",
		.timeout_ms = HELPER_TIMEOUT_MS, .keep = keep,
	};

	(void)aw_helper_report(r->ctx, &helper);
}

/* ---- timing ---- */

/* One bare lseek + getdents64, its time. */
static double bare_seek_one(int fd, uint64_t off, char *small)
{
	double t0 = aw_now();
	lseek(fd, (off_t)off, SEEK_SET);
	(void)syscall(SYS_getdents64, fd, small, SEEK_BUF);
	return aw_now() - t0;
}

/* The median of count bare seeks to offs[from..]. */
static double bare_seek_cost(int fd, const uint64_t *offs, size_t from, size_t count,
			     char *small)
{
	double t[SEEK_PROBES];
	for (size_t i = 0; i < count; i++)
		t[i] = bare_seek_one(fd, offs[from + i], small);
	qsort(t, count, sizeof(t[0]), cmp_double);
	return t[count / 2];
}

/* With --dirent-timing yes: the same directory read bare, for a ratio:
 * one getdents64 scan, then one lseek + getdents64 at the positions
 * seek_every() checks, by the same rule: every entry, but where a seek
 * costs time in proportion to the position (overlayfs), the evenly
 * spaced sample it takes there.  Seeking every entry of such a
 * directory is quadratic (187,000 of 1,000,000 overlay seeks took 7
 * minutes), and the checks do not do it either.  *seek_positions: how
 * many were timed, of *entries. */
static void bare_timing(struct dr *r, double *scan_s, double *seek_s, size_t *seek_positions,
			size_t *entries)
{
	double t0 = aw_now();
	uint64_t *offs = xmalloc(((size_t)r->n + 2) * sizeof(*offs));
	size_t k = 0;
	int fd = openat(r->dirfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	long got;
	while (fd >= 0 && (got = syscall(SYS_getdents64, fd, r->buf, DS_BIG_BUF)) > 0) {
		for (long pos = 0; pos < got;) {
			uint16_t reclen;
			memcpy(&reclen, r->buf + pos + 16, sizeof(reclen));
			if (k < (size_t)r->n + 2)
				memcpy(&offs[k++], r->buf + pos + 8, sizeof(*offs));
			pos += reclen ? reclen : got;
		}
	}
	*scan_s = elapsed(t0);
	t0 = aw_now();
	char small[SEEK_BUF];
	size_t positions = k;
	if (fd >= 0 && k > SEEK_SAMPLE) {
		double near = bare_seek_cost(fd, offs, 0, SEEK_PROBES, small);
		double far = bare_seek_cost(fd, offs, k - SEEK_PROBES - 1, SEEK_PROBES, small);
		double mean = (near + far) / 2;
		if (far > 8 * near && mean * (double)k > SEEK_BUDGET_S) {
			double fit = SEEK_BUDGET_S / mean;
			positions = fit > SEEK_SAMPLE ? SEEK_SAMPLE : fit < SEEK_SAMPLE_MIN
				    ? SEEK_SAMPLE_MIN : (size_t)fit;
		}
	}
	for (size_t i = 0; fd >= 0 && i < positions; i++)
		(void)bare_seek_one(fd, offs[positions == k ? i : dc_sample_at(k, positions, i)], small);
	*seek_s = elapsed(t0);
	*seek_positions = fd >= 0 ? positions : 0;
	*entries = k;
	if (fd >= 0)
		close(fd);
	free(offs);
}

/* ---- the run ---- */

static void work(struct aw_ctx *ctx, const struct aw_fs_target *t, struct aw_fs *fs,
		 uint32_t n)
{
	struct dr r = {
		.ctx = ctx, .t = t, .dirfd = fs->dirfd, .n = n,
		.cap = 3 * ((size_t)n + 2) + 1000,
		.progress = n >= PROGRESS_FROM && isatty(STDERR_FILENO),
	};
	bool timing = aw_param_enum(ctx, "timing") == TIMING_YES;
	char *why = NULL;
	double t0 = aw_now();

	if (dc_set_init(&r.set, (size_t)n + 2) != 0) {
		aw_error_rest(ctx, "out of memory for %u entries", n);
		return;
	}
	r.buf = xmalloc(DS_BIG_BUF);
	r.off_by_num = xcalloc(n, sizeof(*r.off_by_num));
	r.scratch = xcalloc(n, 1);
	r.pick = xcalloc(n, 1);
	uint32_t m = added_count(n);
	const uint32_t sizes[DR_KINDS] = { [DC_POP] = n, [DC_ADDED_X] = m, [DC_ADDED_Y] = m,
					   [DC_RENAMED] = n };
	if (dr_record_init(&r.rec, sizes) != 0) {
		aw_error_rest(ctx, "out of memory for the record of %u entries", n);
		goto out;
	}

	if (make_files(&r, DC_POP, n, &why) != 0) {
		aw_error_rest(ctx, "%s", why);
		free(why);
		goto out;
	}
	double create_s = elapsed(t0), bare_scan = 0, bare_seek = 0;
	size_t bare_positions = 0, bare_entries = 0;
	if (timing)
		bare_timing(&r, &bare_scan, &bare_seek, &bare_positions, &bare_entries);

	double t1 = aw_now(), phase[8];
	char *complete_msg = NULL;
	if (!baseline(&r, &complete_msg))
		goto out;
	phase[0] = aw_now();
	compat32(&r);
	phase[1] = aw_now();
	early_changes(&r);
	unmodified_once(&r);
	phase[2] = aw_now();
	/* A fresh open must list the names again. */
	if (ds_scan_fresh(r.dirfd, r.buf, BIG_SCAN(&r), &r.set, &r.a) != 0 && !r.a.err)
		r.a.err = ENOMEM;
	r.listings++;
	held_into(&r, &r.a, dr_record_now(&r.rec), "a fresh scan after the changes of "
		  "unmodified_once", &complete_msg);
	if (complete_msg)
		aw_fail(ctx, "complete", "%s", complete_msg);
	else if (r.scan_error)
		aw_error(ctx, "complete", "cannot tell, the listing failed: %s", r.scan_error);
	else
		aw_pass(ctx, "complete");
	free(complete_msg);
	phase[3] = aw_now();
	stable_after_unlink(&r);
	phase[4] = aw_now();
	survivors_once(&r);
	phase[5] = aw_now();
	matches_record(&r);
	phase[6] = aw_now();
	terminates_rename(&r);
	phase[7] = aw_now();
	double checks_s = elapsed(t1);

	struct rusage ru;
	getrusage(RUSAGE_SELF, &ru);
	/* Per entry only where the entries, not the program, dominate. */
	char per_entry[48] = "";
	if (n >= 10000)
		snprintf(per_entry, sizeof(per_entry), " (%.0f bytes per entry)",
			 (double)ru.ru_maxrss * 1024 / n);
	aw_note(ctx, "timing: %u entries created in %.3f s, checked in %.3f s (scans and seeks "
		"%.3f, compat32 %.3f, unmodified_once %.3f, rescan %.3f, stable_after_unlink %.3f, "
		"survivors_once %.3f, matches_record %.3f, terminates_rename %.3f); peak RSS %.1f "
		"MiB%s", n, create_s, checks_s, phase[0] - t1, phase[1] - phase[0],
		phase[2] - phase[1], phase[3] - phase[2], phase[4] - phase[3], phase[5] - phase[4],
		phase[6] - phase[5], phase[7] - phase[6],
		(double)ru.ru_maxrss / 1024, per_entry);
	if (timing)
		aw_note(ctx, "bench: entries %u checks %.3f s bare_scan %.3f s bare_seeks %.3f s "
			"ratio %.2f (bare seeks at %zu of %zu positions)", n, checks_s, bare_scan,
			bare_seek, bare_scan + bare_seek > 0 ? checks_s / (bare_scan + bare_seek) : 0.0,
			bare_positions, bare_entries);
out:
	free(r.scan_error);
	ds_scan_free(&r.a);
	ds_scan_free(&r.b);
	dc_set_free(&r.set);
	free(r.buf);
	free(r.off_by_num);
	free(r.scratch);
	dr_record_free(&r.rec);
	free(r.record_msg);
	free(r.early_error);
	free(r.pick);
}

/* Every name the probe may have made, by name. */
static void unlink_ours(int dirfd, uint32_t n)
{
	/* unmodified_once removes its x and y names by name already. */
	static const enum dc_kind kinds[] = { DC_POP, DC_RENAMED };
	char name[DC_NAME_LEN + 1];
	for (size_t k = 0; k < AW_ARRAY_SIZE(kinds); k++) {
		for (uint32_t i = 0; i < n; i++) {
			dc_name(kinds[k], i, name);
			(void)unlinkat(dirfd, name, 0);
		}
	}
}

struct work {
	struct aw_ctx *ctx;
	const struct aw_fs_target *t;
	struct aw_fs *fs;
	uint32_t n;
};

static int work_child(void *arg)
{
	struct work *w = arg;
	work(w->ctx, w->t, w->fs, w->n);
	return 0;
}

/* The path backend works on the host: the work runs in a child, so that
 * the subdirectory is removed however the work ends (short of a SIGKILL
 * of the whole probe, which the runner sends only at its timeout). */
static void guarded(struct aw_ctx *ctx, const struct aw_fs_target *t, struct aw_fs *fs,
		    uint32_t n)
{
	struct work w = { ctx, t, fs, n };
	int status = aw_child_run(work_child, &w, -1);

	if (status < 0)
		aw_error_rest(ctx, "fork: %s", aw_errname(status));
	/* What it did not report, the runner reports as errors. */
	else if (status >= 128)
		aw_note(ctx, "the probe's worker was killed by signal %d (%s)", status - 128,
			strsignal(status - 128));
}

void dirent_run(struct aw_ctx *ctx)
{
	const struct aw_fs_target *t = aw_probe_data(ctx);
	long long n = aw_param_int(ctx, "entries");
	struct aw_fs fs;
	char *why = NULL;
	double t0 = aw_now();

	enum aw_fs_rc rc = aw_target_prepare(ctx, (unsigned long)n, &fs, &why);
	if (rc == AW_FS_SKIP) {
		char *cause = xasprintf("fs:%s", t->backend->name);
		aw_skip_rest_cause(ctx, cause, "%s", why);
		free(cause);
		free(why);
		return;
	}
	if (rc != AW_FS_OK) {
		aw_error_rest(ctx, "%s", why);
		free(why);
		return;
	}
	aw_note(ctx, "%s (set up in %.3f s)", fs.detail, elapsed(t0));
	if (t->backend->host_state) {
		guarded(ctx, t, &fs, (uint32_t)n);
		/* A filesystem that hides names from readdir (the defects
		 * these probes look for) would keep them from the listing
		 * aw_fs_release() removes: remove ours by name as well. */
		(void)aw_remove_tree(fs.dirfd, NULL);
		unlink_ours(fs.dirfd, (uint32_t)n);
	} else {
		work(ctx, t, &fs, (uint32_t)n);
	}
	if (aw_fs_release(&fs, &why) != 0)
		aw_note(ctx, "clean-up: %s", why ? why : "failed");
	free(why);
}

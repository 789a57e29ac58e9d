// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cookiefs: a FUSE filesystem whose directories hand out directory-stream
 * cookies (getdents64 d_off, telldir) by a chosen policy, good or
 * defective, so that abiwatch's dirent checks can be shown to catch each
 * defect real filesystems have had.  The kernel's FUSE client passes the
 * offsets a daemon gives straight to user space, so what the policy says
 * is what a program sees.
 *
 * The root holds one directory per policy; POLICY-N is the same policy
 * pre-filled with N files.  Everything below is an in-memory tree that
 * can be written (mkdir, create, unlink, rename), and a directory follows
 * the policy of the top-level directory it lies in.  See usage().
 */
#define FUSE_USE_VERSION 31

#include <errno.h>
#include <fuse.h>
#include <fuse_lowlevel.h>
#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

enum policy {
	P_GOOD, P_WIDE, P_SIGNED, P_DUP, P_CYCLE, P_UNSTABLE, P_SKIP,
	P_REPEAT, P_VANISH, P_EIO, P_SLOW, P_HANG, P_TRUNCATE, P_NODOTS, P_SHIFT, P_HIDENEXT,
	P_HIDEFIRST, P_HIDERENAME, P_HIDELATE, P_HIDEKTH, P_RENAMEAHEAD, P_RENAMEDROP,
	P_COUNT
};

static const struct {
	const char *name;
	const char *what;
} policies[P_COUNT] = {
	[P_GOOD] = { "good", "stable cookies 3, 4, 5 ... in creation order (1 and 2 are . and ..)" },
	[P_WIDE] = { "wide", "63-bit cookies (bit 62 always set), listed in cookie order like a hash tree" },
	[P_SIGNED] = { "signed", "cookies with bit 63 set: negative as off_t" },
	[P_DUP] = { "dup", "the middle entry repeats the cookie of the entry before it" },
	[P_CYCLE] = { "cycle", "the last entry's cookie is the middle entry's: readdir never ends" },
	[P_UNSTABLE] = { "unstable", "cookies differ on every opendir" },
	[P_SKIP] = { "skip", "a seek to an entry's cookie resumes one entry late" },
	[P_REPEAT] = { "repeat", "a seek to an entry's cookie returns that entry again" },
	[P_VANISH] = { "vanish", "after any unlink in the directory, its oldest entry is never listed again" },
	[P_EIO] = { "eio", "a listing fails with EIO half way" },
	[P_SLOW] = { "slow", "every readdir call sleeps (-o delay_ms=N, default 200)" },
	[P_HANG] = { "hang", "the readdir call past the middle never returns" },
	[P_TRUNCATE] = { "truncate", "cookies (n+1)<<32, . and .. included, of which a resumed "
			  "readdir keeps only the low 32 bits: every listing starts again, for ever" },
	[P_NODOTS] = { "nodots", "good cookies, but neither . nor .. is listed (POSIX allows it)" },
	[P_SHIFT] = { "shift", "a cookie is the entry's index in the listing as it stands: "
		       "each unlink before a reader's position makes it skip one entry" },
	[P_HIDENEXT] = { "hidenext", "an unlink hides the entry listed after the removed one, "
			  "for good" },
	/* The same defect, quieter: one name, once. */
	[P_HIDEFIRST] = { "hidefirst", "the first unlink in the directory hides the entry listed "
			   "after the removed one, for good; later ones hide nothing" },
	[P_HIDERENAME] = { "hiderename", "the first rename out of the directory hides the entry "
			    "listed after the renamed one, for good" },
	[P_HIDELATE] = { "hidelate", "the entry after the one the N-th unlink removed is left "
			  "out of streams opened after that unlink (-o hide_unlink=N, default 100); "
			  "streams opened before still list it" },
	[P_HIDEKTH] = { "hidekth", "every k-th opendir of a directory leaves out the entry in "
			 "the middle of its listing (-o hide_every=K, default 3)" },
	[P_RENAMEAHEAD] = { "renameahead", "a stream also lists the entries made after it was "
			     "opened: a renamed entry comes back ahead of the cursor, and a reader "
			     "that renames what it lists reads forever (CVE-2024-46701)" },
	[P_RENAMEDROP] = { "renamedrop", "the first rename while a stream of the directory is "
			    "part way through its listing drops one other entry, never renamed (the "
			    "last such in creation order), from every listing after, for good; "
			    "lookup still finds it" },
};

struct node {
	char *name;
	bool is_dir;
	mode_t mode;
	uint64_t id;           /* creation order within its parent, from 1 */
	uint32_t ino;          /* small and unique, so a 32-bit caller's non-LFS readdir
	                        * overflows on wide cookies only, never on d_ino */
	enum policy policy;
	struct node *parent;
	/* directories: children in creation order; NULL slots after unlink */
	struct node **kids;
	size_t nkids, cap;
	size_t live;
	bool had_unlink;
	bool hidden;           /* P_HIDENEXT, P_HIDEFIRST, P_HIDERENAME, P_RENAMEDROP:
	                        * never listed again */
	bool hidden_late;      /* P_HIDELATE: not by streams opened after the N-th unlink */
	uint64_t unlinks;      /* directories: unlink calls in it so far */
	uint64_t opens;        /* directories: opendir calls so far */
	uint64_t most_opens;   /* policy directories: the most opendir calls of one
	                        * directory in their tree (user.cookiefs.most_opens) */
	uint64_t holes_passed; /* policy directories: hidekth streams of their tree that
	                        * were handed an entry past the one they lack
	                        * (user.cookiefs.holes_passed) */
	bool had_rename;
	uint64_t renames;      /* directories: renames out of it so far */
	bool dropped;          /* P_RENAMEDROP: it has dropped its entry */
	bool renamed_in;       /* made by a rename */
	uint64_t next_id;
	struct timespec mtime;
};

struct handle {
	struct node *dir;
	uint64_t generation;   /* for P_UNSTABLE */
	int64_t last_returned; /* last cookie given out: a request for it continues */
	bool started;
	uint64_t unlinks_at_open; /* the directory's unlinks when it was opened */
	uint64_t open_number;     /* the directory's opendir calls, this one included */
	uint64_t ids_at_open;     /* entries with an id from here on came after the open */
	uint64_t renames_seen;    /* the directory's renames at its last readdir call */
	size_t hole;              /* hidekth: 1 + where its listing lacks an entry; 0: none */
	bool hole_passed;         /* it was handed an entry past that place */
};

static struct {
	struct node *root;
	pthread_mutex_t lock;
	uint64_t generations;
	unsigned delay_ms;
	unsigned unlink_delay_ms;
	unsigned entries;
	unsigned hide_unlink;
	unsigned hide_every;
} fs = { .lock = PTHREAD_MUTEX_INITIALIZER, .delay_ms = 200, .hide_unlink = 100,
	 .hide_every = 3 };

/* ---- the tree ---- */

static uint32_t next_ino = 1;

static struct node *new_node(struct node *parent, const char *name, bool is_dir, mode_t mode)
{
	struct node *n = calloc(1, sizeof(*n));
	if (!n || !(n->name = strdup(name))) {
		free(n);
		return NULL;
	}
	n->is_dir = is_dir;
	n->mode = mode;
	n->parent = parent;
	n->next_id = 1;
	n->ino = next_ino++;
	clock_gettime(CLOCK_REALTIME, &n->mtime);
	if (parent) {
		n->policy = parent->policy;
		if (parent->nkids == parent->cap) {
			size_t cap = parent->cap ? parent->cap * 2 : 16;
			struct node **k = realloc(parent->kids, cap * sizeof(*k));
			if (!k) {
				free(n->name);
				free(n);
				return NULL;
			}
			parent->kids = k;
			parent->cap = cap;
		}
		n->id = parent->next_id++;
		parent->kids[parent->nkids++] = n;
		parent->live++;
		parent->mtime = n->mtime;
	}
	return n;
}

static void free_tree(struct node *n)
{
	for (size_t i = 0; i < n->nkids; i++)
		if (n->kids[i])
			free_tree(n->kids[i]);
	free(n->kids);
	free(n->name);
	free(n);
}

/* The live entry after slot i of p, still listed, or NULL. */
static struct node *listed_after(struct node *p, size_t i)
{
	while (++i < p->nkids)
		if (p->kids[i] && !p->kids[i]->hidden)
			return p->kids[i];
	return NULL;
}

/* What removing the entry in slot i (by unlink, or a rename when
 * renaming) hides, by the policy of p. */
static void hide_after(struct node *p, size_t i, bool renaming)
{
	struct node *next = listed_after(p, i);
	bool first_unlink = !renaming && p->unlinks == 1;
	bool first_rename = renaming && !p->had_rename;

	if (!next)
		return;
	if (p->policy == P_HIDENEXT || (p->policy == P_HIDEFIRST && first_unlink) ||
	    (p->policy == P_HIDERENAME && first_rename))
		next->hidden = true;
	if (p->policy == P_HIDELATE && !renaming && p->unlinks == fs.hide_unlink)
		next->hidden_late = true;
}

/* Take a child out of its parent's list, keeping the others' slots. */
static void detach(struct node *n, bool renaming)
{
	struct node *p = n->parent;
	if (!renaming)
		p->unlinks++;
	for (size_t i = 0; i < p->nkids; i++) {
		if (p->kids[i] == n) {
			p->kids[i] = NULL;
			hide_after(p, i, renaming);
			break;
		}
	}
	p->live--;
	p->had_unlink = true; /* vanish: a rename removes a name too */
	p->had_rename |= renaming;
	p->renames += renaming;
	clock_gettime(CLOCK_REALTIME, &p->mtime);
}

static struct node *child(const struct node *dir, const char *name, size_t len)
{
	for (size_t i = 0; i < dir->nkids; i++) {
		struct node *k = dir->kids[i];
		if (k && strlen(k->name) == len && memcmp(k->name, name, len) == 0)
			return k;
	}
	return NULL;
}

/* "POLICY" or "POLICY-N" at the top level; -1 when it is neither. */
static int parse_policy_dir(const char *name, size_t len, unsigned long *count)
{
	for (int p = 0; p < P_COUNT; p++) {
		size_t n = strlen(policies[p].name);
		if (len < n || memcmp(name, policies[p].name, n) != 0)
			continue;
		if (len == n) {
			*count = fs.entries;
			return p;
		}
		if (name[n] != '-' || len == n + 1 || len - n - 1 > 7)
			continue;
		char digits[8] = { 0 };
		memcpy(digits, name + n + 1, len - n - 1);
		char *end;
		*count = strtoul(digits, &end, 10);
		if (*end == '\0')
			return p;
	}
	return -1;
}

/* A top-level policy directory springs into being when first named. */
static struct node *policy_dir(const char *name, size_t len)
{
	unsigned long count;
	int p = parse_policy_dir(name, len, &count);
	if (p < 0)
		return NULL;
	char *copy = strndup(name, len);
	struct node *d = copy ? new_node(fs.root, copy, true, 0755) : NULL;
	free(copy);
	if (!d)
		return NULL;
	d->policy = (enum policy)p;
	for (unsigned long i = 0; i < count; i++) {
		char file[32];
		snprintf(file, sizeof(file), "f%07lu", i);
		if (!new_node(d, file, false, 0644))
			break;
	}
	return d;
}

static struct node *lookup(const char *path)
{
	struct node *n = fs.root;
	const char *p = path;
	while (*p == '/')
		p++;
	while (*p && n) {
		const char *slash = strchr(p, '/');
		size_t len = slash ? (size_t)(slash - p) : strlen(p);
		struct node *next = n->is_dir ? child(n, p, len) : NULL;
		if (!next && n == fs.root)
			next = policy_dir(p, len);
		n = next;
		p += len;
		while (*p == '/')
			p++;
	}
	return n;
}

/* The parent of path and its last component. */
static struct node *lookup_parent(const char *path, const char **leaf)
{
	const char *slash = strrchr(path, '/');
	*leaf = slash ? slash + 1 : path;
	char *dir = strndup(path, slash && slash != path ? (size_t)(slash - path) : 1);
	struct node *n = dir ? lookup(dir) : NULL;
	free(dir);
	return n && n->is_dir ? n : NULL;
}

/* ---- cookies ---- */

/* A fixed 64-bit mix (splitmix64's finaliser), so wide cookies look like
 * hashes but are the same on every mount. */
static uint64_t mix(uint64_t x)
{
	x += 0x9e3779b97f4a7c15ULL;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
	return x ^ (x >> 31);
}

struct listing {
	struct node **e;  /* entries in listing order */
	int64_t *cookie;  /* cookie of e[i]: the position after it */
	size_t n;
};

static int by_cookie(const void *a, const void *b, void *arg)
{
	const int64_t *c = arg;
	size_t i = *(const size_t *)a, j = *(const size_t *)b;
	return c[i] < c[j] ? -1 : c[i] > c[j];
}

static int64_t base_cookie(enum policy p, const struct node *e, uint64_t generation)
{
	switch (p) {
	case P_WIDE:
		return (int64_t)((mix(e->id) & 0x3fffffffffffffffULL) | (1ULL << 62));
	case P_SIGNED:
		return (int64_t)((1ULL << 63) | (e->id + 2));
	case P_UNSTABLE:
		return (int64_t)(e->id + 2 + (generation << 24));
	case P_TRUNCATE:
		return (int64_t)((e->id + 2) << 32);
	case P_SHIFT:
		return 0; /* the index, set by make_listing() */
	default:
		return (int64_t)(e->id + 2);
	}
}

/* The directory's entries (after . and ..) in the order they are listed,
 * each with its cookie, as the policy says. */
/* hidelate and hidekth: whether this open file leaves the entry out. */
static bool hidden_from(const struct node *k, const struct handle *h)
{
	/* Every policy but renameahead leaves out of a stream the entries
	 * renamed in after its opendir (POSIX leaves them unspecified), as
	 * btrfs does since 9b378f6ad48c and tmpfs did with 64a7ce76fb90, so
	 * that a stream never meets an entry it saw renamed again. */
	if (k->renamed_in && k->id >= h->ids_at_open && h->dir->policy != P_RENAMEAHEAD)
		return true;
	return k->hidden || (k->hidden_late && h->unlinks_at_open >= fs.hide_unlink);
}

/* hidekth: every k-th open of a directory lists all but its middle entry. */
static void drop_middle(const struct node *dir, struct handle *h, struct listing *l)
{
	if (dir->policy != P_HIDEKTH || !fs.hide_every || h->open_number % fs.hide_every || !l->n)
		return;
	size_t mid = l->n / 2;
	h->hole = mid + 1;
	memmove(l->e + mid, l->e + mid + 1, (l->n - mid - 1) * sizeof(*l->e));
	memmove(l->cookie + mid, l->cookie + mid + 1, (l->n - mid - 1) * sizeof(*l->cookie));
	l->n--;
}

/* renamedrop: a rename in the directory since this stream's last call,
 * the stream part way through (it has listed entries), drops the last
 * entry in creation order that no rename made: ahead of the cursor of a
 * reader that renames what it lists, which then never meets it.  Known
 * when the stream reads again, the first moment anyone can see it. */
static void drop_after_rename(struct handle *h)
{
	struct node *d = h->dir;
	bool renamed = h->renames_seen != d->renames;
	h->renames_seen = d->renames;
	if (d->policy != P_RENAMEDROP || d->dropped || !h->started || !renamed)
		return;
	for (size_t i = d->nkids; i-- > 0;) {
		struct node *k = d->kids[i];
		if (k && !k->hidden && !k->renamed_in) {
			k->hidden = true;
			d->dropped = true;
			return;
		}
	}
}

static int make_listing(const struct node *dir, struct handle *h, struct listing *l)
{
	uint64_t generation = h->generation;
	size_t n = 0;
	l->e = malloc((dir->live + 1) * sizeof(*l->e));
	l->cookie = malloc((dir->live + 1) * sizeof(*l->cookie));
	if (!l->e || !l->cookie)
		return -ENOMEM;
	const struct node *oldest = NULL;
	for (size_t i = 0; i < dir->nkids; i++)
		if (dir->kids[i] && !oldest)
			oldest = dir->kids[i];
	for (size_t i = 0; i < dir->nkids; i++) {
		struct node *k = dir->kids[i];
		if (!k || (dir->policy == P_VANISH && dir->had_unlink && k == oldest) ||
		    hidden_from(k, h))
			continue;
		l->e[n] = k;
		l->cookie[n] = dir->policy == P_SHIFT ? (int64_t)n + 3
			       : base_cookie(dir->policy, k, generation);
		n++;
	}
	l->n = n;
	drop_middle(dir, h, l);
	n = l->n;
	if (dir->policy == P_WIDE && n > 1) {
		size_t *order = malloc(n * sizeof(*order));
		struct node **e = malloc(n * sizeof(*e));
		int64_t *c = malloc(n * sizeof(*c));
		if (!order || !e || !c) {
			free(order), free(e), free(c);
			return -ENOMEM;
		}
		for (size_t i = 0; i < n; i++)
			order[i] = i;
		qsort_r(order, n, sizeof(*order), by_cookie, l->cookie);
		for (size_t i = 0; i < n; i++) {
			e[i] = l->e[order[i]];
			c[i] = l->cookie[order[i]];
		}
		free(l->e), free(l->cookie), free(order);
		l->e = e;
		l->cookie = c;
	}
	if (dir->policy == P_DUP && n >= 2)
		l->cookie[n / 2] = l->cookie[n / 2 - 1];
	if (dir->policy == P_CYCLE && n >= 2)
		l->cookie[n - 1] = l->cookie[n / 2 - 1];
	return 0;
}

static void free_listing(struct listing *l)
{
	free(l->e);
	free(l->cookie);
}

/* Where a request for offset resumes: the index of the first entry to
 * list.  Offsets 0, 1, 2 are the start, after "." and after "..". */
static size_t resume_index(const struct listing *l, int64_t offset, bool seek, enum policy p)
{
	if ((uint64_t)offset <= 2) /* a signed policy's cookies are negative */
		return 0;
	/* An index, as a reader left it: whatever went away before it since
	 * moves the entries after it one place closer, past the reader. */
	if (p == P_SHIFT)
		return (uint64_t)offset - 2 < l->n ? (size_t)offset - 2 : l->n;
	size_t i = 0;
	while (i < l->n && l->cookie[i] != offset)
		i++;
	if (i == l->n) {
		/* Not a cookie of ours: resume after the last smaller one. */
		size_t j = 0;
		while (j < l->n && l->cookie[j] < offset)
			j++;
		return j;
	}
	if (seek && p == P_SKIP)
		return i + 2;
	if (seek && p == P_REPEAT)
		return i;
	return i + 1;
}

/* ---- operations ---- */

static void fill_stat(const struct node *n, struct stat *st)
{
	memset(st, 0, sizeof(*st));
	st->st_mode = (n->is_dir ? S_IFDIR : S_IFREG) | n->mode;
	st->st_nlink = n->is_dir ? 2 : 1;
	st->st_uid = getuid();
	st->st_gid = getgid();
	st->st_ino = n->ino;
	st->st_mtim = st->st_ctim = st->st_atim = n->mtime;
}

static int cf_getattr(const char *path, struct stat *st, struct fuse_file_info *fi)
{
	(void)fi;
	pthread_mutex_lock(&fs.lock);
	struct node *n = lookup(path);
	if (n)
		fill_stat(n, st);
	pthread_mutex_unlock(&fs.lock);
	return n ? 0 : -ENOENT;
}

/* The policy directory (a child of the root) whose tree n is in. */
static struct node *policy_top(struct node *n)
{
	while (n->parent && n->parent != fs.root)
		n = n->parent;
	return n;
}

static int cf_opendir(const char *path, struct fuse_file_info *fi)
{
	pthread_mutex_lock(&fs.lock);
	struct node *n = lookup(path);
	struct handle *h = n && n->is_dir ? calloc(1, sizeof(*h)) : NULL;
	if (h) {
		h->dir = n;
		h->generation = ++fs.generations;
		h->unlinks_at_open = n->unlinks;
		h->open_number = ++n->opens;
		struct node *top = policy_top(n);
		if (top->most_opens < n->opens)
			top->most_opens = n->opens;
		h->ids_at_open = n->next_id;
		h->renames_seen = n->renames;
		fi->fh = (uint64_t)(uintptr_t)h;
	}
	pthread_mutex_unlock(&fs.lock);
	if (!n)
		return -ENOENT;
	return h ? 0 : n->is_dir ? -ENOMEM : -ENOTDIR;
}

/* What a policy directory's tree went through, for a test to hold its
 * probe to: the most opens of one directory, and how many hidekth
 * streams were handed an entry past the one they lack (a k-th open that
 * a probe closes before that point hides nothing from it). */
static int cf_getxattr(const char *path, const char *name, char *value, size_t size)
{
	pthread_mutex_lock(&fs.lock);
	struct node *n = lookup(path);
	bool opens = strcmp(name, "user.cookiefs.most_opens") == 0;
	bool holes = strcmp(name, "user.cookiefs.holes_passed") == 0;
	char text[32];
	int len = n ? snprintf(text, sizeof(text), "%llu",
			       (unsigned long long)(opens ? n->most_opens : n->holes_passed)) : 0;
	pthread_mutex_unlock(&fs.lock);
	if (!n)
		return -ENOENT;
	if (!(opens || holes) || !n->is_dir || n->parent != fs.root)
		return -ENODATA;
	if (size == 0)
		return len;
	if ((size_t)len > size)
		return -ERANGE;
	memcpy(value, text, (size_t)len);
	return len;
}

static int cf_releasedir(const char *path, struct fuse_file_info *fi)
{
	(void)path;
	free((void *)(uintptr_t)fi->fh);
	return 0;
}

static void misbehave_in_time(enum policy p, size_t from, size_t n)
{
	if (p == P_SLOW)
		usleep(fs.delay_ms * 1000u);
	/* Never answer, until the daemon is told to stop: then the request
	 * fails, so that SIGTERM still ends cookiefs. */
	struct fuse_session *se = fuse_get_session(fuse_get_context()->fuse);
	if (p == P_HANG && from >= n / 2 && n > 0)
		while (!fuse_session_exited(se))
			sleep(1);
}

/* The root lists one directory per policy, cookies 3, 4, ... */
static int list_root(void *buf, fuse_fill_dir_t filler, off_t offset)
{
	int64_t pos = 3;
	for (int p = 0; p < P_COUNT; p++, pos++)
		if (pos > offset && filler(buf, policies[p].name, NULL, pos, 0))
			break;
	return 0;
}

static int cf_readdir(const char *path, void *buf, fuse_fill_dir_t filler, off_t offset,
		      struct fuse_file_info *fi, enum fuse_readdir_flags flags)
{
	struct handle *h = (struct handle *)(uintptr_t)fi->fh;
	struct listing l = { 0 };
	(void)path, (void)flags;
	enum policy p = h->dir->policy;
	/* A daemon that keeps 32 bits of the offset (a server index packed
	 * above them, as GlusterFS did) resumes at the start, and gives its
	 * dots wide cookies too. */
	int dot_shift = 0;
	if (p == P_TRUNCATE && h->dir != fs.root) {
		offset = (off_t)(uint32_t)offset;
		dot_shift = 32;
	}

	if (p != P_NODOTS || h->dir == fs.root) {
		if ((uint64_t)offset < 1 && filler(buf, ".", NULL, (off_t)(1ULL << dot_shift), 0))
			return 0;
		if ((uint64_t)offset < 2 && filler(buf, "..", NULL, (off_t)(2ULL << dot_shift), 0))
			return 0;
	}
	if (h->dir == fs.root)
		return list_root(buf, filler, offset);

	pthread_mutex_lock(&fs.lock);
	drop_after_rename(h);
	int rc = make_listing(h->dir, h, &l);
	/* A request for the cookie we gave out last continues the listing;
	 * anything else is the program seeking. */
	bool seek = (uint64_t)offset > 2 && !(h->started && offset == h->last_returned);
	size_t from = rc ? 0 : resume_index(&l, offset, seek, p);
	pthread_mutex_unlock(&fs.lock);
	if (rc)
		return rc;

	misbehave_in_time(p, from, l.n);
	if ((p == P_EIO || p == P_HANG) && from >= l.n / 2 && l.n > 0) {
		free_listing(&l);
		return -EIO;
	}
	for (size_t i = from; i < l.n; i++) {
		struct stat st;
		fill_stat(l.e[i], &st);
		/* Half a listing per call, so that eio and hang strike between calls. */
		bool stop = (p == P_EIO || p == P_HANG) && i == l.n / 2 && i > from;
		if (stop || filler(buf, l.e[i]->name, &st, l.cookie[i], 0))
			break;
		h->last_returned = l.cookie[i];
		h->started = true;
		if (h->hole && i + 1 >= h->hole && !h->hole_passed) {
			h->hole_passed = true;
			pthread_mutex_lock(&fs.lock);
			policy_top(h->dir)->holes_passed++;
			pthread_mutex_unlock(&fs.lock);
		}
	}
	free_listing(&l);
	return 0;
}

static int make(const char *path, bool is_dir, mode_t mode)
{
	const char *leaf;
	int rc = 0;
	pthread_mutex_lock(&fs.lock);
	struct node *dir = lookup_parent(path, &leaf);
	if (!dir || dir == fs.root)
		rc = dir ? -EPERM : -ENOENT;
	else if (child(dir, leaf, strlen(leaf)))
		rc = -EEXIST;
	else if (!new_node(dir, leaf, is_dir, mode & 07777))
		rc = -ENOMEM;
	pthread_mutex_unlock(&fs.lock);
	return rc;
}

static int cf_mkdir(const char *path, mode_t mode)
{
	return make(path, true, mode);
}

static int cf_mknod(const char *path, mode_t mode, dev_t dev)
{
	(void)dev;
	return S_ISREG(mode) ? make(path, false, mode) : -EPERM;
}

static int cf_create(const char *path, mode_t mode, struct fuse_file_info *fi)
{
	(void)fi;
	return make(path, false, mode);
}

static int remove_node(const char *path, bool want_dir)
{
	int rc = 0;
	if (fs.unlink_delay_ms)
		usleep(fs.unlink_delay_ms * 1000u);
	pthread_mutex_lock(&fs.lock);
	struct node *n = lookup(path);
	if (!n)
		rc = -ENOENT;
	else if (n == fs.root || n->parent == fs.root)
		rc = -EPERM;
	else if (n->is_dir != want_dir)
		rc = want_dir ? -ENOTDIR : -EISDIR;
	else if (want_dir && n->live)
		rc = -ENOTEMPTY;
	else {
		detach(n, false);
		free_tree(n);
	}
	pthread_mutex_unlock(&fs.lock);
	return rc;
}

static int cf_unlink(const char *path)
{
	return remove_node(path, false);
}

static int cf_rmdir(const char *path)
{
	return remove_node(path, true);
}

/* A rename is a remove and an add: the entry gets a new position, as in
 * tmpfs and as POSIX allows. */
static int cf_rename(const char *from, const char *to, unsigned int flags)
{
	const char *leaf;
	int rc = 0;
	if (flags)
		return -EINVAL;
	pthread_mutex_lock(&fs.lock);
	struct node *n = lookup(from);
	struct node *dir = lookup_parent(to, &leaf);
	struct node *old = dir ? child(dir, leaf, strlen(leaf)) : NULL;
	if (!n || !dir)
		rc = -ENOENT;
	else if (n->parent == fs.root || dir == fs.root)
		rc = -EPERM;
	else if (old && (old->is_dir || n->is_dir))
		rc = -EEXIST;
	else {
		struct node *moved = new_node(dir, leaf, n->is_dir, n->mode);
		if (!moved) {
			rc = -ENOMEM;
		} else {
			moved->renamed_in = true;
			/* The subtree moves with its directory. */
			moved->kids = n->kids, moved->nkids = n->nkids, moved->cap = n->cap;
			moved->live = n->live, moved->next_id = n->next_id;
			for (size_t i = 0; i < moved->nkids; i++)
				if (moved->kids[i])
					moved->kids[i]->parent = moved;
			n->kids = NULL, n->nkids = 0;
			detach(n, true);
			free_tree(n);
			if (old) {
				detach(old, true);
				free_tree(old);
			}
		}
	}
	pthread_mutex_unlock(&fs.lock);
	return rc;
}

static int cf_open(const char *path, struct fuse_file_info *fi)
{
	(void)fi;
	pthread_mutex_lock(&fs.lock);
	struct node *n = lookup(path);
	pthread_mutex_unlock(&fs.lock);
	return !n ? -ENOENT : n->is_dir ? -EISDIR : 0;
}

static int cf_read(const char *path, char *buf, size_t size, off_t off, struct fuse_file_info *fi)
{
	(void)path, (void)buf, (void)size, (void)off, (void)fi;
	return 0; /* files are empty */
}

static int cf_truncate(const char *path, off_t size, struct fuse_file_info *fi)
{
	(void)path, (void)fi;
	return size == 0 ? 0 : -EFBIG;
}

static int cf_utimens(const char *path, const struct timespec tv[2], struct fuse_file_info *fi)
{
	(void)path, (void)tv, (void)fi;
	return 0;
}

static void *cf_init(struct fuse_conn_info *conn, struct fuse_config *cfg)
{
	(void)conn;
	/* Use the offsets we give, and never cache what a policy means to vary. */
	cfg->use_ino = 1;
	cfg->entry_timeout = 0;
	cfg->attr_timeout = 0;
	cfg->negative_timeout = 0;
	return NULL;
}

static const struct fuse_operations ops = {
	.init = cf_init,
	.getattr = cf_getattr,
	.opendir = cf_opendir,
	.readdir = cf_readdir,
	.releasedir = cf_releasedir,
	.getxattr = cf_getxattr,
	.mkdir = cf_mkdir,
	.mknod = cf_mknod,
	.create = cf_create,
	.unlink = cf_unlink,
	.rmdir = cf_rmdir,
	.rename = cf_rename,
	.open = cf_open,
	.read = cf_read,
	.truncate = cf_truncate,
	.utimens = cf_utimens,
};

static void usage(const char *prog)
{
	printf("Usage: %s [OPTIONS] MOUNTPOINT\n"
	       "A FUSE filesystem whose directories hand out readdir cookies by a policy,\n"
	       "for testing programs (and abiwatch) against good and broken filesystems.\n"
	       "\n"
	       "The root holds one directory per policy.  POLICY-N (say cycle-1000) is the\n"
	       "same policy with N files f0000000... in it.  Below them you may mkdir,\n"
	       "create, unlink and rename; a directory follows the policy of the top-level\n"
	       "directory it lies in.  Files are empty.\n"
	       "\n"
	       "Policies:\n", prog);
	for (int p = 0; p < P_COUNT; p++)
		printf("  %-9s %s\n", policies[p].name, policies[p].what);
	printf("\n"
	       "Options:\n"
	       "  -f                  stay in the foreground (default: become a daemon)\n"
	       "  -d                  debug output (implies -f)\n"
	       "  -o entries=N        files in a bare POLICY directory (default 0)\n"
	       "  -o delay_ms=N       sleep of every readdir call in slow (default 200)\n"
	       "  -o unlink_delay_ms=N  sleep of every unlink and rmdir, any policy (default 0)\n"
	       "  -o hide_unlink=N    the unlink from which hidelate hides (default 100)\n"
	       "  -o hide_every=K     hidekth's k: every k-th opendir hides (default 3)\n"
	       "  -o OPTION           any FUSE mount option (see mount.fuse3(8))\n"
	       "  -h, --help          show this help\n"
	       "\n"
	       "Stop it with fusermount3 -u MOUNTPOINT (or umount as root).\n");
}

static const struct fuse_opt cf_opts[] = {
	{ "entries=%u", offsetof(typeof(fs), entries), 0 },
	{ "delay_ms=%u", offsetof(typeof(fs), delay_ms), 0 },
	{ "unlink_delay_ms=%u", offsetof(typeof(fs), unlink_delay_ms), 0 },
	{ "hide_unlink=%u", offsetof(typeof(fs), hide_unlink), 0 },
	{ "hide_every=%u", offsetof(typeof(fs), hide_every), 0 },
	FUSE_OPT_END
};

int main(int argc, char **argv)
{
	struct fuse_args args = FUSE_ARGS_INIT(argc, argv);
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0) {
			usage(argv[0]);
			return 0;
		}
	}
	if (fuse_opt_parse(&args, &fs, cf_opts, NULL) != 0)
		return 2;
	/* libfuse 3.14 warns about its own unset default otherwise
	 * (libfuse issue #1003). */
	fuse_opt_add_arg(&args, "-omax_idle_threads=10");
	fs.root = new_node(NULL, "/", true, 0755);
	if (!fs.root)
		return 1;
	int rc = fuse_main(args.argc, args.argv, &ops, NULL);
	fuse_opt_free_args(&args);
	free_tree(fs.root);
	return rc;
}

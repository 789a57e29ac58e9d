// SPDX-License-Identifier: GPL-2.0-or-later
/* Kernel modules for a guest, with their dependencies: see modules.h. */
#include "modules.h"
#include "core/probe.h"
#include "lib/util.h"
#include "lib/procfs.h"
#include "lib/readall.h"

#include <archive.h>
#include <archive_entry.h>

#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <ftw.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAX_DEPTH 32

void aw_modtree_init(struct aw_modtree *t)
{
	memset(t, 0, sizeof(*t));
	t->store = -1;
}

static bool has_suffix(const char *s, const char *suffix)
{
	size_t a = strlen(s), b = strlen(suffix);
	return a >= b && strcmp(s + a - b, suffix) == 0;
}

static bool is_module(const char *path)
{
	return has_suffix(path, ".ko") || has_suffix(path, ".ko.xz") ||
	       has_suffix(path, ".ko.zst") || has_suffix(path, ".ko.gz");
}

/* "kernel/fs/xfs/xfs.ko.xz" -> "xfs"; "a-b.ko" -> "a_b". */
static char *module_name(const char *path)
{
	const char *base = strrchr(path, '/');
	base = base ? base + 1 : path;
	const char *dot = strstr(base, ".ko");
	char *name = strndup(base, dot ? (size_t)(dot - base) : strlen(base));
	if (!name)
		abort();
	for (char *p = name; *p; p++)
		if (*p == '-')
			*p = '_';
	return name;
}

static char *normalize(const char *s)
{
	char *n = xstrdup(s);
	for (char *p = n; *p; p++)
		if (*p == '-')
			*p = '_';
	return n;
}

int aw_modtree_wants(const char *rel)
{
	return is_module(rel) || strncmp(rel, "modules.", 8) == 0;
}

void aw_modtree_add(struct aw_modtree *t, const char *rel, off_t off, size_t len)
{
	if (!aw_modtree_wants(rel))
		return;
	t->files = xgrow(t->files, t->nfiles, sizeof(*t->files));
	struct aw_modfile *f = &t->files[t->nfiles++];
	memset(f, 0, sizeof(*f));
	f->path = xstrdup(rel);
	f->name = is_module(rel) ? module_name(rel) : NULL;
	f->off = off;
	f->len = len;
}

static int read_raw(const struct aw_modtree *t, const struct aw_modfile *f, char **data, size_t *len)
{
	if (t->dir) {
		char *path = xasprintf("%s/%s", t->dir, f->path);
		int rc = aw_file_slurp(path, data, len);
		free(path);
		return rc;
	}
	*data = xmalloc(f->len + 1);
	size_t done = 0;
	while (done < f->len) {
		ssize_t r = pread(t->store, *data + done, f->len - done, f->off + (off_t)done);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0) {
			free(*data);
			*data = NULL;
			if (r == 0)
				errno = EIO;
			return -1;
		}
		done += (size_t)r;
	}
	(*data)[done] = '\0';
	*len = done;
	return 0;
}

/* The text of an index file of the tree (modules.dep...), or NULL. */
static char *index_text(struct aw_modtree *t, const char *name, size_t *len_out)
{
	for (size_t i = 0; i < t->nfiles; i++) {
		if (t->files[i].name || strcmp(t->files[i].path, name) != 0)
			continue;
		char *data;
		size_t len;
		if (read_raw(t, &t->files[i], &data, &len) != 0)
			return NULL;
		if (len_out)
			*len_out = len;
		return data;
	}
	return NULL;
}

void aw_modtree_finish(struct aw_modtree *t)
{
	t->dep = index_text(t, "modules.dep", NULL);
	t->builtin = index_text(t, "modules.builtin", NULL);
	t->builtin_modinfo = index_text(t, "modules.builtin.modinfo", &t->builtin_modinfo_len);
	t->alias = index_text(t, "modules.alias", NULL);
}

static struct aw_modtree *walking;
static size_t walk_prefix;

static int walk_one(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
	(void)ftw;
	if (type == FTW_F && S_ISREG(st->st_mode) && strlen(path) > walk_prefix)
		aw_modtree_add(walking, path + walk_prefix, 0, (size_t)st->st_size);
	return 0;
}

int aw_modtree_from_dir(struct aw_modtree *t, const char *dir, char **err)
{
	struct stat st;
	if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
		*err = xasprintf("%s: %s", dir, errno ? strerror(errno) : "not a directory");
		return -1;
	}
	t->dir = xstrdup(dir);
	walking = t;
	walk_prefix = strlen(dir) + 1;
	/* Symbolic links (build, source) are not followed. */
	if (nftw(dir, walk_one, 16, FTW_PHYS) != 0) {
		*err = xasprintf("%s: cannot read the modules: %s", dir, strerror(errno));
		return -1;
	}
	walking = NULL;
	aw_modtree_finish(t);
	return 0;
}

static void free_file(struct aw_modfile *f)
{
	free(f->path);
	free(f->name);
	free(f->elf);
	free(f->modinfo_depends);
	free(f->modinfo_softdep);
	for (size_t i = 0; i < f->naliases; i++)
		free(f->aliases[i]);
	free(f->aliases);
	free(f->pre);
}

void aw_modtree_free(struct aw_modtree *t)
{
	for (size_t i = 0; i < t->nfiles; i++)
		free_file(&t->files[i]);
	free(t->files);
	free(t->release);
	free(t->dir);
	free(t->dep);
	free(t->builtin);
	free(t->builtin_modinfo);
	free(t->alias);
	if (t->store >= 0)
		close(t->store);
	aw_modtree_init(t);
}

/* ---- decompression and .modinfo ---- */

/* The filter libarchive must find for a suffix (.xz, .zst, .gz), or
 * ARCHIVE_FILTER_NONE: a module not compressed. */
static int filter_of(const char *name)
{
	return has_suffix(name, ".xz") ? ARCHIVE_FILTER_XZ : has_suffix(name, ".zst") ? ARCHIVE_FILTER_ZSTD
	       : has_suffix(name, ".gz") ? ARCHIVE_FILTER_GZIP : ARCHIVE_FILTER_NONE;
}

/* A decompressed module larger than this is refused: far above any
 * module's size, it keeps a few KiB of xz that expand without end (a
 * decompression bomb in a package) from taking the machine's memory. */
#define MODULE_MAX ((size_t)256 << 20)

/* aw_read_all()'s reader over a libarchive entry's data. */
static ssize_t archive_data(void *a, void *buf, size_t size)
{
	return archive_read_data(a, buf, size);
}

/* The one stream of a raw archive (format raw: no container) through the
 * filter its bytes name, which must be the one the suffix says: garbage
 * named .xz is an error, not a module passed on as it is. */
static int read_stream(struct archive *a, const char *name, int want, char **out, size_t *out_len,
		    char **err)
{
	struct archive_entry *e;
	if (archive_read_next_header(a, &e) < ARCHIVE_WARN) {
		*err = xasprintf("%s: %s", name, archive_error_string(a));
		return -1;
	}
	if (archive_filter_code(a, 0) != want) {
		*err = xasprintf("%s: not %s data", name, strrchr(name, '.') + 1);
		return -1;
	}
	int rc = aw_read_all(archive_data, a, MODULE_MAX, out, out_len);
	if (rc == AW_READALL_TOO_BIG)
		*err = xasprintf("%s: larger than %zu MiB decompressed", name, MODULE_MAX >> 20);
	else if (rc != AW_READALL_OK)
		*err = xasprintf("%s: %s", name, archive_error_string(a));
	return rc == AW_READALL_OK ? 0 : -1;
}

int aw_decompress(const char *name, const char *data, size_t len, char **out, size_t *out_len,
		  char **err)
{
	int want = filter_of(name);
	if (want == ARCHIVE_FILTER_NONE) {
		*out = xmalloc(len + 1);
		memcpy(*out, data, len);
		(*out)[len] = '\0';
		*out_len = len;
		return 0;
	}
	/* The filters vm/deb.c's data.tar reader links already. */
	struct archive *a = archive_read_new();
	archive_read_support_format_raw(a);
	archive_read_support_filter_xz(a);
	archive_read_support_filter_zstd(a);
	archive_read_support_filter_gzip(a);
	int rc = -1;
	if (archive_read_open_memory(a, data, len) != ARCHIVE_OK)
		*err = xasprintf("%s: %s", name, archive_error_string(a));
	else
		rc = read_stream(a, name, want, out, out_len, err);
	archive_read_free(a);
	return rc;
}

const char *aw_elf_modinfo(const char *elf, size_t len, size_t *info_len)
{
	const Elf64_Ehdr *eh = (const Elf64_Ehdr *)elf;
	if (len < sizeof(*eh) || memcmp(eh->e_ident, ELFMAG, SELFMAG) != 0 ||
	    eh->e_ident[EI_CLASS] != ELFCLASS64 || eh->e_shentsize != sizeof(Elf64_Shdr))
		return NULL;
	if (eh->e_shoff > len || (size_t)eh->e_shnum * sizeof(Elf64_Shdr) > len - eh->e_shoff ||
	    eh->e_shstrndx >= eh->e_shnum)
		return NULL;
	const Elf64_Shdr *sh = (const Elf64_Shdr *)(elf + eh->e_shoff);
	const Elf64_Shdr *strs = &sh[eh->e_shstrndx];
	if (strs->sh_offset > len || strs->sh_size > len - strs->sh_offset)
		return NULL;
	for (unsigned i = 0; i < eh->e_shnum; i++) {
		if (sh[i].sh_name >= strs->sh_size)
			continue;
		const char *nm = elf + strs->sh_offset + sh[i].sh_name;
		if (strnlen(nm, strs->sh_size - sh[i].sh_name) == 8 && memcmp(nm, ".modinfo", 8) == 0) {
			if (sh[i].sh_offset > len || sh[i].sh_size > len - sh[i].sh_offset)
				return NULL;
			*info_len = sh[i].sh_size;
			return elf + sh[i].sh_offset;
		}
	}
	return NULL;
}

/* Decompress f and read its .modinfo. */
static int load_file(struct aw_modtree *t, struct aw_modfile *f, char **err)
{
	if (f->info_read)
		return f->elf ? 0 : -1;
	f->info_read = 1;
	char *raw;
	size_t raw_len;
	if (read_raw(t, f, &raw, &raw_len) != 0) {
		*err = xasprintf("%s: %s", f->path, strerror(errno));
		return -1;
	}
	int rc = aw_decompress(f->path, raw, raw_len, &f->elf, &f->elf_len, err);
	free(raw);
	if (rc != 0)
		return -1;
	size_t n = 0;
	const char *info = aw_elf_modinfo(f->elf, f->elf_len, &n);
	if (!info) {
		*err = xasprintf("%s: not a 64-bit ELF module with a .modinfo section", f->path);
		free(f->elf);
		f->elf = NULL;
		return -1;
	}
	for (size_t i = 0; i < n;) {
		const char *s = info + i;
		size_t l = strnlen(s, n - i);
		char *str = strndup(s, l);
		if (!str)
			abort();
		if (strncmp(str, "depends=", 8) == 0 && !f->modinfo_depends) {
			f->modinfo_depends = xstrdup(str + 8);
		} else if (strncmp(str, "softdep=", 8) == 0) {
			char *old = f->modinfo_softdep;
			f->modinfo_softdep = xasprintf("%s%s%s", old ? old : "", old ? "\n" : "", str + 8);
			free(old);
		} else if (strncmp(str, "alias=", 6) == 0) {
			f->aliases = xgrow(f->aliases, f->naliases, sizeof(*f->aliases));
			f->aliases[f->naliases++] = xstrdup(str + 6);
		}
		free(str);
		i += l + 1;
	}
	return 0;
}

/* ---- lookups ---- */

static struct aw_modfile *by_name(struct aw_modtree *t, const char *name)
{
	char *n = normalize(name);
	struct aw_modfile *hit = NULL;
	for (size_t i = 0; i < t->nfiles && !hit; i++)
		if (t->files[i].name && strcmp(t->files[i].name, n) == 0)
			hit = &t->files[i];
	free(n);
	return hit;
}

static struct aw_modfile *by_path(struct aw_modtree *t, const char *path)
{
	for (size_t i = 0; i < t->nfiles; i++)
		if (t->files[i].name && strcmp(t->files[i].path, path) == 0)
			return &t->files[i];
	return NULL;
}

static bool is_builtin(const struct aw_modtree *t, const char *name)
{
	if (!t->builtin)
		return false;
	char *n = normalize(name);
	bool found = false;
	for (const char *line = t->builtin; *line && !found;) {
		const char *nl = strchr(line, '\n');
		size_t l = nl ? (size_t)(nl - line) : strlen(line);
		char *entry = strndup(line, l);
		if (!entry)
			abort();
		char *mn = module_name(entry);
		found = strcmp(mn, n) == 0;
		free(mn);
		free(entry);
		line += l + (nl ? 1 : 0);
	}
	free(n);
	return found;
}

/* The built-in module that has alias (modules.builtin.modinfo), malloc'd. */
static char *builtin_alias(const struct aw_modtree *t, const char *alias)
{
	const char *s = t->builtin_modinfo;
	size_t n = t->builtin_modinfo_len;
	for (size_t i = 0; s && i < n;) {
		const char *e = s + i;
		size_t l = strnlen(e, n - i);
		const char *dot = memchr(e, '.', l);
		if (dot && (size_t)(e + l - dot) > 7 && strncmp(dot, ".alias=", 7) == 0 &&
		    strlen(alias) == (size_t)(e + l - dot - 7) &&
		    strncmp(dot + 7, alias, (size_t)(e + l - dot - 7)) == 0)
			return strndup(e, (size_t)(dot - e));
		i += l + 1;
	}
	return NULL;
}

/* modules.alias: "alias PATTERN MODULE". */
static char *alias_index(const struct aw_modtree *t, const char *alias)
{
	for (const char *line = t->alias; line && *line;) {
		const char *nl = strchr(line, '\n');
		size_t l = nl ? (size_t)(nl - line) : strlen(line);
		char *entry = strndup(line, l), *save = NULL;
		if (!entry)
			abort();
		char *w = strtok_r(entry, " \t", &save);
		char *pat = w ? strtok_r(NULL, " \t", &save) : NULL;
		char *mod = pat ? strtok_r(NULL, " \t", &save) : NULL;
		if (w && strcmp(w, "alias") == 0 && mod && fnmatch(pat, alias, 0) == 0) {
			char *r = xstrdup(mod);
			free(entry);
			return r;
		}
		free(entry);
		line += l + (nl ? 1 : 0);
	}
	return NULL;
}

/* Without modules.alias: the aliases of the crypto modules, where softdeps
 * ("crypto-crc32c", "xxhash64") point. */
static struct aw_modfile *alias_scan(struct aw_modtree *t, const char *alias)
{
	for (size_t i = 0; i < t->nfiles; i++) {
		struct aw_modfile *f = &t->files[i];
		if (!f->name || (!strstr(f->path, "/crypto/") && strncmp(f->path, "kernel/crypto/", 14) != 0))
			continue;
		char *ignored = NULL;
		if (load_file(t, f, &ignored) != 0) {
			free(ignored);
			continue;
		}
		for (size_t a = 0; a < f->naliases; a++)
			if (fnmatch(f->aliases[a], alias, 0) == 0)
				return f;
	}
	return NULL;
}

struct resolver {
	struct aw_modtree *t;
	struct aw_modplan *plan;
	char **err;
};

static void note(struct aw_modplan *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void note(struct aw_modplan *p, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *s = xvasprintf(fmt, ap);
	va_end(ap);
	for (size_t i = 0; i < p->nnotes; i++) {
		if (strcmp(p->notes[i], s) == 0) {
			free(s);
			return;
		}
	}
	p->notes = xgrow(p->notes, p->nnotes, sizeof(*p->notes));
	p->notes[p->nnotes++] = s;
}

/* Find what name means: a module file, or NULL with *builtin set when the
 * kernel has it built in. */
static struct aw_modfile *lookup(struct resolver *r, const char *name, char **builtin)
{
	struct aw_modtree *t = r->t;
	struct aw_modfile *f = by_name(t, name);
	*builtin = NULL;
	if (f)
		return f;
	if (is_builtin(t, name)) {
		*builtin = xstrdup(name);
		return NULL;
	}
	char *target = alias_index(t, name);
	if (target) {
		f = by_name(t, target);
		if (!f && is_builtin(t, target))
			*builtin = xstrdup(target);
		free(target);
		if (f || *builtin)
			return f;
	}
	if ((*builtin = builtin_alias(t, name)))
		return NULL;
	/* "fs-xfs" and "crypto-crc32c" are usually the module's own name. */
	static const char *const prefixes[] = { "fs-", "crypto-", "devname:" };
	for (size_t i = 0; i < AW_ARRAY_SIZE(prefixes); i++) {
		size_t l = strlen(prefixes[i]);
		if (strncmp(name, prefixes[i], l) == 0 && name[l]) {
			if ((f = by_name(t, name + l)))
				return f;
			if (is_builtin(t, name + l)) {
				*builtin = xstrdup(name + l);
				return NULL;
			}
		}
	}
	if (!t->alias)
		return alias_scan(t, name);
	return NULL;
}

static int place(struct resolver *r, struct aw_modfile *f, int depth);

static void add_pre(struct aw_modfile *f, struct aw_modfile *d)
{
	if (!f || !d || d->state != 2)
		return;
	for (size_t i = 0; i < f->npre; i++)
		if (f->pre[i] == d)
			return;
	f->pre = xgrow(f->pre, f->npre, sizeof(*f->pre));
	f->pre[f->npre++] = d;
}

/* Resolve a name and place what it means; a softdep may be missing.
 * *placed (when not NULL) gets the module, or NULL. */
static int place_name(struct resolver *r, const char *name, int depth, const char *why,
		      struct aw_modfile **placed)
{
	char *builtin = NULL;
	struct aw_modfile *f = lookup(r, name, &builtin);
	if (placed)
		*placed = NULL;
	if (builtin) {
		free(builtin);
		return 0;
	}
	if (!f) {
		if (why)
			note(r->plan, "%s: not in this kernel (wanted by %s)", name, why);
		else
			note(r->plan, "%s: not in this kernel", name);
		return 0;
	}
	int rc = place(r, f, depth);
	if (rc == 0 && placed && f->state == 2)
		*placed = f;
	return rc;
}

/* The softdeps "pre: a b" or "post: c" of f, one kind. */
static int place_softdeps(struct resolver *r, struct aw_modfile *f, const char *kind, int depth)
{
	if (!f->modinfo_softdep)
		return 0;
	char *copy = xstrdup(f->modinfo_softdep), *save = NULL;
	bool on = false;
	int rc = 0;
	for (char *w = strtok_r(copy, " \t\n", &save); w && rc == 0; w = strtok_r(NULL, " \t\n", &save)) {
		if (strcmp(w, "pre:") == 0 || strcmp(w, "post:") == 0) {
			on = strcmp(w, kind) == 0;
		} else if (on) {
			struct aw_modfile *d;
			rc = place_name(r, w, depth + 1, f->name, &d);
			if (strcmp(kind, "pre:") == 0)
				add_pre(f, d);
		}
	}
	free(copy);
	return rc;
}

/* The dependencies modules.dep lists for f, or NULL without an entry. */
static char *dep_line(const struct aw_modtree *t, const struct aw_modfile *f)
{
	size_t pl = strlen(f->path);
	for (const char *line = t->dep; line && *line;) {
		const char *nl = strchr(line, '\n');
		size_t l = nl ? (size_t)(nl - line) : strlen(line);
		if (l > pl && strncmp(line, f->path, pl) == 0 && line[pl] == ':')
			return strndup(line + pl + 1, l - pl - 1);
		line += l + (nl ? 1 : 0);
	}
	return NULL;
}

static int place(struct resolver *r, struct aw_modfile *f, int depth)
{
	if (f->state == 2 || f->state == 3)
		return 0;
	if (f->state == 1 || depth > MAX_DEPTH) {
		note(r->plan, "%s: circular dependency, left out", f->name);
		return 0;
	}
	f->state = 1;
	if (load_file(r->t, f, r->err) != 0) {
		f->state = 3;
		return -1;
	}
	int rc = place_softdeps(r, f, "pre:", depth);
	char *deps = r->t->dep ? dep_line(r->t, f) : NULL;
	char *save = NULL;
	if (deps) {
		for (char *p = strtok_r(deps, " \t", &save); p && rc == 0; p = strtok_r(NULL, " \t", &save)) {
			struct aw_modfile *d = by_path(r->t, p);
			if (d) {
				rc = place(r, d, depth + 1);
				add_pre(f, d);
			} else
				note(r->plan, "%s: dependency %s is not in the tree", f->name, p);
		}
	} else if (f->modinfo_depends && *f->modinfo_depends) {
		deps = xstrdup(f->modinfo_depends);
		for (char *p = strtok_r(deps, ",", &save); p && rc == 0; p = strtok_r(NULL, ",", &save)) {
			struct aw_modfile *d;
			rc = place_name(r, p, depth + 1, f->name, &d);
			add_pre(f, d);
		}
	}
	free(deps);
	if (rc != 0)
		return rc;
	r->plan->load = xgrow(r->plan->load, r->plan->nload, sizeof(*r->plan->load));
	r->plan->load[r->plan->nload++] = f;
	f->state = 2;
	return place_softdeps(r, f, "post:", depth);
}

int aw_modules_resolve(struct aw_modtree *t, const char *const *wanted, size_t nwanted,
		       struct aw_modplan *plan, char **err)
{
	struct resolver r = { .t = t, .plan = plan, .err = err };
	memset(plan, 0, sizeof(*plan));
	for (size_t i = 0; i < nwanted; i++) {
		struct aw_modfile *f;
		if (place_name(&r, wanted[i], 0, NULL, &f) != 0)
			return -1;
		if (f) {
			plan->names = xgrow(plan->names, plan->nnamed, sizeof(*plan->names));
			plan->named = xgrow(plan->named, plan->nnamed, sizeof(*plan->named));
			plan->names[plan->nnamed] = xstrdup(wanted[i]);
			plan->named[plan->nnamed++] = f;
		}
	}
	return 0;
}

static void mark(const struct aw_modplan *plan, const struct aw_modfile *f, bool *in, int depth)
{
	for (size_t i = 0; i < plan->nload; i++) {
		if (plan->load[i] != f)
			continue;
		if (in[i] || depth > MAX_DEPTH)
			return;
		in[i] = true;
	}
	for (size_t i = 0; i < f->npre; i++)
		mark(plan, f->pre[i], in, depth + 1);
}

size_t *aw_modplan_sequence(const struct aw_modplan *plan, const struct aw_modfile *f, size_t *n)
{
	bool *in = xcalloc(plan->nload + 1, sizeof(*in));
	size_t *seq = xcalloc(plan->nload + 1, sizeof(*seq));
	mark(plan, f, in, 0);
	*n = 0;
	for (size_t i = 0; i < plan->nload; i++)
		if (in[i])
			seq[(*n)++] = i;
	free(in);
	return seq;
}

void aw_modplan_free(struct aw_modplan *plan)
{
	for (size_t i = 0; i < plan->nnotes; i++)
		free(plan->notes[i]);
	free(plan->notes);
	free(plan->load);
	for (size_t i = 0; i < plan->nnamed; i++)
		free(plan->names[i]);
	free(plan->names);
	free(plan->named);
	memset(plan, 0, sizeof(*plan));
}

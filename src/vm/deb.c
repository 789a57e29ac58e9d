// SPDX-License-Identifier: GPL-2.0-or-later
/* A linux-image .deb read with libarchive: the ar archive, then the tar
 * in its data.tar member, each entry looked at once as it streams by. */
#include "deb.h"
#include "lib/proc.h"
#include "lib/readall.h"
#include "lib/util.h"

#include <archive.h>
#include <archive_entry.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

/* The largest boot/config-* kept (Debian's are about 300 KiB). */
#define CONFIG_MAX (16u << 20)
/* The largest control file read (a kernel's is under 1 KiB). */
#define CONTROL_MAX (1u << 20)
/* How much of the file libarchive reads at a time. */
#define READ_BLOCK 65536

bool aw_is_deb(const char *path)
{
	char magic[8];
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	bool yes = read(fd, magic, 8) == 8 && memcmp(magic, "!<arch>\n", 8) == 0;
	close(fd);
	return yes;
}

void aw_deb_boot_free(struct aw_deb_boot *b)
{
	free(b->config_path);
	free(b->config);
	memset(b, 0, sizeof(*b));
}

struct deb_reader {
	const char *name; /* the package, as messages call it */
	int kernel_fd;
	struct aw_modtree *tree;
	struct aw_deb_boot *boot;
	off_t store_off;
};

/* "lib/modules/REL/x" or "usr/lib/modules/REL/x": REL and x. */
static bool modules_path(const char *path, char **rel_out, const char **rest)
{
	if (strncmp(path, "usr/", 4) == 0)
		path += 4;
	if (strncmp(path, "lib/modules/", 12) != 0)
		return false;
	const char *r = path + 12, *slash = strchr(r, '/');
	if (!slash || slash == r || !slash[1])
		return false;
	*rel_out = strndup(r, (size_t)(slash - r));
	*rest = slash + 1;
	return *rel_out != NULL;
}

/* The entry's data to out, or into nothing when out < 0.  Exactly size
 * bytes, since the modules' offsets in the store were counted from the
 * sizes the headers give. */
static int copy_data(struct archive *a, int out, int64_t size)
{
	char buf[READ_BLOCK];
	int64_t done = 0;
	la_ssize_t n;
	while ((n = archive_read_data(a, buf, sizeof(buf))) > 0) {
		if (out >= 0 && aw_write_all(out, buf, (size_t)n) != 0) {
			archive_set_error(a, errno, "writing a temporary file: %s", strerror(errno));
			return -1;
		}
		done += n;
	}
	if (n == 0 && done != size)
		archive_set_error(a, EIO, "%lld bytes where the header says %lld", (long long)done,
				  (long long)size);
	return n == 0 && done == size ? 0 : -1;
}

/* A boot/config-* into memory, as the guest gets it at the same path. */
static int keep_config(struct deb_reader *d, struct archive *a, const char *path, int64_t size)
{
	char *text = xmalloc((size_t)size + 1);
	la_ssize_t n = size ? archive_read_data(a, text, (size_t)size) : 0;
	if (n != (la_ssize_t)size) {
		if (n >= 0)
			archive_set_error(a, EIO, "%lld bytes where the header says %lld",
					  (long long)n, (long long)size);
		free(text);
		return -1;
	}
	text[size] = '\0';
	d->boot->config_path = xstrdup(path);
	d->boot->config = text;
	d->boot->config_len = (size_t)size;
	return 0;
}

/* Where a regular file's data goes: the kernel's file, the module store
 * (its offset recorded), or nowhere (-1). */
static int destination(struct deb_reader *d, const char *path, int64_t size)
{
	char *rel = NULL;
	const char *rest = NULL;
	int out = -1;
	if (fnmatch("boot/vmlinuz-*", path, 0) == 0 && d->kernel_fd < 0) {
		d->kernel_fd = aw_anon_file("vmlinuz");
		return d->kernel_fd < 0 ? -2 : d->kernel_fd;
	}
	if (!modules_path(path, &rel, &rest))
		return -1;
	if (aw_modtree_wants(rest)) {
		if (!d->tree->release)
			d->tree->release = xstrdup(rel);
		if (strcmp(rel, d->tree->release) == 0) {
			aw_modtree_add(d->tree, rest, d->store_off, (size_t)size);
			out = d->tree->store;
			d->store_off += (off_t)size;
		}
	}
	free(rel);
	return out;
}

/* One entry of the tar: kept if it is what a guest needs.  Links carry
 * no data of their own (a hard link's header says size 0 in ustar), so
 * only regular files count, as dpkg unpacks them. */
static int entry(struct deb_reader *d, struct archive *a, struct archive_entry *e, char **err)
{
	const char *path = archive_entry_pathname(e);
	if (!path || archive_entry_filetype(e) != AE_IFREG || archive_entry_hardlink(e))
		return 0;
	/* dpkg-deb writes "./boot/..."; a tar by hand may write "/boot". */
	while (path[0] == '.' && path[1] == '/')
		path += 2;
	while (*path == '/')
		path++;
	int64_t size = archive_entry_size(e);
	if (!archive_entry_size_is_set(e) || size < 0) {
		/* a tar header always has one; the store's offsets are counted from it */
		*err = xasprintf("%s: %s in the package has no size", d->name, path);
		return -1;
	}
	int rc;
	if (fnmatch("boot/config-*", path, 0) == 0 && !d->boot->config_path &&
	    size <= (int64_t)CONFIG_MAX) {
		rc = keep_config(d, a, path, size);
	} else {
		int out = destination(d, path, size);
		if (out == -2) {
			*err = xasprintf("%s: cannot make a temporary file: %s", d->name,
					 strerror(errno));
			return -1;
		}
		/* Data not wanted is skipped by the next header's read. */
		rc = out >= 0 ? copy_data(a, out, size) : 0;
	}
	if (rc != 0)
		*err = xasprintf("%s: reading %s from the package: %s", d->name, path,
				 archive_error_string(a));
	return rc;
}

/* The next entry, if there is one; *r is why not (ARCHIVE_EOF at the
 * end).  A warning (an unknown pax keyword, say) is not why not. */
static bool header(struct archive *a, struct archive_entry **e, int *r)
{
	*r = archive_read_next_header(a, e);
	return *r == ARCHIVE_OK || *r == ARCHIVE_WARN;
}

/* The inner archive's bytes are the outer one's current member. */
static la_ssize_t member_read(struct archive *inner, void *outer, const void **buf)
{
	size_t size;
	la_int64_t off;
	int r = archive_read_data_block(outer, buf, &size, &off);
	if (r == ARCHIVE_EOF)
		return 0;
	if (r < ARCHIVE_WARN) {
		archive_set_error(inner, archive_errno(outer), "%s", archive_error_string(outer));
		return -1;
	}
	return (la_ssize_t)size;
}

/* A tar reading the outer archive's current member.  Only the filters a
 * package's members may use are enabled (dpkg-deb's list), so that the
 * static build links their libraries and no more.  NULL with *err. */
static struct archive *member_tar(struct archive *outer, const char *name, const char *what,
				  char **err)
{
	struct archive *a = archive_read_new();
	archive_read_support_format_tar(a);
	archive_read_support_filter_gzip(a);
	archive_read_support_filter_xz(a);
	archive_read_support_filter_lzma(a);
	archive_read_support_filter_bzip2(a);
	archive_read_support_filter_zstd(a);
	if (archive_read_open(a, outer, NULL, member_read, NULL) == ARCHIVE_OK)
		return a;
	*err = xasprintf("%s: the package's %s: %s", name, what, archive_error_string(a));
	archive_read_free(a);
	return NULL;
}

/* The tar in data.tar*: every entry, until its end. */
static int read_data(struct deb_reader *d, struct archive *outer, char **err)
{
	struct archive *a = member_tar(outer, d->name, "data", err);
	if (!a)
		return -1;
	struct archive_entry *e;
	int r = ARCHIVE_OK, rc = 0;
	while (rc == 0 && header(a, &e, &r))
		rc = entry(d, a, e, err);
	if (rc == 0 && r != ARCHIVE_EOF) {
		*err = xasprintf("%s: the package's data: %s", d->name, archive_error_string(a));
		rc = -1;
	}
	archive_read_free(a);
	return rc;
}

/* The ar archive up to its first member whose name starts with prefix
 * ("data.tar", "control.tar": whatever the compression suffix), after
 * debian-binary, which dpkg-deb requires first.  0 there, or -1. */
static int find_member(struct archive *ar, const char *name, const char *prefix, char **err)
{
	struct archive_entry *e;
	int r = archive_read_next_header(ar, &e);
	if (r < ARCHIVE_WARN || r == ARCHIVE_EOF) {
		*err = xasprintf("%s: not a Debian package: %s", name,
				 r == ARCHIVE_EOF ? "an empty ar archive" : archive_error_string(ar));
		return -1;
	}
	const char *first = archive_entry_pathname(e);
	if (!first || strcmp(first, "debian-binary") != 0) {
		*err = xasprintf("%s: not a Debian package (its first member is %s, not debian-binary)",
				 name, first ? first : "unnamed");
		return -1;
	}
	while (header(ar, &e, &r)) {
		const char *member = archive_entry_pathname(e);
		if (member && strncmp(member, prefix, strlen(prefix)) == 0)
			return 0;
	}
	*err = r == ARCHIVE_EOF ? xasprintf("%s: the package has no %s member", name, prefix)
				: xasprintf("%s: %s", name, archive_error_string(ar));
	return -1;
}

/* An ar reader on fd, read from its current offset; NULL with *err. */
static struct archive *open_ar(int fd, const char *name, char **err)
{
	struct archive *ar = archive_read_new();
	archive_read_support_format_ar(ar);
	if (archive_read_open_fd(ar, fd, READ_BLOCK) == ARCHIVE_OK)
		return ar;
	*err = xasprintf("%s: %s", name, archive_error_string(ar));
	archive_read_free(ar);
	return NULL;
}

/* What a guest cannot boot without. */
static int complete(const struct deb_reader *d, const char *name, char **err)
{
	if (d->kernel_fd < 0)
		*err = xasprintf("%s: the package holds no boot/vmlinuz-*", name);
	else if (!d->tree->release)
		*err = xasprintf("%s: the package holds no lib/modules/RELEASE", name);
	else
		return 0;
	return -1;
}

int aw_deb_read_fd(int fd, const char *name, int *kernel_fd, struct aw_modtree *tree,
		   struct aw_deb_boot *boot, char **err)
{
	struct deb_reader d = { .name = name, .kernel_fd = -1, .tree = tree, .boot = boot };
	*kernel_fd = -1;
	tree->store = aw_anon_file("modules");
	if (tree->store < 0) {
		*err = xasprintf("cannot make a temporary file: %s", strerror(errno));
		return -1;
	}
	struct archive *ar = open_ar(fd, name, err);
	int rc = ar ? find_member(ar, name, "data.tar", err) : -1;
	if (rc == 0)
		rc = read_data(&d, ar, err);
	if (ar)
		archive_read_free(ar);
	if (rc == 0)
		rc = complete(&d, name, err);
	if (rc != 0) {
		if (d.kernel_fd >= 0)
			close(d.kernel_fd);
		return -1;
	}
	aw_modtree_finish(tree);
	*kernel_fd = d.kernel_fd;
	return 0;
}

/* A package opened for reading, after the checks whose words users see;
 * -1 with *err. */
static int open_deb(const char *deb, char **err)
{
	if (access(deb, R_OK) != 0) {
		*err = xasprintf("%s: %s", deb, strerror(errno));
		return -1;
	}
	if (!aw_is_deb(deb)) {
		*err = xasprintf("%s: not a Debian package (no ar archive header)", deb);
		return -1;
	}
	int fd = open(deb, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		*err = xasprintf("%s: %s", deb, strerror(errno));
	return fd;
}

int aw_deb_read(const char *deb, int *kernel_fd, struct aw_modtree *tree, struct aw_deb_boot *boot,
		char **err)
{
	*kernel_fd = -1;
	int fd = open_deb(deb, err);
	if (fd < 0)
		return -1;
	int rc = aw_deb_read_fd(fd, deb, kernel_fd, tree, boot, err);
	close(fd);
	return rc;
}

/* ---- the control file ---- */

/* The length of a field's name at line when it is field ("Version:",
 * any case, as deb-control(5) says names are), else 0. */
static size_t names_field(const char *line, const char *end, const char *field)
{
	size_t n = strlen(field);
	if ((size_t)(end - line) <= n || strncasecmp(line, field, n) != 0 || line[n] != ':')
		return 0;
	return n + 1;
}

char *aw_deb_control_field(const char *control, size_t len, const char *field)
{
	const char *p = control, *end = control + len;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *eol = nl ? nl : end;
		if (eol == p)
			return NULL; /* a blank line ends the first paragraph */
		size_t skip = names_field(p, eol, field);
		if (skip) {
			const char *v = p + skip, *ve = eol;
			while (v < ve && (*v == ' ' || *v == '\t'))
				v++;
			while (ve > v && (ve[-1] == ' ' || ve[-1] == '\t' || ve[-1] == '\r'))
				ve--;
			/* A NUL byte is no text dpkg takes: no value, rather than a cut one. */
			if (ve == v || memchr(v, '\0', (size_t)(ve - v)))
				return NULL;
			return strndup(v, (size_t)(ve - v));
		}
		p = eol + 1;
	}
	return NULL;
}

/* aw_read_all()'s reader over a libarchive entry's data. */
static ssize_t archive_data(void *a, void *buf, size_t size)
{
	return archive_read_data(a, buf, size);
}

/* The "control" entry of the control tar ("./control" as dpkg-deb writes
 * it) into memory: 0, 1 when the tar has none, -1 with *err (a control
 * file over CONTROL_MAX is one: it used to be cut there silently). */
static int read_control_file(struct archive *a, const char *name, char **text, size_t *len,
			     char **err)
{
	struct archive_entry *e;
	int r;
	while (header(a, &e, &r)) {
		const char *path = archive_entry_pathname(e);
		while (path && path[0] == '.' && path[1] == '/')
			path += 2;
		if (!path || strcmp(path, "control") != 0 || archive_entry_filetype(e) != AE_IFREG)
			continue;
		int rc = aw_read_all(archive_data, a, CONTROL_MAX, text, len);
		if (rc == AW_READALL_TOO_BIG)
			*err = xasprintf("%s: the package's control file is larger than %u MiB", name,
					 CONTROL_MAX >> 20);
		else if (rc != AW_READALL_OK)
			*err = xasprintf("%s: reading control from the package: %s", name,
					 archive_error_string(a));
		return rc == AW_READALL_OK ? 0 : -1;
	}
	if (r != ARCHIVE_EOF) {
		*err = xasprintf("%s: the package's control: %s", name, archive_error_string(a));
		return -1;
	}
	return 1;
}

char *aw_deb_field_fd(int fd, const char *name, const char *field, char **err)
{
	struct archive *ar = open_ar(fd, name, err), *a = NULL;
	char *text = NULL, *version = NULL;
	size_t len = 0;
	int rc = ar ? find_member(ar, name, "control.tar", err) : -1;
	if (rc == 0 && !(a = member_tar(ar, name, "control", err)))
		rc = -1;
	if (rc == 0 && (rc = read_control_file(a, name, &text, &len, err)) == 1)
		*err = xasprintf("%s: the package's control.tar has no control file", name);
	if (rc == 0 && !(version = aw_deb_control_field(text, len, field)))
		*err = xasprintf("%s: the package's control file has no %s field", name, field);
	free(text);
	if (a)
		archive_read_free(a);
	if (ar)
		archive_read_free(ar);
	return version;
}

char *aw_deb_version_fd(int fd, const char *name, char **err)
{
	return aw_deb_field_fd(fd, name, "Version", err);
}

char *aw_deb_field(const char *deb, const char *field, char **err)
{
	int fd = open_deb(deb, err);
	if (fd < 0)
		return NULL;
	char *v = aw_deb_field_fd(fd, deb, field, err);
	close(fd);
	return v;
}

char *aw_deb_version(const char *deb, char **err)
{
	return aw_deb_field(deb, "Version", err);
}

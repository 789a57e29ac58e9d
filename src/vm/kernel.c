// SPDX-License-Identifier: GPL-2.0-or-later
/* Kernels for guests: linux-image .debs, and kernels as a command line
 * names them. */
#include "kernel.h"
#include "bzimage.h"
#include "lib/proc.h"
#include "lib/util.h"
#include "lib/procfs.h"

#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

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

/* ---- a tar stream ---- */

static int read_exact(int fd, void *buf, size_t n)
{
	size_t done = 0;
	while (done < n) {
		ssize_t r = read(fd, (char *)buf + done, n - done);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0) {
			if (r == 0)
				errno = EPIPE;
			return -1;
		}
		done += (size_t)r;
	}
	return 0;
}

/* Copy n bytes of the stream to out at *out_off (out < 0: skip them). */
static int pass(int fd, size_t n, int out)
{
	char buf[65536];
	while (n > 0) {
		size_t want = n < sizeof(buf) ? n : sizeof(buf);
		if (read_exact(fd, buf, want) != 0)
			return -1;
		if (out >= 0 && aw_write_all(out, buf, want) != 0)
			return -1;
		n -= want;
	}
	return 0;
}

static unsigned long long tar_number(const unsigned char *f, size_t len)
{
	unsigned long long v = 0;
	if (f[0] & 0x80) { /* GNU base-256 */
		for (size_t i = 1; i < len; i++)
			v = v << 8 | f[i];
		return v;
	}
	for (size_t i = 0; i < len && f[i]; i++)
		if (f[i] >= '0' && f[i] <= '7')
			v = v * 8 + (unsigned)(f[i] - '0');
	return v;
}

static char *field(const unsigned char *f, size_t len)
{
	char *s = strndup((const char *)f, len);
	if (!s)
		abort();
	return s;
}

/* A pax extended header's "path=" record, or NULL. */
static char *pax_path(const char *data, size_t len)
{
	size_t i = 0;
	while (i < len) {
		char *end;
		unsigned long rec = strtoul(data + i, &end, 10);
		if (rec == 0 || end >= data + len || *end != ' ' || i + rec > len)
			break;
		const char *kv = end + 1;
		size_t kvlen = (size_t)(data + i + rec - kv);
		if (kvlen > 5 && strncmp(kv, "path=", 5) == 0)
			return strndup(kv + 5, kvlen - 6); /* without the newline */
		i += rec;
	}
	return NULL;
}

/* The largest boot/config-* kept (Debian's are about 300 KiB). */
#define CONFIG_MAX (16u << 20)

struct deb_reader {
	int kernel_fd;
	struct aw_modtree *tree;
	struct aw_deb_boot *boot;
	off_t store_off;
	char *kernel_name;
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

static int entry(struct deb_reader *d, int fd, const char *path, char type,
		 unsigned long long size, char **err)
{
	size_t padded = (size_t)((size + 511) & ~511ULL);
	char *rel = NULL;
	const char *rest = NULL;
	int out = -1;
	bool regular = type == '0' || type == '\0' || type == '7';

	if (regular && fnmatch("boot/config-*", path, 0) == 0 && !d->boot->config_path &&
	    size <= CONFIG_MAX) {
		char *text = xmalloc((size_t)size + 1);
		if (read_exact(fd, text, (size_t)size) != 0 || pass(fd, padded - (size_t)size, -1) != 0) {
			free(text);
			*err = xasprintf("reading %s from the package: %s", path, strerror(errno));
			return -1;
		}
		text[size] = '\0';
		d->boot->config_path = xstrdup(path);
		d->boot->config = text;
		d->boot->config_len = (size_t)size;
		return 0;
	}
	if (regular && fnmatch("boot/vmlinuz-*", path, 0) == 0 && d->kernel_fd < 0) {
		d->kernel_fd = aw_anon_file("vmlinuz");
		if (d->kernel_fd < 0) {
			*err = xasprintf("cannot make a temporary file: %s", strerror(errno));
			return -1;
		}
		d->kernel_name = xstrdup(path);
		out = d->kernel_fd;
	} else if (regular && modules_path(path, &rel, &rest) && aw_modtree_wants(rest)) {
		if (!d->tree->release)
			d->tree->release = xstrdup(rel);
		if (strcmp(rel, d->tree->release) == 0) {
			aw_modtree_add(d->tree, rest, d->store_off, (size_t)size);
			out = d->tree->store;
			d->store_off += (off_t)size;
		}
	}
	free(rel);
	if (pass(fd, (size_t)size, out) != 0 || pass(fd, padded - (size_t)size, -1) != 0) {
		*err = xasprintf("reading %s from the package: %s", path, strerror(errno));
		return -1;
	}
	return 0;
}

static int read_tar(struct deb_reader *d, int fd, char **err)
{
	unsigned char h[512];
	char *long_name = NULL;
	int zeros = 0;
	for (;;) {
		if (read_exact(fd, h, sizeof(h)) != 0) {
			if (zeros)
				break; /* one zero block then EOF: tolerated */
			*err = xasprintf("the package's data ends early: %s", strerror(errno));
			free(long_name);
			return -1;
		}
		bool empty = true;
		for (size_t i = 0; i < sizeof(h) && empty; i++)
			empty = h[i] == 0;
		if (empty) {
			if (++zeros == 2)
				break;
			continue;
		}
		zeros = 0;
		unsigned long long size = tar_number(h + 124, 12);
		char type = (char)h[156];
		if (type == 'L' || type == 'x') {
			size_t padded = (size_t)((size + 511) & ~511ULL);
			if (size > 65536) {
				*err = xstrdup("the package's data has an oversized tar header");
				free(long_name);
				return -1;
			}
			char *data = xcalloc(1, padded + 1);
			if (read_exact(fd, data, padded) != 0) {
				free(data);
				free(long_name);
				*err = xasprintf("the package's data ends early: %s", strerror(errno));
				return -1;
			}
			char *name = type == 'L' ? strndup(data, (size_t)size) : pax_path(data, (size_t)size);
			free(data);
			if (name) {
				free(long_name);
				long_name = name;
			}
			continue;
		}
		char *path;
		if (long_name) {
			path = long_name;
			long_name = NULL;
		} else {
			char *name = field(h, 100);
			if (memcmp(h + 257, "ustar", 5) == 0 && h[345]) {
				char *prefix = field(h + 345, 155);
				path = xasprintf("%s/%s", prefix, name);
				free(prefix);
				free(name);
			} else {
				path = name;
			}
		}
		const char *p = path;
		while (p[0] == '.' && p[1] == '/')
			p += 2;
		while (*p == '/')
			p++;
		int rc = entry(d, fd, p, type, type == '5' || type == '2' || type == '1' ? 0 : size, err);
		free(path);
		if (rc != 0)
			return -1;
	}
	free(long_name);
	return 0;
}

void aw_deb_boot_free(struct aw_deb_boot *b)
{
	free(b->config_path);
	free(b->config);
	memset(b, 0, sizeof(*b));
}

int aw_deb_read(const char *deb, int *kernel_fd, struct aw_modtree *tree, struct aw_deb_boot *boot,
		char **err)
{
	struct deb_reader d = { .kernel_fd = -1, .tree = tree, .boot = boot };
	int pipefd[2];
	char *why = NULL;

	*kernel_fd = -1;
	if (access(deb, R_OK) != 0) {
		*err = xasprintf("%s: %s", deb, strerror(errno));
		return -1;
	}
	if (!aw_is_deb(deb)) {
		*err = xasprintf("%s: not a Debian package (no ar archive header)", deb);
		return -1;
	}
	tree->store = aw_anon_file("modules");
	if (tree->store < 0 || pipe2(pipefd, O_CLOEXEC) != 0) {
		*err = xasprintf("cannot make a temporary file: %s", strerror(errno));
		return -1;
	}
	int errfd = aw_anon_file("dpkg-deb.err");
	const char *argv[] = { "dpkg-deb", "--fsys-tarfile", deb, NULL };
	struct aw_spawn how = { .in = -1, .out = pipefd[1], .err = errfd, .own_pgrp = true };
	pid_t pid = aw_spawn(argv, &how);
	int e = errno;
	close(pipefd[1]);
	if (pid < 0) {
		close(pipefd[0]);
		if (errfd >= 0)
			close(errfd);
		*err = xasprintf("cannot run dpkg-deb (from dpkg) to read %s: %s", deb, strerror(e));
		return -1;
	}
	int rc = read_tar(&d, pipefd[0], err);
	close(pipefd[0]);
	int status = 0;
	if (rc != 0)
		aw_kill_reap(pid);
	else
		aw_wait_until(pid, 0, &status);
	if (rc == 0 && !(WIFEXITED(status) && WEXITSTATUS(status) == 0)) {
		size_t len;
		if (errfd >= 0 && aw_fd_slurp(errfd, &why, &len) == 0)
			why[strcspn(why, "\n")] = '\0';
		*err = xasprintf("%s: dpkg-deb --fsys-tarfile failed%s%s", deb, why && *why ? ": " : "",
				 why ? why : "");
		rc = -1;
	}
	free(why);
	if (errfd >= 0)
		close(errfd);
	if (rc == 0 && d.kernel_fd < 0) {
		*err = xasprintf("%s: the package holds no boot/vmlinuz-*", deb);
		rc = -1;
	}
	if (rc == 0 && !tree->release) {
		*err = xasprintf("%s: the package holds no lib/modules/RELEASE", deb);
		rc = -1;
	}
	free(d.kernel_name);
	if (rc != 0) {
		if (d.kernel_fd >= 0)
			close(d.kernel_fd);
		return -1;
	}
	aw_modtree_finish(tree);
	*kernel_fd = d.kernel_fd;
	return 0;
}

char *aw_kernel_release(const char *path, char **err)
{
	if (aw_is_deb(path)) {
		/* linux-image-6.1.0-57-cloud-amd64_6.1.192-3_amd64.deb */
		const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
		if (strncmp(base, "linux-image-", 12) == 0) {
			size_t n = strcspn(base + 12, "_");
			char *rel = strndup(base + 12, n);
			size_t l = rel ? strlen(rel) : 0;
			if (l > 9 && strcmp(rel + l - 9, "-unsigned") == 0)
				rel[l - 9] = '\0';
			return rel;
		}
		*err = xasprintf("%s: a package not named linux-image-RELEASE_...", path);
		return NULL;
	}
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		*err = xasprintf("%s: %s", path, strerror(errno));
		return NULL;
	}
	char *why = NULL, *rel = aw_bzimage_release(fd, &why);
	close(fd);
	if (!rel) {
		*err = xasprintf("%s: %s", path, why);
		free(why);
	}
	return rel;
}

/* The Version field of a package (dpkg-deb --field), malloc'd, or NULL. */
static char *deb_version(const char *deb)
{
	const char *argv[] = { "dpkg-deb", "--field", deb, "Version", NULL };
	struct aw_spawn how = { .in = -1, .own_pgrp = true };
	struct aw_capture cap = { .out = true, .timeout_s = 60, .max = 4096 };
	if (aw_capture(argv, &how, &cap) != 0)
		return NULL;
	char *v = NULL;
	size_t n = strcspn(cap.text, "\n");
	if (WIFEXITED(cap.status) && WEXITSTATUS(cap.status) == 0 && n > 0)
		v = strndup(cap.text, n);
	free(cap.text);
	return v;
}

int aw_kernel_spec_parse(const char *spec, bool want_version, struct aw_kernel_spec *k,
			 char **err)
{
	memset(k, 0, sizeof(*k));
	if (access(spec, F_OK) != 0 && strchr(spec, ':')) {
		const char *colon = strrchr(spec, ':');
		k->kernel = xasprintf("%.*s", (int)(colon - spec), spec);
		k->modules = xstrdup(colon + 1);
	} else if (aw_is_deb(spec)) {
		k->deb = xstrdup(spec);
	} else if (strlen(spec) > 4 && strcmp(spec + strlen(spec) - 4, ".deb") == 0 &&
		   access(spec, F_OK) == 0) {
		*err = xasprintf("%s: not a Debian package (no ar archive header)", spec);
		return -1;
	} else {
		k->kernel = xstrdup(spec);
	}
	k->release = aw_kernel_release(k->deb ? k->deb : k->kernel, err);
	if (k->release && k->deb && want_version && !(k->version = deb_version(k->deb)))
		*err = xasprintf("%s: the package has no Version field (dpkg-deb --field)", k->deb);
	if (!k->release || (k->deb && want_version && !k->version)) {
		aw_kernel_spec_free(k);
		return -1;
	}
	return 0;
}

void aw_kernel_spec_free(struct aw_kernel_spec *k)
{
	free(k->kernel);
	free(k->deb);
	free(k->modules);
	free(k->release);
	free(k->version);
	memset(k, 0, sizeof(*k));
}

/* dpkg --compare-versions a lt b: whether dpkg orders a before b. */
static bool dpkg_before(const char *a, const char *b)
{
	const char *argv[] = { "dpkg", "--compare-versions", a, "lt", b, NULL };
	return aw_run_wait(argv, -1, -1, NULL) == 0;
}

int aw_kernel_spec_cmp(const struct aw_kernel_spec *a, const struct aw_kernel_spec *b)
{
	if (a->version && b->version && strcmp(a->version, b->version) != 0)
		return dpkg_before(a->version, b->version) ? -1 : dpkg_before(b->version, a->version);
	if (a->version && b->version)
		return 0;
	return strverscmp(a->release, b->release);
}

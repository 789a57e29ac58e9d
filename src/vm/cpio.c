// SPDX-License-Identifier: GPL-2.0-or-later
/* cpio "newc" writer for initramfs images: see cpio.h. */
#include "cpio.h"
#include "lib/proc.h"
#include "lib/util.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

void aw_cpio_init(struct aw_cpio *c, int fd)
{
	memset(c, 0, sizeof(*c));
	c->fd = fd;
	c->ino = 1;
}

static void put(struct aw_cpio *c, const void *data, size_t len)
{
	if (c->err || len == 0)
		return;
	int rc = aw_write_all(c->fd, data, len);
	if (rc != 0)
		c->err = -rc;
	c->bytes += len;
}

static void pad(struct aw_cpio *c)
{
	static const char zeros[4];
	size_t n = (size_t)((4 - c->bytes % 4) % 4);
	put(c, zeros, n);
}

int aw_cpio_has(const struct aw_cpio *c, const char *path)
{
	for (size_t i = 0; i < c->nnames; i++)
		if (strcmp(c->names[i], path) == 0)
			return 1;
	return 0;
}

static void header_dev(struct aw_cpio *c, const char *name, unsigned mode, size_t size,
		       unsigned nlink, unsigned rmajor, unsigned rminor)
{
	char h[128];
	unsigned namesize = (unsigned)strlen(name) + 1; /* names are short (bad_name()) */
	snprintf(h, sizeof(h), "070701%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X",
		 c->ino++, mode, 0u, 0u, nlink, 0u, (unsigned)size, 0u, 0u, rmajor, rminor,
		 namesize, 0u);
	put(c, h, 110);
	put(c, name, namesize);
	pad(c);
}

static void header(struct aw_cpio *c, const char *name, unsigned mode, size_t size,
		   unsigned nlink)
{
	header_dev(c, name, mode, size, nlink, 0, 0);
}

static int remember(struct aw_cpio *c, const char *path)
{
	if (aw_cpio_has(c, path)) {
		if (!c->err)
			c->err = EEXIST;
		return -1;
	}
	c->names = xgrow(c->names, c->nnames, sizeof(*c->names));
	c->names[c->nnames++] = xstrdup(path);
	return 0;
}

/* Write every missing parent directory of path. */
static void parents(struct aw_cpio *c, const char *path)
{
	char *copy = xstrdup(path);
	for (char *s = strchr(copy, '/'); s; s = strchr(s + 1, '/')) {
		*s = '\0';
		bool seen = false;
		for (size_t i = 0; i < c->ndirs && !seen; i++)
			seen = strcmp(c->dirs[i], copy) == 0;
		if (!seen && *copy)
			aw_cpio_dir(c, copy, 0755);
		*s = '/';
	}
	free(copy);
}

static bool bad_name(struct aw_cpio *c, const char *path)
{
	if (!*path || path[0] == '/' || strlen(path) > 4000) {
		if (!c->err)
			c->err = EINVAL;
		return true;
	}
	return false;
}

int aw_cpio_dir(struct aw_cpio *c, const char *path, unsigned mode)
{
	if (bad_name(c, path))
		return -1;
	for (size_t i = 0; i < c->ndirs; i++)
		if (strcmp(c->dirs[i], path) == 0)
			return c->err ? -1 : 0;
	parents(c, path);
	if (remember(c, path) != 0)
		return -1;
	c->dirs = xgrow(c->dirs, c->ndirs, sizeof(*c->dirs));
	c->dirs[c->ndirs++] = xstrdup(path);
	header(c, path, S_IFDIR | (mode & 07777), 0, 2);
	return c->err ? -1 : 0;
}

/* The header of a regular file of len bytes at path, its parents first;
 * -1 where it cannot be one (cpio's newc sizes are 32 bits). */
static int file_header(struct aw_cpio *c, const char *path, unsigned mode, size_t len)
{
	if (bad_name(c, path))
		return -1;
	if (len > 0xffffffffu) {
		c->err = EFBIG;
		return -1;
	}
	parents(c, path);
	if (remember(c, path) != 0)
		return -1;
	header(c, path, S_IFREG | (mode & 07777), len, 1);
	return 0;
}

int aw_cpio_mem(struct aw_cpio *c, const char *path, unsigned mode, const void *data, size_t len)
{
	if (file_header(c, path, mode, len) != 0)
		return -1;
	put(c, data, len);
	pad(c);
	return c->err ? -1 : 0;
}

int aw_cpio_fd(struct aw_cpio *c, const char *path, unsigned mode, int fd, off_t off, size_t len)
{
	if (file_header(c, path, mode, len) != 0)
		return -1;
	if (!c->err) {
		if (aw_fd_copy(c->fd, fd, off, len) != 0)
			c->err = errno ? errno : EIO;
		c->bytes += len;
	}
	pad(c);
	return c->err ? -1 : 0;
}

int aw_cpio_symlink(struct aw_cpio *c, const char *path, const char *target)
{
	if (bad_name(c, path))
		return -1;
	parents(c, path);
	if (remember(c, path) != 0)
		return -1;
	size_t len = strlen(target);
	header(c, path, S_IFLNK | 0777, len, 1);
	put(c, target, len);
	pad(c);
	return c->err ? -1 : 0;
}

int aw_cpio_node(struct aw_cpio *c, const char *path, unsigned mode, unsigned major,
		 unsigned minor)
{
	if (bad_name(c, path))
		return -1;
	parents(c, path);
	if (remember(c, path) != 0)
		return -1;
	header_dev(c, path, mode, 0, 1, major, minor);
	return c->err ? -1 : 0;
}

int aw_cpio_finish(struct aw_cpio *c)
{
	header(c, "TRAILER!!!", 0, 0, 1);
	if (c->err) {
		errno = c->err;
		return -1;
	}
	return 0;
}

void aw_cpio_free(struct aw_cpio *c)
{
	for (size_t i = 0; i < c->ndirs; i++)
		free(c->dirs[i]);
	for (size_t i = 0; i < c->nnames; i++)
		free(c->names[i]);
	free(c->dirs);
	free(c->names);
	c->dirs = c->names = NULL;
	c->ndirs = c->nnames = 0;
}

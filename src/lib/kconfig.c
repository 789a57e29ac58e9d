// SPDX-License-Identifier: GPL-2.0-or-later
#include "kconfig.h"
#include "errname.h"
#include "procfs.h"
#include "readall.h"
#include "util.h"

#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>
#include <zlib.h>

#define CONFIG_MAX (16 << 20)

/* aw_read_all()'s reader over a gzFile (size is at most CONFIG_MAX, so
 * it fits gzread's unsigned). */
static ssize_t gz_data(void *gz, void *buf, size_t size)
{
	return gzread(gz, buf, (unsigned)size);
}

/* /proc/config.gz decompressed in-process with zlib rather than by a
 * gzip child: a guest's initramfs has no gzip, and reading a file should
 * not need a program.  0, or -errno (-EIO: not gzip data, or a broken
 * stream; -EFBIG: larger than CONFIG_MAX). */
static int gunzip_file(const char *path, char **text, size_t *len)
{
	errno = 0;
	gzFile gz = gzopen(path, "rb");
	if (!gz)
		return errno ? -errno : -ENOMEM;
	int rc = aw_read_all(gz_data, gz, CONFIG_MAX, text, len);
	/* zlib passes data that is not gzip through as it is; gzip -dc,
	 * which this replaces, refused it. */
	bool plain = gzdirect(gz);
	gzclose(gz);
	if (plain && rc == AW_READALL_OK) {
		free(*text);
		*text = NULL;
		*len = 0;
	}
	return plain || rc == AW_READALL_IO ? -EIO : rc == AW_READALL_TOO_BIG ? -EFBIG : 0;
}

void aw_kconfig_load(struct aw_kconfig *c)
{
	struct utsname u;
	memset(c, 0, sizeof(*c));
	uname(&u);
	if (access("/proc/config.gz", R_OK) == 0) {
		int rc = gunzip_file("/proc/config.gz", &c->text, &c->len);
		c->source = rc == 0 ? xstrdup("/proc/config.gz")
				    : xasprintf("/proc/config.gz unreadable: %s", aw_errname(-rc));
		return;
	}
	/* The source names the place, not the file: with the release in
	 * it, every kernel of a series would read as a changed source. */
	static const char *const places[] = { "/boot/config-RELEASE", "/lib/modules/RELEASE/build/.config" };
	char *paths[] = { xasprintf("/boot/config-%s", u.release),
			  xasprintf("/lib/modules/%s/build/.config", u.release) };
	for (size_t i = 0; i < AW_ARRAY_SIZE(paths) && !c->text; i++)
		if (aw_file_slurp(paths[i], &c->text, &c->len) == 0)
			c->source = xstrdup(places[i]);
		else
			c->text = NULL;
	if (!c->text)
		c->source = xasprintf("none found: no /proc/config.gz, %s or %s", paths[0], paths[1]);
	for (size_t i = 0; i < AW_ARRAY_SIZE(paths); i++)
		free(paths[i]);
}

void aw_kconfig_free(struct aw_kconfig *c)
{
	free(c->text);
	free(c->source);
	memset(c, 0, sizeof(*c));
}

/* One line of a .config: "CONFIG_X=v" or "# CONFIG_X is not set". */
static char *config_line(const char *line, size_t len, const char *option)
{
	size_t olen = strlen(option);
	if (len > 2 && strncmp(line, "# ", 2) == 0) {
		const char *tail = " is not set";
		size_t tlen = strlen(tail);
		if (len == 2 + 7 + olen + tlen && strncmp(line + 2, "CONFIG_", 7) == 0 &&
		    strncmp(line + 9, option, olen) == 0 && strncmp(line + 9 + olen, tail, tlen) == 0)
			return xstrdup("n");
		return NULL;
	}
	/* a NUL is no part of a .config: such a line says nothing */
	if (len > 7 + olen && strncmp(line, "CONFIG_", 7) == 0 &&
	    strncmp(line + 7, option, olen) == 0 && line[7 + olen] == '=' &&
	    !memchr(line, '\0', len))
		return strndup(line + 8 + olen, len - 8 - olen);
	return NULL;
}

char *aw_kconfig_value(const char *config, size_t len, const char *option)
{
	if (!*option)
		return NULL;
	for (size_t i = 0; i < len;) {
		const char *nl = memchr(config + i, '\n', len - i);
		size_t l = nl ? (size_t)(nl - (config + i)) : len - i;
		char *v = config_line(config + i, l, option);
		if (v)
			return v;
		i += l + 1;
	}
	return NULL;
}

char *aw_kconfig_option(const struct aw_kconfig *c, const char *name)
{
	if (!c->text)
		return NULL;
	char option[128];
	size_t i = 0;
	for (; name[i] && i + 1 < sizeof(option); i++)
		option[i] = (char)(name[i] >= 'a' && name[i] <= 'z' ? name[i] - 'a' + 'A' : name[i]);
	option[i] = '\0';
	char *v = aw_kconfig_value(c->text, c->len, option);
	/* Not even "is not set": the kernel has no such option, or its
	 * dependencies are unmet (PRINT_QUOTA_WARNING depends on BROKEN in
	 * 6.12).  Nothing is built, as with n, but nobody chose n, and a
	 * diff that said "n -> y" would report a choice never made. */
	return v ? v : xstrdup("absent");
}

// SPDX-License-Identifier: GPL-2.0-or-later
#include "kconfig.h"
#include "errname.h"
#include "proc.h"
#include "procfs.h"
#include "util.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#define CONFIG_MAX (16 << 20)

static int gunzip_file(const char *path, char **text, size_t *len)
{
	const char *const argv[] = { "gzip", "-dc", path, NULL };
	struct aw_capture cap = { .out = true, .timeout_s = 10, .max = CONFIG_MAX };
	struct aw_spawn how = { .in = -1, .out = -1, .err = -1 };
	if (aw_capture(argv, &how, &cap) != 0)
		return -errno;
	if (cap.status != 0 || cap.overflowed) {
		free(cap.text);
		return -EIO;
	}
	*text = cap.text;
	*len = cap.len;
	return 0;
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
	char *paths[] = { xasprintf("/boot/config-%s", u.release),
			  xasprintf("/lib/modules/%s/build/.config", u.release) };
	for (size_t i = 0; i < AW_ARRAY_SIZE(paths) && !c->text; i++)
		if (aw_file_slurp(paths[i], &c->text, &c->len) == 0)
			c->source = xstrdup(paths[i]);
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

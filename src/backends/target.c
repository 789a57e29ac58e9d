// SPDX-License-Identifier: GPL-2.0-or-later
/* Probes over backends: see target.h. */
#include "target.h"
#include "lib/util.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

const struct aw_fs_target aw_target_tmpfs = { &aw_backend_tmpfs, "tmpfs" };
const struct aw_fs_target aw_target_ext4 = { &aw_backend_ext4, "ext4" };
const struct aw_fs_target aw_target_xfs = { &aw_backend_xfs, "xfs" };
const struct aw_fs_target aw_target_btrfs = { &aw_backend_btrfs, "btrfs" };
const struct aw_fs_target aw_target_overlay = { &aw_backend_overlay, "overlay" };
const struct aw_fs_target aw_target_overlay_single = { &aw_backend_overlay_single,
						       "overlay_single" };

static char *errno_or_notdir(const char *dir)
{
	struct stat st;
	if (stat(dir, &st) != 0)
		return xasprintf("%s: %s", dir, strerror(errno));
	return xasprintf("%s is not a directory", dir);
}

/* LABEL of LABEL=DIR, malloc'd, or NULL with *why. */
static char *path_label(const char *value, char **why)
{
	const char *eq = strchr(value, '=');
	if (!eq || eq == value || !eq[1]) {
		*why = xstrdup("expected LABEL=DIR (as nfs=/mnt/nfs)");
		return NULL;
	}
	for (const char *c = value; c < eq; c++) {
		if (!isalnum((unsigned char)*c) && *c != '_' && *c != '-') {
			*why = xstrdup("the label may hold letters, digits, '_' and '-' only");
			return NULL;
		}
	}
	return xasprintf("%.*s", (int)(eq - value), value);
}

/* The core refuses a label that names another probe of the family. */
struct aw_probe *aw_target_path_probe(const struct aw_probe *tmpl, const char *what,
				      const char *value, char **why)
{
	char *label = path_label(value, why);
	if (!label)
		return NULL;
	const char *dir = strchr(value, '=') + 1;
	struct stat st;
	if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
		*why = errno_or_notdir(dir);
		free(label);
		return NULL;
	}
	char *real = realpath(dir, NULL);
	struct aw_fs_target *t = xcalloc(1, sizeof(*t));
	t->backend = &aw_backend_path;
	t->label = label;
	struct aw_probe *p = xcalloc(1, sizeof(*p));
	*p = *tmpl;
	p->name = label;
	p->summary = xasprintf("%s in a fresh subdirectory of %s", what, real ? real : dir);
	p->data = t;
	p->host_path = real ? real : xstrdup(dir);
	return p;
}

void aw_target_path_release(struct aw_probe *p)
{
	free((void *)p->data);
	free((char *)p->name);
	free((char *)p->summary);
	free((char *)p->host_path);
	free(p);
}

enum aw_fs_rc aw_target_prepare(struct aw_ctx *ctx, unsigned long entries, struct aw_fs *fs,
				char **why)
{
	const struct aw_fs_target *t = aw_probe_data(ctx);
	struct aw_fs_opts o = {
		.base = aw_tmpdir(ctx), .entries = entries,
		.host_dirfd = aw_host_dirfd(ctx), .host_label = t->label,
		.host_dirname = aw_host_dirname(ctx), .shared_dirfd = aw_run_dirfd(ctx),
	};
	return aw_fs_prepare(t->backend, &o, fs, why);
}

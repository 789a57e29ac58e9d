// SPDX-License-Identifier: GPL-2.0-or-later
/* Kernels as a command line names them: a package, a bzImage, or a
 * bzImage and a module tree; their releases and their order. */
#include "kernel.h"
#include "lib/debver.h"
#include "bzimage.h"
#include "deb.h"
#include "lib/proc.h"
#include "lib/util.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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
	if (k->release && k->deb && want_version)
		k->version = aw_deb_version(k->deb, err);
	if (k->version && !(k->package = aw_deb_field(k->deb, "Package", err)))
		free(k->version), k->version = NULL;
	if (!k->release || (k->deb && want_version && (!k->version || !k->package))) {
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
	free(k->package);
	memset(k, 0, sizeof(*k));
}

int aw_kernel_spec_cmp(const struct aw_kernel_spec *a, const struct aw_kernel_spec *b)
{
	if (a->version && b->version)
		return aw_debver_cmp(a->version, b->version);
	return strverscmp(a->release, b->release);
}

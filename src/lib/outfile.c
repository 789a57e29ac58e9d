// SPDX-License-Identifier: GPL-2.0-or-later
/* Output files put into place whole (outfile.h). */
#include "outfile.h"
#include "util.h"

#include <errno.h>
#include <libgen.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static void release(struct aw_outfile *o)
{
	free(o->path);
	free(o->tmp);
	o->path = o->tmp = NULL;
	o->f = NULL;
}

static int open_in_place(struct aw_outfile *o)
{
	o->f = fopen(o->path, "we");
	if (!o->f) {
		int e = errno;
		release(o);
		errno = e;
		return -1;
	}
	return 0;
}

int aw_outfile_open(struct aw_outfile *o, const char *path)
{
	struct stat st;
	memset(o, 0, sizeof(*o));
	o->path = xstrdup(path);
	if (stat(path, &st) == 0 && !S_ISREG(st.st_mode))
		return open_in_place(o);
	char *copy = xstrdup(path);
	o->tmp = xasprintf("%s/.abiwatch-out.XXXXXX", dirname(copy));
	free(copy);
	int fd = mkstemp(o->tmp);
	if (fd < 0 || !(o->f = fdopen(fd, "w"))) {
		int e = errno;
		if (fd >= 0) {
			close(fd);
			unlink(o->tmp);
		}
		release(o);
		errno = e;
		return -1;
	}
	mode_t mask = umask(0);
	umask(mask);
	fchmod(fd, 0666 & ~mask); /* as if created by open(2) */
	return 0;
}

int aw_outfile_commit(struct aw_outfile *o)
{
	int rc = fclose(o->f) == 0 ? 0 : -1;
	if (rc == 0 && o->tmp && rename(o->tmp, o->path) != 0)
		rc = -1;
	int e = errno;
	if (rc != 0 && o->tmp)
		unlink(o->tmp);
	release(o);
	errno = e;
	return rc;
}

void aw_outfile_abort(struct aw_outfile *o)
{
	fclose(o->f);
	if (o->tmp)
		unlink(o->tmp);
	release(o);
}

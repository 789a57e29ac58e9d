/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * An output file written whole or not at all: into a temporary file
 * beside it, renamed over it at the end, so that a reader (or a kill)
 * never sees half of it.  When the path exists and is not a regular file
 * (/dev/null, /dev/stdout, a FIFO), it is written in place instead:
 * renaming over it would put a regular file where the device was, and as
 * root every later `>/dev/null` on the machine would then fill a file.
 */
#ifndef ABIWATCH_LIB_OUTFILE_H
#define ABIWATCH_LIB_OUTFILE_H

#include <stdio.h>

struct aw_outfile {
	FILE *f;   /* write here */
	char *path;
	char *tmp; /* the temporary file, or NULL when written in place */
};

/* Open for writing; the file gets the mode open(2) would give it with
 * the umask (0666 & ~umask).  0, or -1 with errno. */
int aw_outfile_open(struct aw_outfile *o, const char *path);
/* Close and put into place.  0, or -1 with errno (the temporary file is
 * removed and the path left as it was). */
int aw_outfile_commit(struct aw_outfile *o);
/* Close and leave the path as it was. */
void aw_outfile_abort(struct aw_outfile *o);

#endif

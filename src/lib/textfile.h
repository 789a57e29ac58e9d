/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Reading a whole input file (a snapshot, an assumptions file) with the
 * checks every such reader needs first: a size limit and no NUL byte, each
 * refused with the file and the line, so that a binary or runaway file is a
 * clear error and not a long parse or a huge allocation. */
#ifndef ABIWATCH_TEXTFILE_H
#define ABIWATCH_TEXTFILE_H

#include <stddef.h>

/* Larger than any snapshot or assumptions file a run writes by orders of
 * magnitude (a full run's snapshot is a few KiB). */
#define AW_TEXTFILE_MAX ((size_t)16 << 20)

/* Read path into *text (malloc'd, NUL-terminated after *len bytes).
 * 0, or -1 with *err "PATH: why" or "PATH:LINE: why" (malloc'd).  what
 * names the kind of file in messages ("snapshot"). */
int aw_textfile_read(const char *path, const char *what, size_t max,
		     char **text, size_t *len, char **err);

#endif

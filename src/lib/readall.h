/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Reading a whole stream (a decompressor's output, an archive member)
 * into one growing buffer with a maximum, so that a runaway or hostile
 * input is a clear "too big" and not a huge allocation, and that "too
 * big" is told apart from a failed read.  The source is a read
 * callback: libarchive's archive_read_data() and zlib's gzread() both
 * read that way. */
#ifndef ABIWATCH_LIB_READALL_H
#define ABIWATCH_LIB_READALL_H

#include <stddef.h>
#include <sys/types.h>

/* Read up to size bytes of source into buf: how many (0 at its end), or
 * < 0 when the read failed (what went wrong stays with the source: errno,
 * an archive's error string). */
typedef ssize_t (*aw_read_fn)(void *source, void *buf, size_t size);

enum {
	AW_READALL_OK = 0,
	AW_READALL_IO = -1,      /* the read callback failed */
	AW_READALL_TOO_BIG = -2, /* the stream has more than max bytes */
};

/* Read source to its end through fn: AW_READALL_OK with *out (malloc'd,
 * NUL-terminated after its *len bytes, also when the stream is empty),
 * or AW_READALL_IO or AW_READALL_TOO_BIG with *out NULL and *len 0.
 * Exactly max bytes are not too many; the buffer grows by doubling, so a
 * short stream takes little memory whatever max is. */
int aw_read_all(aw_read_fn fn, void *source, size_t max, char **out, size_t *len);

#endif

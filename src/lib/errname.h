/* SPDX-License-Identifier: GPL-2.0-or-later */
/* errno values by name, for reports: "EINVAL" says what happened to a
 * reader and to diff alike, where strerror()'s sentence depends on the
 * C library and the locale. */
#ifndef ABIWATCH_LIB_ERRNAME_H
#define ABIWATCH_LIB_ERRNAME_H

/* The name of err or -err ("EINVAL"), from the C library's own table
 * (strerrorname_np); "success" for 0; "errno N" for a number it does not
 * know, in a buffer of the calling thread that the next such call
 * reuses. */
const char *aw_errname(int err);

#endif

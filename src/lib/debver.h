/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Debian version numbers, [EPOCH:]UPSTREAM[-REVISION], ordered as dpkg
 * orders them (deb-version(7); Debian Policy 5.6.12): the epoch as a
 * number, then the upstream part and the revision each compared in
 * alternating runs of non-digits (letters before other characters, '~'
 * before everything, even the end) and of digits (as numbers).  A kernel
 * series is put in this order: 6.1.192-2 < 6.1.192-3, 6.12.115-2~deb12u1
 * < 6.12.117-1~deb12u1, where strverscmp(3) and strcmp(3) both err.
 */
#ifndef ABIWATCH_LIB_DEBVER_H
#define ABIWATCH_LIB_DEBVER_H

#include <stdbool.h>

/* <0, 0 or >0 as a sorts before, with or after b.  Any two strings are
 * ordered (a total order): a part that is not a number where an epoch
 * would be is taken as upstream text, as dpkg does not; use
 * aw_debver_valid() first to refuse such a version. */
int aw_debver_cmp(const char *a, const char *b);
/* Whether v is a version dpkg accepts: the epoch, if any, all digits;
 * the upstream part not empty and starting with a digit; only
 * alphanumerics and . + ~ - (and : after an epoch) in it. */
bool aw_debver_valid(const char *v);

#endif

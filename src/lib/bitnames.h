/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A mask as the names of its bits ("TSYNC,LOG,NEW_LISTENER"): the form in
 * which a kernel's answer that is a set of flags, commands or types is
 * recorded, so that the diff shows what appeared or vanished by name
 * (output/diff_words.c compares such lists) instead of two numbers.
 */
#ifndef ABIWATCH_LIB_BITNAMES_H
#define ABIWATCH_LIB_BITNAMES_H

#include <stddef.h>
#include <stdint.h>

struct aw_bitname {
	uint64_t bit;     /* one bit */
	const char *name;
};

/* The names of the bits of mask that names[0..n) names, in the table's
 * order, comma-separated; then the bits no row names: each as
 * unknown_prefix and its bit number ("LANDLOCK_ACCESS_FS_BIT" gives
 * LANDLOCK_ACCESS_FS_BIT16), or, where unknown_prefix is NULL, all of them as one hexadecimal number
 * ("0x40000").  none when mask is 0.  malloc'd. */
char *aw_bitnames(uint64_t mask, const struct aw_bitname *names, size_t n, const char *unknown_prefix,
		  const char *none);

#endif

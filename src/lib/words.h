/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A value that is a list of words ("a,b,c", "x y z"): split, looked in,
 * freed.  The diff compares such values, and its writers show what moved
 * in them. */
#ifndef ABIWATCH_LIB_WORDS_H
#define ABIWATCH_LIB_WORDS_H

#include <stdbool.h>
#include <stddef.h>

/* The elements of v between any of the characters of seps, each
 * malloc'd, in order; *n of them (no empty one). */
char **aw_words_split(const char *v, const char *seps, size_t *n);
bool aw_words_have(char *const *words, size_t n, const char *word);
void aw_words_free(char **words, size_t n);

#endif

// SPDX-License-Identifier: GPL-2.0-or-later
/* A mask as the names of its bits: see bitnames.h. */
#include "bitnames.h"
#include "util.h"

#include <inttypes.h>
#include <stdlib.h>

static void append(char **out, const char *word)
{
	char *next = xasprintf("%s%s%s", *out, **out ? "," : "", word);
	free(*out);
	*out = next;
}

char *aw_bitnames(uint64_t mask, const struct aw_bitname *names, size_t n, const char *unknown_prefix,
		  const char *none)
{
	if (!mask)
		return xstrdup(none);
	char *out = xstrdup("");
	uint64_t rest = mask;
	for (size_t i = 0; i < n; i++)
		if (rest & names[i].bit) {
			append(&out, names[i].name);
			rest &= ~names[i].bit;
		}
	if (rest && !unknown_prefix) {
		char *hex = xasprintf("%#" PRIx64, rest);
		append(&out, hex);
		free(hex);
		return out;
	}
	for (unsigned b = 0; b < 64; b++)
		if (rest & (UINT64_C(1) << b)) {
			char *word = xasprintf("%s%u", unknown_prefix, b);
			append(&out, word);
			free(word);
		}
	return out;
}

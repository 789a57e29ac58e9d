// SPDX-License-Identifier: GPL-2.0-or-later
#include "words.h"
#include "util.h"

#include <stdlib.h>
#include <string.h>

char **aw_words_split(const char *v, const char *seps, size_t *n)
{
	char **out = NULL, *save = NULL;
	char *copy = xstrdup(v);
	*n = 0;
	for (char *t = strtok_r(copy, seps, &save); t; t = strtok_r(NULL, seps, &save)) {
		out = xgrow(out, *n, sizeof(*out));
		out[(*n)++] = xstrdup(t);
	}
	free(copy);
	return out;
}

bool aw_words_have(char *const *words, size_t n, const char *word)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(words[i], word) == 0)
			return true;
	return false;
}

void aw_words_free(char **words, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(words[i]);
	free(words);
}

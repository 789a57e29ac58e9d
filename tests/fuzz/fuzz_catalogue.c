// SPDX-License-Identifier: GPL-2.0-or-later
/* libFuzzer target: output/catalogue_doc.c reads any bytes as a
 * catalogue (the input up to its last NUL; after it, a name to look up):
 * never reads past the input, every entry has a name and an id unique in
 * the document, every exact name finds an entry that has it, and a
 * lookup of any name at any level ends. */
#include "output/catalogue_doc.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void holds(const struct aw_catdoc *d)
{
	for (size_t i = 0; i < d->n; i++) {
		const struct aw_catdoc_entry *e = &d->entries[i];
		if (!e->nnames || !e->id || !e->heading || e->level < 2 || e->level > 4)
			abort();
		for (size_t j = 0; j < i; j++)
			if (strcmp(d->entries[j].id, e->id) == 0)
				abort();
		for (size_t k = 0; k < e->nnames; k++) {
			if (strpbrk(e->names[k], "*?["))
				continue;
			const struct aw_catdoc_entry *f = aw_catdoc_find(d, e->names[k], e->level);
			bool has = false;
			for (size_t m = 0; f && m < f->nnames; m++)
				has = has || strcmp(f->names[m], e->names[k]) == 0;
			if (!has)
				abort();
		}
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const uint8_t *nul = size ? memrchr(data, 0, size) : NULL;
	size_t len = nul ? (size_t)(nul - data) : size;
	/* An exact-size copy, so that a read past the text is caught. */
	char *text = malloc(len ? len : 1);
	if (!text)
		abort();
	memcpy(text, data, len);
	struct aw_catdoc d;
	aw_catdoc_parse(text, len, &d);
	holds(&d);
	if (nul) {
		size_t n = size - len - 1;
		char *name = malloc(n + 1);
		if (!name)
			abort();
		memcpy(name, nul + 1, n);
		name[n] = '\0';
		for (int level = 0; level <= 4; level++)
			(void)aw_catdoc_find(&d, name, level);
		free(name);
	}
	aw_catdoc_free(&d);
	free(text);
	return 0;
}

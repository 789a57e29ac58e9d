// SPDX-License-Identifier: GPL-2.0-or-later
/* libFuzzer target: the ELF reader (lib/elf.c), which the time family
 * points at the vDSO, never reads outside the bytes it is given and never
 * crashes, and what it accepts means what it says: every symbol it reads
 * has a name inside the image, and a defined one is found again by
 * aw_elf_lookup() under its name and version, with an offset inside the
 * image where it has one.  The corpus starts from real vDSOs (x86-64 and
 * i386). */
#include "lib/elf.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* An exact-size copy, so that ASan sees any read past the length. */
	unsigned char *img = malloc(size ? size : 1);
	if (!img)
		return 0;
	memcpy(img, data, size);
	struct aw_elf e;
	if (aw_elf_open(&e, img, size) == 0) {
		size_t n = aw_elf_sym_count(&e);
		for (size_t i = 1; i < n && i < 4096; i++) { /* 0 is the null symbol */
			struct aw_elf_sym s, again;
			if (aw_elf_sym(&e, i, &s) != 0)
				continue;
			const unsigned char *p = (const unsigned char *)s.name;
			if (*s.name && (p < img || p >= img + size))
				abort();
			if (s.shndx == 0 || !*s.name)
				continue;
			if (aw_elf_lookup(&e, s.name, s.version, &again) != 0 ||
			    strcmp(again.name, s.name) != 0)
				abort();
			size_t off;
			if (aw_elf_sym_offset(&e, &s, &off) == 0 && off >= size)
				abort();
		}
	}
	free(img);
	return 0;
}

// SPDX-License-Identifier: GPL-2.0-or-later
/* libFuzzer target: the reader of the dirent 32-bit helper's report never
 * crashes, always says why it refuses, and whatever it accepts it reads
 * the same again from the canonical form the helper writes. */
/* The fuzz rule links the core only: the parser comes in as source. */
#include "probes/dirent/helper_parse.c"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct dh_report r, back;
	char why[160] = "", out[2048];

	if (dh_parse((const char *)data, size, &r, why, sizeof(why)) != 0) {
		if (strncmp(why, "helper output line ", 19) != 0)
			abort();
		return 0;
	}
	int n = dh_format(&r, out, sizeof(out));
	if (n <= 0 || (size_t)n >= sizeof(out))
		abort();
	if (dh_parse(out, (size_t)n, &back, why, sizeof(why)) != 0)
		abort();
	if (memcmp(&r, &back, sizeof(r)) != 0)
		abort();
	return 0;
}

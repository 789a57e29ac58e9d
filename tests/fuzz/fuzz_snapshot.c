// SPDX-License-Identifier: GPL-2.0-or-later
/* libFuzzer target: the snapshot parser never crashes, and whatever it
 * accepts it writes back byte for byte. */
#include "model/snapshot.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct aw_snapshot s;
	char *err = NULL;

	if (aw_snapshot_parse((const char *)data, size, "fuzz", &s, &err) != 0) {
		if (!err || strncmp(err, "fuzz", 4) != 0)
			abort(); /* every error names the input */
		free(err);
		return 0;
	}
	char *out = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);
	aw_snapshot_write(&s, f);
	fclose(f);
	if (len != size || memcmp(out, data, size) != 0)
		abort();
	free(out);
	aw_snapshot_free(&s);
	return 0;
}

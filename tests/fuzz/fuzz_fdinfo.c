// SPDX-License-Identifier: GPL-2.0-or-later
/* libFuzzer target: the fdio family's fdinfo parsers
 * (src/probes/fdio/fdinfo.c) never read past the length they are given
 * and never crash, and what they accept means what it says:
 *   - an events mask found for a tfd is found again, the same, in the
 *     canonical line the kernel would write for it;
 *   - the keys found, written back as "KEY:\t0" lines, give the same
 *     keys again (nothing is invented, dropped or reordered).
 * The family's sources come in as source: the fuzz targets link the
 * core only.  The first 4 bytes choose the tfd looked for. */
#include "probes/fdio/fdinfo.c"

#include <stdint.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_events(const char *text, size_t len, int tfd)
{
	unsigned ev;
	if (fdio_epoll_events(text, len, tfd, &ev) != 0)
		return;
	char line[128];
	int n = snprintf(line, sizeof(line), "tfd: %8d events: %8x data: %16llx  pos:0 ino:1 sdev:f\n",
			 tfd, ev, 0ULL);
	unsigned again;
	if (fdio_epoll_events(line, (size_t)n, tfd, &again) != 0 || again != ev)
		abort();
}

static void check_keys(const char *text, size_t len)
{
	char out[512], again[512], lines[2048];
	if (fdio_fdinfo_keys(text, len, out, sizeof(out)) != 0)
		return;
	size_t used = 0;
	for (const char *k = out; *k;) {
		size_t n = strcspn(k, ",");
		used += (size_t)snprintf(lines + used, sizeof(lines) - used, "%.*s:\t0\n", (int)n, k);
		k += n + (k[n] == ',');
	}
	if (fdio_fdinfo_keys(lines, used, again, sizeof(again)) != 0 || strcmp(out, again) != 0)
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 4)
		return 0;
	int tfd;
	memcpy(&tfd, data, sizeof(tfd));
	tfd &= 0x7fffffff;
	/* An exact-size copy, so that ASan sees any read past the length. */
	size_t len = size - 4;
	char *text = malloc(len ? len : 1);
	if (!text)
		return 0;
	memcpy(text, data + 4, len);
	check_events(text, len, tfd % 64);
	check_keys(text, len);
	free(text);
	return 0;
}

// SPDX-License-Identifier: GPL-2.0-or-later
/* The setup header of a bzImage: which release a kernel image is. */
#include "bzimage.h"
#include "lib/util.h"

#include <string.h>
#include <unistd.h>

/* The header's fields (boot.rst): "HdrS" at 0x202, the protocol version
 * at 0x206 and, from 2.00 on, kernel_version at 0x20e: an offset (less
 * 0x200) of a text that starts with the release. */
char *aw_bzimage_release(int fd, char **err)
{
	unsigned char hdr[0x210];
	if (pread(fd, hdr, sizeof(hdr), 0) != (ssize_t)sizeof(hdr) ||
	    memcmp(hdr + 0x202, "HdrS", 4) != 0) {
		*err = xstrdup("not a bzImage (no \"HdrS\" setup header at 0x202)");
		return NULL;
	}
	unsigned version = hdr[0x206] | (unsigned)hdr[0x207] << 8;
	unsigned ptr = hdr[0x20e] | (unsigned)hdr[0x20f] << 8;
	char text[256] = { 0 };
	if (version < 0x200 || ptr == 0 ||
	    pread(fd, text, sizeof(text) - 1, (off_t)ptr + 0x200) <= 0) {
		*err = xstrdup("the bzImage names no kernel version");
		return NULL;
	}
	size_t n = strcspn(text, " \t\n");
	if (n == 0) {
		*err = xstrdup("the bzImage's kernel version is empty");
		return NULL;
	}
	text[n] = '\0';
	return xstrdup(text);
}

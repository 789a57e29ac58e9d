/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The kernel configuration the running kernel was built with, for
 * telling an interface the kernel removed from one it was configured
 * without: /proc/config.gz (CONFIG_IKCONFIG_PROC), else
 * /boot/config-RELEASE as distributions install it, else
 * /lib/modules/RELEASE/build/.config.
 */
#ifndef ABIWATCH_LIB_KCONFIG_H
#define ABIWATCH_LIB_KCONFIG_H

#include <stddef.h>

/* The configuration's text (NULL when none was found) and where it came
 * from, the running release written RELEASE ("/boot/config-RELEASE"),
 * or why there is none ("none found: ...", with the real paths). */
struct aw_kconfig {
	char *text;
	size_t len;
	char *source;
};
void aw_kconfig_load(struct aw_kconfig *c);
void aw_kconfig_free(struct aw_kconfig *c);

/* The value of CONFIG_<option> in the text of a kernel .config: "y",
 * "m", a number or string as written, "n" for "# CONFIG_X is not set",
 * or NULL when the text does not mention it.  malloc'd. */
char *aw_kconfig_value(const char *config, size_t len, const char *option);

/* The value of an option named in lower case without its prefix
 * ("memcg_v1" for CONFIG_MEMCG_V1), as item names spell it, in the loaded
 * configuration: as aw_kconfig_value(), but "absent" for an option it
 * does not mention, not even as "is not set" (no such option in this
 * kernel, or one whose dependencies are unmet: not built, but not a
 * choice of n); NULL when c holds no configuration.
 * malloc'd. */
char *aw_kconfig_option(const struct aw_kconfig *c, const char *name);

#endif

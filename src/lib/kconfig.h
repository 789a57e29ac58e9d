/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The kernel configuration a run sees: /proc/config.gz
 * (CONFIG_IKCONFIG_PROC), else /boot/config-RELEASE as distributions
 * install it, else /lib/modules/RELEASE/build/.config; and the value of
 * one option in it.  The value parser is pure (tests/unit/test_kconfig.c,
 * tests/fuzz/fuzz_sysctl.c).
 */
#ifndef ABIWATCH_LIB_KCONFIG_H
#define ABIWATCH_LIB_KCONFIG_H

#include <stddef.h>

/* The value of CONFIG_<option> in the text of a kernel .config: "y",
 * "m", a number or string as written, "n" for "# CONFIG_X is not set",
 * or NULL when the text does not mention it.  malloc'd. */
char *aw_kconfig_value(const char *config, size_t len, const char *option);

/* The configuration: its text (NULL when none was found) and where it
 * came from, or why there is none. */
struct aw_kconfig {
	char *text;
	size_t len;
	char *source;
};
void aw_kconfig_load(struct aw_kconfig *c);
void aw_kconfig_free(struct aw_kconfig *c);

#endif

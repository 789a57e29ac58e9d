// SPDX-License-Identifier: GPL-2.0-or-later
/* libFuzzer target: the sysctl family's readers of what the kernel hands
 * it never crash and keep their promises.  The first byte picks an
 * option name length; the rest is a .config text and a knob's value.
 *   - aw_kconfig_value() finds only what a line really says: its answer
 *     is "n" for a "# CONFIG_X is not set" line, else the text after
 *     "CONFIG_X=" on a line of the input;
 *   - sc_value_text() refuses exactly the values with control bytes, and
 *     otherwise gives the value without its last newline, tabs as
 *     spaces, at most SC_VALUE_MAX bytes before the note of its length.
 * The family's pure logic is compiled in (the fuzz targets link only the
 * core). */
#include "probes/sysctl/util.c"
#include "lib/kconfig.h"

#include <assert.h>
#include <stdint.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static bool has_line(const char *text, size_t len, const char *line)
{
	size_t l = strlen(line);
	for (size_t i = 0; i + l <= len; i++)
		if ((i == 0 || text[i - 1] == '\n') && memcmp(text + i, line, l) == 0 &&
		    (i + l == len || text[i + l] == '\n'))
			return true;
	return false;
}

static void check_config(const char *text, size_t len)
{
	/* the option: the first word after "CONFIG_" in the text, if any */
	const char *c = memmem(text, len, "CONFIG_", 7);
	char option[64] = "HZ";
	if (c) {
		size_t n = 0;
		for (const char *p = c + 7; p < text + len && n + 1 < sizeof(option) &&
		     ((*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') || *p == '_'); p++)
			option[n++] = *p;
		option[n] = '\0';
	}
	char *v = aw_kconfig_value(text, len, option);
	if (!v)
		return;
	char *set = xasprintf("CONFIG_%s=%s", option, v);
	char *unset = xasprintf("# CONFIG_%s is not set", option);
	assert(has_line(text, len, set) || (strcmp(v, "n") == 0 && has_line(text, len, unset)));
	free(set);
	free(unset);
	free(v);
}

static void check_value(const char *buf, size_t len)
{
	char *t = sc_value_text(buf, len);
	bool control = false;
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)buf[i];
		control |= (c < 0x20 && c != '\n' && c != '\t') || c == 0x7f;
	}
	assert(!t == control);
	if (!t)
		return;
	size_t keep = len && buf[len - 1] == '\n' ? len - 1 : len;
	assert(!strchr(t, '\t'));
	if (keep <= SC_VALUE_MAX) {
		assert(strlen(t) == keep);
		for (size_t i = 0; i < keep; i++)
			assert(t[i] == (buf[i] == '\t' ? ' ' : buf[i]));
	} else {
		assert(strncmp(t + SC_VALUE_MAX, " ... (", 6) == 0);
	}
	free(t);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1);
	memcpy(text, data, size);
	text[size] = '\0';
	check_config(text, size);
	check_value(text, size);
	free(text);
	return 0;
}

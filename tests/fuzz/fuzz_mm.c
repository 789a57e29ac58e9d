// SPDX-License-Identifier: GPL-2.0-or-later
/* libFuzzer target: the mm family's readers of kernel text
 * (probes/mm/parse.h) never read past their input and keep their
 * promises: VmFlags come back as single-spaced words of the input; a
 * limits table that was read writes back, as the kernel prints it, to a
 * table that reads the same; a bracketed word and a command-line value
 * are in the input as found. */
#include "probes/mm/parse.h"
/* The fuzz targets link the core only: the family's reader comes in as
 * source. */
#include "probes/mm/parse.c"
#include "lib/maps.h"
#include "lib/procfs.h"
#include "lib/util.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_vmflags(const char *text, size_t len)
{
	char flags[64];
	unsigned long addr = 0;
	/* the address of the input's first range, if any */
	for (size_t i = 0; i < len && i < 16; i++) {
		int d = aw_hex_digit(text[i]);
		if (d < 0)
			break;
		addr = addr << 4 | (unsigned long)d;
	}
	if (mm_smaps_vmflags(text, len, addr, flags, sizeof(flags)) != 0)
		return;
	size_t n = strlen(flags);
	if (n >= sizeof(flags) || (n && (flags[0] == ' ' || flags[n - 1] == ' ')) || strstr(flags, "  "))
		abort();
	char *save = NULL, *copy = strdup(flags);
	for (char *w = strtok_r(copy, " ", &save); w; w = strtok_r(NULL, " ", &save))
		if (!memmem(text, len, w, strlen(w)) || !mm_has_token(flags, w))
			abort();
	free(copy);
}

static void print_value(FILE *f, unsigned long long v)
{
	if (v == MM_UNLIMITED)
		fprintf(f, "%-20s ", "unlimited");
	else
		fprintf(f, "%-20llu ", v);
}

static void check_limits(const char *text, size_t len)
{
	struct mm_limit rows[8], again[8];
	size_t bad = 0, n2;
	int n = mm_limits_parse(text, len, rows, 8, &bad);
	if (n < 0) {
		if (bad == 0)
			abort(); /* a refusal names its line */
		return;
	}
	size_t kept = n < 8 ? (size_t)n : 8;
	char *out = NULL;
	FILE *f = open_memstream(&out, &n2);
	fprintf(f, "%-25s %-20s %-20s %-10s\n", "Limit", "Soft Limit", "Hard Limit", "Units");
	for (size_t i = 0; i < kept; i++) {
		fprintf(f, "%-25s ", rows[i].name);
		print_value(f, rows[i].soft);
		print_value(f, rows[i].hard);
		fprintf(f, "%-10s\n", rows[i].unit);
	}
	fclose(f);
	if (mm_limits_parse(out, n2, again, 8, &bad) != (int)kept)
		abort();
	for (size_t i = 0; i < kept; i++)
		if (strcmp(rows[i].name, again[i].name) || rows[i].soft != again[i].soft ||
		    rows[i].hard != again[i].hard || strcmp(rows[i].unit, again[i].unit))
			abort();
	free(out);
}

static void check_words(const char *text, size_t len)
{
	char w[32], pattern[40];
	if (mm_bracketed_word(text, len, w, sizeof(w)) == 0) {
		snprintf(pattern, sizeof(pattern), "[%s]", w);
		if (!w[0] || strchr(w, ' ') || !memmem(text, len, pattern, strlen(pattern)))
			abort();
	}
	char *value;
	if (aw_cmdline_param(text, len, "vsyscall", &value) == 0) {
		char *word = xasprintf("vsyscall=%s", value);
		if (!memmem(text, len, word, strlen(word)) || !aw_cmdline_has(text, len, word))
			abort();
		free(word);
		free(value);
	}
	struct aw_map m;
	if (aw_maps_by_name(text, len, "[vsyscall]", &m) == 0 &&
	    (strlen(m.perms) != 4 || !memmem(text, len, m.perms, 4) || strcmp(m.name, "[vsyscall]") != 0))
		abort();
	unsigned long addr = 0;
	if (len >= sizeof(addr))
		memcpy(&addr, text, sizeof(addr));
	if (aw_maps_by_addr(text, len, addr, &m) == 0 && (addr < m.start || addr >= m.end || strlen(m.perms) != 4))
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* An exact-size copy, so that ASan sees any read past the end. */
	char *text = malloc(size ? size : 1);
	memcpy(text, data, size);
	check_vmflags(text, size);
	check_limits(text, size);
	check_words(text, size);
	free(text);
	return 0;
}

// SPDX-License-Identifier: GPL-2.0-or-later
#include "helper_parse.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

enum kind { NUM, BOOL, ERRNO, CYCLE };

static const struct key {
	const char *name;
	enum kind kind;
	size_t off;
} keys[] = {
	{ "entries", NUM, offsetof(struct dh_report, entries) },
	{ "max_cookie", NUM, offsetof(struct dh_report, max_cookie) },
	{ "eof_cookie", NUM, offsetof(struct dh_report, eof_cookie) },
	{ "negative", BOOL, offsetof(struct dh_report, negative) },
	{ "duplicates", NUM, offsetof(struct dh_report, duplicates) },
	{ "cycle", CYCLE, offsetof(struct dh_report, cycle_cookie) },
	{ "capped", BOOL, offsetof(struct dh_report, capped) },
	{ "getdents_errno", ERRNO, offsetof(struct dh_report, getdents_errno) },
	{ "wide_ino", NUM, offsetof(struct dh_report, wide_ino) },
	{ "wide_off", NUM, offsetof(struct dh_report, wide_off) },
	{ "nonlfs_entries", NUM, offsetof(struct dh_report, nonlfs_entries) },
	{ "nonlfs_errno", ERRNO, offsetof(struct dh_report, nonlfs_errno) },
};
#define NKEYS (sizeof(keys) / sizeof(keys[0]))

static int fail(char *why, size_t whylen, unsigned line, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static int fail(char *why, size_t whylen, unsigned line, const char *fmt, ...)
{
	char msg[128];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (whylen)
		snprintf(why, whylen, "helper output line %u: %s", line, msg);
	return -1;
}

/* An unsigned decimal or 0x hex number that is all of s. */
static bool parse_u64(const char *s, uint64_t *out)
{
	uint64_t v = 0;
	unsigned base = 10;
	if (s[0] == '0' && s[1] == 'x') {
		base = 16;
		s += 2;
	}
	if (!*s)
		return false;
	for (; *s; s++) {
		unsigned d;
		if (*s >= '0' && *s <= '9')
			d = (unsigned)(*s - '0');
		else if (base == 16 && *s >= 'a' && *s <= 'f')
			d = (unsigned)(*s - 'a' + 10);
		else if (base == 16 && *s >= 'A' && *s <= 'F')
			d = (unsigned)(*s - 'A' + 10);
		else
			return false;
		if (v > (UINT64_MAX - d) / base)
			return false;
		v = v * base + d;
	}
	*out = v;
	return true;
}

static int apply(const struct key *k, const char *value, struct dh_report *r)
{
	uint64_t *field = (uint64_t *)((char *)r + k->off);
	uint64_t v;
	if (k->kind == CYCLE && strcmp(value, "none") == 0) {
		r->cycle = 0;
		*field = 0;
		return 0;
	}
	if (!parse_u64(value, &v))
		return -1;
	if ((k->kind == BOOL && v > 1) || (k->kind == ERRNO && v > 4095))
		return -1;
	if (k->kind == CYCLE)
		r->cycle = 1;
	*field = v;
	return 0;
}

int dh_parse(const char *text, size_t len, struct dh_report *r, char *why, size_t whylen)
{
	bool seen[NKEYS] = { false };
	bool ended = false, error = false;
	unsigned lineno = 0;
	size_t pos = 0;

	memset(r, 0, sizeof(*r));
	while (pos < len) {
		char line[DH_MAX_LINE + 1];
		size_t n = 0;
		lineno++;
		while (pos < len && text[pos] != '\n') {
			if (n == DH_MAX_LINE)
				return fail(why, whylen, lineno, "longer than %d bytes", DH_MAX_LINE);
			if (text[pos] == '\0' || text[pos] == '\r')
				return fail(why, whylen, lineno, "a control character");
			line[n++] = text[pos++];
		}
		if (pos == len)
			return fail(why, whylen, lineno, "no newline at the end");
		pos++;
		line[n] = '\0';

		if (ended)
			return fail(why, whylen, lineno, "text after \"end\"");
		if (lineno == 1) {
			if (strcmp(line, DH_HEADER) != 0)
				return fail(why, whylen, lineno, "not the header \"%s\"", DH_HEADER);
			continue;
		}
		if (strcmp(line, "end") == 0) {
			ended = true;
			continue;
		}
		char *sp = strchr(line, ' ');
		if (!sp)
			return fail(why, whylen, lineno, "no value");
		*sp = '\0';
		const char *value = sp + 1;
		if (strcmp(line, "error") == 0) {
			if (error || !*value)
				return fail(why, whylen, lineno, "a second or empty error");
			snprintf(r->error, sizeof(r->error), "%s", value);
			error = true;
			continue;
		}
		size_t k;
		for (k = 0; k < NKEYS && strcmp(keys[k].name, line) != 0; k++)
			;
		if (k == NKEYS)
			return fail(why, whylen, lineno, "unknown key");
		if (seen[k])
			return fail(why, whylen, lineno, "%s given twice", keys[k].name);
		if (apply(&keys[k], value, r) != 0)
			return fail(why, whylen, lineno, "bad value for %s", keys[k].name);
		seen[k] = true;
	}
	if (lineno == 0)
		return fail(why, whylen, 1, "no output");
	if (!ended)
		return fail(why, whylen, lineno, "no \"end\" line");
	if (error) {
		for (size_t k = 0; k < NKEYS; k++)
			if (seen[k])
				return fail(why, whylen, lineno, "%s beside an error", keys[k].name);
		return 0;
	}
	for (size_t k = 0; k < NKEYS; k++)
		if (!seen[k])
			return fail(why, whylen, lineno, "%s missing", keys[k].name);
	return 0;
}

int dh_format(const struct dh_report *r, char *buf, size_t size)
{
	if (r->error[0])
		return snprintf(buf, size, "%s\nerror %s\nend\n", DH_HEADER, r->error);
	char cycle[32] = "none";
	if (r->cycle)
		snprintf(cycle, sizeof(cycle), "0x%llx", (unsigned long long)r->cycle_cookie);
	return snprintf(buf, size,
			"%s\n"
			"entries %llu\n"
			"max_cookie 0x%llx\n"
			"eof_cookie 0x%llx\n"
			"negative %llu\n"
			"duplicates %llu\n"
			"cycle %s\n"
			"capped %llu\n"
			"getdents_errno %llu\n"
			"wide_ino %llu\n"
			"wide_off %llu\n"
			"nonlfs_entries %llu\n"
			"nonlfs_errno %llu\n"
			"end\n",
			DH_HEADER, (unsigned long long)r->entries, (unsigned long long)r->max_cookie,
			(unsigned long long)r->eof_cookie, (unsigned long long)r->negative,
			(unsigned long long)r->duplicates, cycle, (unsigned long long)r->capped,
			(unsigned long long)r->getdents_errno, (unsigned long long)r->wide_ino,
			(unsigned long long)r->wide_off, (unsigned long long)r->nonlfs_entries,
			(unsigned long long)r->nonlfs_errno);
}

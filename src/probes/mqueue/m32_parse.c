// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The reader of the 32-bit helper's lines (m32/proto.h).  It accepts
 * exactly what mqm_format() writes and nothing else, so that whatever it
 * accepts formats back to the same bytes (tests/fuzz/fuzz_mq_m32.c).
 */
#include "m32_parse.h"

#include <string.h>

bool mqm_valid_name(const char *name, size_t len)
{
	if (len == 0 || len > MQM_NAME_MAX || name[0] == '.' || name[len - 1] == '.')
		return false;
	for (size_t i = 0; i < len; i++) {
		char c = name[i];
		if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '.'))
			return false;
		if (c == '.' && i > 0 && name[i - 1] == '.')
			return false;
	}
	return true;
}

static bool valid_text(const char *text, size_t len)
{
	if (len == 0 || len > MQM_TEXT_MAX)
		return false;
	for (size_t i = 0; i < len; i++)
		if ((unsigned char)text[i] < 0x20 || (unsigned char)text[i] > 0x7e)
			return false;
	return true;
}

static bool is(const char *w, size_t n, const char *lit)
{
	return n == strlen(lit) && memcmp(w, lit, n) == 0;
}

/* Split [p, end) at its first space: the length before it, or -1 when
 * there is none.  *rest is what follows the space. */
static long split(const char *p, const char *end, const char **rest)
{
	const char *sp = memchr(p, ' ', (size_t)(end - p));

	if (!sp)
		return -1;
	*rest = sp + 1;
	return sp - p;
}

static int take_text(struct mqm_record *rec, const char *p, const char *end, const char **why)
{
	size_t n = (size_t)(end - p);

	if (!valid_text(p, n))
		return *why = "text empty, too long, or not printable ASCII", -1;
	memcpy(rec->text, p, n);
	return 0;
}

/* After "check NAME ": "pass", or "fail TEXT" / "skip TEXT". */
static int take_status(struct mqm_record *rec, const char *p, const char *end, const char **why)
{
	const char *text;
	long n = split(p, end, &text);

	if (n < 0) {
		if (!is(p, (size_t)(end - p), "pass"))
			return *why = "a check that did not pass needs a reason", -1;
		rec->status = MQM_PASS;
		return 0;
	}
	if (is(p, (size_t)n, "fail"))
		rec->status = MQM_FAIL;
	else if (is(p, (size_t)n, "skip"))
		rec->status = MQM_SKIP;
	else
		return *why = is(p, (size_t)n, "pass") ? "text after pass" : "unknown check status", -1;
	return take_text(rec, text, end, why);
}

int mqm_parse_line(const char *line, size_t len, struct mqm_record *rec, const char **why)
{
	const char *end = line + len, *name, *rest;

	memset(rec, 0, sizeof(*rec));
	long kn = split(line, end, &name);
	if (kn < 0)
		return *why = "a line without a record kind and name", -1;
	if (is(line, (size_t)kn, "check"))
		rec->kind = MQM_CHECK;
	else if (is(line, (size_t)kn, "obs"))
		rec->kind = MQM_OBS;
	else if (is(line, (size_t)kn, "unobs"))
		rec->kind = MQM_UNOBS;
	else
		return *why = "unknown record kind", -1;
	long nn = split(name, end, &rest);
	if (nn < 0)
		return *why = rec->kind == MQM_CHECK ? "a check without a status" :
			      "an observation without a value", -1;
	if (!mqm_valid_name(name, (size_t)nn))
		return *why = "invalid item name", -1;
	memcpy(rec->name, name, (size_t)nn);
	if (rec->kind == MQM_CHECK)
		return take_status(rec, rest, end, why);
	return take_text(rec, rest, end, why);
}

/* "end N": N in canonical decimal. */
static int parse_end(const char *line, size_t len, size_t *n)
{
	size_t v = 0;

	if (len < 5 || memcmp(line, "end ", 4) != 0)
		return -1;
	if (line[4] == '0' && len > 5)
		return -1;
	for (size_t i = 4; i < len; i++) {
		if (line[i] < '0' || line[i] > '9' || v > MQM_RECORDS_MAX)
			return -1;
		v = v * 10 + (size_t)(line[i] - '0');
	}
	*n = v;
	return 0;
}

static int fail_at(struct mqm_error *err, size_t line, const char *why)
{
	if (err) {
		err->line = line;
		err->why = why;
	}
	return -1;
}

int mqm_parse(const char *buf, size_t len, mqm_record_fn fn, void *arg, struct mqm_error *err)
{
	const char *p = buf, *end = buf + len;
	size_t lineno = 0, records = 0;
	struct mqm_record rec;
	const char *why;

	if (!buf || len == 0)
		return fail_at(err, 0, "no output");
	for (;;) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		lineno++;
		if (!nl)
			return fail_at(err, lineno, p == end ? "no end line" : "a line without its newline");
		size_t n = (size_t)(nl - p);
		if (n + 1 > MQM_LINE_MAX)
			return fail_at(err, lineno, "line too long");
		if (lineno == 1) {
			if (!is(p, n, MQM_HEADER))
				return fail_at(err, lineno, "not the header " MQM_HEADER);
		} else if (n >= 4 && memcmp(p, "end ", 4) == 0) {
			size_t want;
			if (parse_end(p, n, &want) != 0)
				return fail_at(err, lineno, "malformed end line");
			if (want != records)
				return fail_at(err, lineno, "the end line's count is not the number of records");
			if (nl + 1 != end)
				return fail_at(err, lineno + 1, "text after the end line");
			return 0;
		} else {
			if (++records > MQM_RECORDS_MAX)
				return fail_at(err, lineno, "too many records");
			if (mqm_parse_line(p, n, &rec, &why) != 0)
				return fail_at(err, lineno, why);
			int rc = fn ? fn(&rec, arg) : 0;
			if (rc)
				return rc;
		}
		p = nl + 1;
	}
}

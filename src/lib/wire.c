// SPDX-License-Identifier: GPL-2.0-or-later
/* The lines of the probe protocol: see wire.h. */
#include "wire.h"
#include "util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

char *aw_wire_line(char kind, const char *name, const char *status, const char *text)
{
	char *esc = text ? aw_escape(text) : NULL;
	char *line = name ? xasprintf("%c %s %s%s%s\n", kind, name, status, esc ? " " : "",
				      esc ? esc : "")
			  : xasprintf("%c %s\n", kind, esc ? esc : "");
	free(esc);
	return line;
}

/* The status word s (n bytes), as a constant, or NULL. */
static const char *status_word(const char *s, size_t n, char kind)
{
	static const char *const words[] = { "pass", "fail", "skip", "error" };
	for (size_t i = 0; i < AW_ARRAY_SIZE(words); i++)
		if (strlen(words[i]) == n && memcmp(s, words[i], n) == 0)
			/* an observation is made or not: it cannot fail */
			return kind == 'O' && i == 1 ? NULL : words[i];
	return NULL;
}

/* Escaped text of n bytes: raw control bytes are refused, since
 * aw_escape() never leaves one, nor a NUL. */
static char *text_of(const char *s, size_t n, const char **why)
{
	for (size_t i = 0; i < n; i++) {
		if ((unsigned char)s[i] < 0x20 || s[i] == 0x7f) {
			*why = "a control byte in the text (it must be escaped)";
			return NULL;
		}
	}
	char *raw = xasprintf("%.*s", (int)n, s), *text = aw_unescape(raw);
	free(raw);
	if (!text)
		*why = "a malformed escape in the text";
	return text;
}

/* After "C " or "O ": NAME STATUS[ TEXT]. */
static int parse_item(const char *p, const char *end, struct aw_wire *w, const char **why)
{
	const char *sp = memchr(p, ' ', (size_t)(end - p));
	if (!sp || sp == p) {
		*why = sp ? "an empty item name" : "an item without a status";
		return -1;
	}
	for (const char *c = p; c < sp; c++) {
		if ((unsigned char)*c < 0x21 || (unsigned char)*c > 0x7e) {
			*why = "an item name that is not printable ASCII";
			return -1;
		}
	}
	const char *st = sp + 1, *sp2 = memchr(st, ' ', (size_t)(end - st));
	w->status = status_word(st, (size_t)((sp2 ? sp2 : end) - st), w->kind);
	if (!w->status) {
		*why = w->kind == 'O' ? "an observation's status is pass, skip or error"
				      : "a check's status is pass, fail, skip or error";
		return -1;
	}
	if (sp2 && !(w->text = text_of(sp2 + 1, (size_t)(end - sp2 - 1), why)))
		return -1;
	w->name = xasprintf("%.*s", (int)(sp - p), p);
	return 0;
}

int aw_wire_parse(const char *line, size_t len, struct aw_wire *w, const char **why)
{
	const char *end = line + len;

	memset(w, 0, sizeof(*w));
	if (len < 2 || line[1] != ' ' || !line[0] || !strchr("CON", line[0])) {
		*why = "not a line of the protocol (C, O or N, then a space)";
		return -1;
	}
	w->kind = line[0];
	int rc = w->kind == 'N' ? ((w->text = text_of(line + 2, len - 2, why)) ? 0 : -1)
				: parse_item(line + 2, end, w, why);
	if (rc != 0)
		aw_wire_free(w);
	return rc;
}

void aw_wire_free(struct aw_wire *w)
{
	free(w->name);
	free(w->text);
	memset(w, 0, sizeof(*w));
}

/* ---- a helper's reports on stdout ---- */

static void out_line(char kind, const char *name, const char *status, const char *fmt,
		     va_list ap)
{
	char *text = fmt ? xvasprintf(fmt, ap) : NULL;
	char *line = aw_wire_line(kind, name, status, text);
	/* A lost line is an item the probe finds missing: nothing better to do. */
	(void)aw_write_all(STDOUT_FILENO, line, strlen(line));
	free(line);
	free(text);
}

#define AW_OUT_FN(fn, kind, status)                                \
	void fn(const char *name, const char *fmt, ...)            \
	{                                                          \
		va_list ap;                                        \
		va_start(ap, fmt);                                 \
		out_line(kind, name, status, fmt, ap);             \
		va_end(ap);                                        \
	}

AW_OUT_FN(aw_out_fail, 'C', "fail")
AW_OUT_FN(aw_out_skip, 'C', "skip")
AW_OUT_FN(aw_out_observe, 'O', "pass")
AW_OUT_FN(aw_out_unobserved, 'O', "skip")

void aw_out_pass(const char *check)
{
	char *line = aw_wire_line('C', check, "pass", NULL);
	(void)aw_write_all(STDOUT_FILENO, line, strlen(line));
	free(line);
}

bool aw_out_expect(const char *check, bool cond, const char *fmt, ...)
{
	va_list ap;
	if (cond) {
		aw_out_pass(check);
		return true;
	}
	va_start(ap, fmt);
	out_line('C', check, "fail", fmt, ap);
	va_end(ap);
	return false;
}

void aw_out_note(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	out_line('N', NULL, NULL, fmt, ap);
	va_end(ap);
}

void aw_helper_hello(int argc, char **argv)
{
	if (argc == 2 && strcmp(argv[1], "--hello") == 0)
		exit(puts(AW_HELPER_HELLO) < 0 || fflush(stdout) != 0);
}

// SPDX-License-Identifier: GPL-2.0-or-later
#include "protocol.h"
#include "lib/util.h"

#include <ctype.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A status a report may carry: timeout is the runner's to give. */
static int parse_status(const char *s, size_t len, enum aw_status *st)
{
	return aw_status_parse(s, len, st) == 0 && *st != AW_ST_TIMEOUT ? 0 : -1;
}

static int broken(struct aw_probe_result *r, const char *why, const char *line)
{
	char *esc = aw_escape(line);
	char *msg = xasprintf("protocol error: %s in '%.200s'", why, esc);
	aw_probe_result_note(r, msg);
	if (r->status == AW_ST_PASS || r->status == AW_ST_NONE) {
		r->status = AW_ST_ERROR;
		free(r->reason);
		r->reason = xstrdup(msg);
	}
	free(msg);
	free(esc);
	return -1;
}

static int apply_item(struct aw_probe_result *r, const char *line, enum aw_item_kind kind)
{
	const char *name = line + 2;
	const char *sp = strchr(name, ' ');
	if (!sp)
		return broken(r, "no status", line);

	char *item_name = strndup(name, (size_t)(sp - name));
	struct aw_item_result *it = aw_probe_result_item(r, item_name);
	free(item_name);
	if (!it)
		return broken(r, "undeclared item", line);
	if (it->item->kind != kind)
		return broken(r, "item reported as the wrong kind", line);

	const char *st_s = sp + 1;
	const char *sp2 = strchr(st_s, ' ');
	size_t st_len = sp2 ? (size_t)(sp2 - st_s) : strlen(st_s);
	enum aw_status st;
	if (parse_status(st_s, st_len, &st) != 0 ||
	    (kind == AW_OBSERVATION && st == AW_ST_FAIL))
		return broken(r, "bad status", line);

	char *text = sp2 ? aw_unescape(sp2 + 1) : NULL;
	if (sp2 && !text)
		return broken(r, "bad escape", line);
	aw_item_set(it, st, text);
	free(text);
	return 0;
}

/* A decimal number of 0 to 255 (exit statuses, signals), whole. */
static int parse_code(const char *s, int *code)
{
	char *end;
	long v = strtol(s, &end, 10);
	if (!isdigit((unsigned char)*s) || *end || v > 255)
		return -1;
	*code = (int)v;
	return 0;
}

/* "exit N" or "signal N", whole, into *end. */
static int parse_end(const char *s, struct aw_probe_end *end)
{
	static const struct { const char *word; enum aw_end_kind how; } kinds[] = {
		{ "exit ", AW_END_EXIT }, { "signal ", AW_END_SIGNAL },
	};
	for (size_t i = 0; i < AW_ARRAY_SIZE(kinds); i++) {
		size_t n = strlen(kinds[i].word);
		int code;
		if (strncmp(s, kinds[i].word, n) != 0 || parse_code(s + n, &code) != 0)
			continue;
		*end = (struct aw_probe_end){ kinds[i].how, code };
		return 0;
	}
	return -1;
}

/* How a probe ended, for people. */
static char *crash_reason(const struct aw_probe_end *end)
{
	if (end->how == AW_END_SIGNAL)
		return xasprintf("crashed: killed by signal %d (%s)", end->code, strsignal(end->code));
	return xasprintf("crashed: exited with status %d", end->code);
}

static int apply_exit(struct aw_probe_result *r, const char *line)
{
	if (parse_end(line + 2, &r->end) != 0)
		return broken(r, "bad exit line", line);
	if (r->end.how == AW_END_EXIT && r->end.code == 0) {
		/* A protocol error earlier still stands. */
		if (r->status == AW_ST_NONE)
			r->status = AW_ST_PASS;
		return 0;
	}
	free(r->reason);
	r->reason = crash_reason(&r->end);
	r->status = AW_ST_ERROR;
	return 0;
}

int aw_protocol_apply(struct aw_probe_result *r, const char *line)
{
	if (strlen(line) < 2 || line[1] != ' ')
		return broken(r, "malformed line", line);
	switch (line[0]) {
	case 'C':
		return apply_item(r, line, AW_CHECK);
	case 'O':
		return apply_item(r, line, AW_OBSERVATION);
	case 'N': {
		char *text = aw_unescape(line + 2);
		if (!text)
			return broken(r, "bad escape", line);
		aw_probe_result_note(r, text);
		free(text);
		return 0;
	}
	case 'X':
		return apply_exit(r, line);
	}
	return broken(r, "unknown line type", line);
}

// SPDX-License-Identifier: GPL-2.0-or-later
#include "protocol.h"
#include "util.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int parse_status(const char *s, size_t len, enum aw_status *st)
{
	static const enum aw_status all[] = { AW_ST_PASS, AW_ST_FAIL, AW_ST_SKIP, AW_ST_ERROR };
	for (size_t i = 0; i < AW_ARRAY_SIZE(all); i++) {
		const char *name = aw_status_name(all[i]);
		if (strlen(name) == len && strncmp(s, name, len) == 0) {
			*st = all[i];
			return 0;
		}
	}
	return -1;
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

static int apply_exit(struct aw_probe_result *r, const char *line)
{
	char how[16];
	int num;
	if (sscanf(line + 2, "%15s %d", how, &num) != 2)
		return broken(r, "bad exit line", line);
	if (strcmp(how, "exit") == 0 && num == 0) {
		/* A protocol error earlier still stands. */
		if (r->status == AW_ST_NONE)
			r->status = AW_ST_PASS;
		return 0;
	}
	free(r->reason);
	if (strcmp(how, "signal") == 0)
		r->reason = xasprintf("crashed: killed by signal %d (%s)", num, strsignal(num));
	else
		r->reason = xasprintf("crashed: exited with status %d", num);
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

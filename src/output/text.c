// SPDX-License-Identifier: GPL-2.0-or-later
/* Output for people reading a terminal. */
#include "output.h"
#include "lib/util.h"

static const char *mark(enum aw_status st)
{
	switch (st) {
	case AW_ST_PASS: return "PASS";
	case AW_ST_FAIL: return "FAIL";
	case AW_ST_SKIP: return "SKIP";
	case AW_ST_TIMEOUT: return "TIME";
	case AW_ST_ERROR:
	case AW_ST_NONE: break;
	}
	return "ERR ";
}

/* A text from a probe or the user (a path with a newline in it) must stay
 * on its line: control characters are shown as \n or \xHH. */
static void put_text(FILE *out, const char *s)
{
	for (; s && *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (c == '\n')
			fputs("\\n", out);
		else if (c < 0x20 || c == 0x7f)
			fprintf(out, "\\x%02x", c);
		else
			fputc(c, out);
	}
}

static void totals_line(FILE *out, const struct aw_run *run)
{
	struct aw_totals t = aw_run_totals(run);
	fprintf(out, "%zu checks passed, %zu failed, %zu skipped, %zu errors; %zu observations made\n",
		t.pass, t.fail, t.skip, t.error, t.observed);
}

static void probe_report(FILE *out, const struct aw_probe_result *r, bool everything)
{
	if (r->status != AW_ST_PASS) {
		fprintf(out, "%s %s: ", mark(r->status), r->fullname);
		put_text(out, r->reason);
		fputc('\n', out);
	}
	if (everything || r->status != AW_ST_PASS)
		for (size_t i = 0; i < r->nnotes; i++) {
			fputs("     note: ", out);
			put_text(out, r->notes[i]);
			fputc('\n', out);
		}
	for (size_t i = 0; i < r->nitems; i++) {
		const struct aw_item_result *it = &r->items[i];
		bool obs = it->item->kind == AW_OBSERVATION;
		/* A skipped probe's items share its reason: said once above. */
		if (r->status == AW_ST_SKIP || (!everything && it->status == AW_ST_PASS))
			continue;
		if (obs && it->status == AW_ST_PASS)
			fprintf(out, "     %s = ", it->fullname);
		else
			fprintf(out, "%s %s%s", mark(it->status), it->fullname, it->text ? ": " : "");
		put_text(out, it->text);
		fputc('\n', out);
	}
}

void aw_text_report(FILE *out, const struct aw_run *run)
{
	fprintf(out, "abiwatch %s on Linux %s (%s)\n",
		aw_env_get(&run->env, "abiwatch.version"),
		aw_env_get(&run->env, "kernel.release"), aw_env_get(&run->env, "arch"));
	for (size_t p = 0; p < run->nprobes; p++) {
		const struct aw_probe_result *r = &run->probes[p];
		fprintf(out, "\n%s  ", r->fullname);
		put_text(out, r->ref.probe->summary);
		fprintf(out, " (%.3f s)\n", r->seconds);
		probe_report(out, r, true);
	}
	fputc('\n', out);
	totals_line(out, run);
}

void aw_text_summary(FILE *out, const struct aw_run *run)
{
	for (size_t p = 0; p < run->nprobes; p++)
		probe_report(out, &run->probes[p], false);
	totals_line(out, run);
}

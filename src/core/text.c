// SPDX-License-Identifier: GPL-2.0-or-later
/* Output for people reading a terminal. */
#include "output.h"
#include "util.h"

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

static void totals_line(FILE *out, const struct aw_run *run)
{
	struct aw_totals t = aw_run_totals(run);
	fprintf(out, "%zu checks passed, %zu failed, %zu skipped, %zu errors; %zu observations made\n",
		t.pass, t.fail, t.skip, t.error, t.observed);
}

static void probe_report(FILE *out, const struct aw_probe_result *r, bool everything)
{
	if (r->status != AW_ST_PASS)
		fprintf(out, "%s %s: %s\n", mark(r->status), r->fullname,
			r->reason ? r->reason : "");
	if (everything || r->status != AW_ST_PASS)
		for (size_t i = 0; i < r->nnotes; i++)
			fprintf(out, "     note: %s\n", r->notes[i]);
	for (size_t i = 0; i < r->nitems; i++) {
		const struct aw_item_result *it = &r->items[i];
		bool obs = it->item->kind == AW_OBSERVATION;
		/* A skipped probe's items share its reason: said once above. */
		if (r->status == AW_ST_SKIP || (!everything && it->status == AW_ST_PASS))
			continue;
		if (obs && it->status == AW_ST_PASS)
			fprintf(out, "     %s = %s\n", it->fullname, it->text ? it->text : "");
		else
			fprintf(out, "%s %s%s%s\n", mark(it->status), it->fullname,
				it->text ? ": " : "", it->text ? it->text : "");
	}
}

void aw_text_report(FILE *out, const struct aw_run *run)
{
	fprintf(out, "abiwatch %s on Linux %s (%s)\n",
		aw_env_get(&run->env, "abiwatch.version"),
		aw_env_get(&run->env, "kernel.release"), aw_env_get(&run->env, "arch"));
	for (size_t p = 0; p < run->nprobes; p++) {
		const struct aw_probe_result *r = &run->probes[p];
		fprintf(out, "\n%s  %s (%.3f s)\n", r->fullname, r->ref.probe->summary, r->seconds);
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

// SPDX-License-Identifier: GPL-2.0-or-later
/* Output for people reading a terminal. */
#include "output.h"
#include "core/status.h"
#include "lib/util.h"

#include <stdlib.h>
#include <string.h>

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

/* Skips counted by the cause their reason names ("needs i386: ..."),
 * the rest as "other". */
struct skip_cause {
	char cause[AW_CAUSE_MAX];
	size_t n;
};

static void count_skip(struct skip_cause **causes, size_t *n, const char *reason)
{
	char cause[AW_CAUSE_MAX];
	const char *why;
	if (!aw_reason_cause(reason, cause, &why))
		snprintf(cause, sizeof(cause), "other");
	for (size_t i = 0; i < *n; i++) {
		if (strcmp((*causes)[i].cause, cause) == 0) {
			(*causes)[i].n++;
			return;
		}
	}
	*causes = xgrow(*causes, *n, sizeof(**causes));
	snprintf((*causes)[*n].cause, sizeof((*causes)[*n].cause), "%s", cause);
	(*causes)[(*n)++].n = 1;
}

static int by_count(const void *a, const void *b)
{
	const struct skip_cause *x = a, *y = b;
	if (x->n != y->n)
		return x->n > y->n ? -1 : 1;
	return strcmp(x->cause, y->cause);
}

/* "skipped by cause: i386 120, vm 40, other 3": one line for what would
 * otherwise be hundreds of SKIP lines. */
static void skip_causes_line(FILE *out, const struct aw_run *run)
{
	struct skip_cause *causes = NULL;
	size_t n = 0;
	for (size_t p = 0; p < run->nprobes; p++) {
		/* Item by item, as the totals count skips (a skipped probe's
		 * items carry its reason). */
		const struct aw_probe_result *r = &run->probes[p];
		for (size_t i = 0; i < r->nitems; i++)
			if (r->items[i].status == AW_ST_SKIP)
				count_skip(&causes, &n, r->items[i].text ? r->items[i].text : r->reason);
	}
	if (n) {
		qsort(causes, n, sizeof(*causes), by_count);
		fputs("skipped by cause:", out);
		for (size_t i = 0; i < n; i++)
			fprintf(out, "%s %s %zu", i ? "," : "", causes[i].cause, causes[i].n);
		fputs(" (-v lists each)\n", out);
	}
	free(causes);
}

/* What is not a pass or a skip: failures, errors, time-outs. */
static void failures_report(FILE *out, const struct aw_probe_result *r)
{
	if (r->status != AW_ST_PASS && r->status != AW_ST_SKIP) {
		fprintf(out, "%s %s: ", mark(r->status), r->fullname);
		put_text(out, r->reason);
		fputc('\n', out);
	}
	if (r->status == AW_ST_SKIP)
		return;
	for (size_t i = 0; i < r->nitems; i++) {
		const struct aw_item_result *it = &r->items[i];
		if (it->status == AW_ST_PASS || it->status == AW_ST_SKIP)
			continue;
		fprintf(out, "%s %s%s", mark(it->status), it->fullname, it->text ? ": " : "");
		put_text(out, it->text);
		fputc('\n', out);
	}
}

void aw_text_summary(FILE *out, const struct aw_run *run, bool verbose)
{
	for (size_t p = 0; p < run->nprobes; p++) {
		if (verbose)
			probe_report(out, &run->probes[p], false);
		else
			failures_report(out, &run->probes[p]);
	}
	if (!verbose)
		skip_causes_line(out, run);
}

void aw_text_summary_line(FILE *out, const char *cmd, const struct aw_run *run,
			  const char *snapshot)
{
	struct aw_totals t = aw_run_totals(run);
	fprintf(out, "abiwatch %s: %zu checks passed, %zu failed, %zu skipped, %zu errors; "
		"%zu observations; snapshot %s\n", cmd, t.pass, t.fail, t.skip, t.error,
		t.observed, snapshot);
}

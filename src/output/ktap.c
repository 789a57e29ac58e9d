// SPDX-License-Identifier: GPL-2.0-or-later
/* KTAP version 1 (Documentation/dev-tools/ktap.rst). */
#include "output.h"
#include "lib/util.h"

#include <stdlib.h>
#include <string.h>

/* '#' starts a directive in KTAP and a newline ends a line, so neither
 * may appear in a description or a reason. */
static char *ktap_safe(const char *s)
{
	char *out = aw_escape(s ? s : "");
	for (char *p = out; *p; p++)
		if (*p == '#')
			*p = '_';
	return out;
}

static void result_line(FILE *out, int depth, size_t no, enum aw_status st,
			const char *name, const char *reason)
{
	char *why = ktap_safe(reason);
	const char *ok = (st == AW_ST_PASS || st == AW_ST_SKIP) ? "ok" : "not ok";
	const char *directive = st == AW_ST_SKIP ? "SKIP"
				: st == AW_ST_TIMEOUT ? "TIMEOUT"
				: st == AW_ST_ERROR || st == AW_ST_NONE ? "ERROR" : NULL;
	fprintf(out, "%*s%s %zu %s", depth * 2, "", ok, no, name);
	if (directive)
		fprintf(out, " # %s%s%s", directive, *why ? " " : "", why);
	fputc('\n', out);
	free(why);
}

static void diag(FILE *out, int depth, const char *fmt_name, const char *text)
{
	char *safe = aw_escape(text ? text : "");
	fprintf(out, "%*s# %s%s\n", depth * 2, "", fmt_name, safe);
	free(safe);
}

static void time_line(FILE *out, int depth, double seconds)
{
	fprintf(out, "%*s# time: %.3f s\n", depth * 2, "", seconds);
}

static size_t family_probes(const struct aw_ktap *k, size_t from)
{
	size_t n = 0;
	while (from + n < k->nrefs && k->refs[from + n].family == k->refs[from].family)
		n++;
	return n;
}

static size_t family_count(const struct aw_probe_ref *refs, size_t n)
{
	size_t count = 0;
	for (size_t i = 0; i < n; i++)
		if (i == 0 || refs[i].family != refs[i - 1].family)
			count++;
	return count;
}

/* The top level says "TAP version 13", a version line KTAP accepts
 * (ktap.rst, "Version lines") and the one kselftest's runner writes: a
 * TAP13 reader (tappy) then finds its plan on line 2 and reads the
 * top-level results; nested blocks say "KTAP version 1". */
void aw_ktap_header(FILE *out, size_t tests)
{
	fprintf(out, "TAP version 13\n1..%zu\n", tests);
}

/* A nested block's head: version, "# Subtest: NAME" (which kunit.py
 * reads as the block's name and which must come before the plan: the
 * 6.1 parser takes nothing else there), plan, then its description. */
static void block_head(FILE *out, int depth, const char *name, size_t plan, const char *summary)
{
	fprintf(out, "%*sKTAP version 1\n", depth * 2, "");
	fprintf(out, "%*s# Subtest: %s\n", depth * 2, "", name);
	fprintf(out, "%*s1..%zu\n", depth * 2, "", plan);
	diag(out, depth, "", summary);
}

void aw_ktap_begin(struct aw_ktap *k, FILE *out, const struct aw_probe_ref *refs, size_t n)
{
	memset(k, 0, sizeof(*k));
	k->out = out;
	k->refs = refs;
	k->nrefs = n;
	aw_ktap_header(out, family_count(refs, n));
	fflush(out);
}

static size_t check_count(const struct aw_probe_result *r)
{
	size_t n = 0;
	for (size_t i = 0; i < r->nitems; i++)
		n += r->items[i].item->kind == AW_CHECK;
	return n;
}

/* An observation is a diagnostic, never a result: a parser counts no
 * pass for a value.  The value stays on the line for whoever keeps the
 * log (kselftest's runner, a LAVA job). */
static void observation_line(FILE *out, const struct aw_item_result *it)
{
	const char *how = it->status == AW_ST_PASS ? " = "
			  : it->status == AW_ST_SKIP ? " unobserved: " : " not observed: ";
	char *line = xasprintf("%s%s", it->fullname, how);
	diag(out, 2, line, it->text);
	free(line);
}

static void check_line(FILE *out, const struct aw_item_result *it, size_t no)
{
	if (it->status == AW_ST_FAIL) {
		char *line = xasprintf("%s: ", it->fullname);
		diag(out, 2, line, it->text);
		free(line);
	}
	result_line(out, 2, no, it->status, it->fullname, it->text);
}
/* A probe's line as KTAP sees it.  Its own end (skipped, crashed, timed
 * out) gives the directive; otherwise a bad item (a failed check, an
 * observation the probe broke on) makes it "not ok" and all items
 * skipped make it a skip. */
static enum aw_status probe_outcome(const struct aw_probe_result *r, const char **reason)
{
	bool any_done = false, any_bad = false;

	*reason = r->reason;
	if (r->status != AW_ST_PASS)
		return r->status;
	for (size_t i = 0; i < r->nitems; i++) {
		enum aw_status s = r->items[i].status;
		any_done |= s != AW_ST_SKIP;
		any_bad |= s != AW_ST_PASS && s != AW_ST_SKIP;
	}
	*reason = NULL;
	if (any_bad)
		return AW_ST_FAIL;
	if (!any_done && r->nitems) {
		*reason = r->items[0].text;
		return AW_ST_SKIP;
	}
	return AW_ST_PASS;
}

static void family_head(struct aw_ktap *k, const struct aw_probe_result *r)
{
	k->family_no++;
	k->probe_no = 0;
	k->family_status = AW_ST_SKIP;
	k->family_seconds = 0;
	block_head(k->out, 1, r->ref.family->name, family_probes(k, k->next), r->ref.family->summary);
}

/* A probe with checks is a block of them, its observations diagnostics
 * among them; a probe with none is one result (it ran to its end), its
 * observations the diagnostics before it: a block of 1..0 is "0 tests
 * run" to kunit.py, an error. */
static void probe_body(FILE *out, const struct aw_probe_result *r)
{
	size_t checks = check_count(r), no = 0;

	if (checks)
		block_head(out, 2, r->fullname, checks, r->ref.probe->summary);
	else
		diag(out, 2, "", r->ref.probe->summary);
	for (size_t i = 0; i < r->nnotes; i++)
		diag(out, 2, "", r->notes[i]);
	for (size_t i = 0; i < r->nitems; i++) {
		if (r->items[i].item->kind == AW_CHECK)
			check_line(out, &r->items[i], ++no);
		else
			observation_line(out, &r->items[i]);
	}
	/* Where a run's time goes, probe by probe and family by family, for
	 * whoever makes a run faster (a diagnostic: never in the snapshot,
	 * which holds only what the kernel decides). */
	time_line(out, 2, r->seconds);
}

void aw_ktap_probe(struct aw_ktap *k, const struct aw_probe_result *r)
{
	FILE *out = k->out;
	bool first_of_family = k->next == 0 || k->refs[k->next].family != k->refs[k->next - 1].family;

	if (first_of_family)
		family_head(k, r);
	probe_body(out, r);
	k->family_seconds += r->seconds;

	const char *reason;
	enum aw_status st = probe_outcome(r, &reason);
	result_line(out, 1, ++k->probe_no, st, r->fullname, reason);
	/* The family fails when a probe is not ok, and is skipped only when
	 * all its probes were. */
	if (st != AW_ST_SKIP)
		k->family_status = k->family_status == AW_ST_SKIP || st != AW_ST_PASS
				   ? (st == AW_ST_PASS ? AW_ST_PASS : AW_ST_FAIL) : k->family_status;

	k->next++;
	bool last_of_family = k->next == k->nrefs || k->refs[k->next].family != r->ref.family;
	if (last_of_family)
		time_line(out, 1, k->family_seconds);
	if (last_of_family)
		result_line(out, 0, k->family_no, k->family_status, r->ref.family->name,
			    k->family_status == AW_ST_SKIP ? "every probe was skipped" : NULL);
	fflush(out);
}

void aw_ktap_end(struct aw_ktap *k)
{
	fflush(k->out);
}

/* A family's result line is at depth 0 ("ok 3 fdio"); the line before it
 * is the family's time at depth 1 ("  # time: 1.272 s"). */
int aw_ktap_family_times(const char *path, struct aw_family_time **times, size_t *n)
{
	FILE *f = fopen(path, "re");
	if (!f)
		return -1;
	char *line = NULL, name[128];
	size_t cap = 0, no;
	double last = -1, s;
	*times = NULL;
	*n = 0;
	while (getline(&line, &cap, f) > 0) {
		if (strncmp(line, "  # time: ", 10) == 0 && sscanf(line + 10, "%lf", &s) == 1) {
			last = s;
			continue;
		}
		if (last >= 0 && (sscanf(line, "ok %zu %127s", &no, name) == 2 ||
				  sscanf(line, "not ok %zu %127s", &no, name) == 2)) {
			*times = xrealloc(*times, (*n + 1) * sizeof(**times));
			(*times)[*n].family = xstrdup(name);
			(*times)[(*n)++].seconds = last;
		}
		last = -1;
	}
	free(line);
	fclose(f);
	return 0;
}

void aw_family_times_free(struct aw_family_time *times, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(times[i].family);
	free(times);
}

// SPDX-License-Identifier: GPL-2.0-or-later
/* abiwatch check: does what a program assumes of the kernel still hold? */
#include "commands.h"
#include "model/assume.h"
#include "model/snapshot.h"
#include "core/registry.h"
#include "lib/util.h"

#include <json-c/json.h>
#include <stdlib.h>
#include <string.h>

static const char check_usage[] =
	"Usage: abiwatch check [OPTION...] ASSUMPTIONS [SNAPSHOT]\n"
	"Evaluate the rules of an assumptions file (abiwatch-assumptions(5)), what a\n"
	"program declares it relies on, against SNAPSHOT; without one, run just the\n"
	"probes the rules name (as 'abiwatch run' runs them) and evaluate against\n"
	"their results.  Each rule is held, broken, or unknown: what it names was\n"
	"not observed, and the reason is given.\n"
	"\n"
	"Options:\n"
	"  -f, --format FMT    text (default), ktap (held: ok, broken: not ok,\n"
	"                      unknown: SKIP with the reason) or json\n"
	"  -o, --output FILE   when running probes, also write their snapshot to FILE\n"
	"  -t, --timeout SEC   when running probes, the time limit of each, as for\n"
	"                      'abiwatch run'\n"
	"  -j, --jobs N        when running probes, up to N at a time, as for\n"
	"                      'abiwatch run'\n"
	"      --bisect-exit   exit as 'git bisect run' wants it: 0 every rule held,\n"
	"                      1 a rule is broken, 125 none is broken but some are\n"
	"                      unknown (this kernel cannot tell: skip it), 128 bad\n"
	"                      usage or input (the bisect stops)\n"
	"  -h, --help          show this help and exit\n"
	"Family options (below) choose what the probes work on, as for 'abiwatch run'.\n"
	"\n"
	"Exit status: 0 every rule held, 1 a rule is broken, 4 none is broken but\n"
	"some are unknown, 2 bad usage or input (a bad rule is named with its file,\n"
	"line and column).\n";

struct check_args {
	struct probe_command pc;
	const char *assumptions, *snapshot;
	bool bisect_exit; /* --bisect-exit: statuses as git bisect run wants them */
};

static const char *const formats[] = { "text", "ktap", "json", NULL };

/* 0 to go on, -1 after --help, else the usage status. */
static int parse_args(int argc, char **argv, struct check_args *a)
{
	int rc = probes_parse("check", argc, argv, check_usage, formats, &a->pc);
	if (rc != 0)
		return rc;
	int left = argc - optind;
	if (left < 1 || left > 2)
		return usage_error("check", "expected ASSUMPTIONS and at most one SNAPSHOT, got %d "
				   "argument%s", left, left == 1 ? "" : "s");
	a->assumptions = argv[optind];
	a->snapshot = left == 2 ? argv[optind + 1] : NULL;
	if (a->snapshot && (a->pc.output || a->pc.probe_options))
		return usage_error("check", "--output, --timeout, --jobs and family options are for running "
				   "probes, which a check against a snapshot does not");
	return 0;
}

/* Run what the rules need through run's own path, into snap. */
static int run_needed(struct check_args *a, const struct aw_assumptions *as,
		      struct aw_snapshot *snap)
{
	size_t n;
	struct aw_probe_ref *refs = aw_assume_probes(as, &n);
	int rc = probes_snapshot("check", &a->pc.probes, a->pc.output, &refs, &n, snap);
	free(refs);
	return rc;
}

/* ---- output ---- */

struct totals {
	size_t n[3]; /* by verdict */
};

/* "held", "broken", "unknown", or "unknown (i386)" when the machine
 * caused it (malloc'd). */
static char *verdict_words(const struct aw_rule_result *res)
{
	if (res->verdict == AW_UNKNOWN && res->cause)
		return xasprintf("unknown (%s)", res->cause);
	return xstrdup(aw_verdict_name(res->verdict));
}

static void text_rule(const char *file, const struct aw_rule *r, const struct aw_rule_result *res)
{
	char *message = aw_escape(r->message); /* one line, whatever it holds */
	char *verdict = verdict_words(res);
	printf("%-8s %s:%u: %s\n", verdict, file, r->line, r->condition);
	free(verdict);
	printf("%9s%s\n", "", message);
	free(message);
	for (size_t i = 0; i < res->ndetails; i++)
		printf("%9s%s\n", "", res->details[i]);
}

static void text_totals(const struct totals *t, size_t nrules)
{
	printf("%zu rule%s: %zu held, %zu broken, %zu unknown\n", nrules, nrules == 1 ? "" : "s",
	       t->n[AW_HELD], t->n[AW_BROKEN], t->n[AW_UNKNOWN]);
}

/* A KTAP name: the file's base name and the rule's line, space-free. */
static char *ktap_name(const char *file, unsigned line)
{
	const char *base = strrchr(file, '/') ? strrchr(file, '/') + 1 : file;
	char *name = xasprintf("%s:%u", base, line);
	for (char *c = name; *c; c++)
		if (*c == ' ' || *c == '#' || (unsigned char)*c < 0x21 || (unsigned char)*c > 0x7e)
			*c = '_';
	return name;
}

static void ktap_rule(const char *file, size_t no, const struct aw_rule *r,
		      const struct aw_rule_result *res)
{
	char *name = ktap_name(file, r->line), *message = aw_escape(r->message);
	printf("# %s:%u: %s\n# %s\n", file, r->line, r->condition, message);
	free(message);
	for (size_t i = 0; i < res->ndetails; i++)
		printf("# %s\n", res->details[i]);
	if (res->verdict == AW_HELD)
		printf("ok %zu %s\n", no, name);
	else if (res->verdict == AW_BROKEN)
		printf("not ok %zu %s\n", no, name);
	else
		printf("ok %zu %s # SKIP unknown%s%s%s: %s\n", no, name, res->cause ? " (" : "",
		       res->cause ? res->cause : "", res->cause ? ")" : "",
		       res->ndetails ? res->details[0] : "");
	free(name);
}

static json_object *rule_json(const struct aw_rule *r, const struct aw_rule_result *res)
{
	json_object *o = json_object_new_object(), *details = json_object_new_array();
	json_object_object_add(o, "line", json_object_new_int((int)r->line));
	json_object_object_add(o, "condition", json_object_new_string(r->condition));
	json_object_object_add(o, "message", json_object_new_string(r->message));
	json_object_object_add(o, "verdict", json_object_new_string(aw_verdict_name(res->verdict)));
	json_object_object_add(o, "cause", res->cause ? json_object_new_string(res->cause) : NULL);
	for (size_t i = 0; i < res->ndetails; i++)
		json_object_array_add(details, json_object_new_string(res->details[i]));
	json_object_object_add(o, "details", details);
	return o;
}

static int exit_status(const struct totals *t)
{
	return t->n[AW_BROKEN] ? AW_EXIT_FAIL : t->n[AW_UNKNOWN] ? AW_EXIT_SKIP : AW_EXIT_PASS;
}

static void json_report(const struct check_args *a, json_object *rules, const struct totals *t)
{
	json_object *root = json_object_new_object(), *tot = json_object_new_object();
	json_object_object_add(root, "format", json_object_new_string("abiwatch-check-1"));
	json_object_object_add(root, "assumptions", json_object_new_string(a->assumptions));
	json_object_object_add(root, "snapshot",
			       a->snapshot ? json_object_new_string(a->snapshot) : NULL);
	json_object_object_add(root, "rules", rules);
	for (int v = AW_HELD; v <= AW_UNKNOWN; v++)
		json_object_object_add(tot, aw_verdict_name((enum aw_verdict)v),
				       json_object_new_int64((int64_t)t->n[v]));
	json_object_object_add(root, "totals", tot);
	json_object_object_add(root, "exit_status", json_object_new_int(exit_status(t)));
	puts(json_object_to_json_string_ext(root, JSON_C_TO_STRING_PRETTY |
					    JSON_C_TO_STRING_NOSLASHESCAPE));
	json_object_put(root);
}

static int evaluate(const struct check_args *a, const struct aw_assumptions *as,
		    const struct aw_snapshot *snap)
{
	struct totals t = { { 0 } };
	json_object *rules = a->pc.format == FORMAT_JSON ? json_object_new_array() : NULL;

	if (a->pc.format == FORMAT_KTAP)
		printf("KTAP version 1\n1..%zu\n", as->n);
	for (size_t i = 0; i < as->n; i++) {
		struct aw_rule_result res;
		aw_rule_eval(&as->rules[i], snap, &res);
		t.n[res.verdict]++;
		if (a->pc.format == FORMAT_TEXT)
			text_rule(a->assumptions, &as->rules[i], &res);
		else if (a->pc.format == FORMAT_KTAP)
			ktap_rule(a->assumptions, i + 1, &as->rules[i], &res);
		else
			json_object_array_add(rules, rule_json(&as->rules[i], &res));
		aw_rule_result_free(&res);
	}
	if (a->pc.format == FORMAT_TEXT)
		text_totals(&t, as->n);
	else if (a->pc.format == FORMAT_JSON)
		json_report(a, rules, &t);
	if (fflush(stdout) != 0 || ferror(stdout)) {
		perror("abiwatch check: writing the output");
		return AW_EXIT_USAGE;
	}
	return exit_status(&t);
}

static int fail_input(char *err)
{
	fprintf(stderr, "abiwatch check: %s\n", err);
	free(err);
	return AW_EXIT_USAGE;
}

static void free_check(void *opts)
{
	struct check_args *a = opts;
	aw_params_free(&a->pc.probes.params);
	free(a);
}

static int check(struct check_args *a)
{
	struct aw_assumptions as;
	struct aw_snapshot snap;
	char *err = NULL;
	int rc;

	if (aw_assume_load(a->assumptions, &as, &err) != 0)
		return fail_input(err);
	if (a->snapshot)
		rc = aw_snapshot_load(a->snapshot, &snap, &err) == 0 ? 0 : fail_input(err);
	else
		rc = run_needed(a, &as, &snap);
	if (rc == 0) {
		rc = evaluate(a, &as, &snap);
		aw_snapshot_free(&snap);
	}
	aw_assume_free(&as);
	return rc;
}

/* --bisect-exit changes what every exit status means, a usage error's
 * too, so it is taken out of argv before anything else is parsed. */
static bool take_bisect_exit(int *argc, char **argv)
{
	bool found = false;
	int n = 0;
	for (int i = 0; i < *argc; i++) {
		if (strcmp(argv[i], "--") == 0) {
			while (i < *argc)
				argv[n++] = argv[i++];
			break;
		}
		if (strcmp(argv[i], "--bisect-exit") == 0)
			found = true;
		else
			argv[n++] = argv[i];
	}
	*argc = n;
	argv[n] = NULL;
	return found;
}

/* git bisect run: 0 good, 1 bad, 125 skip, 128 and above stop. */
static int bisect_status(int rc)
{
	switch (rc) {
	case AW_EXIT_PASS: return 0;
	case AW_EXIT_FAIL: return 1;
	case AW_EXIT_SKIP: return 125;
	default: return 128;
	}
}

static int parse(int argc, char **argv, void **opts)
{
	struct check_args *a = xcalloc(1, sizeof(*a));
	a->pc.format = FORMAT_TEXT;
	a->bisect_exit = take_bisect_exit(&argc, argv);
	bool bisect = a->bisect_exit; /* a is freed when the parse fails */
	int rc = command_parsed(parse_args(argc, argv, a), a, free_check, opts);
	/* --bisect-exit maps a usage error too: 128 stops git bisect run. */
	return *opts || !bisect ? rc : bisect_status(rc);
}

static int run(void *opts)
{
	struct check_args *a = opts;
	int rc = check(a);
	if (a->bisect_exit)
		rc = bisect_status(rc);
	free_check(a);
	return rc;
}

const struct command check_command = {
	"check",
	"  check ASSUMPTIONS [SNAPSHOT]\n"
	"                  evaluate a program's declared assumptions against a\n"
	"                  snapshot, or against the probes they need, run now\n",
	parse, run,
};

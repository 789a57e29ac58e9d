// SPDX-License-Identifier: GPL-2.0-or-later
/* abiwatch check: does what a program assumes of the kernel still hold? */
#include "commands.h"
#include "model/assume.h"
#include "model/snapshot.h"
#include "output/format.h"
#include "core/registry.h"
#include "lib/util.h"

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

/* 0 to go on, -1 after --help, else the usage status. */
static int parse_args(int argc, char **argv, struct check_args *a)
{
	int rc = probes_parse("check", argc, argv, check_usage, AW_WRITES_CHECK, &a->pc);
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

/* Every rule evaluated, then written in the chosen format (output/). */
static int evaluate(const struct check_args *a, const struct aw_assumptions *as,
		    const struct aw_snapshot *snap)
{
	struct aw_rule_result *res = xcalloc(as->n + 1, sizeof(*res));
	struct aw_checked c = { .assumptions = a->assumptions, .snapshot = a->snapshot,
				.as = as, .results = res };
	for (size_t i = 0; i < as->n; i++) {
		aw_rule_eval(&as->rules[i], snap, &res[i]);
		c.totals[res[i].verdict]++;
	}
	c.exit_status = c.totals[AW_BROKEN] ? AW_EXIT_FAIL
			: c.totals[AW_UNKNOWN] ? AW_EXIT_SKIP : AW_EXIT_PASS;
	a->pc.format->check(stdout, &c);
	for (size_t i = 0; i < as->n; i++)
		aw_rule_result_free(&res[i]);
	free(res);
	if (fflush(stdout) != 0 || ferror(stdout)) {
		perror("abiwatch check: writing the output");
		return AW_EXIT_USAGE;
	}
	return c.exit_status;
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
	a->pc.format = aw_format_find("text", AW_WRITES_CHECK, NULL);
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

// SPDX-License-Identifier: GPL-2.0-or-later
/* abiwatch run: its command line, and the probe options check shares;
 * the run itself is session/run.c's. */
#include "commands.h"
#include "core/params.h"
#include "core/registry.h"
#include "lib/util.h"

#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char run_usage[] =
	"Usage: abiwatch run [OPTION...] [GLOB...]\n"
	"Run the probes that the globs select (all by default) and write what they\n"
	"found.  A glob selects a family, a probe or a check by its dotted name\n"
	"('mqueue', 'mqueue.noattr', 'mqueue.*.clamp'); one that selects nothing\n"
	"is an error.\n"
	"\n"
	"Each probe runs in a child of its own, in new PID, IPC and mount\n"
	"namespaces with a private /tmp, so nothing it does outlives it.\n"
	"\n"
	"Options:\n"
	"  -o, --output FILE   write the snapshot to FILE (default:\n"
	"                      abiwatch-RELEASE.snapshot in this directory)\n"
	"  -f, --format FMT    what stdout gets: ktap (default), text, json or\n"
	"                      kcidb (as 'abiwatch kcidb' of the snapshot)\n"
	"  -t, --timeout SEC   time limit for each probe, overriding its own\n"
	"                      (default: the probe's, else 10 s)\n"
	"  -j, --jobs N        run up to N probes at a time, but for those that\n"
	"                      must run alone (default 1; in a VM guest of\n"
	"                      'abiwatch vm', its number of CPUs)\n"
	"      --force         replace the snapshot FILE even when it holds probes\n"
	"                      this run does not select (refused without it)\n"
	"  -v, --verbose       on a terminal, list every skip with its reason\n"
	"                      (by default they are counted by cause)\n"
	"  -h, --help          show this help and exit\n"
	"\n"
	"A run ends with one line on stderr: the checks passed, failed and\n"
	"skipped, the observations, and the snapshot's path.  On a terminal,\n"
	"what failed and the skips by cause come before it.  Exit status as kselftest:\n"
	"0 all passed, 1 a check failed or a probe broke, 4 everything was\n"
	"skipped; 2 for bad usage.\n";

/* One getopt entry of a family option: its spelling is malloc'd. */
static void add_option(struct option **opts, size_t *n, char *spelling)
{
	*opts = xrealloc(*opts, (*n + 2) * sizeof(**opts));
	(*opts)[*n] = (struct option){ spelling, required_argument, NULL, FAMILY_OPT + (int)*n };
	(*n)++;
}

struct option *probes_option_table(const struct option *own, size_t nown)
{
	static const struct option timeout = { "timeout", required_argument, NULL, 't' };
	static const struct option jobs = { "jobs", required_argument, NULL, 'j' };
	const struct aw_family *const *fams;
	size_t nfam = aw_families(&fams), n = nown + 2;
	struct option *opts = xcalloc(n + 1, sizeof(*opts));

	memcpy(opts, own, nown * sizeof(*own));
	opts[nown] = timeout;
	opts[nown + 1] = jobs;
	for (size_t f = 0; f < nfam; f++)
		for (const struct aw_param *p = fams[f]->params; p && p->name; p++) {
			add_option(&opts, &n, aw_param_spelling(fams[f], p));
			if (p->alias)
				add_option(&opts, &n, xstrdup(p->alias));
		}
	memset(&opts[n], 0, sizeof(opts[n]));
	return opts;
}

void probes_option_table_free(struct option *opts)
{
	for (struct option *o = opts; o->name; o++)
		if (o->val >= FAMILY_OPT)
			free((char *)o->name);
	free(opts);
}

void probes_options_help(FILE *out)
{
	const struct aw_family *const *fams;
	size_t nfam = aw_families(&fams);

	for (size_t f = 0; f < nfam; f++) {
		if (!fams[f]->params || !fams[f]->params->name)
			continue;
		fprintf(out, "\nOptions of the %s family:\n", fams[f]->name);
		for (const struct aw_param *p = fams[f]->params; p->name; p++) {
			char *opt = aw_param_spelling(fams[f], p);
			char *left = xasprintf("--%s %s", opt, p->metavar);
			/* A long one gets a line of its own. */
			if (strlen(left) >= 22)
				fprintf(out, "      %s\n      %-22s%s\n", left, "", p->help);
			else
				fprintf(out, "      %-22s%s\n", left, p->help);
			if (p->alias)
				fprintf(out, "      %-22s(also --%s, its older spelling)\n", "", p->alias);
			free(left);
			free(opt);
		}
	}
}

int probes_option(const char *cmd, int c, const char *arg, const struct option *opts,
		  struct probe_options *po)
{
	char *why = NULL;
	if (c == 't')
		return parse_seconds(cmd, "--timeout", arg, &po->timeout_s);
	if (c == 'j')
		return parse_jobs(cmd, arg, &po->jobs);
	const char *spelling = opts[c - FAMILY_OPT].name;
	if (aw_params_add(&po->params, spelling, arg, &why) != 0) {
		int rc = usage_error(cmd, "--%s %s: %s", spelling, arg, why);
		free(why);
		return rc;
	}
	return 0;
}

/* The options of run and check but the probes' (check refuses -v, --force). */
static const struct option own[] = {
	{ "output", required_argument, NULL, 'o' },
	{ "format", required_argument, NULL, 'f' },
	{ "help", no_argument, NULL, 'h' },
	{ "verbose", no_argument, NULL, 'v' },
	{ "force", no_argument, NULL, 'F' },
};

int probes_parse(const char *cmd, int argc, char **argv, const char *usage,
		 enum aw_format_op op, struct probe_command *pc)
{
	struct option *opts = probes_option_table(own, AW_ARRAY_SIZE(own));
	bool is_run = strcmp(cmd, "run") == 0;
	int c, rc = 0;

	optind = 1;
	opterr = 0;
	while (rc == 0 && (c = getopt_long(argc, argv, is_run ? ":o:f:t:j:hv" : ":o:f:t:j:h",
					    opts, NULL)) != -1) {
		if (c == 'h') {
			fputs(usage, stdout);
			probes_options_help(stdout);
			rc = -1;
		} else if (c == ':') {
			rc = usage_error(cmd, "option '%s' needs a value", argv[optind - 1]);
		} else if (c == '?') {
			rc = usage_error(cmd, "unknown option '%s'", argv[optind - 1]);
		} else if ((c == 'v' || c == 'F') && !is_run) {
			rc = usage_error(cmd, "unknown option '%s'", argv[optind - 1]);
		} else if (c == 'v') {
			pc->verbose = true;
		} else if (c == 'F') {
			pc->force = true;
		} else if (c == 'o') {
			pc->output = optarg;
		} else if (c == 'f') {
			rc = parse_format(cmd, optarg, op, &pc->format);
		} else {
			pc->probe_options = true;
			rc = probes_option(cmd, c, optarg, opts, &pc->probes);
		}
	}
	probes_option_table_free(opts);
	return rc;
}

void run_args_peek(char *const *args, size_t n, struct aw_params *ps, char ***globs,
		   size_t *nglobs)
{
	struct option *opts = probes_option_table(own, AW_ARRAY_SIZE(own));
	/* A copy: getopt_long() moves the operands to the end. */
	char **argv = xcalloc(n + 2, sizeof(*argv));
	argv[0] = (char *)"run";
	memcpy(argv + 1, args, n * sizeof(*argv));
	int c;
	optind = 0; /* all of getopt afresh: vm's parse asked it to stop at an operand */
	opterr = 0;
	while ((c = getopt_long((int)n + 1, argv, ":o:f:t:j:hv", opts, NULL)) != -1) {
		char *why = NULL;
		if (c >= FAMILY_OPT && aw_params_add_elsewhere(ps, opts[c - FAMILY_OPT].name,
							       optarg, &why) != 0)
			free(why); /* the guest's run says what is wrong with it */
	}
	*nglobs = (size_t)((int)n + 1 - optind);
	*globs = xcalloc(*nglobs + 1, sizeof(**globs));
	memcpy(*globs, argv + optind, *nglobs * sizeof(**globs));
	free(argv);
	probes_option_table_free(opts);
}

int run_parse(int argc, char **argv, struct run_opts *a)
{
	int rc = probes_parse("run", argc, argv, run_usage, AW_WRITES_RUN, &a->pc);
	a->globs = argv + optind;
	a->nglobs = (size_t)(argc - optind);
	return rc;
}


static void free_run(void *opts)
{
	struct run_opts *a = opts;
	aw_params_free(&a->pc.probes.params);
	free(a);
}

static int parse(int argc, char **argv, void **opts)
{
	struct run_opts *a = xcalloc(1, sizeof(*a));
	a->pc.format = aw_format_find("ktap", AW_WRITES_RUN, NULL);
	return command_parsed(run_parse(argc, argv, a), a, free_run, opts);
}

static int run(void *opts)
{
	int rc = session_run(opts);
	free_run(opts);
	return rc;
}

const struct command run_command = {
	"run",
	"  run [GLOB...]   run the probes that the globs select (all by default),\n"
	"                  print KTAP and write a snapshot\n",
	parse, run,
};

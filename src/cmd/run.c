// SPDX-License-Identifier: GPL-2.0-or-later
/* abiwatch run: run probes, stream KTAP, write the snapshot. */
#include "commands.h"
#include "backends/backend.h"
#include "core/env.h"
#include "output/output.h"
#include "core/params.h"
#include "core/registry.h"
#include "core/runner.h"
#include "model/snapshot.h"
#include "lib/util.h"

#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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
	"  -h, --help          show this help and exit\n"
	"\n"
	"On a terminal, a summary also goes to stderr.  Exit status as kselftest:\n"
	"0 all passed, 1 a check failed or a probe broke, 4 everything was\n"
	"skipped; 2 for bad usage.\n";

struct run_args {
	struct probe_command pc;
	char *default_output;
	char **globs;
	size_t nglobs;
};

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

int probes_parse(const char *cmd, int argc, char **argv, const char *usage,
		 enum aw_format_op op, struct probe_command *pc)
{
	static const struct option own[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "format", required_argument, NULL, 'f' },
		{ "help", no_argument, NULL, 'h' },
	};
	struct option *opts = probes_option_table(own, AW_ARRAY_SIZE(own));
	int c, rc = 0;

	optind = 1;
	opterr = 0;
	while (rc == 0 && (c = getopt_long(argc, argv, ":o:f:t:j:h", opts, NULL)) != -1) {
		if (c == 'h') {
			fputs(usage, stdout);
			probes_options_help(stdout);
			rc = -1;
		} else if (c == ':') {
			rc = usage_error(cmd, "option '%s' needs a value", argv[optind - 1]);
		} else if (c == '?') {
			rc = usage_error(cmd, "unknown option '%s'", argv[optind - 1]);
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

/* 0 to go on, -1 after --help, else the usage status. */
static int parse_args(int argc, char **argv, struct run_args *a)
{
	int rc = probes_parse("run", argc, argv, run_usage, AW_WRITES_RUN, &a->pc);
	a->globs = argv + optind;
	a->nglobs = (size_t)(argc - optind);
	return rc;
}

static void stream_ktap(const struct aw_probe_result *r, void *arg)
{
	aw_ktap_probe(arg, r);
}

int probes_prepare(const char *cmd, struct probe_options *po, struct aw_probe_ref **refs,
		   size_t *nrefs, struct aw_run *run)
{
	char *why = NULL;
	if (aw_params_apply(&po->params, refs, nrefs, &why) != 0) {
		int rc = usage_error(cmd, "%s", why);
		free(why);
		return rc;
	}
	aw_env_collect(&run->env);
	/* The core knows no backend: which filesystems this machine can
	 * make is asked here, the way a probe's aw_fs_prepare() asks. */
	char *fs = aw_backends_usable();
	aw_env_set(&run->env, "fs", fs);
	free(fs);
	return 0;
}

void probes_execute(const struct probe_options *po, const struct aw_probe_ref *refs,
		    size_t nrefs, FILE *ktap_out, struct aw_run *run)
{
	struct aw_ktap ktap;
	struct aw_runner_opts opts = { .timeout_s = po->timeout_s, .jobs = po->jobs,
				       .budget_s = aw_guest_budget(), .params = &po->params };
	if (ktap_out) {
		aw_ktap_begin(&ktap, ktap_out, refs, nrefs);
		opts.probe_done = stream_ktap;
		opts.arg = &ktap;
	}
	aw_run_probes(refs, nrefs, &opts, run);
	if (ktap_out)
		aw_ktap_end(&ktap);
}

int probes_save(const char *cmd, const struct aw_run *run, const char *path)
{
	struct aw_snapshot snap;
	char *err = NULL;
	int rc = 0;
	aw_snapshot_from_run(run, &snap);
	if (aw_snapshot_save(&snap, path, &err) != 0) {
		fprintf(stderr, "abiwatch %s: %s\n", cmd, err);
		free(err);
		rc = AW_EXIT_USAGE;
	}
	aw_snapshot_free(&snap);
	return rc;
}

/* The registered probes the globs select.  A glob none of them matches may
 * name a probe an option makes (--path LABEL=DIR makes dirent.LABEL): it
 * goes to *later, to be checked once those exist. */
static void select_registered(const struct run_args *a, struct aw_probe_ref **refs, size_t *n,
			      char ***later, size_t *nlater)
{
	bool *hit = xcalloc(a->nglobs + 1, sizeof(*hit));
	aw_select_each(a->globs, a->nglobs, refs, n, hit);
	*later = xcalloc(a->nglobs + 1, sizeof(**later));
	*nlater = 0;
	for (size_t g = 0; g < a->nglobs; g++)
		if (!hit[g])
			(*later)[(*nlater)++] = a->globs[g];
	free(hit);
}

/* Each later-glob must select one of the probes the options made. */
static int check_later(char *const *later, size_t nlater, const struct aw_probe_ref *refs, size_t n)
{
	for (size_t g = 0; g < nlater; g++) {
		bool hit = false;
		for (size_t i = 0; i < n && !hit; i++)
			hit = aw_ref_selected(later[g], &refs[i]);
		if (!hit)
			return usage_error("run", "no probe matches '%s'", later[g]);
	}
	return 0;
}

int cmd_run(int argc, char **argv)
{
	struct run_args a = { .pc.format = aw_format_find("ktap", AW_WRITES_RUN, NULL) };
	struct aw_probe_ref *refs = NULL;
	size_t nrefs, nlater = 0;
	char **later = NULL;
	struct aw_run run = { 0 };
	int rc = parse_args(argc, argv, &a);

	if (rc != 0) {
		aw_params_free(&a.pc.probes.params);
		return rc < 0 ? AW_EXIT_PASS : rc;
	}
	select_registered(&a, &refs, &nrefs, &later, &nlater);
	if ((rc = probes_prepare("run", &a.pc.probes, &refs, &nrefs, &run)) != 0 ||
	    (rc = check_later(later, nlater, refs, nrefs)) != 0)
		goto out;
	if (!a.pc.output)
		a.pc.output = a.default_output =
			xasprintf("abiwatch-%s.snapshot", aw_env_get(&run.env, "kernel.release"));
	if ((rc = check_writable("run", "the snapshot", a.pc.output)) != 0)
		goto out;
	probes_execute(&a.pc.probes, refs, nrefs, a.pc.format->streams_run ? stdout : NULL, &run);
	if (a.pc.format->run)
		a.pc.format->run(stdout, &run);
	rc = aw_run_exit_status(&run);
	if (probes_save("run", &run, a.pc.output) != 0)
		rc = AW_EXIT_USAGE;
	/* The text report is that summary already. */
	if (isatty(STDERR_FILENO) && strcmp(a.pc.format->name, "text") != 0) {
		aw_text_summary(stderr, &run);
		fprintf(stderr, "snapshot: %s\n", a.pc.output);
	}
out:
	aw_params_free(&a.pc.probes.params);
	aw_run_free(&run);
	free(refs);
	free(later);
	free(a.default_output);
	return rc;
}

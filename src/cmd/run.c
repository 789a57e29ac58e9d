// SPDX-License-Identifier: GPL-2.0-or-later
/* abiwatch run: run probes, stream KTAP, write the snapshot. */
#include "commands.h"
#include "core/output.h"
#include "core/params.h"
#include "core/registry.h"
#include "core/runner.h"
#include "core/snapshot.h"
#include "core/util.h"

#include <errno.h>
#include <getopt.h>
#include <libgen.h>
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
	"  -f, --format FMT    what stdout gets: ktap (default), text or json\n"
	"  -t, --timeout SEC   time limit for each probe, overriding its own\n"
	"                      (default: the probe's, else 10 s)\n"
	"  -h, --help          show this help and exit\n"
	"\n"
	"On a terminal, a summary also goes to stderr.  Exit status as kselftest:\n"
	"0 all passed, 1 a check failed or a probe broke, 4 everything was\n"
	"skipped; 2 for bad usage.\n";

enum format { FORMAT_KTAP, FORMAT_TEXT, FORMAT_JSON };

struct run_args {
	const char *output;
	char *default_output;
	enum format format;
	double timeout_s;
	char **globs;
	size_t nglobs;
	struct aw_params params;
};

static int parse_format(const char *s, enum format *f)
{
	static const char *const names[] = { "ktap", "text", "json" };
	for (int i = 0; i < 3; i++) {
		if (strcmp(s, names[i]) == 0) {
			*f = (enum format)i;
			return 0;
		}
	}
	return -1;
}

static int parse_timeout(const char *s, double *out)
{
	char *end;
	errno = 0;
	double v = strtod(s, &end);
	if (errno || end == s || *end || !(v > 0) || v > 86400)
		return -1;
	*out = v;
	return 0;
}

/* Fail before running anything if the snapshot could not be written. */
static int check_output(const char *path)
{
	char *copy = xstrdup(path);
	const char *dir = dirname(copy);
	int rc = 0;
	if (access(dir, W_OK | X_OK) != 0 || (access(path, F_OK) == 0 && access(path, W_OK) != 0))
		rc = usage_error("run", "cannot write the snapshot '%s': %s", path, strerror(errno));
	free(copy);
	return rc;
}

/* The core's options plus every option a family declares; family
 * options get codes from FAMILY_OPT up, in table order. */
#define FAMILY_OPT 0x1000

static struct option *option_table(const struct aw_param ***params_out)
{
	static const struct option core[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "format", required_argument, NULL, 'f' },
		{ "timeout", required_argument, NULL, 't' },
		{ "help", no_argument, NULL, 'h' },
	};
	const struct aw_family *const *fams;
	size_t nfam = aw_families(&fams), n = AW_ARRAY_SIZE(core), np = 0;
	struct option *opts = xcalloc(n + 1, sizeof(*opts));
	const struct aw_param **params = NULL;

	memcpy(opts, core, sizeof(core));
	for (size_t f = 0; f < nfam; f++) {
		for (const struct aw_param *p = fams[f]->params; p && p->name; p++) {
			opts = xrealloc(opts, (n + 2) * sizeof(*opts));
			opts[n++] = (struct option){ p->name, required_argument, NULL,
						     FAMILY_OPT + (int)np };
			params = xrealloc(params, (np + 1) * sizeof(*params));
			params[np++] = p;
		}
	}
	memset(&opts[n], 0, sizeof(opts[n]));
	*params_out = params;
	return opts;
}

static void print_usage(void)
{
	const struct aw_family *const *fams;
	size_t nfam = aw_families(&fams);

	fputs(run_usage, stdout);
	for (size_t f = 0; f < nfam; f++) {
		if (!fams[f]->params || !fams[f]->params->name)
			continue;
		printf("\nOptions of the %s family:\n", fams[f]->name);
		for (const struct aw_param *p = fams[f]->params; p->name; p++) {
			char *left = xasprintf("--%s %s", p->name, p->metavar);
			printf("      %-22s%s\n", left, p->help);
			free(left);
		}
	}
}

static int parse_option(int c, struct run_args *a, const struct aw_param **params)
{
	char *why = NULL;
	switch (c) {
	case 'o':
		a->output = optarg;
		return 0;
	case 'f':
		if (parse_format(optarg, &a->format) != 0)
			return usage_error("run", "--format takes ktap, text or json, not '%s'", optarg);
		return 0;
	case 't':
		if (parse_timeout(optarg, &a->timeout_s) != 0)
			return usage_error("run", "--timeout takes seconds in (0, 86400], not '%s'", optarg);
		return 0;
	}
	if (aw_params_add(&a->params, params[c - FAMILY_OPT]->name, optarg, &why) != 0) {
		int rc = usage_error("run", "--%s %s: %s", params[c - FAMILY_OPT]->name, optarg, why);
		free(why);
		return rc;
	}
	return 0;
}

static int parse_args(int argc, char **argv, struct run_args *a)
{
	const struct aw_param **params;
	struct option *opts = option_table(&params);
	int c, rc = 0;

	optind = 1;
	opterr = 0;
	while (rc == 0 && (c = getopt_long(argc, argv, ":o:f:t:h", opts, NULL)) != -1) {
		if (c == 'h') {
			print_usage();
			rc = -1;
		} else if (c == ':') {
			rc = usage_error("run", "option '%s' needs a value", argv[optind - 1]);
		} else if (c == '?') {
			rc = usage_error("run", "unknown option '%s'", argv[optind - 1]);
		} else {
			rc = parse_option(c, a, params);
		}
	}
	free(opts);
	free(params);
	a->globs = argv + optind;
	a->nglobs = (size_t)(argc - optind);
	return rc;
}

static void stream_ktap(const struct aw_probe_result *r, void *arg)
{
	aw_ktap_probe(arg, r);
}

int cmd_run(int argc, char **argv)
{
	struct run_args a = { .format = FORMAT_KTAP };
	struct aw_probe_ref *refs;
	size_t nrefs, unmatched;
	struct aw_run run = { 0 };
	char *why = NULL;
	int rc = parse_args(argc, argv, &a);

	if (rc != 0) {
		aw_params_free(&a.params);
		return rc < 0 ? AW_EXIT_PASS : rc;
	}
	if (aw_select(a.globs, a.nglobs, &refs, &nrefs, &unmatched) != 0) {
		aw_params_free(&a.params);
		return usage_error("run", "no probe matches '%s'",
				   a.globs[unmatched]);
	}
	if (aw_params_apply(&a.params, &refs, &nrefs, &why) != 0) {
		rc = usage_error("run", "%s", why);
		free(why);
		goto out;
	}
	aw_env_collect(&run.env);
	if (!a.output)
		a.output = a.default_output =
			xasprintf("abiwatch-%s.snapshot", aw_env_get(&run.env, "kernel.release"));
	if ((rc = check_output(a.output)) != 0)
		goto out;

	struct aw_ktap ktap;
	struct aw_runner_opts opts = { .timeout_s = a.timeout_s, .params = &a.params };
	if (a.format == FORMAT_KTAP) {
		aw_ktap_begin(&ktap, stdout, refs, nrefs);
		opts.probe_done = stream_ktap;
		opts.arg = &ktap;
	}
	aw_run_probes(refs, nrefs, &opts, &run);
	if (a.format == FORMAT_KTAP)
		aw_ktap_end(&ktap);
	else if (a.format == FORMAT_TEXT)
		aw_text_report(stdout, &run);
	else
		aw_json_report(stdout, &run);

	struct aw_snapshot snap;
	char *err = NULL;
	aw_snapshot_from_run(&run, &snap);
	rc = aw_run_exit_status(&run);
	if (aw_snapshot_save(&snap, a.output, &err) != 0) {
		fprintf(stderr, "abiwatch run: %s\n", err);
		free(err);
		rc = AW_EXIT_USAGE;
	}
	aw_snapshot_free(&snap);
	if (isatty(STDERR_FILENO) && a.format != FORMAT_TEXT) {
		aw_text_summary(stderr, &run);
		fprintf(stderr, "snapshot: %s\n", a.output);
	}
out:
	aw_params_free(&a.params);
	aw_run_free(&run);
	free(refs);
	free(a.default_output);
	return rc;
}

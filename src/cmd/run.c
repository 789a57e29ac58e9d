// SPDX-License-Identifier: GPL-2.0-or-later
/* abiwatch run: run probes, stream KTAP, write the snapshot. */
#include "commands.h"
#include "core/output.h"
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

static int parse_args(int argc, char **argv, struct run_args *a)
{
	static const struct option opts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "format", required_argument, NULL, 'f' },
		{ "timeout", required_argument, NULL, 't' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "+:o:f:t:h", opts, NULL)) != -1) {
		switch (c) {
		case 'o':
			a->output = optarg;
			break;
		case 'f':
			if (parse_format(optarg, &a->format) != 0)
				return usage_error("run", "--format takes ktap, text or json, not '%s'", optarg);
			break;
		case 't':
			if (parse_timeout(optarg, &a->timeout_s) != 0)
				return usage_error("run", "--timeout takes seconds in (0, 86400], not '%s'", optarg);
			break;
		case 'h':
			fputs(run_usage, stdout);
			exit(AW_EXIT_PASS);
		case ':':
			return usage_error("run", "option '%s' needs a value", argv[optind - 1]);
		default:
			return usage_error("run", "unknown option '%s'", argv[optind - 1]);
		}
	}
	a->globs = argv + optind;
	a->nglobs = (size_t)(argc - optind);
	return 0;
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
	int rc = parse_args(argc, argv, &a);

	if (rc != 0)
		return rc;
	if (aw_select(a.globs, a.nglobs, &refs, &nrefs, &unmatched) != 0)
		return usage_error("run", "no probe matches '%s' (see 'abiwatch list')",
				   a.globs[unmatched]);
	aw_env_collect(&run.env);
	if (!a.output)
		a.output = a.default_output =
			xasprintf("abiwatch-%s.snapshot", aw_env_get(&run.env, "kernel.release"));
	if ((rc = check_output(a.output)) != 0)
		goto out;

	struct aw_ktap ktap;
	struct aw_runner_opts opts = { .timeout_s = a.timeout_s };
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
	aw_run_free(&run);
	free(refs);
	free(a.default_output);
	return rc;
}

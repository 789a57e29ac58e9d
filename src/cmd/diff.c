// SPDX-License-Identifier: GPL-2.0-or-later
/* abiwatch diff: what changed between two snapshots, and what it means. */
#include "commands.h"
#include "model/diff.h"
#include "lib/util.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char diff_usage[] =
	"Usage: abiwatch diff [OPTION...] OLD NEW\n"
	"Compare two snapshots (abiwatch-snapshot(5)) and say what the kernel\n"
	"changed that programs can see.  The first line sums it up: kernel\n"
	"changes (counted by object) and new failures, per family its behaviour\n"
	"changes and the interfaces that appeared and vanished, and the items\n"
	"that could not be compared because one side's machine lacked something\n"
	"(i386 programs, a capability, user namespaces, a filesystem, a VM, the\n"
	"kernel's configuration file), counted by that cause.  Then the kernel\n"
	"changes, one line per object (a knob's mode, value and write-back; a\n"
	"probe's items that moved together) with what it means for programs:\n"
	"first those whose catalogue entry names a consequence, new failures and\n"
	"interfaces that vanished, then other behaviour changes.  Then the\n"
	"interfaces that appeared (from absent to a value), a wrapped line of\n"
	"names per family.  Then what could not be compared, one line per cause\n"
	"with the first names, and last the environment's differences.  Snapshots\n"
	"of different minor versions of one format are compared, and the output\n"
	"says so.\n"
	"\n"
	"Options:\n"
	"  -I, --ignore GLOB   leave out keys the glob selects: a name as 'run' takes\n"
	"                      it ('mqueue.rlimit' and everything below it) or a\n"
	"                      whole key ('obs.*', 'env.kernel.version'); repeatable\n"
	"  -f, --format FMT    text (default), ktap (a result per kernel change,\n"
	"                      not ok when it fails --fail-on, an ok SKIP per\n"
	"                      change the environment explains) or json\n"
	"                      (changes, objects and ranks)\n"
	"      --fail-on WHAT  which kernel changes fail (exit 1; not ok in KTAP):\n"
	"                      breaking (default: every change but interfaces that\n"
	"                      appeared and checks that now pass), any, or none\n"
	"  -v, --verbose       list each change below its object, each interface\n"
	"                      that appeared, every item that could not be\n"
	"                      compared, and the environment's values whole\n"
	"  -h, --help          show this help and exit\n"
	"\n"
	"Exit status as diff(1), for the kernel: 0 no kernel change that fails\n"
	"(--fail-on; the environments may differ), 1 kernel changes that fail,\n"
	"2 trouble (bad usage, a file that cannot be read or is not a snapshot,\n"
	"named with its line).\n";

struct diff_args {
	const struct aw_format *format;
	enum aw_diff_gate fail_on;
	bool verbose;
	char **ignore;
	size_t nignore;
	const char *old_path, *new_path;
};

/* 0 to go on, -1 after --help, else the usage status. */
static int parse_args(int argc, char **argv, struct diff_args *a)
{
	static const struct option opts[] = {
		{ "ignore", required_argument, NULL, 'I' },
		{ "format", required_argument, NULL, 'f' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "fail-on", required_argument, NULL, 'F' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":I:f:vh", opts, NULL)) != -1) {
		if (c == 'h') {
			fputs(diff_usage, stdout);
			return -1;
		} else if (c == ':') {
			return usage_error("diff", "option '%s' needs a value", argv[optind - 1]);
		} else if (c == '?') {
			return usage_error("diff", "unknown option '%s'", argv[optind - 1]);
		} else if (c == 'f' && parse_format("diff", optarg, AW_WRITES_DIFF, &a->format) != 0) {
			return AW_EXIT_USAGE;
		} else if (c == 'F' && aw_diff_gate_parse(optarg, &a->fail_on) != 0) {
			return usage_error("diff", "--fail-on takes breaking, any or none, not '%s'", optarg);
		} else if (c == 'v') {
			a->verbose = true;
		} else if (c == 'I') {
			a->ignore = xgrow(a->ignore, a->nignore, sizeof(*a->ignore));
			a->ignore[a->nignore++] = optarg;
		}
	}
	if (argc - optind != 2)
		return usage_error("diff", "two snapshots are needed, OLD and NEW; got %d", argc - optind);
	a->old_path = argv[optind];
	a->new_path = argv[optind + 1];
	return 0;
}

static int load(const char *path, struct aw_snapshot *s)
{
	char *err = NULL;
	if (aw_snapshot_load(path, s, &err) == 0)
		return 0;
	fprintf(stderr, "abiwatch diff: %s\n", err);
	free(err);
	return -1;
}

static int compare(const struct diff_args *a, const struct aw_snapshot *old,
		   const struct aw_snapshot *new)
{
	struct aw_diff_opts opts = { .ignore = a->ignore, .nignore = a->nignore, .fail_on = a->fail_on };
	struct aw_diff d;
	int rc;

	aw_diff_compute(old, new, &opts, &d);
	a->format->diff(stdout, &d, a->old_path, a->new_path, a->verbose);
	rc = aw_diff_fails(&d) ? AW_EXIT_FAIL : AW_EXIT_PASS;
	aw_diff_free(&d);
	if (fflush(stdout) != 0 || ferror(stdout)) {
		perror("abiwatch diff: writing the output");
		rc = AW_EXIT_USAGE;
	}
	return rc;
}

static void free_diff(void *opts)
{
	struct diff_args *a = opts;
	free(a->ignore);
	free(a);
}

static int parse(int argc, char **argv, void **opts)
{
	struct diff_args *a = xcalloc(1, sizeof(*a));
	a->format = aw_format_find("text", AW_WRITES_DIFF, NULL);
	return command_parsed(parse_args(argc, argv, a), a, free_diff, opts);
}

static int run(void *opts)
{
	struct diff_args *a = opts;
	struct aw_snapshot old, new;
	int rc = AW_EXIT_USAGE;
	if (load(a->old_path, &old) == 0) {
		if (load(a->new_path, &new) == 0) {
			rc = compare(a, &old, &new);
			aw_snapshot_free(&new);
		}
		aw_snapshot_free(&old);
	}
	free_diff(a);
	return rc;
}

const struct command diff_command = {
	"diff",
	"  diff OLD NEW    compare two snapshots: what changed, and what it means\n",
	parse, run,
};

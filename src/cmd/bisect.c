// SPDX-License-Identifier: GPL-2.0-or-later
/* abiwatch bisect: from "this changed between two kernels" to the kernel,
 * or the commit, that changed it.  This is its command line; the search is
 * session/bisect.c's. */
#include "commands.h"
#include "guest_options.h"
#include "vm_commands.h"
#include "session/bisect.h"
#include "lib/util.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char bisect_usage[] =
	"Usage: abiwatch bisect (--item ITEM | --assume FILE) [OPTION...] KERNEL...\n"
	"       abiwatch bisect (--item ITEM | --assume FILE) --git DIR --good REV --bad REV\n"
	"                       (--config FILE | --build CMD) [OPTION...]\n"
	"Find the first kernel, or the first commit, where the answer to a question\n"
	"changed.  The question is an item of the catalogue (a check's status, an\n"
	"observation's value: the answer at the first kernel is the good one) or an\n"
	"assumptions file (held or broken, as 'abiwatch check' decides).  Each kernel\n"
	"is booted in QEMU as 'abiwatch vm' does, running only the probes the\n"
	"question needs.\n"
	"\n"
	"KERNEL... (linux-image .debs, bzImages, BZIMAGE:MODULES_DIR) are put in\n"
	"version order (packages by their versions as dpkg orders them, the rest\n"
	"by release) and searched: the first is judged, the last is presumed\n"
	"changed until the search comes down to it, so that a change among n\n"
	"kernels costs about 1 + log2(n) boots.  A kernel that gives no answer\n"
	"(it did not boot, the item was skipped) is passed over, as git bisect\n"
	"skip does.\n"
	"\n"
	"With --git, 'git bisect run' is driven over the kernel tree DIR, one step\n"
	"per commit: build, boot, judge, answer 0 (as at GOOD), 1 (changed) or 125\n"
	"(did not build, did not boot, or no answer).  Both ends are judged first.\n"
	"The tree is left as it was found (git bisect reset), also when the bisect\n"
	"is interrupted; a bisect started again with the same DIR and output\n"
	"directory takes the snapshots it kept instead of building again.\n"
	"\n"
	"Options:\n"
	"      --item ITEM      the question: a check or observation, by its\n"
	"                       dotted name (abiwatch list -v) or its key as a\n"
	"                       snapshot writes it (obs.NAME, check.NAME)\n"
	"      --assume FILE    the question: an assumptions file\n"
	"  -o, --output DIR     keep snapshots, consoles and build logs here\n"
	"                       (default: abiwatch-bisect); a kernel or commit\n"
	"                       whose snapshot is here already is not booted again\n"
	"      --git DIR        bisect the commits of the kernel tree DIR\n"
	"      --good REV       a commit with the good answer (an ancestor of BAD)\n"
	"      --bad REV        a commit with the changed answer\n"
	"      --config FILE    build each commit with this configuration: make\n"
	"                       olddefconfig, bzImage (and modules when it has\n"
	"                       CONFIG_MODULES=y), out of the tree in DIR/build,\n"
	"                       with ccache when it is installed\n"
	"      --build CMD      build each commit with this shell command instead,\n"
	"                       run in the tree with ABIWATCH_BISECT_COMMIT set; its\n"
	"                       last line of output names the kernel (a .deb, a\n"
	"                       bzImage or BZIMAGE:MODULES_DIR); exit 125 or any\n"
	"                       failure: the commit does not build\n"
	"  -j, --jobs N         make -j N (default: the CPUs)\n";

/* Then aw_guest_options_help, then: */
static const char bisect_usage_more[] =
	"  -v, --verbose        show each guest's notes and summary\n"
	"  -q, --quiet          no progress on stderr\n"
	"  -h, --help           show this help and exit\n"
	"\n"
	"Exit status: 0 the first changed kernel or commit was found, 1 it was not\n"
	"(no change, or only a range: kernels in it gave no answer), 2 bad usage or\n"
	"input, found before anything is built or booted (an unknown item, a file\n"
	"that is not a kernel, a tree with uncommitted changes, a revision that\n"
	"does not resolve, GOOD not an ancestor of BAD; with --git also the same\n"
	"answer at both ends), 130 interrupted.\n";

enum {
	OPT_ITEM = 0x100, OPT_ASSUME, OPT_GIT, OPT_GOOD, OPT_BAD, OPT_CONFIG, OPT_BUILD,
	OPT_STEP,
};

static const struct option bisect_options[] = {
	{ "item", required_argument, NULL, OPT_ITEM },
	{ "assume", required_argument, NULL, OPT_ASSUME },
	{ "output", required_argument, NULL, 'o' },
	{ "git", required_argument, NULL, OPT_GIT },
	{ "good", required_argument, NULL, OPT_GOOD },
	{ "bad", required_argument, NULL, OPT_BAD },
	{ "config", required_argument, NULL, OPT_CONFIG },
	{ "build", required_argument, NULL, OPT_BUILD },
	{ "jobs", required_argument, NULL, 'j' },
	{ "step", required_argument, NULL, OPT_STEP }, /* git bisect run's, not for people */
	{ "verbose", no_argument, NULL, 'v' },
	{ "quiet", no_argument, NULL, 'q' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

/* ---- the command line ---- */

static int take_option(int opt, char *arg, struct bisect *b, const char **item,
		       const char **assume)
{
	switch (opt) {
	case OPT_ITEM: *item = arg; return 0;
	case OPT_ASSUME: *assume = arg; return 0;
	case 'o': b->out = arg; return 0;
	case OPT_GIT: b->git = arg; return 0;
	case OPT_GOOD: b->good = arg; return 0;
	case OPT_BAD: b->bad = arg; return 0;
	case OPT_CONFIG: b->config = arg; return 0;
	case OPT_BUILD: b->build = arg; return 0;
	case 'j': return parse_jobs("bisect", arg, &b->jobs);
	case OPT_STEP: b->step = arg; return 0;
	case 'v': b->verbose = true; return 0;
	case 'q': b->say.on = false; return 0;
	default: break;
	}
	int rc = aw_guest_option("bisect", opt, arg, &b->vm);
	return rc == AW_GUEST_NOT_MINE ? usage_error("bisect", "unknown option '%s'", arg) : rc;
}

/* What goes together: one question; --git with its revisions and one way
 * to build, and no kernels; kernels without them. */
static int check_combination(const struct bisect *b, const char *item, const char *assume,
			     int nkernels)
{
	if (!item == !assume)
		return usage_error("bisect", "give the question: --item ITEM or --assume FILE");
	if (!b->git) {
		if (b->good || b->bad || b->config || b->build || b->step)
			return usage_error("bisect", "--good, --bad, --config and --build go with "
					   "--git");
		if (nkernels < 2)
			return usage_error("bisect", "give at least two kernels to search (got %d)",
					   nkernels);
		return 0;
	}
	if (nkernels > 0)
		return usage_error("bisect", "with --git the kernels are built, not given "
				   "('%s')", b->argv[b->argc - nkernels]);
	if (!b->good || !b->bad)
		return usage_error("bisect", "--git needs --good REV and --bad REV");
	if (!b->config == !b->build)
		return usage_error("bisect", "--git needs one way to build: --config FILE "
				   "or --build CMD");
	if (b->config && access(b->config, R_OK) != 0)
		return usage_error("bisect", "--config %s: %s", b->config, strerror(errno));
	return 0;
}

static int load_question(struct bisect *b, const char *item, const char *assume)
{
	char *err = NULL;
	int rc = item ? aw_question_item(item, &b->q, &err)
		      : aw_question_assumptions(assume, &b->q, &err);
	if (rc != 0) {
		rc = usage_error("bisect", "%s", err);
		free(err);
	}
	return rc;
}

/* 0 to go on, -1 after --help, else the usage status; the kernels start
 * at optind. */
static int parse(int argc, char **argv, struct bisect *b)
{
	struct option *options = aw_guest_options_join(bisect_options);
	const char *item = NULL, *assume = NULL;
	int opt, rc = 0;
	optind = 1;
	opterr = 0;
	while (rc == 0 && (opt = getopt_long(argc, argv, ":o:j:vqh", options, NULL)) != -1) {
		if (opt == 'h') {
			fputs(bisect_usage, stdout);
			fputs(aw_guest_options_help, stdout);
			fputs(bisect_usage_more, stdout);
			rc = -1;
		} else if (opt == ':') {
			rc = usage_error("bisect", "option '%s' needs a value", argv[optind - 1]);
		} else if (opt == '?') {
			rc = usage_error("bisect", "unknown option '%s'", argv[optind - 1]);
		} else {
			rc = take_option(opt, optarg ? optarg : argv[optind - 1], b, &item, &assume);
		}
	}
	free(options);
	if (rc == 0)
		rc = check_combination(b, item, assume, argc - optind);
	if (rc == 0)
		rc = load_question(b, item, assume);
	return rc;
}

/* The options, and the kernels to search (none with --git). */
struct bisect_cmd {
	struct bisect b;
	char **kernels;
	size_t nkernels;
};

static void free_bisect(void *opts)
{
	struct bisect_cmd *c = opts;
	aw_question_free(&c->b.q);
	aw_guest_opts_free(&c->b.vm);
	free(c);
}

static int parse_bisect(int argc, char **argv, void **opts)
{
	struct bisect_cmd *c = xcalloc(1, sizeof(*c));
	c->b = (struct bisect){ .out = "abiwatch-bisect", .argc = argc, .argv = argv };
	aw_guest_opts_init(&c->b.vm);
	c->b.say = (struct aw_progress){ "abiwatch bisect", true };
	int rc = parse(argc, argv, &c->b);
	/* A step's bad usage must stop git bisect run, not read as "bad". */
	if (rc == AW_EXIT_USAGE && c->b.step)
		rc = 128;
	c->kernels = argv + optind;
	c->nkernels = (size_t)(argc - optind);
	return command_parsed(rc, c, free_bisect, opts);
}

static int run(void *opts)
{
	struct bisect_cmd *c = opts;
	int rc = session_bisect(&c->b, c->kernels, c->nkernels);
	free_bisect(c);
	return rc < 0 ? AW_EXIT_PASS : rc;
}

const struct command bisect_command = {
	"bisect",
	"  bisect (--item ITEM | --assume FILE) KERNEL... | --git DIR ...\n"
	"                  the first kernel, or commit, where the answer changed\n",
	parse_bisect, run,
};

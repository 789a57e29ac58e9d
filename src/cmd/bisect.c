// SPDX-License-Identifier: GPL-2.0-or-later
/* abiwatch bisect: from "this changed between two kernels" to the kernel,
 * or the commit, that changed it. */
#include "bisect.h"
#include "commands.h"
#include "guest_options.h"
#include "vm_commands.h"
#include "output/diff.h"
#include "lib/bisect.h"
#include "lib/util.h"

#include <errno.h>
#include <stdarg.h>
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
	"                       dotted name (abiwatch list -v)\n"
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

void bisect_say(const struct bisect *b, const char *fmt, ...)
{
	if (b->quiet)
		return;
	va_list ap;
	va_start(ap, fmt);
	fputs("abiwatch bisect: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
}

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
	case 'q': b->quiet = true; return 0;
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

/* ---- judging one kernel ---- */

/* A snapshot kept by an earlier run that can answer the question. */
bool bisect_kept(const struct bisect *b, const char *path, struct aw_snapshot *snap)
{
	char *err = NULL;
	if (access(path, F_OK) != 0)
		return false;
	if (aw_snapshot_load(path, snap, &err) != 0) {
		bisect_say(b, "%s: not taken (%s); booting again", path, err);
		free(err);
		return false;
	}
	if (aw_question_covered(&b->q, snap))
		return true;
	aw_snapshot_free(snap);
	return false;
}

static char *console_path(const char *snapshot_path)
{
	size_t n = strlen(snapshot_path);
	const char *ext = ".snapshot";
	if (n > strlen(ext) && strcmp(snapshot_path + n - strlen(ext), ext) == 0)
		n -= strlen(ext);
	return xasprintf("%.*s.console", (int)n, snapshot_path);
}

/* Boot k running the question's probes: the snapshot into snap (saved at
 * path), or why none came in a->value. */
static void boot(const struct bisect *b, const struct aw_kernel_spec *k, const char *path,
		 struct aw_snapshot *snap, struct aw_answer *a)
{
	struct aw_vm_opts o = b->vm;
	o.kernel = k->kernel;
	o.deb = k->deb;
	o.modules = k->modules;
	o.run_args = b->q.probes;
	o.nrun_args = b->q.nprobes;
	struct aw_vm_result r;
	char *err = NULL;
	aw_vm_run(&o, &r);
	if (b->verbose)
		for (size_t i = 0; i < r.nnotes; i++)
			fprintf(stderr, "abiwatch bisect: note: %s\n", r.notes[i]);
	char *summary = aw_vm_summary(&r);
	if (r.outcome == AW_VM_OK && r.has_snapshot) {
		*snap = r.snapshot;
		memset(&r.snapshot, 0, sizeof(r.snapshot));
		r.has_snapshot = false;
		if (aw_snapshot_save(snap, path, &err) != 0) {
			bisect_say(b, "%s", err); /* the answer stands; only its keeping failed */
			free(err);
		}
		if (b->verbose)
			bisect_say(b, "%s", summary);
	} else {
		char *console = console_path(path);
		if (r.console && aw_vm_write_text(console, r.console, r.console_len, &err) != 0) {
			bisect_say(b, "%s", err);
			free(err);
		}
		a->value = xasprintf("no answer: %s (console: %s)", summary, console);
		free(console);
	}
	free(summary);
	aw_vm_result_free(&r);
}

enum judged bisect_judge(const struct bisect *b, const struct aw_kernel_spec *k,
			 const char *label, const char *snapshot_path, struct aw_snapshot *snap,
			 struct aw_answer *a)
{
	memset(snap, 0, sizeof(*snap));
	memset(a, 0, sizeof(*a));
	if (bisect_kept(b, snapshot_path, snap)) {
		aw_question_answer(&b->q, snap, a);
		bisect_say(b, "%s: %s (kept from an earlier run: %s)", label, a->value,
			   snapshot_path);
		return JUDGED_KEPT;
	}
	double start = aw_now();
	bisect_say(b, "%s: booting %s", label, k->release);
	boot(b, k, snapshot_path, snap, a);
	if (!a->value)
		aw_question_answer(&b->q, snap, a);
	bisect_say(b, "%s: %s (%.1f s)", label, a->value, aw_now() - start);
	return JUDGED_BOOTED;
}

void bisect_print_diff(const struct aw_snapshot *before, const char *before_name,
		       const struct aw_snapshot *after, const char *after_name)
{
	struct aw_diff d;
	struct aw_diff_opts none = { 0 };
	aw_diff_compute(before, after, &none, &d);
	printf("\nWhat these probes saw change between the two:\n");
	aw_diff_text(stdout, &d, before_name, after_name, false);
	aw_diff_free(&d);
}

/* ---- a list of kernels ---- */

struct kernel {
	char *spec;
	struct aw_kernel_spec k;
	char *label;    /* its files' name in the output directory */
	char *snapshot; /* OUT/LABEL.snapshot */
	struct aw_snapshot snap;
	struct aw_answer answer;
	enum judged how;
	bool judged;
};

struct search {
	struct kernel *kernels;
	size_t n;
	unsigned booted, kept, unanswered;
};

static int read_kernels(char **specs, size_t n, struct search *s)
{
	s->kernels = xcalloc(n, sizeof(*s->kernels));
	s->n = n;
	for (size_t i = 0; i < n; i++) {
		char *err = NULL;
		s->kernels[i].spec = specs[i];
		if (aw_kernel_spec_parse(specs[i], true, &s->kernels[i].k, &err) != 0) {
			int rc = usage_error("bisect", "%s", err);
			free(err);
			return rc;
		}
	}
	return 0;
}

/* Version order, kernels of one version in the order given. */
static void order_kernels(struct search *s)
{
	for (size_t i = 1; i < s->n; i++)
		for (size_t j = i; j > 0 && aw_kernel_spec_cmp(&s->kernels[j - 1].k,
							       &s->kernels[j].k) > 0; j--) {
			struct kernel t = s->kernels[j];
			s->kernels[j] = s->kernels[j - 1];
			s->kernels[j - 1] = t;
		}
}

/* The file's name without .deb, made unique: the same list names the same
 * snapshots when the bisect is run again. */
static void label_kernels(struct search *s, const char *out)
{
	for (size_t i = 0; i < s->n; i++) {
		struct kernel *k = &s->kernels[i];
		const char *base = strrchr(k->spec, '/') ? strrchr(k->spec, '/') + 1 : k->spec;
		size_t len = strcspn(base, ":");
		if (len > 4 && strncmp(base + len - 4, ".deb", 4) == 0)
			len -= 4;
		k->label = xasprintf("%.*s", (int)len, base);
		for (unsigned dup = 2;; dup++) {
			bool clash = false;
			for (size_t j = 0; j < i && !clash; j++)
				clash = strcmp(s->kernels[j].label, k->label) == 0;
			if (!clash)
				break;
			free(k->label);
			k->label = xasprintf("%.*s-%u", (int)len, base, dup);
		}
		k->snapshot = xasprintf("%s/%s.snapshot", out, k->label);
	}
}

static void free_search(struct search *s)
{
	for (size_t i = 0; i < s->n; i++) {
		struct kernel *k = &s->kernels[i];
		aw_kernel_spec_free(&k->k);
		free(k->label);
		free(k->snapshot);
		aw_snapshot_free(&k->snap);
		aw_answer_free(&k->answer);
	}
	free(s->kernels);
}

static enum aw_bisect_mark judge_kernel(const struct bisect *b, struct search *s, size_t i)
{
	struct kernel *k = &s->kernels[i];
	char *label = xasprintf("[%zu/%zu] %s", i + 1, s->n, k->label);
	k->how = bisect_judge(b, &k->k, label, k->snapshot, &k->snap, &k->answer);
	k->judged = true;
	free(label);
	if (k->how == JUDGED_BOOTED)
		s->booted++;
	else
		s->kept++;
	if (!k->answer.known) {
		s->unanswered++;
		return AW_BISECT_SKIP;
	}
	if (i == 0)
		return AW_BISECT_GOOD;
	return aw_answer_same(&k->answer, &s->kernels[0].answer) ? AW_BISECT_GOOD : AW_BISECT_BAD;
}

static char *kernel_name(const struct search *s, size_t i)
{
	const struct kernel *k = &s->kernels[i];
	if (k->k.version)
		return xasprintf("kernel %zu of %zu, %s (%s, package %s)", i + 1, s->n, k->label,
				 k->k.release, k->k.version);
	return xasprintf("kernel %zu of %zu, %s (%s)", i + 1, s->n, k->label, k->k.release);
}

static void print_answer(const char *side, const struct search *s, size_t i)
{
	char *name = kernel_name(s, i);
	printf("  %-7s%s: %s\n", side, name, s->kernels[i].answer.value);
	if (s->kernels[i].answer.detail)
		printf("%s\n", s->kernels[i].answer.detail);
	free(name);
}

static void print_steps(const struct search *s, double seconds)
{
	unsigned judged = s->booted + s->kept;
	printf("%u of %zu kernels judged: %u booted, %u from kept snapshots, %u without an "
	       "answer; %.1f s\n", judged, s->n, s->booted, s->kept, s->unanswered, seconds);
}

static int report_search(const struct bisect *b, const struct search *s,
			 const struct aw_bisect_state *st, double seconds)
{
	char *what = aw_question_describe(&b->q);
	int rc = AW_EXIT_FAIL;
	switch (st->end) {
	case AW_BISECT_FOUND: {
		char *name = kernel_name(s, st->first_bad);
		printf("%s changed first in %s\n", what, name);
		free(name);
		print_answer("before", s, st->last_good);
		print_answer("after", s, st->first_bad);
		rc = AW_EXIT_PASS;
		break;
	}
	case AW_BISECT_AMBIGUOUS:
		printf("%s changed first in one of kernels %zu to %zu: those before %zu gave no "
		       "answer\n", what, st->from + 1, st->first_bad + 1, st->first_bad + 1);
		print_answer("before", s, st->last_good);
		print_answer("after", s, st->first_bad);
		break;
	case AW_BISECT_NO_CHANGE:
		printf("no change: %s is the same on the first and the last kernel, and on every "
		       "kernel judged between\n", what);
		print_answer("first", s, 0);
		print_answer("last", s, s->n - 1);
		break;
	default:
		printf("undecided: kernels %zu to %zu gave no answer\n", st->from + 1, s->n);
		print_answer("last", s, st->last_good);
		break;
	}
	print_steps(s, seconds);
	if (st->end == AW_BISECT_FOUND || st->end == AW_BISECT_AMBIGUOUS)
		bisect_print_diff(&s->kernels[st->last_good].snap, s->kernels[st->last_good].snapshot,
				  &s->kernels[st->first_bad].snap, s->kernels[st->first_bad].snapshot);
	free(what);
	return rc;
}

static int search_kernels(struct bisect *b, char **specs, size_t n)
{
	struct search s = { 0 };
	double start = aw_now();
	int rc = read_kernels(specs, n, &s);
	if (rc == 0)
		rc = prepare_output_dir("bisect", b->out);
	if (rc != 0) {
		free_search(&s);
		return rc;
	}
	order_kernels(&s);
	label_kernels(&s, b->out);
	for (size_t i = 0; b->verbose && i < s.n; i++)
		bisect_say(b, "kernel %zu: %s", i + 1, s.kernels[i].spec);

	struct aw_bisect search;
	aw_bisect_init(&search, s.n);
	struct aw_bisect_state st;
	if (judge_kernel(b, &s, 0) != AW_BISECT_GOOD) {
		char *what = aw_question_describe(&b->q);
		printf("the first kernel, %s, cannot answer %s: %s\n", s.kernels[0].label, what,
		       s.kernels[0].answer.value);
		free(what);
		rc = AW_EXIT_FAIL;
	} else {
		aw_bisect_mark(&search, 0, AW_BISECT_GOOD);
		while ((st = aw_bisect_state(&search)).end == AW_BISECT_GOING)
			aw_bisect_mark(&search, st.next, judge_kernel(b, &s, st.next));
		rc = report_search(b, &s, &st, aw_now() - start);
	}
	aw_bisect_free(&search);
	free_search(&s);
	return rc;
}

int cmd_bisect(int argc, char **argv)
{
	struct bisect b = { .out = "abiwatch-bisect", .argc = argc, .argv = argv };
	aw_guest_opts_init(&b.vm);
	int rc = parse(argc, argv, &b);
	/* A step's bad usage must stop git bisect run, not read as "bad". */
	if (rc == AW_EXIT_USAGE && b.step)
		rc = 128;
	if (rc == 0) {
		if (b.step)
			rc = bisect_git_step(&b);
		else if (b.git)
			rc = bisect_git(&b);
		else
			rc = search_kernels(&b, argv + optind, (size_t)(argc - optind));
	}
	aw_question_free(&b.q);
	aw_guest_opts_free(&b.vm);
	return rc < 0 ? AW_EXIT_PASS : rc;
}

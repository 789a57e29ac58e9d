// SPDX-License-Identifier: GPL-2.0-or-later
/* abiwatch bisect --git: git bisect run over a kernel tree, each step a
 * build (bisect_build.c), a boot and a judgement (bisect_judge.c) by this
 * binary (bisect.h). */
#include "bisect_build.h"
#include "bisect_judge.h"
#include "bisect_strategy.h"
#include "session.h"
#include "core/status.h"
#include "lib/proc.h"
#include "lib/procfs.h"
#include "lib/util.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

/* git bisect run's answers; 128 and above stop the bisect. */
enum { STEP_GOOD = 0, STEP_BAD = 1, STEP_SKIP = 125, STEP_BROKE = 128 };

/* ---- git ---- */

/* git -C DIR ARGS...: its exit status with its first line of output in
 * *line (malloc'd, when line is not NULL), or -1 when git could not run. */
static int git(const char *dir, char **line, const char *const *args)
{
	const char *argv[16] = { "git", "-C", dir };
	size_t n = 3;
	for (; *args && n < 15; args++)
		argv[n++] = *args;
	argv[n] = NULL;
	struct aw_spawn how = { .in = -1 };
	struct aw_capture cap = { .out = true, .max = 1 << 20 };
	if (aw_capture(argv, &how, &cap) != 0)
		return -1;
	if (line)
		*line = xasprintf("%.*s", (int)strcspn(cap.text, "\n"), cap.text);
	free(cap.text);
	return WIFEXITED(cap.status) ? WEXITSTATUS(cap.status) : -1;
}

#define GIT(dir, line, ...) git((dir), (line), (const char *const[]){ __VA_ARGS__, NULL })

/* The full id of a commit REV names, or NULL. */
static char *commit_of(const char *dir, const char *rev)
{
	char *spec = xasprintf("%s^{commit}", rev), *id = NULL;
	if (GIT(dir, &id, "rev-parse", "--verify", "--quiet", spec) != 0 || !*id) {
		free(id);
		id = NULL;
	}
	free(spec);
	return id;
}

static char *subject_of(const char *dir, const char *commit)
{
	char *s = NULL;
	if (GIT(dir, &s, "log", "-1", "--format=%s", commit) != 0) {
		free(s);
		s = xstrdup("?");
	}
	return s;
}

/* ---- where things are kept ---- */

static char *commit_snapshot(const struct bisect *b, const char *commit)
{
	return xasprintf("%s/commits/%s.snapshot", b->out, commit);
}

/* The state file says which tree a bisect of this directory left in
 * progress, and where its HEAD was: "TREE\nHEAD\n". */
static char *state_path(const struct bisect *b)
{
	return xasprintf("%s/git-bisect.state", b->out);
}

static char *steps_path(const struct bisect *b)
{
	return xasprintf("%s/steps.log", b->out);
}

/* ---- one step ---- */

/* One line of OUT/steps.log: what this step did, for the bisect's end. */
static void log_step(const struct bisect *b, const char *commit, const char *built,
		     const char *booted, int answer, double seconds, const char *value)
{
	char *path = steps_path(b);
	FILE *f = fopen(path, "ae");
	if (f) {
		fprintf(f, "%s\t%s\t%s\t%d\t%.1f\t%s\n", commit, built, booted, answer, seconds,
			value);
		fclose(f);
	}
	free(path);
}

/* The answer a step kept for commit (from its snapshot), or why none. */
static void kept_answer(const struct bisect *b, const char *commit, struct aw_answer *a,
			struct aw_snapshot *snap)
{
	char *path = commit_snapshot(b, commit), *err = NULL;
	memset(a, 0, sizeof(*a));
	if (aw_snapshot_load(path, snap, &err) == 0) {
		aw_question_answer(&b->q, snap, a);
	} else {
		memset(snap, 0, sizeof(*snap));
		a->value = err;
	}
	free(path);
}

static int step_verdict(const struct bisect *b, const char *commit, const struct aw_answer *a)
{
	if (!a->known)
		return STEP_SKIP;
	if (strcmp(commit, b->step) == 0)
		return STEP_GOOD; /* the good end: its answer is the reference */
	struct aw_answer ref;
	struct aw_snapshot snap;
	kept_answer(b, b->step, &ref, &snap); /* the good end's, the reference */
	int verdict = !snap.n ? STEP_BROKE : aw_answer_same(a, &ref) ? STEP_GOOD : STEP_BAD;
	if (!snap.n)
		fprintf(stderr, "abiwatch bisect: the good end's snapshot: %s\n", ref.value);
	aw_answer_free(&ref);
	aw_snapshot_free(&snap);
	return verdict;
}

/* Build the checked-out commit and judge it: "built" or "failed" (then
 * a->value says why), and how it was judged. */
static const char *build_and_judge(const struct bisect *b, const char *commit, const char *label,
				   const char *snapshot, struct aw_snapshot *snap,
				   struct aw_answer *a, enum judged *how)
{
	double start = aw_now();
	char *why = NULL, *spec;
	struct aw_kernel_spec k;
	const char *built = "failed";

	aw_say(&b->say, "%s: building", label);
	if (!(spec = bisect_build(b, commit, &why))) {
		a->value = xasprintf("did not build: %s", why);
	} else if (aw_kernel_spec_parse(spec, false, &k, &why) != 0) {
		a->value = xasprintf("the build gave no kernel: %s", why);
	} else {
		built = "built";
		aw_say(&b->say, "%s: built in %.0f s", label, aw_now() - start);
		*how = bisect_judge(b, &k, label, snapshot, snap, a);
		aw_kernel_spec_free(&k);
	}
	if (strcmp(built, "failed") == 0)
		aw_say(&b->say, "%s: %s", label, a->value);
	free(why);
	free(spec);
	return built;
}

/* --step: build and judge HEAD (bisect_strategy.h). */
static int git_step(struct bisect *b, char **kernels, size_t nkernels)
{
	(void)kernels;
	(void)nkernels;
	if (!b->jobs)
		b->jobs = aw_cpus_usable();
	/* git bisect run is our parent: end with it. */
	prctl(PR_SET_PDEATHSIG, SIGTERM);
	double start = aw_now();
	char *commit = commit_of(b->git, "HEAD");
	if (!commit)
		return STEP_BROKE;
	char *snapshot = commit_snapshot(b, commit), *label = xasprintf("%.12s", commit);
	struct aw_snapshot snap = { 0 };
	struct aw_answer a = { 0 };
	const char *built = "kept";
	enum judged how = JUDGED_KEPT;

	if (bisect_kept(b, snapshot, &snap)) {
		aw_question_answer(&b->q, &snap, &a);
		aw_say(&b->say, "%s: %s (kept from an earlier run)", label, a.value);
	} else {
		built = build_and_judge(b, commit, label, snapshot, &snap, &a, &how);
	}
	int verdict = step_verdict(b, commit, &a);
	log_step(b, commit, built, how == JUDGED_BOOTED ? "booted" : "no", verdict,
		 aw_now() - start, a.value);
	aw_snapshot_free(&snap);
	aw_answer_free(&a);
	free(label);
	free(snapshot);
	free(commit);
	return verdict;
}

/* ---- the driver ---- */

static const int stop_signals[] = { SIGINT, SIGTERM, SIGHUP };

static void stop_signal_set(sigset_t *set)
{
	sigemptyset(set);
	for (size_t i = 0; i < sizeof(stop_signals) / sizeof(*stop_signals); i++)
		sigaddset(set, stop_signals[i]);
}

static void unblock_stop_signals(void *arg)
{
	(void)arg;
	sigset_t set;
	stop_signal_set(&set);
	sigprocmask(SIG_UNBLOCK, &set, NULL);
}

/* Wait for a child in a process group of its own, or for a signal that
 * says stop: then the group is ended.  Its exit status, or -1 with
 * *stopped set to the signal. */
static int wait_or_stop(pid_t pid, int *stopped)
{
	sigset_t set;
	stop_signal_set(&set);
	for (;;) {
		int status;
		pid_t r = waitpid(pid, &status, WNOHANG);
		if (r == pid)
			return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
		if (r < 0 && errno != EINTR)
			return -1;
		struct timespec tick = { 0, 200 * 1000 * 1000 };
		int sig = sigtimedwait(&set, NULL, &tick);
		if (sig > 0) {
			*stopped = sig;
			kill(-pid, SIGTERM);
			aw_kill_reap(pid);
			return -1;
		}
	}
}

/* Our own command line with --step GOOD, run from our directory. */
static char **step_argv(const struct bisect *b, const char *good, const char *self,
			const char *chdir_arg, bool through_git)
{
	/* git's 5, env's 3, --step's 2, the end */
	char **argv = xcalloc((size_t)b->argc + 11, sizeof(*argv));
	size_t n = 0;
	if (through_git) {
		argv[n++] = "git";
		argv[n++] = "-C";
		argv[n++] = (char *)b->git;
		argv[n++] = "bisect";
		argv[n++] = "run";
	}
	argv[n++] = "env";
	argv[n++] = (char *)chdir_arg;
	argv[n++] = (char *)self;
	for (int i = 0; i < b->argc; i++) /* "bisect", then its arguments */
		argv[n++] = b->argv[i];
	argv[n++] = "--step";
	argv[n++] = (char *)good;
	return argv;
}

struct driver {
	struct bisect *b;
	char *self, *chdir_arg; /* this program; env's --chdir=OUR-DIRECTORY */
	char *good, *bad;     /* full commit ids */
	char *original;       /* HEAD as found: a branch or a commit */
	bool started;         /* git bisect start ran */
	int stopped;          /* the signal that stopped us, or 0 */
};

/* Run argv in a process group of its own, output to out (-1: ours). */
static int run_child(struct driver *d, char **argv, int out)
{
	struct aw_spawn how = { .in = -1, .out = out < 0 ? 1 : out, .err = 2, .own_pgrp = true,
				.before_exec = unblock_stop_signals };
	pid_t pid = aw_spawn((const char *const *)argv, &how);
	if (pid < 0) {
		fprintf(stderr, "abiwatch bisect: cannot run %s: %s\n", argv[0], strerror(errno));
		return -1;
	}
	return wait_or_stop(pid, &d->stopped);
}

/* One step at commit, out of git bisect run: the ends. */
static int judge_end(struct driver *d, const char *commit)
{
	if (GIT(d->b->git, NULL, "checkout", "-q", "--detach", commit) != 0) {
		fprintf(stderr, "abiwatch bisect: git checkout %s failed in %s\n", commit,
			d->b->git);
		return STEP_BROKE;
	}
	char **argv = step_argv(d->b, d->good, d->self, d->chdir_arg, false);
	int rc = run_child(d, argv, -1);
	free(argv);
	return rc;
}

/* Put the tree back as it was found. */
static void restore(struct driver *d)
{
	if (d->started)
		GIT(d->b->git, NULL, "bisect", "reset");
	else
		GIT(d->b->git, NULL, "checkout", "-q", d->original);
	char *state = state_path(d->b);
	unlink(state);
	free(state);
}

/* What the tree is on: its branch, or its commit when detached. */
static char *current_head(const char *dir)
{
	char *head = NULL;
	if (GIT(dir, &head, "symbolic-ref", "-q", "--short", "HEAD") == 0 && *head)
		return head;
	free(head);
	return commit_of(dir, "HEAD");
}

/* A bisect in progress in the tree: ours (this output directory's, left
 * by an interrupted run) is reset to go again; anyone else's is refused. */
static int bisect_in_progress(struct driver *d, const char *top)
{
	char *start = NULL;
	if (GIT(d->b->git, &start, "rev-parse", "--git-path", "BISECT_START") != 0) {
		free(start);
		return 0;
	}
	char *path = *start == '/' ? xstrdup(start) : xasprintf("%s/%s", d->b->git, start);
	free(start);
	bool going = access(path, F_OK) == 0;
	free(path);
	if (!going)
		return 0;
	char *state = state_path(d->b), *text = NULL;
	size_t len;
	bool ours = aw_file_slurp(state, &text, &len) == 0 && strncmp(text, top, strlen(top)) == 0 &&
		    text[strlen(top)] == '\n';
	free(text);
	free(state);
	if (!ours)
		return usage_error("bisect", "%s: a bisect is in progress there (git bisect reset "
				   "ends it)", d->b->git);
	aw_say(&d->b->say, "%s: resetting the bisect an interrupted run left; the snapshots it "
		   "kept are taken again", d->b->git);
	GIT(d->b->git, NULL, "bisect", "reset");
	return 0;
}

static int write_state(struct driver *d, const char *top)
{
	char *path = state_path(d->b), *text = xasprintf("%s\n%s\n", top, d->original);
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	int rc = fd >= 0 && aw_write_all(fd, text, strlen(text)) == 0 ? 0 : -1;
	if (rc != 0)
		rc = usage_error("bisect", "%s: %s", path, strerror(errno));
	if (fd >= 0)
		close(fd);
	free(text);
	free(path);
	return rc;
}

/* Everything about the tree that can be wrong, before anything is built. */
static int check_tree(struct driver *d)
{
	struct bisect *b = d->b;
	char *top = NULL, *dirty = NULL;
	int rc = 0;
	if (GIT(b->git, &top, "rev-parse", "--show-toplevel") != 0 || !*top)
		rc = usage_error("bisect", "%s: not a git work tree", b->git);
	/* An interrupted run's bisect is undone first: REVs such as HEAD~7
	 * mean what they meant to the user. */
	else if ((rc = prepare_output_dir("bisect", b->out)) != 0 ||
		 (rc = bisect_in_progress(d, top)) != 0)
		;
	else if (GIT(b->git, &dirty, "status", "--porcelain", "--untracked-files=no") != 0 ||
		 *dirty)
		rc = usage_error("bisect", "%s has uncommitted changes (%s): commit or stash "
				 "them first", b->git, dirty && *dirty ? dirty : "git status");
	else if (!(d->good = commit_of(b->git, b->good)))
		rc = usage_error("bisect", "--good %s: no such commit in %s", b->good, b->git);
	else if (!(d->bad = commit_of(b->git, b->bad)))
		rc = usage_error("bisect", "--bad %s: no such commit in %s", b->bad, b->git);
	else if (strcmp(d->good, d->bad) == 0)
		rc = usage_error("bisect", "--good and --bad are the same commit");
	else if (GIT(b->git, NULL, "merge-base", "--is-ancestor", d->good, d->bad) != 0)
		rc = usage_error("bisect", "--good %s is not an ancestor of --bad %s", b->good,
				 b->bad);
	if (rc == 0) {
		char *commits = xasprintf("%s/commits", b->out);
		if (mkdir(commits, 0777) != 0 && errno != EEXIST)
			rc = usage_error("bisect", "cannot make %s: %s", commits, strerror(errno));
		free(commits);
	}
	if (rc == 0 && !(d->original = current_head(b->git)))
		rc = usage_error("bisect", "%s: HEAD names no commit", b->git);
	if (rc == 0)
		rc = write_state(d, top);
	free(top);
	free(dirty);
	return rc;
}

/* Both ends judged: 0 to bisect, else the exit status. */
static int judge_ends(struct driver *d)
{
	int good = judge_end(d, d->good);
	if (d->stopped)
		return 130;
	if (good != STEP_GOOD) {
		printf("the good end %.12s cannot answer: see above and %s/commits/\n", d->good,
		       d->b->out);
		return AW_EXIT_FAIL;
	}
	int bad = judge_end(d, d->bad);
	if (d->stopped)
		return 130;
	if (bad == STEP_GOOD) {
		struct aw_answer a;
		struct aw_snapshot s;
		kept_answer(d->b, d->good, &a, &s);
		int rc = usage_error("bisect", "the same answer at both ends (%s): nothing to "
				     "bisect", a.value);
		aw_answer_free(&a);
		aw_snapshot_free(&s);
		return rc;
	}
	if (bad != STEP_BAD) {
		printf("the bad end %.12s cannot answer: see above and %s/commits/\n", d->bad,
		       d->b->out);
		return AW_EXIT_FAIL;
	}
	return 0;
}

/* git bisect run, its output in OUT/git-bisect.log. */
static int run_bisect(struct driver *d, char **log_text)
{
	struct bisect *b = d->b;
	if (GIT(b->git, NULL, "checkout", "-q", d->original) != 0 ||
	    GIT(b->git, NULL, "bisect", "start", d->bad, d->good, "--") != 0) {
		fprintf(stderr, "abiwatch bisect: git bisect start failed in %s\n", b->git);
		return AW_EXIT_FAIL;
	}
	d->started = true;
	char *logpath = xasprintf("%s/git-bisect.log", b->out);
	int log = open(logpath, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	int rc = AW_EXIT_FAIL;
	if (log < 0) {
		fprintf(stderr, "abiwatch bisect: %s: %s\n", logpath, strerror(errno));
	} else {
		char **argv = step_argv(b, d->good, d->self, d->chdir_arg, true);
		rc = run_child(d, argv, log);
		free(argv);
		size_t len;
		if (aw_fd_slurp(log, log_text, &len) != 0)
			*log_text = xstrdup("");
		close(log);
	}
	free(logpath);
	return d->stopped ? 130 : rc;
}

/* The commits git named as the first bad one, or the candidates when
 * skipped commits left it open. */
static size_t first_bad(const char *log, char ids[][41], size_t max)
{
	size_t n = 0;
	for (const char *p = log; *p && n < max; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : "") {
		if (strspn(p, "0123456789abcdef") == 40 &&
		    (strncmp(p + 40, " is the first bad commit", 24) == 0 ||
		     (p[40] == '\n' && strstr(log, "could be any of"))))
			snprintf(ids[n++], 41, "%.40s", p);
	}
	return n;
}

struct step_totals {
	unsigned steps, built, kept, failed, booted, skipped;
	double build_s;
};

static void read_steps(const struct bisect *b, struct step_totals *t)
{
	char *path = steps_path(b), *text = NULL;
	size_t len;
	memset(t, 0, sizeof(*t));
	if (aw_file_slurp(path, &text, &len) == 0)
		for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
			char commit[64], built[16], booted[16];
			int answer;
			double seconds;
			if (sscanf(line, "%63s %15s %15s %d %lf", commit, built, booted, &answer,
				   &seconds) != 5)
				continue;
			t->steps++;
			t->built += strcmp(built, "built") == 0;
			t->kept += strcmp(built, "kept") == 0;
			t->failed += strcmp(built, "failed") == 0;
			t->booted += strcmp(booted, "booted") == 0;
			t->skipped += answer == STEP_SKIP;
		}
	free(text);
	free(path);
}

static void print_side(const struct bisect *b, const char *side, const char *commit)
{
	struct aw_answer a;
	struct aw_snapshot s;
	char *subject = subject_of(b->git, commit);
	kept_answer(b, commit, &a, &s);
	printf("  %-7s%.12s (%s): %s\n", side, commit, subject, a.value);
	if (a.detail)
		printf("%s\n", a.detail);
	aw_answer_free(&a);
	aw_snapshot_free(&s);
	free(subject);
}

static void print_pair_diff(const struct bisect *b, const char *before, const char *after)
{
	struct aw_answer a, z;
	struct aw_snapshot s, t;
	char *sp = commit_snapshot(b, before), *tp = commit_snapshot(b, after);
	kept_answer(b, before, &a, &s);
	kept_answer(b, after, &z, &t);
	if (s.n && t.n)
		bisect_print_diff(&s, sp, &t, tp);
	aw_answer_free(&a);
	aw_answer_free(&z);
	aw_snapshot_free(&s);
	aw_snapshot_free(&t);
	free(sp);
	free(tp);
}

/* The commit before first whose snapshot a step kept: its parent when
 * judged, else the good end. */
static char *before_of(const struct driver *d, const char *first)
{
	char *parent_rev = xasprintf("%s^", first), *parent = commit_of(d->b->git, parent_rev);
	free(parent_rev);
	if (parent) {
		char *path = commit_snapshot(d->b, parent);
		bool kept = access(path, F_OK) == 0;
		free(path);
		if (kept)
			return parent;
		free(parent);
	}
	return xstrdup(d->good);
}

static int report(struct driver *d, const char *log, double seconds)
{
	const struct bisect *b = d->b;
	char ids[64][41];
	size_t n = first_bad(log, ids, 64);
	char *what = aw_question_describe(&b->q);
	int rc = AW_EXIT_FAIL;
	if (n == 1) {
		char *subject = subject_of(b->git, ids[0]), *before = before_of(d, ids[0]);
		printf("%s changed first in commit %s\n  \"%s\"\n", what, ids[0], subject);
		print_side(b, "before", before);
		print_side(b, "after", ids[0]);
		free(subject);
		free(before);
		rc = AW_EXIT_PASS;
	} else if (n > 1) {
		printf("%s changed first in one of %zu commits (the others could not be judged):\n",
		       what, n);
		for (size_t i = 0; i < n; i++) {
			char *subject = subject_of(b->git, ids[i]);
			printf("  %.12s %s\n", ids[i], subject);
			free(subject);
		}
	} else {
		printf("git bisect run ended without naming a commit: see %s/git-bisect.log\n",
		       b->out);
	}
	struct step_totals t;
	read_steps(b, &t);
	printf("%u steps: %u built, %u did not build, %u kept from an earlier run; %u booted, "
	       "%u skipped (125); %.1f s\n", t.steps, t.built, t.failed, t.kept, t.booted,
	       t.skipped, seconds);
	if (n == 1) {
		char *before = before_of(d, ids[0]);
		print_pair_diff(b, before, ids[0]);
		free(before);
	}
	free(what);
	return rc;
}

static void free_driver(struct driver *d)
{
	free(d->self);
	free(d->chdir_arg);
	free(d->good);
	free(d->bad);
	free(d->original);
}

/* --git: the whole bisect of the tree (bisect_strategy.h). */
static int git_drive(struct bisect *b, char **kernels, size_t nkernels)
{
	(void)kernels;
	(void)nkernels;
	struct driver d = { .b = b };
	double start = aw_now();
	char self[PATH_MAX], cwd[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n <= 0 || !getcwd(cwd, sizeof(cwd)))
		return usage_error("bisect", "cannot find this program or directory: %s",
				   strerror(errno));
	self[n] = '\0';
	d.self = xstrdup(self);
	d.chdir_arg = xasprintf("--chdir=%s", cwd);
	int rc = check_tree(&d);
	if (rc != 0) {
		free_driver(&d);
		return rc;
	}
	/* From here the tree is ours to put back, whatever stops us. */
	sigset_t set, old;
	stop_signal_set(&set);
	sigprocmask(SIG_BLOCK, &set, &old);
	char *steps = steps_path(b), *log = NULL;
	unlink(steps);
	free(steps);
	rc = judge_ends(&d);
	if (rc == 0)
		rc = run_bisect(&d, &log);
	if (log && !d.stopped)
		rc = report(&d, log, aw_now() - start);
	else if (d.stopped)
		fprintf(stderr, "abiwatch bisect: stopped by signal %d; %s is put back\n", d.stopped,
			b->git);
	restore(&d);
	sigprocmask(SIG_SETMASK, &old, NULL);
	free(log);
	free_driver(&d);
	return rc;
}

static bool step_chosen(const struct bisect *b)
{
	return b->step != NULL;
}

static bool git_chosen(const struct bisect *b)
{
	return b->git != NULL;
}

const struct bisect_strategy bisect_git_step = { step_chosen, git_step };
const struct bisect_strategy bisect_git = { git_chosen, git_drive };

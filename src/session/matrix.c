// SPDX-License-Identifier: GPL-2.0-or-later
/* abiwatch matrix's work (matrix.h): its jobs run by vm/matrix.c's
 * scheduler, then what is written of them: progress, the neighbour
 * diffs, matrix.txt. */
#include "matrix.h"
#include "apt.h"
#include "session.h"
#include "core/status.h"
#include "model/diff.h"
#include "model/snapshot.h"
#include "output/format.h"
#include "lib/progress.h"
#include "lib/util.h"
#include "vm/kvm.h"

#include <dirent.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char *job_line(const struct aw_matrix_job *j)
{
	const struct aw_matrix_outcome *o = &j->out;
	const char *what = aw_vm_outcome_name((enum aw_vm_outcome)o->outcome);
	if (o->outcome != AW_VM_OK)
		return xasprintf("%s (%s): %s after %.1f s: %s", j->label, o->accel[0] ? o->accel : "-",
				 what, o->t_total, o->why);
	if (j->host)
		return xasprintf("%s: run exit %d in %.1f s", j->label, o->run_status, o->t_total);
	return xasprintf("%s (%s): run exit %d in %.1f s (boot %.1f s, run %.1f s)", j->label, o->accel,
			 o->run_status, o->t_total, o->t_boot, o->t_run);
}

static const struct aw_progress matrix_progress = { "abiwatch matrix", true };

static void report_started(const struct aw_matrix_job *j, void *arg)
{
	(void)arg;
	aw_say(&matrix_progress, "started %s%s", j->label, j->host ? " (here)" : "");
}

static void report_finished(const struct aw_matrix_job *j, size_t done, size_t total, void *arg)
{
	(void)arg;
	char *line = job_line(j);
	aw_say(&matrix_progress, "[%zu/%zu] %s", done, total, line);
	free(line);
}

/* The snapshots of the jobs that have one, in the jobs' (version)
 * order, each read once, and their neighbours' diffs, each computed
 * once: for the .diff files and for matrix.txt's series.  One that
 * cannot be read is left out and said. */
struct series_snapshots {
	struct aw_snapshot *snaps;
	struct aw_snapshot **ptrs;
	const char **labels;
	size_t *job;          /* [k]: the job snaps[k] is of */
	struct aw_diff *diffs; /* [k], k >= 1: snaps[k - 1] -> snaps[k] */
	size_t n;
};

static void load_series(const struct aw_matrix *m, struct series_snapshots *ss)
{
	ss->snaps = xcalloc(m->njobs + 1, sizeof(*ss->snaps));
	ss->ptrs = xcalloc(m->njobs + 1, sizeof(*ss->ptrs));
	ss->labels = xcalloc(m->njobs + 1, sizeof(*ss->labels));
	ss->job = xcalloc(m->njobs + 1, sizeof(*ss->job));
	ss->diffs = xcalloc(m->njobs + 1, sizeof(*ss->diffs));
	ss->n = 0;
	for (size_t i = 0; i < m->njobs; i++) {
		char *path = aw_matrix_file(m, m->jobs[i].label, "snapshot"), *err = NULL;
		if (access(path, R_OK) == 0 && aw_snapshot_load(path, &ss->snaps[ss->n], &err) == 0) {
			ss->ptrs[ss->n] = &ss->snaps[ss->n];
			ss->job[ss->n] = i;
			ss->labels[ss->n++] = m->jobs[i].label;
		} else if (err) {
			fprintf(stderr, "abiwatch matrix: not in the series: %s\n", err);
			free(err);
		}
		free(path);
	}
	struct aw_diff_opts none = { 0 };
	for (size_t k = 1; k < ss->n; k++)
		aw_diff_compute(&ss->snaps[k - 1], &ss->snaps[k], &none, &ss->diffs[k]);
}

static void free_series(struct series_snapshots *ss)
{
	for (size_t k = 1; k < ss->n; k++)
		aw_diff_free(&ss->diffs[k]);
	for (size_t i = 0; i < ss->n; i++)
		aw_snapshot_free(&ss->snaps[i]);
	free(ss->snaps);
	free(ss->ptrs);
	free(ss->labels);
	free(ss->job);
	free(ss->diffs);
}

/* LABEL--LABEL.diff, as `abiwatch diff` writes it in text. */
static int write_diff_file(const struct aw_matrix *m, const struct aw_diff *d, const char *old,
			   const char *new, char **err)
{
	char *name = xasprintf("%s--%s", old, new), *path = aw_matrix_file(m, name, "diff");
	char *na = xasprintf("%s.snapshot", old), *nb = xasprintf("%s.snapshot", new);
	int rc = 0;
	FILE *f = fopen(path, "we");
	if (!f) {
		*err = xasprintf("%s: %s", path, strerror(errno));
		rc = -1;
	} else {
		aw_format_find("text", AW_WRITES_DIFF, NULL)->diff(f, d, na, nb, false);
		if (fclose(f) != 0) {
			*err = xasprintf("%s: %s", path, strerror(errno));
			rc = -1;
		}
	}
	free(name);
	free(path);
	free(na);
	free(nb);
	return rc;
}

/* A diff file for each pair of neighbouring jobs that both have a
 * snapshot; the series may compare across a job without one, a .diff
 * file never does. */
static void write_diffs(const struct aw_matrix *m, const struct series_snapshots *ss)
{
	for (size_t k = 1; k < ss->n; k++) {
		char *err = NULL;
		if (ss->job[k - 1] + 1 != ss->job[k])
			continue;
		if (write_diff_file(m, &ss->diffs[k], ss->labels[k - 1], ss->labels[k], &err) != 0) {
			fprintf(stderr, "abiwatch matrix: %s\n", err);
			free(err);
		}
	}
}

/* matrix.txt, written by the text format's several (output/format.h),
 * from a row per job. */
static int write_table(const struct aw_matrix *m, const struct series_snapshots *ss, char **err)
{
	char *path = xasprintf("%s/matrix.txt", m->dir);
	FILE *f = fopen(path, "we");
	if (!f) {
		*err = xasprintf("%s: %s", path, strerror(errno));
		free(path);
		return -1;
	}
	struct aw_matrix_row *rows = xcalloc(m->njobs + 1, sizeof(*rows));
	char **ktaps = xcalloc(m->njobs + 1, sizeof(*ktaps));
	for (size_t i = 0; i < m->njobs; i++) {
		const struct aw_matrix_job *j = &m->jobs[i];
		const struct aw_matrix_outcome *o = &j->out;
		ktaps[i] = aw_matrix_file(m, j->label, "ktap");
		rows[i] = (struct aw_matrix_row){
			.label = j->label, .where = o->accel[0] ? o->accel : "-",
			.outcome = aw_vm_outcome_name((enum aw_vm_outcome)o->outcome),
			.exit_status = o->run_status, .total_s = o->t_total, .boot_s = o->t_boot,
			.run_s = o->t_run, .ktap = ktaps[i], .source = j->host ? "host" : j->spec,
			.why = o->outcome != AW_VM_OK && !j->reused ? o->why : NULL,
			.reused = j->reused,
		};
	}
	struct aw_several several = { .rows = rows, .nrows = m->njobs };
	several.snaps = (const struct aw_snapshot *const *)ss->ptrs;
	several.nsnaps = ss->n;
	several.snap_labels = ss->labels;
	several.snap_diffs = ss->diffs;
	bool ok = aw_format_find("text", AW_WRITES_SEVERAL, NULL)->several(f, &several) == 0;
	ok = fclose(f) == 0 && ok;
	if (!ok)
		*err = xasprintf("%s: %s", path, strerror(errno));
	for (size_t i = 0; i < m->njobs; i++)
		free(ktaps[i]);
	free(ktaps);
	free(rows);
	free(path);
	return ok ? 0 : -1;
}

static int exit_status(const struct aw_matrix *m)
{
	bool failed = false, passed = false;
	for (size_t i = 0; i < m->njobs; i++) {
		const struct aw_matrix_outcome *o = &m->jobs[i].out;
		if (m->jobs[i].reused)
			continue; /* its run was judged when it ran */
		if (o->outcome != AW_VM_OK || (o->run_status != 0 && o->run_status != AW_EXIT_SKIP))
			failed = true;
		else if (o->run_status == 0)
			passed = true;
	}
	return failed ? AW_EXIT_FAIL : passed ? AW_EXIT_PASS : AW_EXIT_SKIP;
}

/* One decision for every VM, not one KVM test each. */
static void decide_accel(struct matrix_opts *c)
{
	if (strcmp(c->m.vm.accel, "auto") != 0)
		return;
	char *why = aw_kvm_unusable();
	c->m.vm.accel = why ? "tcg" : "kvm";
	if (why && !c->quiet)
		fprintf(stderr, "abiwatch matrix: TCG: KVM unusable (%s)\n", why);
	free(why);
}

/* Every job, then what is written of them. */
static int run_and_write(struct matrix_opts *c)
{
	char *err = NULL;
	if (!c->quiet) {
		c->m.started = report_started;
		c->m.finished = report_finished;
	}
	aw_matrix_run(&c->m);
	struct series_snapshots ss;
	load_series(&c->m, &ss);
	write_diffs(&c->m, &ss);
	int rc = write_table(&c->m, &ss, &err);
	free_series(&ss);
	if (rc != 0) {
		fprintf(stderr, "abiwatch matrix: %s\n", err);
		free(err);
		return AW_EXIT_USAGE;
	}
	if (!c->quiet)
		fprintf(stderr, "abiwatch matrix: results in %s (matrix.txt, *.snapshot, *.diff)\n",
			c->m.dir);
	return exit_status(&c->m);
}

/* --apt: the series's packages become kernels of the matrix. */
static int add_apt_series(struct matrix_opts *c)
{
	char *cache = c->apt_cache ? xstrdup(c->apt_cache) : aw_apt_default_cache(c->m.dir), *err = NULL;
	struct aw_apt_series s;
	int rc = aw_apt_series_fetch(c->apt, cache, !c->quiet || c->dry_run, &s, &err);
	for (size_t i = 0; rc == 0 && i < s.n; i++)
		rc = aw_matrix_add_kernel(&c->m, s.debs[i], &err);
	if (rc != 0) {
		rc = usage_error("matrix", "%s", err);
		free(err);
	}
	aw_apt_series_free(&s);
	free(cache);
	return rc;
}

/* A kernel twice would be run twice and diffed against itself under a
 * -2 label: refused.  Two packages of one release (signed and unsigned)
 * are said, and run. */
static int refuse_twice(const struct matrix_opts *c)
{
	size_t a, b;
	const struct aw_matrix *m = &c->m;
	if (aw_matrix_same_kernel(m, &a, &b)) {
		char *id = aw_matrix_package_id(&m->jobs[a]);
		int rc = usage_error("matrix", "the same kernel twice: %s and %s%s%s", m->jobs[a].spec,
				     m->jobs[b].spec, id ? " are both " : " are one file", id ? id : "");
		free(id);
		return rc;
	}
	for (size_t i = 0; i + 1 < m->njobs; i++)
		for (size_t k = i + 1; k < m->njobs; k++)
			if (!m->jobs[i].host && !m->jobs[k].host &&
			    strcmp(m->jobs[i].release, m->jobs[k].release) == 0)
				fprintf(stderr, "abiwatch matrix: warning: %s and %s are both release %s "
					"(labels %s and %s)\n", m->jobs[i].spec, m->jobs[k].spec,
					m->jobs[i].release, m->jobs[i].label, m->jobs[k].label);
	return 0;
}

/* The package a snapshot in the directory was made of (env.vm.package),
 * if it ran to its end; NULL otherwise. */
static char *snapshot_package(const char *path, bool *cut_short)
{
	struct aw_snapshot s;
	char *err = NULL, *id = NULL;
	*cut_short = false;
	if (aw_snapshot_load(path, &s, &err) != 0) {
		free(err);
		return NULL;
	}
	const char *v = aw_snapshot_get(&s, "env.vm.package");
	*cut_short = aw_snapshot_get(&s, "env.load") != NULL;
	if (v)
		id = xstrdup(v);
	aw_snapshot_free(&s);
	return id;
}

static bool label_taken(const struct aw_matrix *m, const char *label, const struct aw_matrix_job *but)
{
	for (size_t i = 0; i < m->njobs; i++)
		if (&m->jobs[i] != but && strcmp(m->jobs[i].label, label) == 0)
			return true;
	return false;
}

/* A job whose package the directory has a whole snapshot of is not run
 * again: it takes that snapshot's name. */
static void reuse_one(struct matrix_opts *c, const char *stem, const char *id, bool cut_short)
{
	struct aw_matrix *m = &c->m;
	for (size_t i = 0; i < m->njobs; i++) {
		struct aw_matrix_job *j = &m->jobs[i];
		char *mine = aw_matrix_package_id(j);
		bool match = mine && strcmp(mine, id) == 0 && !j->reused;
		free(mine);
		if (!match)
			continue;
		if (cut_short || label_taken(m, stem, j)) {
			fprintf(stderr, "abiwatch matrix: %s.snapshot (%s) not reused: %s\n", stem, id,
				cut_short ? "its run was cut short (env.load)" : "its name is another kernel's");
			return;
		}
		free(j->label);
		j->label = xstrdup(stem);
		j->reused = true;
		if (!c->quiet || c->dry_run)
			fprintf(stderr, "abiwatch matrix: reused %s.snapshot (%s)\n", stem, id);
		return;
	}
}

static void reuse_snapshots(struct matrix_opts *c)
{
	DIR *d = opendir(c->m.dir);
	for (struct dirent *e; d && (e = readdir(d));) {
		size_t n = strlen(e->d_name);
		if (n <= 9 || strcmp(e->d_name + n - 9, ".snapshot") != 0)
			continue;
		char *path = xasprintf("%s/%s", c->m.dir, e->d_name), *stem = strndup(e->d_name, n - 9);
		bool cut_short;
		char *id = snapshot_package(path, &cut_short);
		if (id)
			reuse_one(c, stem, id, cut_short);
		free(id);
		free(stem);
		free(path);
	}
	if (d)
		closedir(d);
}

/* --dry-run: the jobs, in order, and what each would be. */
static void say_plan(const struct aw_matrix *m)
{
	for (size_t i = 0; i < m->njobs; i++) {
		const struct aw_matrix_job *j = &m->jobs[i];
		char *id = aw_matrix_package_id(j);
		printf("%s\t%s\t%s\t%s\n", j->label, j->reused ? "reused" : "run", id ? id : j->release,
		       j->host ? "host" : j->spec);
		free(id);
	}
}

int session_matrix(struct matrix_opts *c)
{
	int rc = c->apt ? add_apt_series(c) : 0;
	if (rc != 0)
		return rc;
	if (c->host)
		aw_matrix_add_host(&c->m);
	if (c->m.njobs == 0)
		return usage_error("matrix", "no kernel given (and no --host)");
	rc = c->dry_run ? 0 : prepare_output_dir("matrix", c->m.dir);
	if (rc != 0)
		return rc;
	aw_matrix_order(&c->m);
	if ((rc = refuse_twice(c)) != 0)
		return rc;
	reuse_snapshots(c);
	if (c->dry_run) {
		say_plan(&c->m);
		return AW_EXIT_PASS;
	}
	decide_accel(c);
	return run_and_write(c);
}

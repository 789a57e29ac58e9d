// SPDX-License-Identifier: GPL-2.0-or-later
/* abiwatch run's work (run.h): run probes, stream KTAP, write the snapshot;
 * and the path of running probes that abiwatch check shares. */
#include "run.h"
#include "session.h"
#include "backends/backend.h"
#include "core/env.h"
#include "output/format.h"
#include "core/params.h"
#include "core/registry.h"
#include "core/runner.h"
#include "core/vm_guest.h"
#include "model/snapshot.h"
#include "lib/util.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct streaming {
	const struct aw_format *format;
	struct aw_run_stream *stream;
};

static void stream_probe(const struct aw_probe_result *r, void *arg)
{
	const struct streaming *s = arg;
	s->format->stream_probe(s->stream, r);
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
		    size_t nrefs, const struct aw_format *format, FILE *out, struct aw_run *run)
{
	struct aw_runner_opts opts = { .timeout_s = po->timeout_s, .jobs = po->jobs,
				       .budget_s = aw_guest_budget(), .params = &po->params };
	struct streaming s = { .format = format && format->stream_begin ? format : NULL };
	if (s.format) {
		s.stream = s.format->stream_begin(out, refs, nrefs);
		opts.probe_done = stream_probe;
		opts.arg = &s;
	}
	aw_run_probes(refs, nrefs, &opts, run);
	if (s.format)
		s.format->stream_end(s.stream);
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

int probes_snapshot(const char *cmd, struct probe_options *po, const char *output,
		    struct aw_probe_ref **refs, size_t *n, struct aw_snapshot *snap)
{
	struct aw_run run = { 0 };
	int rc = probes_prepare(cmd, po, refs, n, &run);

	if (rc == 0 && output)
		rc = check_writable(cmd, "the snapshot", output);
	if (rc == 0) {
		probes_execute(po, *refs, *n, NULL, NULL, &run);
		aw_snapshot_from_run(&run, snap);
		if (output)
			rc = probes_save(cmd, &run, output);
		if (rc != 0)
			aw_snapshot_free(snap);
	}
	aw_run_free(&run);
	return rc;
}

void probes_select(char *const *globs, size_t nglobs, struct aw_probe_ref **refs, size_t *n,
		   char ***later, size_t *nlater)
{
	bool *hit = xcalloc(nglobs + 1, sizeof(*hit));
	aw_select_each(globs, nglobs, refs, n, hit);
	*later = xcalloc(nglobs + 1, sizeof(**later));
	*nlater = 0;
	for (size_t g = 0; g < nglobs; g++)
		if (!hit[g])
			(*later)[(*nlater)++] = globs[g];
	free(hit);
}

int probes_check_later(char *const *later, size_t nlater, const struct aw_probe_ref *refs,
		       size_t n)
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

/* Whether a snapshot at path holds a probe this run does not select: a
 * run of fewer families must not silently replace a fuller snapshot.
 * The first such probe goes to *dropped (malloc'd), with their count.
 * A file that is absent or no snapshot is not protected here. */
static size_t probes_dropped(const char *path, const struct aw_probe_ref *refs, size_t n,
			     char **dropped)
{
	struct aw_snapshot old;
	char *err = NULL;
	size_t count = 0;

	*dropped = NULL;
	if (access(path, F_OK) != 0 || aw_snapshot_load(path, &old, &err) != 0) {
		free(err);
		return 0;
	}
	for (size_t i = 0; i < old.n; i++) {
		const struct aw_record *rec = &old.records[i];
		bool kept = false;
		if (rec->cls != AW_KEY_PROBE)
			continue;
		for (size_t j = 0; j < n && !kept; j++) {
			char name[256];
			kept = strcmp(aw_probe_fullname(&refs[j], name, sizeof(name)), rec->name) == 0;
		}
		if (!kept && count++ == 0)
			*dropped = xstrdup(rec->name);
	}
	aw_snapshot_free(&old);
	return count;
}

static int refuse_smaller(const struct run_opts *a, const char *output,
			  const struct aw_probe_ref *refs, size_t n)
{
	char *first;
	size_t dropped = probes_dropped(output, refs, n, &first);
	if (!dropped || a->pc.force) {
		free(first);
		return 0;
	}
	int rc = usage_error("run", "%s holds %zu probe%s this run does not select (%s%s); "
			     "--force replaces it, -o FILE writes another", output, dropped,
			     dropped == 1 ? "" : "s", first, dropped == 1 ? "" : ", ...");
	free(first);
	return rc;
}

int session_run(struct run_opts *a)
{
	const char *output = a->pc.output;
	char *default_output = NULL;
	struct aw_probe_ref *refs = NULL;
	size_t nrefs, nlater = 0;
	char **later = NULL;
	struct aw_run run = { 0 };
	int rc;

	probes_select(a->globs, a->nglobs, &refs, &nrefs, &later, &nlater);
	if ((rc = probes_prepare("run", &a->pc.probes, &refs, &nrefs, &run)) != 0 ||
	    (rc = probes_check_later(later, nlater, refs, nrefs)) != 0)
		goto out;
	if (!output)
		output = default_output =
			xasprintf("abiwatch-%s.snapshot", aw_env_get(&run.env, "kernel.release"));
	if ((rc = check_writable("run", "the snapshot", output)) != 0 ||
	    (rc = refuse_smaller(a, output, refs, nrefs)) != 0)
		goto out;
	probes_execute(&a->pc.probes, refs, nrefs, a->pc.format, stdout, &run);
	if (a->pc.format->run)
		a->pc.format->run(stdout, &run);
	rc = aw_run_exit_status(&run);
	if (probes_save("run", &run, output) != 0)
		rc = AW_EXIT_USAGE;
	/* On a terminal, what did not pass first (the text report on stdout
	 * says it already); then, whatever stdout and stderr are (a log, a
	 * pipe to tee), the one line with the totals and the snapshot. */
	if (isatty(STDERR_FILENO) && !a->pc.format->run_is_summary)
		aw_run_summary(stderr, &run, a->pc.verbose);
	aw_run_summary_line(stderr, "run", &run, output);
out:
	aw_run_free(&run);
	free(refs);
	free(later);
	free(default_output);
	return rc;
}

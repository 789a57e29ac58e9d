// SPDX-License-Identifier: GPL-2.0-or-later
/* abiwatch bisect: judging one kernel (bisect_judge.h), for every strategy. */
#include "bisect_judge.h"
#include "model/diff.h"
#include "output/format.h"
#include "lib/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* A snapshot kept by an earlier run that can answer the question. */
bool bisect_kept(const struct bisect *b, const char *path, struct aw_snapshot *snap)
{
	char *err = NULL;
	if (access(path, F_OK) != 0)
		return false;
	if (aw_snapshot_load(path, snap, &err) != 0) {
		aw_say(&b->say, "%s: not taken (%s); booting again", path, err);
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
			aw_say(&b->say, "%s", err); /* the answer stands; only its keeping failed */
			free(err);
		}
		if (b->verbose)
			aw_say(&b->say, "%s", summary);
	} else {
		char *console = console_path(path);
		if (r.console && aw_vm_write_text(console, r.console, r.console_len, &err) != 0) {
			aw_say(&b->say, "%s", err);
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
		aw_say(&b->say, "%s: %s (kept from an earlier run: %s)", label, a->value,
			   snapshot_path);
		return JUDGED_KEPT;
	}
	double start = aw_now();
	aw_say(&b->say, "%s: booting %s", label, k->release);
	boot(b, k, snapshot_path, snap, a);
	if (!a->value)
		aw_question_answer(&b->q, snap, a);
	aw_say(&b->say, "%s: %s (%.1f s)", label, a->value, aw_now() - start);
	return JUDGED_BOOTED;
}

void bisect_print_diff(const struct aw_snapshot *before, const char *before_name,
		       const struct aw_snapshot *after, const char *after_name)
{
	struct aw_diff d;
	struct aw_diff_opts none = { 0 };
	aw_diff_compute(before, after, &none, &d);
	printf("\nWhat these probes saw change between the two:\n");
	aw_format_find("text", AW_WRITES_DIFF, NULL)->diff(stdout, &d, before_name, after_name, false);
	aw_diff_free(&d);
}

// SPDX-License-Identifier: GPL-2.0-or-later
/* Comparing snapshots: every kind of change, the environment's part,
 * --ignore, meanings, and the checks a snapshot must pass to be compared. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "output/diff.h"
#include "core/env.h"
#include "core/registry.h"
#include "lib/util.h"
#include "lib/caps.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void parse(const char *text, struct aw_snapshot *s)
{
	char *err = NULL;
	if (aw_snapshot_parse(text, strlen(text), "t", s, &err) != 0)
		fail_msg("%s", err);
}

/* Diff two snapshot bodies (the header is added). */
static void diff_of(const char *old, const char *new, char *const *ignore, size_t nignore,
		    struct aw_diff *d)
{
	char *to = xasprintf("abiwatch-snapshot 1.0\n%s", old);
	char *tn = xasprintf("abiwatch-snapshot 1.0\n%s", new);
	struct aw_snapshot so, sn;
	struct aw_diff_opts opts = { .ignore = ignore, .nignore = nignore };
	parse(to, &so);
	parse(tn, &sn);
	aw_diff_compute(&so, &sn, &opts, d);
	aw_snapshot_free(&so);
	aw_snapshot_free(&sn);
	free(to);
	free(tn);
}

static const struct aw_diff_change *find(const struct aw_diff *d, const char *name)
{
	for (size_t i = 0; i < d->n; i++)
		if (strcmp(d->changes[i].name, name) == 0)
			return &d->changes[i];
	fail_msg("no change of %s", name);
	return NULL;
}

static void expect(const struct aw_diff *d, const char *name, enum aw_diff_kind kind)
{
	const struct aw_diff_change *c = find(d, name);
	if (c->kind != kind)
		fail_msg("%s: %s, expected %s", name, aw_diff_kind_name(c->kind), aw_diff_kind_name(kind));
}

static void test_identical(void **state)
{
	(void)state;
	struct aw_diff d;
	const char *s = "check.a.b.c = pass\nenv.caps = none\nobs.a.b.v = 1\nprobe.a.b = ran\n";
	diff_of(s, s, NULL, 0, &d);
	assert_int_equal(d.n, 0);
	assert_int_equal(d.nenv, 0);
	assert_false(aw_diff_differs(&d));
	aw_diff_free(&d);
}

/* A snapshot without keys is valid (a run of nothing). */
static void test_empty_snapshots(void **state)
{
	(void)state;
	struct aw_diff d;
	diff_of("", "", NULL, 0, &d);
	assert_int_equal(d.n, 0);
	aw_diff_free(&d);
	diff_of("", "env.caps = none\nobs.a.b.c = 1\n", NULL, 0, &d);
	assert_int_equal(d.n, 1);
	assert_int_equal(d.nenv, 1);
	aw_diff_free(&d);
	diff_of("obs.a.b.c = 1\n", "", NULL, 0, &d);
	expect(&d, "obs.a.b.c", AW_DIFF_REMOVED);
	aw_diff_free(&d);
}

static void test_observations(void **state)
{
	(void)state;
	struct aw_diff d;
	diff_of("obs.a.b.gone = 1\nobs.a.b.same = x\nobs.a.b.v = 31\nobs.a.b.w = 5\n"
		"unobserved.a.b.u = error: broke\n",
		"obs.a.b.new = 2\nobs.a.b.same = x\nobs.a.b.u = 7\nobs.a.b.v = 63\n"
		"unobserved.a.b.w = skip: needs a thing\n", NULL, 0, &d);
	assert_int_equal(d.n, 5);
	expect(&d, "obs.a.b.v", AW_DIFF_CHANGED);
	expect(&d, "obs.a.b.new", AW_DIFF_ADDED);
	expect(&d, "obs.a.b.gone", AW_DIFF_REMOVED);
	expect(&d, "obs.a.b.u", AW_DIFF_RECOVERED);
	expect(&d, "obs.a.b.w", AW_DIFF_SKIPPED);
	assert_string_equal(find(&d, "obs.a.b.v")->old_value, "31");
	assert_string_equal(find(&d, "obs.a.b.v")->new_value, "63");
	assert_null(find(&d, "obs.a.b.new")->old_value);
	assert_null(find(&d, "obs.a.b.gone")->new_value);
	assert_true(aw_diff_differs(&d));
	aw_diff_free(&d);
}

static void test_checks_and_probes(void **state)
{
	(void)state;
	struct aw_diff d;
	diff_of("check.a.b.chg = fail: one\ncheck.a.b.err = fail: x\ncheck.a.b.rec = fail: x\n"
		"check.a.b.reg = pass\ncheck.a.b.sk = pass\ncheck.a.b.un = skip: why\n"
		"probe.a.b = ran\nprobe.a.c = ran\n",
		"check.a.b.chg = fail: two\ncheck.a.b.err = error: y\ncheck.a.b.rec = pass\n"
		"check.a.b.reg = timeout: slow\ncheck.a.b.sk = skip: why\ncheck.a.b.un = fail: x\n"
		"probe.a.b = error: crashed\nprobe.a.c = ran\n", NULL, 0, &d);
	assert_int_equal(d.n, 7);
	expect(&d, "check.a.b.chg", AW_DIFF_CHANGED);
	expect(&d, "check.a.b.err", AW_DIFF_CHANGED);
	expect(&d, "check.a.b.rec", AW_DIFF_RECOVERED);
	expect(&d, "check.a.b.reg", AW_DIFF_REGRESSED);
	expect(&d, "check.a.b.sk", AW_DIFF_SKIPPED);
	expect(&d, "check.a.b.un", AW_DIFF_UNSKIPPED);
	expect(&d, "probe.a.b", AW_DIFF_REGRESSED);
	/* Probes first, then checks, then observations. */
	assert_string_equal(d.changes[0].name, "probe.a.b");
	aw_diff_free(&d);
}

static void test_environment_lists(void **state)
{
	(void)state;
	struct aw_diff d;
	diff_of("env.caps = cap_a,cap_b,cap_c\nenv.kernel.release = 6.1\nenv.only.old = x\n",
		"env.caps = cap_a,cap_d\nenv.kernel.release = 6.18\n", NULL, 0, &d);
	assert_int_equal(d.n, 0);
	assert_int_equal(d.nenv, 3);
	assert_false(aw_diff_differs(&d)); /* the environment alone is no difference */
	assert_string_equal(d.env[0].key, "env.caps");
	assert_string_equal(d.env[0].summary, "lost cap_b, cap_c; gained cap_d");
	assert_null(d.env[1].summary);
	assert_null(d.env[2].new_value);
	aw_diff_free(&d);

	diff_of("env.caps = none\n", "env.caps = cap_x,cap_y\n", NULL, 0, &d);
	assert_string_equal(d.env[0].summary, "gained cap_x, cap_y");
	aw_diff_free(&d);
}

static void test_skip_explained_by_capabilities(void **state)
{
	(void)state;
	struct aw_diff d;
	diff_of("check.a.b.c = pass\ncheck.a.b.d = pass\nenv.caps = cap_chown,cap_sys_resource\n"
		"obs.a.b.v = 1\nprobe.a.b = ran\n",
		"check.a.b.c = skip: needs CAP_SYS_RESOURCE, which this process does not hold\n"
		"check.a.b.d = skip: needs a file\nenv.caps = cap_chown\n"
		"probe.a.b = skip: needs CAP_SYS_RESOURCE\n"
		"unobserved.a.b.v = skip: needs CAP_SYS_RESOURCE\n", NULL, 0, &d);
	assert_int_equal(d.n, 4);
	assert_string_equal(find(&d, "check.a.b.c")->cause,
			    "the new environment lacks cap_sys_resource (env.caps)");
	assert_non_null(find(&d, "probe.a.b")->cause);
	assert_non_null(find(&d, "obs.a.b.v")->cause);
	assert_null(find(&d, "check.a.b.d")->cause); /* the reason names no difference */
	assert_true(aw_diff_differs(&d));
	aw_diff_free(&d);

	/* The other way: the old machine lacked it. */
	diff_of("check.a.b.c = skip: needs CAP_SYS_RESOURCE\nenv.caps = none\n",
		"check.a.b.c = pass\nenv.caps = cap_sys_resource\n", NULL, 0, &d);
	expect(&d, "check.a.b.c", AW_DIFF_UNSKIPPED);
	assert_string_equal(d.changes[0].cause,
			    "the old environment lacks cap_sys_resource (env.caps)");
	assert_false(aw_diff_differs(&d));
	aw_diff_free(&d);

	/* A word inside another is not a mention: cap_sys_res is not named. */
	diff_of("check.a.b.c = pass\nenv.caps = cap_sys_res,cap_x\n",
		"check.a.b.c = skip: needs CAP_SYS_RESOURCE\nenv.caps = cap_x\n", NULL, 0, &d);
	assert_null(d.changes[0].cause);
	aw_diff_free(&d);
}

/* A probe of this binary that declares a capability: its skip is the
 * environment's even when the reason does not name the capability. */
static void test_skip_explained_by_declared_needs(void **state)
{
	(void)state;
	const struct aw_family *const *fams;
	size_t nfam = aw_families(&fams);
	for (size_t f = 0; f < nfam; f++) {
		const struct aw_probe *const *probes;
		size_t np = aw_family_probes(fams[f], &probes);
		for (size_t p = 0; p < np; p++) {
			const int *caps = probes[p]->needs.caps;
			if (!caps || *caps < 0 || !probes[p]->items->name)
				continue;
			const char *cap = aw_cap_name(*caps);
			char *item = xasprintf("%s.%s.%s", fams[f]->name, probes[p]->name,
					       probes[p]->items->name);
			const char *kind = probes[p]->items->kind == AW_CHECK ? "check" : "obs";
			char *old = xasprintf("%s.%s = %s\nenv.caps = %s,cap_zzz\n", kind, item,
					      *kind == 'c' ? "pass" : "1", cap);
			char *new = xasprintf("%s.%s = skip: not possible here\nenv.caps = cap_zzz\n",
					      *kind == 'c' ? "check" : "unobserved", item);
			struct aw_diff d;
			diff_of(old, new, NULL, 0, &d);
			assert_int_equal(d.n, 1);
			assert_non_null(d.changes[0].cause);
			assert_non_null(strstr(d.changes[0].cause, cap));
			assert_non_null(d.changes[0].meaning);
			aw_diff_free(&d);
			free(old);
			free(new);
			free(item);
			return;
		}
	}
	skip(); /* no probe declares a capability */
}

/* A probe one side did not run: its keys are the environment's, and only
 * its; a probe both ran still changes. */
static void test_probes_only_one_side_ran(void **state)
{
	(void)state;
	struct aw_diff d;
	diff_of("obs.f.p.x = 1\nobs.f.q.y = 1\nobs.f.qq.z = 1\nprobe.f.p = ran\nprobe.f.q = ran\n"
		"probe.f.qq = ran\n",
		"obs.f.p.x = 2\nobs.f.qq.z = 1\nprobe.f.p = ran\nprobe.f.qq = ran\n", NULL, 0, &d);
	assert_int_equal(d.nenv, 1);
	assert_string_equal(d.env[0].key, "env.probes");
	assert_string_equal(d.env[0].summary, "lost f.q");
	assert_int_equal(d.n, 3);
	expect(&d, "obs.f.p.x", AW_DIFF_CHANGED);
	assert_null(find(&d, "obs.f.p.x")->cause);
	assert_string_equal(find(&d, "obs.f.q.y")->cause,
			    "the new snapshot did not run f.q (env.probes)");
	assert_non_null(find(&d, "probe.f.q")->cause);
	assert_true(aw_diff_differs(&d));
	aw_diff_free(&d);
	/* The same probes on both sides: no env.probes, a key gone is removed. */
	diff_of("obs.f.p.x = 1\nobs.f.p.y = 1\nprobe.f.p = ran\n", "obs.f.p.x = 1\nprobe.f.p = ran\n",
		NULL, 0, &d);
	assert_int_equal(d.nenv, 0);
	assert_null(find(&d, "obs.f.p.y")->cause);
	aw_diff_free(&d);
}

static void test_ignore(void **state)
{
	(void)state;
	struct aw_diff d;
	char *globs[] = { "a.b.c", "obs.*.w", "env.kernel.*", "env.caps" };
	diff_of("check.a.b.c = pass\nenv.caps = cap_sys_resource\nenv.kernel.release = 1\n"
		"obs.a.b.v = 1\nobs.a.b.w = 1\nprobe.a.b = ran\n",
		"check.a.b.c = fail: x\nenv.caps = none\nenv.kernel.release = 2\n"
		"obs.a.b.v = 2\nobs.a.b.w = 2\nprobe.a.b = skip: needs CAP_SYS_RESOURCE\n",
		globs, 4, &d);
	/* The probe stays although one of its checks is ignored. */
	assert_int_equal(d.n, 2);
	expect(&d, "probe.a.b", AW_DIFF_SKIPPED);
	expect(&d, "obs.a.b.v", AW_DIFF_CHANGED);
	/* Ignored env keys are kept, hidden, to explain skips. */
	assert_non_null(find(&d, "probe.a.b")->cause);
	for (size_t i = 0; i < d.nenv; i++)
		assert_true(d.env[i].ignored);
	aw_diff_free(&d);

	char *family[] = { "a" };
	diff_of("obs.a.b.v = 1\nobs.b.c.d = 1\n", "obs.a.b.v = 2\nobs.b.c.d = 2\n", family, 1, &d);
	assert_int_equal(d.n, 1);
	assert_string_equal(d.changes[0].name, "obs.b.c.d");
	aw_diff_free(&d);
}

static void test_meanings_from_the_catalogue(void **state)
{
	(void)state;
	struct aw_diff d;
	diff_of("check.selftest.good.holds = pass\nobs.nosuch.probe.v = 1\n"
		"obs.selftest.good.value = 1\nprobe.selftest.good = ran\n",
		"check.selftest.good.holds = fail: x\nobs.nosuch.probe.v = 2\n"
		"obs.selftest.good.value = 2\nprobe.selftest.good = error: x\n", NULL, 0, &d);
	assert_string_equal(find(&d, "check.selftest.good.holds")->meaning,
			    "the check each selftest probe reports on");
	assert_string_equal(find(&d, "obs.selftest.good.value")->meaning,
			    "the observation the good probe makes");
	assert_string_equal(find(&d, "probe.selftest.good")->meaning,
			    "passes its check and makes its observation");
	assert_null(find(&d, "obs.nosuch.probe.v")->meaning);
	aw_diff_free(&d);
}

/* An object whose changes the catalogue names each gives each part's
 * meaning, the break first: fdio.eventfd's write_16 (8 -> EINVAL) before
 * the fdinfo field that moved, though the field sorts first. */
static void test_object_meaning_per_part(void **state)
{
	(void)state;
	struct aw_diff d;
	diff_of("obs.fdio.eventfd.fdinfo_keys = eventfd-count,eventfd-id\nobs.fdio.eventfd.write_16 = 8\n"
		"probe.fdio.eventfd = ran\n",
		"obs.fdio.eventfd.fdinfo_keys = eventfd-count,eventfd-id,eventfd-semaphore\n"
		"obs.fdio.eventfd.write_16 = EINVAL\nprobe.fdio.eventfd = ran\n", NULL, 0, &d);
	const struct aw_diff_object *o = NULL;
	for (size_t i = 0; i < d.nobjects; i++)
		if (strcmp(d.objects[i].name, "fdio.eventfd") == 0)
			o = &d.objects[i];
	assert_non_null(o);
	char *want = xasprintf("write_16: %s; fdinfo_keys: %s", find(&d, "obs.fdio.eventfd.write_16")->meaning,
			       find(&d, "obs.fdio.eventfd.fdinfo_keys")->meaning);
	assert_string_equal(o->meaning, want);
	free(want);
	aw_diff_free(&d);
}

static void test_other_keys_of_newer_formats(void **state)
{
	(void)state;
	struct aw_diff d;
	diff_of("meta.x = 1\n", "meta.x = 2\nmeta.y = 1\n", NULL, 0, &d);
	assert_int_equal(d.n, 2);
	expect(&d, "meta.x", AW_DIFF_CHANGED);
	expect(&d, "meta.y", AW_DIFF_ADDED);
	assert_int_equal(d.changes[0].cls, AW_DIFF_OTHER);
	aw_diff_free(&d);
}

static char *text_of(const struct aw_diff *d, int format)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	if (format == 0)
		aw_diff_text(f, d, "old.snap", "new.snap", false);
	else if (format == 1)
		aw_diff_ktap(f, d, "old.snap", "new.snap", false);
	else
		aw_diff_json(f, d, "old.snap", "new.snap", false);
	fclose(f);
	return buf;
}

static char *verbose_text_of(const struct aw_diff *d)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	aw_diff_text(f, d, "old.snap", "new.snap", true);
	fclose(f);
	return buf;
}

static void test_text_output(void **state)
{
	(void)state;
	struct aw_diff d;
	diff_of("check.a.b.c = pass\nenv.caps = cap_sys_resource\nobs.a.b.v = 1\n",
		"check.a.b.c = skip: needs CAP_SYS_RESOURCE\nenv.caps = none\nobs.a.b.v = 2\\nx\n",
		NULL, 0, &d);
	char *t = text_of(&d, 0);
	assert_string_equal(t,
		"1 kernel change, 0 new failures (a 1); 1 item not comparable: 1 needs "
		"CAP_SYS_RESOURCE (not on the new side)\n"
		"kernel changes:\n"
		"  changed   obs.a.b.v: 1 -> 2\\nx\n"
		"not comparable, by cause (the environment, not the kernel):\n"
		"  cap_sys_resource: 1 needs CAP_SYS_RESOURCE (not on the new side): check.a.b.c\n"
		"environment (not a kernel change):\n"
		"  env.caps: cap_sys_resource -> none\n");
	free(t);
	t = text_of(&d, 1);
	assert_non_null(strstr(t, "TAP version 13\n1..2\n"));
	/* the kernel changes first, a result per object; then the rest */
	assert_non_null(strstr(t, "\n# 1 kernel change, 0 new failures (a 1); 1 item not comparable"));
	assert_non_null(strstr(t, "\nok 2 check.a.b.c # SKIP needs cap_sys_resource: explained by "
			       "the environment: "));
	assert_non_null(strstr(t, "\nnot ok 1 obs.a.b.v\n"));
	free(t);
	t = text_of(&d, 2);
	assert_non_null(strstr(t, "\"different\":true"));
	assert_non_null(strstr(t, "\"cause\":\"cap_sys_resource\""));
	assert_non_null(strstr(t, "\"cause_side\":\"new\""));
	assert_non_null(strstr(t, "\"kernel_changes\":1"));
	assert_non_null(strstr(t, "\"new_failures\":0"));
	assert_non_null(strstr(t, "\"not_comparable\":1"));
	assert_non_null(strstr(t, "\"label\":\"needs CAP_SYS_RESOURCE (not on the new side)\""));
	free(t);
	aw_diff_free(&d);

	diff_of("obs.a.b.v = 1\n", "obs.a.b.v = 1\n", NULL, 0, &d);
	t = text_of(&d, 0);
	assert_string_equal(t, ""); /* as diff(1): silence when the same */
	free(t);
	aw_diff_free(&d);
}

/* Skips that name their cause ("needs CAUSE: ...") are never kernel
 * changes, whatever the other side saw, and fold by cause and side. */
static void test_named_causes_fold(void **state)
{
	(void)state;
	struct aw_diff d;
	diff_of("check.f.p.a = pass\ncheck.f.p.b = pass\ncheck.f.p.c = fail: x\n"
		"check.f.q.a = skip: needs fs:xfs: mkfs.xfs not found\n"
		"check.f.r.a = pass\nobs.f.p.v = 1\nobs.f.s.v = 1\nobs.f.t.v = 1\n"
		"unobserved.f.p.w = skip: the 32-bit helper failed: openat: ENOTDIR\n",
		"check.f.p.a = skip: needs i386: this kernel runs no i386 programs\n"
		"check.f.p.b = skip: needs i386\ncheck.f.p.c = skip: needs i386: no\n"
		"check.f.q.a = pass\ncheck.f.r.a = skip: needs userns: unshare: EPERM\n"
		"obs.f.p.v = 2\nobs.f.s.v = 1\nobs.f.t.v = 3\n"
		"unobserved.f.p.w = skip: needs i386: no\n", NULL, 0, &d);
	assert_int_equal(d.n, 8);
	assert_string_equal(find(&d, "check.f.p.a")->cause_key, "i386");
	assert_true(find(&d, "check.f.p.a")->new_side);
	/* a failure before is no new failure: the new side could not look */
	assert_string_equal(find(&d, "check.f.p.c")->cause_key, "i386");
	/* a skip for another reason before still folds under the new cause */
	assert_string_equal(find(&d, "obs.f.p.w")->cause_key, "i386");
	assert_string_equal(find(&d, "check.f.q.a")->cause_key, "fs:xfs");
	assert_false(find(&d, "check.f.q.a")->new_side);
	assert_string_equal(find(&d, "check.f.r.a")->cause_key, "userns");
	assert_null(find(&d, "obs.f.p.v")->cause);
	assert_null(find(&d, "obs.f.t.v")->cause);
	char *s = aw_diff_summary(&d);
	assert_string_equal(s, "2 kernel changes, 0 new failures (f 2); 6 items not comparable: "
			       "4 need i386 programs (not on the new side), 1 needs the xfs filesystem "
			       "(not on the old side), 1 needs user namespaces (not on the new side)");
	free(s);
	assert_true(aw_diff_differs(&d));
	aw_diff_free(&d);

	/* Only the environment: exit status 0. */
	diff_of("check.f.p.a = pass\nenv.i386 = yes\n",
		"check.f.p.a = skip: needs i386: x\nenv.i386 = no: x\n", NULL, 0, &d);
	assert_false(aw_diff_differs(&d));
	s = aw_diff_summary(&d);
	assert_string_equal(s, "0 kernel changes, 0 new failures; 1 item not comparable: "
			       "1 needs i386 programs (not on the new side)");
	free(s);
	aw_diff_free(&d);
}

/* Snapshots before causes: a skip whose reason is the side's env.i386
 * refusal is the machine's. */
static void test_i386_without_causes(void **state)
{
	(void)state;
	struct aw_diff d;
	diff_of("check.f.p.a = pass\nenv.i386 = yes\n",
		"check.f.p.a = skip: this kernel runs no i386 programs: exec of h failed\n"
		"env.i386 = no: this kernel runs no i386 programs: exec of h failed\n", NULL, 0, &d);
	assert_string_equal(d.changes[0].cause_key, "i386");
	assert_false(aw_diff_differs(&d));
	aw_diff_free(&d);
	/* another reason is the kernel's */
	diff_of("check.f.p.a = pass\nenv.i386 = yes\n",
		"check.f.p.a = skip: no signal came\nenv.i386 = no: this kernel runs no i386\n",
		NULL, 0, &d);
	assert_null(d.changes[0].cause);
	aw_diff_free(&d);
}

/* The family "zzsized" of tests/fixtures/sized_family.c, linked into
 * this test only: observations sized from the machine (.varies_with). */

static void test_varies_with_the_machine(void **state)
{
	(void)state;
	struct aw_diff d;
	diff_of("env.cpus = 2\nenv.memory = 1073741824\nobs.zzsized.p.default_max = 100\n"
		"obs.zzsized.p.fixed = 1\nobs.zzsized.p.per_cpu = 2\n",
		"env.cpus = 2\nenv.memory = 2147483648\nobs.zzsized.p.default_max = 200\n"
		"obs.zzsized.p.fixed = 2\nobs.zzsized.p.per_cpu = 4\n", NULL, 0, &d);
	assert_int_equal(d.n, 3);
	assert_string_equal(find(&d, "obs.zzsized.p.default_max")->cause_key, "memory");
	/* the CPUs are the same on both sides: a change of per_cpu is the kernel's */
	assert_null(find(&d, "obs.zzsized.p.per_cpu")->cause);
	assert_null(find(&d, "obs.zzsized.p.fixed")->cause);
	/* fixed and per_cpu are items of one object, the probe */
	char *s = aw_diff_summary(&d);
	assert_string_equal(s, "1 kernel change, 0 new failures (zzsized 1); 1 item not comparable: "
			       "1 follows the machine's memory (it differs)");
	free(s);
	aw_diff_free(&d);
	/* The same memory: the kernel's change. */
	diff_of("env.memory = 1\nobs.zzsized.p.default_max = 100\n",
		"env.memory = 1\nobs.zzsized.p.default_max = 200\n", NULL, 0, &d);
	assert_null(d.changes[0].cause);
	aw_diff_free(&d);
}

/* Two boots of Debian's 6.1.192 with equal memory (measured, issue 43):
 * the kernel sized these from the pages free at boot, which differ. */
#define BOOT_ENV "env.memory = 1019387904\nenv.page_size = 4096\n"

static void test_sized_at_boot_folds(void **state)
{
	(void)state;
	struct aw_diff d;
	diff_of(BOOT_ENV "obs.net.initns.net.ipv4.tcp_mem.value = 10446 13928 20892\n"
		"obs.sysctl.knob.fs.file-max.value = 95422\nobs.sysctl.knob.vm.user_reserve_kbytes.value = 29736\n",
		BOOT_ENV "obs.net.initns.net.ipv4.tcp_mem.value = 10443 13924 20886\n"
		"obs.sysctl.knob.fs.file-max.value = 95388\nobs.sysctl.knob.vm.user_reserve_kbytes.value = 29742\n",
		NULL, 0, &d);
	assert_int_equal(d.n, 3);
	for (size_t i = 0; i < d.n; i++) {
		assert_string_equal(d.changes[i].cause_key, "sized");
		assert_non_null(strstr(d.changes[i].cause, "sized at boot by the same formula from other inputs: "));
	}
	assert_false(aw_diff_differs(&d));
	char *s = aw_diff_summary(&d);
	assert_non_null(strstr(s, "3 follow what the kernel had at boot (the same formula from other inputs)"));
	free(s);
	aw_diff_free(&d);
}

/* A list whose elements options decide (surface.text.meminfo.keys): one
 * part per option folded under config:NAME, each from the list before
 * it towards the new one, and the rest the kernel's, its old value the
 * old list with the parts applied. */
static void test_list_elements_fold_by_option(void **state)
{
	(void)state;
	struct aw_diff d;
	diff_of("obs.surface.kconfig.memory_failure = y\nobs.surface.kconfig.zswap = n\n"
		"obs.surface.text.meminfo.keys = MemTotal,SwapFree,Dirty,HardwareCorrupted,Hugetlb\n",
		"obs.surface.kconfig.memory_failure = n\nobs.surface.kconfig.zswap = y\n"
		"obs.surface.text.meminfo.keys = MemTotal,SwapFree,Zswap,Zswapped,Dirty,Balloon,Hugetlb\n",
		NULL, 0, &d);
	const struct aw_diff_change *parts[3] = { NULL };
	size_t np = 0;
	for (size_t i = 0; i < d.n; i++)
		if (strcmp(d.changes[i].name, "obs.surface.text.meminfo.keys") == 0 && np < 3)
			parts[np++] = &d.changes[i];
	assert_int_equal(np, 3);
	assert_null(parts[0]->cause);
	assert_string_equal(parts[0]->old_value, "MemTotal,SwapFree,Zswap,Zswapped,Dirty,Hugetlb");
	assert_string_equal(parts[1]->cause_key, "config:memory_failure");
	assert_true(parts[1]->new_side);
	assert_string_equal(parts[1]->old_value, "MemTotal,SwapFree,Dirty,HardwareCorrupted,Hugetlb");
	assert_string_equal(parts[1]->new_value, "MemTotal,SwapFree,Dirty,Hugetlb");
	assert_non_null(strstr(parts[1]->cause, "HardwareCorrupted: configured out on the new side: "));
	assert_string_equal(parts[2]->cause_key, "config:zswap");
	assert_false(parts[2]->new_side);
	assert_string_equal(parts[2]->new_value, "MemTotal,SwapFree,Zswap,Zswapped,Dirty,Hugetlb");
	aw_diff_free(&d);
	/* Every element explained: the change itself folds, no part apart;
	 * an option absent on the lacking side is no option of that kernel. */
	diff_of("obs.surface.kconfig.unaccepted_memory = absent\nobs.surface.text.meminfo.keys = MemTotal,Hugetlb\n",
		"obs.surface.kconfig.unaccepted_memory = y\nobs.surface.text.meminfo.keys = MemTotal,Unaccepted,Hugetlb\n",
		NULL, 0, &d);
	const struct aw_diff_change *c = find(&d, "obs.surface.text.meminfo.keys");
	assert_string_equal(c->cause_key, "config:unaccepted_memory");
	assert_non_null(strstr(c->cause, "CONFIG_UNACCEPTED_MEMORY is not an option of this kernel"));
	assert_null(strstr(c->cause, "= n"));
	assert_int_equal(d.n, 2); /* the option's own line and the folded list */
	aw_diff_free(&d);
}

/* A value the formula cannot give for the recorded memory is the
 * kernel's, even where the memory differs; so is a triple that breaks
 * tcp_init_mem()'s shape. */
static void test_sized_outside_the_formula(void **state)
{
	(void)state;
	struct aw_diff d;
	diff_of(BOOT_ENV "obs.net.initns.net.ipv4.tcp_mem.value = 10446 13928 20892\n"
		"obs.sysctl.knob.fs.file-max.value = 95422\n",
		"env.memory = 2038775808\nenv.page_size = 4096\n"
		"obs.net.initns.net.ipv4.tcp_mem.value = 10446 13928 27856\n"
		"obs.sysctl.knob.fs.file-max.value = 400000\n", NULL, 0, &d);
	assert_null(find(&d, "obs.sysctl.knob.fs.file-max.value")->cause);
	assert_null(find(&d, "obs.net.initns.net.ipv4.tcp_mem.value")->cause);
	aw_diff_free(&d);
	/* twice the memory, twice the value: the same formula */
	diff_of(BOOT_ENV "obs.sysctl.knob.fs.file-max.value = 95422\n",
		"env.memory = 2038775808\nenv.page_size = 4096\nobs.sysctl.knob.fs.file-max.value = 190844\n",
		NULL, 0, &d);
	assert_string_equal(d.changes[0].cause_key, "sized");
	aw_diff_free(&d);
	/* a running machine's value may be its setting (a host's sysctl.d) */
	diff_of(BOOT_ENV "env.setup = fresh boot\nobs.sysctl.knob.vm.admin_reserve_kbytes.value = 8192\n",
		BOOT_ENV "env.setup = this machine's\nobs.sysctl.knob.vm.admin_reserve_kbytes.value = 258377\n",
		NULL, 0, &d);
	assert_string_equal(d.changes[0].cause_key, "setup");
	aw_diff_free(&d);
	/* a snapshot without env.page_size: memory decides, as before */
	diff_of("env.memory = 1019387904\nobs.sysctl.knob.fs.file-max.value = 95422\n",
		"env.memory = 1019387904\nobs.sysctl.knob.fs.file-max.value = 95388\n", NULL, 0, &d);
	assert_null(d.changes[0].cause);
	aw_diff_free(&d);
}

/* fs.epoll.max_user_watches: eventpoll_init() counts the pages at
 * fs_initcall, before the initramfs is freed.  Two boots of 6.12.118 at
 * equal memory (measured, /tmp/cmp45): 212012 and 211990.  For 247551
 * pages of MemTotal the formula allows (123775 / 25) x 4096 / 184 =
 * 110213 to (247551 / 25) x 4096 / 184 = 220427. */
#define EPOLL_ENV "env.memory = 1013968896\nenv.page_size = 4096\n"
#define EPOLL_KEY "obs.sysctl.knob.fs.epoll.max_user_watches.value"

static const char *epoll_cause(const char *old, const char *new)
{
	char a[256], b[256];
	static char key[32];
	struct aw_diff d;
	snprintf(a, sizeof a, EPOLL_ENV EPOLL_KEY " = %s\n", old);
	snprintf(b, sizeof b, EPOLL_ENV EPOLL_KEY " = %s\n", new);
	diff_of(a, b, NULL, 0, &d);
	assert_int_equal(d.n, 1);
	snprintf(key, sizeof key, "%s", d.changes[0].cause_key ? d.changes[0].cause_key : "none");
	aw_diff_free(&d);
	return key;
}

static void test_sized_epoll_watches_band(void **state)
{
	(void)state;
	assert_string_equal(epoll_cause("212012", "211990"), "sized");
	assert_string_equal(epoll_cause("212012", "220427"), "sized");
	assert_string_equal(epoll_cause("212012", "110213"), "sized");
	/* one past either end: a formula that changed */
	assert_string_equal(epoll_cause("212012", "220428"), "none");
	assert_string_equal(epoll_cause("212012", "110212"), "none");
	/* 176-byte items at the boot's pages: outside the band */
	assert_string_equal(epoll_cause("212012", "221696"), "none");
}

/* kernel.nmi_watchdog follows the PMU: a machine without one (TCG) on
 * either side cannot show the kernel's interface; with one on both, a
 * change is the kernel's. */
static void test_pmu_folds_nmi_watchdog(void **state)
{
	(void)state;
	struct aw_diff d;
	const char *no = "env.pmu = no: perf_event_open(PERF_COUNT_HW_CPU_CYCLES): ENOENT\n";
	char *o = xasprintf("%sobs.sysctl.knob.kernel.nmi_watchdog.mode = 0644\n", no);
	char *n = xasprintf("%sobs.sysctl.knob.kernel.nmi_watchdog.mode = 0444\n", no);
	diff_of(o, n, NULL, 0, &d);
	assert_string_equal(d.changes[0].cause_key, "pmu");
	assert_false(aw_diff_differs(&d));
	aw_diff_free(&d);
	diff_of("env.pmu = yes\nobs.sysctl.knob.kernel.nmi_watchdog.mode = 0644\n", n, NULL, 0, &d);
	assert_string_equal(find(&d, "obs.sysctl.knob.kernel.nmi_watchdog.mode")->cause_key, "pmu");
	aw_diff_free(&d);
	diff_of("env.pmu = yes\nobs.sysctl.knob.kernel.nmi_watchdog.mode = 0644\n",
		"env.pmu = yes\nobs.sysctl.knob.kernel.nmi_watchdog.mode = 0444\n", NULL, 0, &d);
	assert_null(d.changes[0].cause);
	aw_diff_free(&d);
	free(o);
	free(n);
}

/* Whether the CRNG is ready when init starts follows RDRAND and RDSEED
 * (env.cpu_features): a CPU model without them is the machine's doing. */
static void test_cpu_features_fold_the_boot_pool(void **state)
{
	(void)state;
	struct aw_diff d;
	diff_of("env.cpu_features = rdrand,rdseed,umip\nobs.time.boot_pool.at_init = ok\n",
		"env.cpu_features = none\nobs.time.boot_pool.at_init = EAGAIN\n", NULL, 0, &d);
	assert_string_equal(find(&d, "obs.time.boot_pool.at_init")->cause_key, "cpu_features");
	assert_false(aw_diff_differs(&d));
	aw_diff_free(&d);
	diff_of("env.cpu_features = none\nobs.time.boot_pool.at_init = ok\n",
		"env.cpu_features = none\nobs.time.boot_pool.at_init = EAGAIN\n", NULL, 0, &d);
	assert_null(d.changes[0].cause);
	aw_diff_free(&d);
}

/* The time family's TAI offset follows the clock's set-up (env.clock):
 * a machine whose NTP daemon set the offset is the machine's doing, the
 * same set-up with another offset the kernel's. */
static void test_varies_with_the_clock(void **state)
{
	(void)state;
	struct aw_diff d;
	diff_of("env.clock = unsynchronized, tai 0, suspends 0\nobs.time.clocks.tai_offset = 0\n",
		"env.clock = synchronized, tai 37, suspends 0\nobs.time.clocks.tai_offset = 37\n",
		NULL, 0, &d);
	assert_string_equal(find(&d, "obs.time.clocks.tai_offset")->cause_key, "clock");
	char *s = aw_diff_summary(&d);
	assert_non_null(strstr(s, "1 follows the machine's clock set-up (NTP, TAI offset, suspends) "
			       "(it differs)"));
	free(s);
	aw_diff_free(&d);
	diff_of("env.clock = synchronized, tai 37, suspends 0\nobs.time.clocks.tai_offset = 37\n",
		"env.clock = synchronized, tai 37, suspends 0\nobs.time.clocks.tai_offset = 0\n",
		NULL, 0, &d);
	assert_null(d.changes[0].cause);
	aw_diff_free(&d);
}

/* --verbose lists every folded name; without it, the first three. */
static void test_folding_lines(void **state)
{
	(void)state;
	struct aw_diff d;
	diff_of("check.f.p.a = pass\ncheck.f.p.b = pass\ncheck.f.p.c = pass\ncheck.f.p.d = pass\n",
		"check.f.p.a = skip: needs i386\ncheck.f.p.b = skip: needs i386\n"
		"check.f.p.c = skip: needs i386\ncheck.f.p.d = skip: needs i386\n", NULL, 0, &d);
	char *t = text_of(&d, 0);
	assert_non_null(strstr(t, "  i386: 4 need i386 programs (not on the new side): check.f.p.a, "
			       "check.f.p.b, check.f.p.c and 1 more\n"));
	free(t);
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	aw_diff_text(f, &d, "o", "n", true);
	fclose(f);
	assert_non_null(strstr(buf, "  i386: 4 need i386 programs (not on the new side)\n"
				 "    skipped   check.f.p.a: pass -> skip: needs i386 [the new side needs "
				 "i386 (env.i386)]\n"));
	assert_non_null(strstr(buf, "    skipped   check.f.p.d:"));
	free(buf);
	aw_diff_free(&d);
}

static const struct aw_diff_object *object(const struct aw_diff *d, const char *name)
{
	for (size_t i = 0; i < d->nobjects; i++)
		if (strcmp(d->objects[i].name, name) == 0)
			return &d->objects[i];
	fail_msg("no object %s", name);
	return NULL;
}

/* The same change of the same item on sibling probes (one per
 * filesystem) is one line, the probes as a set; another value is a line
 * of its own; --verbose keeps every object apart. */
static void test_alike_on_siblings(void **state)
{
	(void)state;
	struct aw_diff d;
	diff_of("obs.zzsized.o.other.count = 1\nobs.zzsized.o.thing.count = 1\n"
		"obs.zzsized.p.other.count = 1\nobs.zzsized.p.thing.count = 1\n",
		"obs.zzsized.o.other.count = 2\nobs.zzsized.o.thing.count = 2\n"
		"obs.zzsized.p.other.count = 3\nobs.zzsized.p.thing.count = 2\n", NULL, 0, &d);
	assert_int_equal(d.nobjects, 4);
	char *t = text_of(&d, 0);
	assert_non_null(strstr(t, "\n  changed   obs.zzsized.{o,p}.thing.count: 1 -> 2\n"));
	assert_non_null(strstr(t, "\n  changed   obs.zzsized.o.other.count: 1 -> 2\n"));
	assert_non_null(strstr(t, "\n  changed   obs.zzsized.p.other.count: 1 -> 3\n"));
	assert_null(strstr(t, "obs.zzsized.p.thing.count"));
	assert_non_null(strstr(t, "4 kernel changes"));
	free(t);
	t = verbose_text_of(&d);
	assert_non_null(strstr(t, "\n  changed   obs.zzsized.p.thing.count: 1 -> 2\n"));
	assert_null(strstr(t, "{"));
	free(t);
	aw_diff_free(&d);
}

/* A long value that is a set of names (a directory's files) changes as
 * what moved, in the object's line; --verbose keeps both whole values.
 * Short values and values that are no such sets stay as they are. */
static void test_set_delta(void **state)
{
	(void)state;
	struct aw_diff d;
	diff_of("obs.zzsized.o.moved.value = 1\n"
		"obs.zzsized.o.whole = cgroup.procs cgroup.stat cpu.max cpu.weight memory.max "
		"memory.low memory.high pids.max io.weight\n",
		"obs.zzsized.o.moved.value = 2\n"
		"obs.zzsized.o.whole = cgroup.procs cgroup.stat cpu.max cpu.weight memory.max "
		"memory.low memory.peak pids.max io.weight pids.peak\n", NULL, 0, &d);
	char *t = text_of(&d, 0);
	assert_non_null(strstr(t, "  changed   obs.zzsized.o.whole: 9 -> 10: +memory.peak "
				  "+pids.peak -memory.high -- of the probe itself\n"));
	assert_non_null(strstr(t, "  changed   obs.zzsized.o.moved.value: 1 -> 2 -- "));
	free(t);
	t = verbose_text_of(&d);
	assert_non_null(strstr(t, "obs.zzsized.o.whole: cgroup.procs cgroup.stat cpu.max cpu.weight "
				  "memory.max memory.low memory.high pids.max io.weight -> "));
	free(t);
	aw_diff_free(&d);
	/* Comma lists of names at any size, "none" for none; an errno stays. */
	diff_of("obs.zzsized.o.flags = none\nobs.zzsized.o.list = ENOSYS\n",
		"obs.zzsized.o.flags = LONG_FLAG_NAME_ONE,LONG_FLAG_NAME_TWO,LONG_FLAG_NAME_THREE\n"
		"obs.zzsized.o.list = a,b\n", NULL, 0, &d);
	t = text_of(&d, 0);
	assert_non_null(strstr(t, "flags: 0 -> 3: +LONG_FLAG_NAME_ONE +LONG_FLAG_NAME_TWO "
				  "+LONG_FLAG_NAME_THREE"));
	assert_non_null(strstr(t, "list: ENOSYS -> a,b"));
	assert_null(strstr(t, "..."));
	free(t);
	aw_diff_free(&d);
}

/* Objects: an item's .object, else its name less the last component,
 * else the probe; .absent values and missing keys make an object appear
 * or vanish; ranks and order; one line per object. */
static void test_objects(void **state)
{
	(void)state;
	struct aw_diff d;
	diff_of("obs.zzsized.o.compat.flag = ENOSYS\nobs.zzsized.o.flag.accepted = ENOSYS\n"
		"obs.zzsized.o.flag.mode = 0600\nobs.zzsized.o.gone.mode = 0644\n"
		"obs.zzsized.o.gone.value = 1\nobs.zzsized.o.moved.value = 1\n"
		"obs.zzsized.o.whole = a\n",
		"obs.zzsized.o.compat.flag = 0\nobs.zzsized.o.flag.accepted = 0\n"
		"obs.zzsized.o.flag.mode = 0700\nobs.zzsized.o.moved.value = 2\n"
		"obs.zzsized.o.net.new.mode = 0644\nobs.zzsized.o.net.new.value = 5\n"
		"obs.zzsized.o.whole = b\n", NULL, 0, &d);
	assert_int_equal(d.n, 9);
	assert_int_equal(d.nobjects, 5);
	assert_string_equal(find(&d, "obs.zzsized.o.compat.flag")->object, "zzsized.o.flag");
	assert_string_equal(find(&d, "obs.zzsized.o.whole")->object, "zzsized.o");
	assert_string_equal(find(&d, "obs.zzsized.o.net.new.value")->object, "zzsized.o.net.new");
	assert_true(find(&d, "obs.zzsized.o.flag.accepted")->old_absent);
	assert_false(find(&d, "obs.zzsized.o.flag.mode")->old_absent);
	const struct aw_diff_object *flag = object(&d, "zzsized.o.flag");
	assert_int_equal(flag->n, 3);
	/* ENOSYS -> 0 beside a mode that moved: a behaviour change, named */
	assert_int_equal(flag->shape, AW_SHAPE_CHANGED);
	assert_int_equal(flag->rank, AW_RANK_NAMED);
	assert_int_equal(object(&d, "zzsized.o.gone")->shape, AW_SHAPE_VANISHED);
	assert_int_equal(object(&d, "zzsized.o.gone")->rank, AW_RANK_NAMED);
	assert_int_equal(object(&d, "zzsized.o.net.new")->rank, AW_RANK_APPEARED);
	assert_int_equal(object(&d, "zzsized.o.moved")->rank, AW_RANK_BEHAVIOUR);
	/* ranked: named (by name), behaviour, appeared */
	assert_string_equal(d.objects[0].name, "zzsized.o.flag");
	assert_string_equal(d.objects[1].name, "zzsized.o.gone");
	assert_int_equal(d.objects[4].rank, AW_RANK_APPEARED);
	assert_int_equal(d.nfamilies, 1);
	assert_int_equal(d.families[0].changed, 3);
	assert_int_equal(d.families[0].appeared, 1);
	assert_int_equal(d.families[0].vanished, 1);
	char *t = text_of(&d, 0);
	assert_string_equal(t,
		"5 kernel changes, 0 new failures (zzsized 3 + 1 appeared + 1 vanished); "
		"0 items not comparable\n"
		"kernel changes:\n"
		"  changed   zzsized.o.flag: compat.flag, accepted: ENOSYS -> 0; "
		"mode: 0600 -> 0700 -- accepted: programs passing the flag fail, or start working; "
		"mode: the mode moved\n"
		"  vanished  zzsized.o.gone: mode (was 0644); value (was 1) -- a knob's mode\n"
		"  changed   obs.zzsized.o.whole: a -> b -- of the probe itself\n"
		"  changed   obs.zzsized.o.moved.value: 1 -> 2 -- a knob's value\n"
		"interfaces that appeared (1, nothing that worked breaks):\n"
		"  zzsized.o 1: net.new\n");
	free(t);
	t = text_of(&d, 1);
	assert_non_null(strstr(t, "1..5\n"));
	assert_non_null(strstr(t, "\nnot ok 1 zzsized.o.flag\n"));
	assert_non_null(strstr(t, "\nnot ok 3 obs.zzsized.o.whole\n"));
	free(t);
	t = text_of(&d, 2);
	assert_non_null(strstr(t, "\"rank\":\"appeared\""));
	assert_non_null(strstr(t, "\"shape\":\"vanished\""));
	assert_non_null(strstr(t, "\"kernel_change_items\":9"));
	assert_non_null(strstr(t, "\"object\":\"zzsized.o.flag\""));
	free(t);
	aw_diff_free(&d);

	/* Only absent -> present: the flag appeared; "absent (*" matches. */
	diff_of("obs.zzsized.o.flag.accepted = absent (CONFIG_X=y)\n",
		"obs.zzsized.o.flag.accepted = 0\n", NULL, 0, &d);
	assert_int_equal(d.objects[0].shape, AW_SHAPE_APPEARED);
	aw_diff_free(&d);
	/* Absent on both sides, in other words: no interface came or went,
	 * but the values differ. */
	diff_of("obs.zzsized.o.flag.accepted = ENOSYS\n", "obs.zzsized.o.flag.accepted = absent (x)\n",
		NULL, 0, &d);
	assert_int_equal(d.objects[0].shape, AW_SHAPE_CHANGED);
	aw_diff_free(&d);
}

/* The environment among objects: skips of one cause compare equal; a
 * pattern item's keys one side lacks where it skipped their object. */
static void test_objects_environment(void **state)
{
	(void)state;
	struct aw_diff d;
	diff_of("unobserved.zzsized.o.whole = skip: needs kconfig: none at /boot/config-6.1\n",
		"unobserved.zzsized.o.whole = skip: needs kconfig: none at /boot/config-6.12\n", NULL, 0, &d);
	assert_int_equal(d.n, 0);
	aw_diff_free(&d);
	/* other causes: the new side's, folded */
	diff_of("unobserved.zzsized.o.whole = skip: needs i386: x\n",
		"unobserved.zzsized.o.whole = skip: needs vm: y\n", NULL, 0, &d);
	assert_int_equal(d.n, 1);
	assert_string_equal(d.changes[0].cause_key, "vm");
	assert_int_equal(d.nobjects, 0);
	aw_diff_free(&d);
	/* the child's files skipped for want of a VM: its defaults are not
	 * a vanished interface */
	diff_of("obs.zzsized.o.lim.cpu.max.value = max\nobs.zzsized.o.lim.pids.max.value = max\n"
		"obs.zzsized.o.lim_files = a b\nobs.zzsized.o.net.x.mode = 0644\n",
		"obs.zzsized.o.net.x.mode = 0644\n"
		"unobserved.zzsized.o.lim_files = skip: needs vm: only in a guest\n", NULL, 0, &d);
	assert_int_equal(d.n, 3);
	assert_int_equal(d.nobjects, 0);
	assert_string_equal(find(&d, "obs.zzsized.o.lim.cpu.max.value")->cause_key, "vm");
	assert_true(find(&d, "obs.zzsized.o.lim.cpu.max.value")->new_side);
	aw_diff_free(&d);
	/* ...but a key of a fixed item is not explained that way */
	diff_of("obs.zzsized.o.compat.flag = 1\nobs.zzsized.o.whole = 1\n",
		"unobserved.zzsized.o.compat.flag = skip: needs i386: no\n", NULL, 0, &d);
	assert_null(find(&d, "obs.zzsized.o.whole")->cause);
	assert_int_equal(d.nobjects, 1);
	aw_diff_free(&d);
}

static void test_minor_versions(void **state)
{
	(void)state;
	struct aw_snapshot a, b;
	struct aw_diff d;
	char *err = NULL;
	const char *ta = "abiwatch-snapshot 1.0\nobs.a.b.v = 1\n";
	const char *tb = "abiwatch-snapshot 1.4\nobs.a.b.v = 1\nzzz.new.key = 1\n";
	assert_int_equal(aw_snapshot_parse(ta, strlen(ta), "a", &a, &err), 0);
	assert_int_equal(aw_snapshot_parse(tb, strlen(tb), "b", &b, &err), 0);
	aw_diff_compute(&a, &b, NULL, &d);
	char *t = text_of(&d, 0);
	assert_non_null(strstr(t, "formats differ: old.snap is format 1.0, new.snap is 1.4; "
			       "both are format 1, so they are compared"));
	/* a key only one side has appeared: its name on the line of what appeared */
	assert_non_null(strstr(t, "interfaces that appeared (1, nothing that worked breaks):\n"
			       "  zzz 1: new\n"));
	free(t);
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	aw_diff_text(f, &d, "o", "n", true);
	fclose(f);
	assert_non_null(strstr(buf, "added     zzz.new.key = 1"));
	free(buf);
	aw_diff_free(&d);
	aw_snapshot_free(&a);
	aw_snapshot_free(&b);
}

/* The gate: by default an interface that appeared and a check that now
 * passes fail nothing; a behaviour change and a new failure do; "any"
 * fails every object, "none" none. */
static const struct aw_diff_object *object_named(const struct aw_diff *d, const char *name)
{
	for (size_t i = 0; i < d->nobjects; i++)
		if (strcmp(d->objects[i].name, name) == 0)
			return &d->objects[i];
	fail_msg("no object %s", name);
	return NULL;
}

static void test_gate(void **state)
{
	(void)state;
	struct aw_diff d;
	enum aw_diff_gate g;
	diff_of("check.a.b.c = fail: x\ncheck.a.d.c = pass\nobs.a.e.v = 1\n",
		"check.a.b.c = pass\ncheck.a.d.c = pass\nobs.a.e.v = 1\nobs.a.f.v = 3\n", NULL, 0, &d);
	assert_int_equal(d.fail_on, AW_GATE_BREAKING);
	assert_int_equal(d.nobjects, 2);
	assert_false(aw_diff_object_fails(&d, object_named(&d, "a.b")));
	assert_false(aw_diff_object_fails(&d, object_named(&d, "a.f")));
	assert_false(aw_diff_fails(&d));
	d.fail_on = AW_GATE_ANY;
	assert_true(aw_diff_object_fails(&d, object_named(&d, "a.f")));
	assert_true(aw_diff_fails(&d));
	aw_diff_free(&d);

	diff_of("check.a.d.c = pass\nobs.a.e.v = 1\n", "check.a.d.c = fail: y\nobs.a.e.v = 2\n", NULL, 0, &d);
	assert_true(aw_diff_object_fails(&d, object_named(&d, "a.d")));
	assert_true(aw_diff_object_fails(&d, object_named(&d, "a.e")));
	d.fail_on = AW_GATE_NONE;
	assert_false(aw_diff_fails(&d));
	aw_diff_free(&d);

	assert_int_equal(aw_diff_gate_parse("any", &g), 0);
	assert_int_equal(g, AW_GATE_ANY);
	assert_string_equal(aw_diff_gate_name(g), "any");
	assert_int_equal(aw_diff_gate_parse("breaking", &g), 0);
	assert_int_equal(g, AW_GATE_BREAKING);
	assert_int_equal(aw_diff_gate_parse("Any", &g), -1);
	assert_int_equal(aw_diff_gate_parse("", &g), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_identical),
		cmocka_unit_test(test_empty_snapshots),
		cmocka_unit_test(test_observations),
		cmocka_unit_test(test_checks_and_probes),
		cmocka_unit_test(test_environment_lists),
		cmocka_unit_test(test_skip_explained_by_capabilities),
		cmocka_unit_test(test_skip_explained_by_declared_needs),
		cmocka_unit_test(test_probes_only_one_side_ran),
		cmocka_unit_test(test_ignore),
		cmocka_unit_test(test_meanings_from_the_catalogue),
		cmocka_unit_test(test_other_keys_of_newer_formats),
		cmocka_unit_test(test_text_output),
		cmocka_unit_test(test_minor_versions),
		cmocka_unit_test(test_named_causes_fold),
		cmocka_unit_test(test_i386_without_causes),
		cmocka_unit_test(test_varies_with_the_machine),
		cmocka_unit_test(test_varies_with_the_clock),
		cmocka_unit_test(test_sized_at_boot_folds),
		cmocka_unit_test(test_list_elements_fold_by_option),
		cmocka_unit_test(test_sized_outside_the_formula),
		cmocka_unit_test(test_sized_epoll_watches_band),
		cmocka_unit_test(test_pmu_folds_nmi_watchdog),
		cmocka_unit_test(test_cpu_features_fold_the_boot_pool),
		cmocka_unit_test(test_folding_lines),
		cmocka_unit_test(test_objects),
		cmocka_unit_test(test_gate),
		cmocka_unit_test(test_object_meaning_per_part),
		cmocka_unit_test(test_set_delta),
		cmocka_unit_test(test_alike_on_siblings),
		cmocka_unit_test(test_objects_environment),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

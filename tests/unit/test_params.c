// SPDX-License-Identifier: GPL-2.0-or-later
/* Family options: declared with a type, checked as they are given, read
 * typed by probes from their ctx (the dirent family's serve as examples:
 * --entries, --dirent-timing, --fs, --path). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "core/context.h"
#include "core/params.h"
#include "cmd/guest_options.h"

#include <stdlib.h>
#include <string.h>

static void test_declarations_whole(void **state)
{
	(void)state;
	const struct aw_family *const *fams;
	size_t n = aw_families(&fams), checked = 0;
	for (size_t f = 0; f < n; f++) {
		for (const struct aw_param *p = fams[f]->params; p && p->name; p++) {
			char *why = NULL;
			if (aw_param_check_declared(fams[f], p, &why) != 0)
				fail_msg("%s", why);
			checked++;
		}
	}
	assert_true(checked >= 4);
}

/* Adding name=value is refused, and why says expected. */
static void refused(const char *name, const char *value, const char *expected)
{
	struct aw_params ps = { 0 };
	char *why = NULL;
	assert_int_equal(aw_params_add(&ps, name, value, &why), -1);
	assert_non_null(why);
	if (!strstr(why, expected))
		fail_msg("--%s %s: '%s' does not say '%s'", name, value, why, expected);
	free(why);
	aw_params_free(&ps);
}

static void test_bad_values(void **state)
{
	(void)state;
	refused("entries", "0", "expected a whole number from 1 to 1000000");
	refused("entries", "1000001", "from 1 to 1000000");
	refused("entries", "12x", "from 1 to 1000000");
	refused("entries", " 5", "from 1 to 1000000");
	refused("entries", "+5", "from 1 to 1000000");
	refused("entries", "0x10", "from 1 to 1000000");
	refused("entries", "", "from 1 to 1000000");
	refused("entries", "99999999999999999999", "from 1 to 1000000");
	refused("dirent-timing", "maybe", "expected yes or no");
	refused("dirent-fs", "ext5", "the dirent family has no probe 'ext5'");
	refused("vfs-fs", "ext5", "the vfs family has no probe 'ext5'");
	/* A family's option name alone is not an option: --timing is not --dirent-timing. */
	refused("timing", "yes", "no family takes --timing");
	refused("fs", "ext5", "the dirent family has no probe 'ext5'");
	refused("fs", "tmpfs,,ext4", "an empty name");
	refused("fs", "", "an empty name");
	refused("path", "nolabel", "expected LABEL=DIR");
	refused("path", "bad/label=/tmp", "the label may hold");
	refused("path", "ext4=/tmp", "dirent.ext4 exists already");
	refused("path", "f=/etc/passwd", "is not a directory");
	refused("no-such-option", "1", "no family takes --no-such-option");
}

static void test_typed_values(void **state)
{
	(void)state;
	struct aw_params ps = { 0 };
	const struct aw_family *dirent = NULL, *vfs = NULL;
	assert_non_null(aw_param_find("dirent-fs", &dirent));
	assert_non_null(aw_param_find("vfs-fs", &vfs));
	struct aw_ctx ctx = { .params = &ps, .family = dirent }, vctx = { .params = &ps, .family = vfs };
	char *why = NULL;

	/* Not given: the declared defaults. */
	assert_int_equal(aw_param_int(&ctx, "entries"), 10000);
	assert_int_equal(aw_param_enum(&ctx, "timing"), 1);
	assert_string_equal(aw_param_text(&ctx, "timing"), "no");
	assert_null(aw_param_text(&ctx, "fs"));
	/* Given: the last value wins, whichever spelling gave it. */
	assert_int_equal(aw_params_add(&ps, "dirent-entries", "7", &why), 0);
	assert_int_equal(aw_params_add(&ps, "entries", "1000000", &why), 0);
	assert_int_equal(aw_params_add(&ps, "dirent-timing", "yes", &why), 0);
	assert_int_equal(aw_params_add(&ps, "fs", "tmpfs,ext*", &why), 0);
	assert_int_equal(aw_params_add(&ps, "vfs-fs", "anon", &why), 0);
	assert_int_equal(aw_param_int(&ctx, "entries"), 1000000);
	assert_int_equal(aw_param_enum(&ctx, "timing"), 0);
	/* Each family reads its own fs. */
	assert_string_equal(aw_param_text(&ctx, "fs"), "tmpfs,ext*");
	assert_string_equal(aw_param_text(&vctx, "fs"), "anon");
	aw_params_free(&ps);
}

static void test_selection_and_made_probes(void **state)
{
	(void)state;
	struct aw_params ps = { 0 };
	struct aw_probe_ref *refs = NULL;
	size_t n = 0, unmatched;
	char *why = NULL;
	const char *globs[] = { "dirent" };

	assert_int_equal(aw_params_add(&ps, "path", "mine=/tmp", &why), 0);
	/* Two --path of one label would make one name twice. */
	assert_int_equal(aw_params_add(&ps, "path", "mine=/tmp", &why), -1);
	assert_non_null(strstr(why, "dirent.mine exists already"));
	free(why);
	assert_int_equal(aw_params_add(&ps, "fs", "tmpfs", &why), 0);
	assert_int_equal(aw_select((char **)globs, 1, &refs, &n, &unmatched), 0);
	assert_int_equal(aw_params_apply(&ps, &refs, &n, &why), 0);
	assert_int_equal(n, 2);
	assert_string_equal(refs[0].probe->name, "tmpfs");
	assert_string_equal(refs[1].probe->name, "mine");
	free(refs);
	aw_params_free(&ps);
}

/* A probe's own timeout grows with the entries it is asked to make: a
 * bound made for 10,000 must not call a million a hang (issue 44: a
 * 6.12 guest's ext4 and xfs hit 300 s at 1,000,000). */
static void test_timeout_follows_entries(void **state)
{
	(void)state;
	struct aw_params ps = { 0 };
	struct aw_probe_ref *refs = NULL;
	size_t n = 0, unmatched;
	char *why = NULL;
	const char *globs[] = { "dirent.ext4", "mm.vm" };

	assert_int_equal(aw_select((char **)globs, 2, &refs, &n, &unmatched), 0);
	assert_int_equal(n, 2);
	const struct aw_probe_ref *dirent = strcmp(refs[0].family->name, "dirent") ? &refs[1] : refs;
	const struct aw_probe_ref *other = dirent == refs ? &refs[1] : refs;
	double at_default = aw_params_timeout(&ps, dirent->family, dirent->probe);
	assert_true(at_default == (double)dirent->probe->timeout_s);
	double fixed = aw_params_timeout(&ps, other->family, other->probe);
	assert_int_equal(aw_params_add(&ps, "entries", "100", &why), 0);
	assert_true(aw_params_timeout(&ps, dirent->family, dirent->probe) == at_default);
	assert_int_equal(aw_params_add(&ps, "entries", "1000000", &why), 0);
	double at_million = aw_params_timeout(&ps, dirent->family, dirent->probe);
	assert_true(at_million == at_default + 990000 * dirent->probe->timeout_per_unit_s);
	assert_true(at_million > 10 * at_default);
	/* Another family's probe keeps its own. */
	assert_true(aw_params_timeout(&ps, other->family, other->probe) == fixed);
	free(refs);
	aw_params_free(&ps);
}

static bool near(double a, double b)
{
	return a - b < 1e-6 && b - a < 1e-6;
}

/* A whole run's time limit elsewhere (abiwatch vm's and matrix's guest):
 * 300 s for the options' defaults, plus what the options add to each
 * probe selected; the user's --timeout is the limit whatever they ask. */
static void test_run_timeout_follows_work(void **state)
{
	(void)state;
	struct aw_params ps = { 0 };
	struct aw_probe_ref *refs = NULL;
	size_t n = 0, unmatched;
	char *why = NULL;
	const char *globs[] = { "dirent", "mm.vm" };

	assert_int_equal(aw_select((char **)globs, 2, &refs, &n, &unmatched), 0);
	assert_true(aw_params_run_timeout(&ps, refs, n, 300, 0) == 300);
	assert_int_equal(aw_params_add(&ps, "entries", "10000", &why), 0);
	assert_true(aw_params_run_timeout(&ps, refs, n, 300, 0) == 300);
	assert_true(aw_params_run_timeout(&ps, refs, n, 300, 42) == 42);
	assert_int_equal(aw_params_add(&ps, "entries", "1000000", &why), 0);
	size_t dirents = 0;
	double per = 0;
	for (size_t i = 0; i < n; i++) {
		if (strcmp(refs[i].family->name, "dirent") == 0) {
			dirents++;
			per = 990000 * refs[i].probe->timeout_per_unit_s;
		}
	}
	assert_int_equal(dirents, 6);
	double million = aw_params_run_timeout(&ps, refs, n, 300, 0);
	assert_true(near(million, (300 + 6 * per)));
	assert_true(million > 300);
	assert_true(aw_params_run_timeout(&ps, refs, n, 300, 42) == 42);
	/* --fs narrows the probes that add; a --path of the guest's (no such
	 * directory here, never looked at) adds one more. */
	assert_int_equal(aw_params_add_elsewhere(&ps, "fs", "tmpfs", &why), 0);
	assert_int_equal(aw_params_add_elsewhere(&ps, "path", "ev=/no/such/guest/dir", &why), 0);
	assert_int_equal(aw_params_add_elsewhere(&ps, "entries", "many", &why), -1);
	free(why);
	assert_int_equal(aw_params_apply(&ps, &refs, &n, &why), 0);
	assert_int_equal(n, 2); /* dirent.tmpfs, mm.vm */
	assert_true(near(aw_params_run_timeout(&ps, refs, n, 300, 0), (300 + 2 * per)));
	free(refs);
	aw_params_free(&ps);
}

/* vm's and matrix's default follows their RUN-ARGS, options after the
 * globs too; a --timeout given wins. */
static void test_guest_timeout_for_run(void **state)
{
	(void)state;
	const char *args[] = { "dirent.ext4", "--entries", "1000000", "-j", "2", "dirent.xfs" };
	struct aw_vm_opts vm;
	aw_guest_opts_init(&vm);
	vm.run_args = (char *const *)args;
	vm.nrun_args = 3;
	aw_guest_timeout_for_run(&vm);
	assert_true(near(vm.timeout_s, (300 + 990000 * 0.003)));
	vm.nrun_args = 6;
	aw_guest_timeout_for_run(&vm);
	assert_true(near(vm.timeout_s, (300 + 2 * 990000 * 0.003)));
	vm.nrun_args = 1; /* the default 10,000 entries: the old 300 s */
	aw_guest_timeout_for_run(&vm);
	assert_true(vm.timeout_s == AW_VM_DEFAULT_TIMEOUT_S);
	/* As aw_guest_option() leaves an explicit --timeout. */
	vm.timeout_stretches = false;
	vm.timeout_s = 600;
	vm.nrun_args = 6;
	aw_guest_timeout_for_run(&vm);
	assert_true(vm.timeout_s == 600);
	aw_guest_opts_free(&vm);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_declarations_whole),
		cmocka_unit_test(test_bad_values),
		cmocka_unit_test(test_typed_values),
		cmocka_unit_test(test_selection_and_made_probes),
		cmocka_unit_test(test_timeout_follows_entries),
		cmocka_unit_test(test_run_timeout_follows_work),
		cmocka_unit_test(test_guest_timeout_for_run),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

// SPDX-License-Identifier: GPL-2.0-or-later
/* Selection by glob, and the consistency of every table linked in. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "core/registry.h"
#include "core/verify.h"
#include "core/result.h"

#include <stdlib.h>
#include <string.h>

static void test_glob_selects(void **state)
{
	(void)state;
	assert_true(aw_glob_selects("mqueue", "mqueue.noattr"));
	assert_true(aw_glob_selects("mqueue.noattr", "mqueue.noattr"));
	assert_true(aw_glob_selects("mq*", "mqueue.noattr"));
	assert_true(aw_glob_selects("*.noattr", "mqueue.noattr"));
	assert_true(aw_glob_selects("mqueue.noattr.maxmsg", "mqueue.noattr"));
	assert_false(aw_glob_selects("mqueue.noatt", "mqueue.noattr"));
	assert_false(aw_glob_selects("mque", "mqueue.noattr"));
	assert_false(aw_glob_selects("dirent", "mqueue.noattr"));
	assert_false(aw_glob_selects("mqueue.noattrx.y", "mqueue.noattr"));
}

static void test_every_table_is_consistent(void **state)
{
	(void)state;
	assert_int_equal(aw_registry_verify(), 0);
}

static void test_unmatched_glob_is_reported(void **state)
{
	(void)state;
	char *globs[] = { "*", "no_such_family_at_all" };
	struct aw_probe_ref *refs = NULL;
	size_t n = 0, bad = 99;
	assert_int_equal(aw_select(globs, 2, &refs, &n, &bad), -1);
	assert_int_equal(bad, 1);
	assert_int_equal(aw_select(globs, 1, &refs, &n, &bad), 0);
	free(refs);
}

/* The catalogue lists every family, probe and item once, in declaration
 * order, each with its rank among its siblings and its table's summary. */
static void test_catalogue_order(void **state)
{
	(void)state;
	const struct aw_catalogue_entry *cat;
	size_t n = aw_catalogue(&cat), at = 0;
	const struct aw_family *const *fams;
	size_t nfam = aw_families(&fams);

	for (size_t f = 0; f < nfam; f++) {
		assert_ptr_equal(cat[at].ref.family, fams[f]);
		assert_null(cat[at].ref.probe);
		assert_string_equal(cat[at].name, fams[f]->name);
		assert_int_equal(cat[at++].rank, f);
		const struct aw_probe *const *probes;
		size_t np = aw_family_probes(fams[f], &probes);
		for (size_t p = 0; p < np; p++) {
			assert_true(aw_catalogue_is_probe(&cat[at]));
			assert_ptr_equal(cat[at].ref.probe, probes[p]);
			assert_string_equal(cat[at].summary, probes[p]->summary);
			assert_int_equal(cat[at++].rank, p);
			for (size_t i = 0; probes[p]->items[i].name; i++) {
				assert_ptr_equal(cat[at].item, &probes[p]->items[i]);
				assert_false(aw_catalogue_is_probe(&cat[at]));
				assert_int_equal(cat[at++].rank, i);
			}
		}
	}
	assert_int_equal(at, n);
}

static void test_catalogue_find(void **state)
{
	(void)state;
	const struct aw_catalogue_entry *cat;
	size_t n = aw_catalogue(&cat);
	for (size_t i = 0; i < n; i++)
		assert_ptr_equal(aw_catalogue_find(cat[i].name), &cat[i]);
	static const char *const unknown[] = {
		"", ".", "mqueue.", "mqueue.noattr.", "mqueue.nosuch", "mqueue.noattr.maxmsg.x",
		"nosuch.noattr.maxmsg", "check.mqueue.noattr.maxmsg",
	};
	for (size_t i = 0; i < sizeof(unknown) / sizeof(unknown[0]); i++)
		assert_null(aw_catalogue_find(unknown[i]));
	const struct aw_catalogue_entry *e = aw_catalogue_find("mqueue.noattr.maxmsg");
	assert_non_null(e);
	assert_string_equal(e->item->name, "maxmsg");
	assert_string_equal(e->ref.probe->name, "noattr");
}

static void test_catalogue_probe_of(void **state)
{
	(void)state;
	const struct aw_catalogue_entry *p = aw_catalogue_probe_of("mqueue.noattr.maxmsg");
	assert_non_null(p);
	assert_string_equal(p->name, "mqueue.noattr");
	assert_ptr_equal(aw_catalogue_probe_of("mqueue.noattr"), p);
	assert_ptr_equal(aw_catalogue_probe_of("mqueue.noattr.no.such.item"), p);
	assert_null(aw_catalogue_probe_of("mqueue"));
	assert_null(aw_catalogue_probe_of("mqueue.nosuch.maxmsg"));
	assert_null(aw_catalogue_probe_of(""));
}

/* An item by its full name; for a probe made at run time (--path LABEL=),
 * the item its family's probes share. */
static void test_item_find(void **state)
{
	(void)state;
	const struct aw_item *tmpfs = aw_item_find("dirent.tmpfs.cookie_bits");
	assert_non_null(tmpfs);
	assert_string_equal(tmpfs->name, "cookie_bits");
	assert_ptr_equal(aw_item_find("dirent.mylabel.cookie_bits"), tmpfs);
	assert_ptr_equal(aw_item_find("dirent.mylabel.compat32.cookie_bits"),
			 aw_item_find("dirent.ext4.compat32.cookie_bits"));
	assert_null(aw_item_find("dirent.mylabel.no_such_item"));
	assert_null(aw_item_find("dirent.tmpfs"));
	assert_null(aw_item_find("dirent"));
	assert_null(aw_item_find("nosuch.x.cookie_bits"));
	assert_non_null(aw_item_find("mqueue.noattr.maxmsg"));
}

/* A "*" component covers one or more components of a reported name. */
static void test_pattern_names(void **state)
{
	(void)state;
	assert_true(aw_item_name_matches("knob.*.value", "knob.kernel.pid_max.value"));
	assert_true(aw_item_name_matches("knob.*.value", "knob.x.value"));
	assert_false(aw_item_name_matches("knob.*.value", "knob.*.value"));
	assert_true(aw_item_name_matches("knob.*", "knob.a.b.c"));
	assert_true(aw_item_name_matches("*.value", "a.b.value"));
	assert_true(aw_item_name_matches("*.value.*", "a.value.value.b"));
	assert_true(aw_item_name_matches("plain", "plain"));
	assert_false(aw_item_name_matches("knob.*.value", "knob.value"));
	assert_false(aw_item_name_matches("knob.*.value", "knob.x.mode"));
	assert_false(aw_item_name_matches("knob.*.value", "knob.x.value.y"));
	assert_false(aw_item_name_matches("knob.*.value", "knob.x.*.value"));
	assert_false(aw_item_name_matches("knob.*.value", "knobs.x.value"));
	assert_false(aw_item_name_matches("knob.*.value", "knob..value"));
	assert_false(aw_item_name_matches("knob.*", "knob"));
	assert_false(aw_item_name_matches("knob.*", ""));
	assert_false(aw_item_name_matches("plain", "plain.x"));
	assert_false(aw_item_name_matches("k*.value", "kx.value"));
}

static const struct aw_item pattern_items[] = {
	AW_OBS_ITEM("knob.kernel.threads-max.value", "specific", .varies_with = "memory"),
	AW_OBS_ITEM("knob.*.value", "any knob's value"),
	AW_OBS_ITEM("knob.*.mode", "any knob's mode"),
	AW_CHECK_ITEM("done", "a plain check"),
	AW_ITEMS_END,
};
static void pattern_run(struct aw_ctx *ctx) { (void)ctx; }
static const struct aw_probe pattern_probe = {
	.name = "walk", .summary = "s", .run = pattern_run, .items = pattern_items,
};
static const struct aw_family pattern_family = { .name = "fam", .summary = "s" };

/* Declaration order decides which item reports a name. */
static void test_probe_item_order(void **state)
{
	(void)state;
	assert_ptr_equal(aw_probe_item(&pattern_probe, "knob.kernel.threads-max.value"),
			 &pattern_items[0]);
	assert_ptr_equal(aw_probe_item(&pattern_probe, "knob.kernel.pid_max.value"),
			 &pattern_items[1]);
	assert_ptr_equal(aw_probe_item(&pattern_probe, "knob.fs.file-max.mode"), &pattern_items[2]);
	assert_ptr_equal(aw_probe_item(&pattern_probe, "done"), &pattern_items[3]);
	assert_null(aw_probe_item(&pattern_probe, "knob.x.owner"));
	assert_null(aw_probe_item(&pattern_probe, "knob.*.value.x"));
	assert_true(aw_item_is_pattern(&pattern_items[1]));
	assert_false(aw_item_is_pattern(&pattern_items[0]));
}

/* A run's results: one slot per specific item from the start, one per
 * covered name once reported, the same slot when reported again. */
static void test_pattern_results(void **state)
{
	(void)state;
	struct aw_probe_ref ref = { &pattern_family, &pattern_probe };
	struct aw_probe_result r;
	aw_probe_result_init(&r, &ref);
	assert_int_equal(r.nitems, 2);
	struct aw_item_result *a = aw_probe_result_item(&r, "knob.vm.swappiness.value");
	assert_non_null(a);
	assert_ptr_equal(a->item, &pattern_items[1]);
	assert_string_equal(a->fullname, "fam.walk.knob.vm.swappiness.value");
	aw_item_set(a, AW_ST_PASS, "60");
	struct aw_item_result *b = aw_probe_result_item(&r, "knob.vm.swappiness.mode");
	assert_ptr_equal(b->item, &pattern_items[2]);
	/* slots may move as names are added: look the first one up again */
	a = aw_probe_result_item(&r, "knob.vm.swappiness.value");
	assert_string_equal(a->text, "60");
	assert_int_equal(r.nitems, 4);
	assert_ptr_equal(aw_probe_result_item(&r, "knob.kernel.threads-max.value")->item,
			 &pattern_items[0]);
	assert_null(aw_probe_result_item(&r, "knob.*.value"));
	assert_null(aw_probe_result_item(&r, "nosuch"));
	assert_int_equal(r.nitems, 4);
	/* a skipped probe settles its specific items only */
	aw_probe_result_settle(&r, AW_ST_SKIP, "why");
	assert_int_equal(r.items[0].status, AW_ST_SKIP);
	struct aw_run run = { .probes = malloc(sizeof(r)), .nprobes = 1 };
	*run.probes = r;
	aw_run_free(&run);
}

/* A reported name a pattern item covers finds the pattern's catalogue
 * entry, hence its summary and .change for diff, report and check. */
static void test_catalogue_find_pattern(void **state)
{
	(void)state;
	const struct aw_catalogue_entry *cat;
	size_t n = aw_catalogue(&cat);
	size_t seen = 0;
	for (size_t i = 0; i < n; i++) {
		if (!cat[i].item || !aw_item_is_pattern(cat[i].item))
			continue;
		/* make a name the pattern covers: each "*" becomes "x.y" */
		char name[512] = "";
		for (const char *c = cat[i].name; *c; c++)
			strncat(name, *c == '*' ? "x.y" : (char[]){ *c, 0 }, sizeof(name) - strlen(name) - 1);
		const struct aw_catalogue_entry *e = aw_catalogue_find(name);
		assert_non_null(e);
		assert_ptr_equal(e->item, aw_item_find(name));
		assert_true(aw_item_name_matches(e->item->name, name + strlen(e->name) - strlen(e->item->name)));
		seen++;
	}
	assert_null(aw_catalogue_find("sysctl.nosuch"));
	assert_null(aw_catalogue_find("sysctl.knob.nosuch"));
	assert_null(aw_catalogue_find("nosuch.probe.x.y"));
	print_message("%zu pattern items in the catalogue\n", seen);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_glob_selects),
		cmocka_unit_test(test_every_table_is_consistent),
		cmocka_unit_test(test_unmatched_glob_is_reported),
		cmocka_unit_test(test_catalogue_order),
		cmocka_unit_test(test_catalogue_find),
		cmocka_unit_test(test_catalogue_probe_of),
		cmocka_unit_test(test_item_find),
		cmocka_unit_test(test_pattern_names),
		cmocka_unit_test(test_probe_item_order),
		cmocka_unit_test(test_pattern_results),
		cmocka_unit_test(test_catalogue_find_pattern),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

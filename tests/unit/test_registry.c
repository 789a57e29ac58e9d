// SPDX-License-Identifier: GPL-2.0-or-later
/* Selection by glob, and the consistency of every table linked in. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "core/registry.h"

#include <stdlib.h>

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
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

// SPDX-License-Identifier: GPL-2.0-or-later
/* The pure logic of the sysctl family: what is never read or written back, the text of a value, and the
 * lines of a kernel .config. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "probes/sysctl/sysctl.h"
#include "core/registry.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void test_skips(void **state)
{
	(void)state;
	assert_non_null(sc_value_skip("kernel.random.uuid"));
	assert_non_null(sc_value_skip("net.ipv6.conf.lo.stable_secret"));
	assert_non_null(sc_value_skip("fs.quota.lookups"));
	assert_null(sc_value_skip("fs.quota.warnings"));
	assert_null(sc_value_skip("kernel.pid_max"));
	assert_non_null(sc_writeback_skip("net.ipv4.route.gc_min_interval"));
	assert_null(sc_writeback_skip("net.ipv4.route.gc_min_interval_ms"));
	assert_non_null(sc_writeback_skip("net.ipv6.neigh.lo.retrans_time"));
	assert_null(sc_writeback_skip("net.ipv6.neigh.lo.retrans_time_ms"));
	assert_non_null(sc_writeback_skip("net.ipv4.tcp_fastopen_key"));
	assert_null(sc_writeback_skip("kernel.hostname"));
}

static void expect_text(const char *in, size_t len, const char *want)
{
	char *t = sc_value_text(in, len);
	if (!want) {
		assert_null(t);
		return;
	}
	assert_non_null(t);
	assert_string_equal(t, want);
	free(t);
}

static void test_value_text(void **state)
{
	(void)state;
	expect_text("1\n", 2, "1");
	expect_text("1", 1, "1");
	expect_text("", 0, "");
	expect_text("\n", 1, "");
	expect_text("32000\t1024000000\t500\t32000\n", 27, "32000 1024000000 500 32000");
	expect_text("a\nb\n", 4, "a\nb");
	expect_text("a\0b\n", 4, NULL);
	expect_text("\x01", 1, NULL);
	expect_text("\x7f\n", 2, NULL);
	char big[SC_VALUE_MAX + 10];
	memset(big, 'x', sizeof(big));
	char *t = sc_value_text(big, sizeof(big));
	assert_non_null(t);
	assert_int_equal(strspn(t, "x"), SC_VALUE_MAX);
	assert_string_equal(t + SC_VALUE_MAX, " ... (266 bytes)");
	free(t);
}

/* Every knob documented one by one is an item of sysctl.knob, and every
 * such item's knob is in the table that knows its configuration. */
static void test_known_knobs_are_items(void **state)
{
	(void)state;
	for (size_t i = 0; i < sc_nknown_knobs; i++) {
		char name[256];
		snprintf(name, sizeof(name), "sysctl.knob.%s.value", sc_known_knobs[i].knob);
		const struct aw_catalogue_entry *e = aw_catalogue_find(name);
		assert_non_null(e);
		assert_string_equal(e->name, name); /* its own item, not the pattern */
	}
	const struct aw_catalogue_entry *p = aw_catalogue_find("sysctl.knob.vm.swappiness.value");
	assert_non_null(p);
	assert_string_equal(p->name, "sysctl.knob.*.value");
	const struct aw_item *t = aw_item_find("sysctl.knob.kernel.threads-max.value");
	assert_non_null(t);
	assert_string_equal(t->varies_with, "memory");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_skips),
		cmocka_unit_test(test_value_text),
		cmocka_unit_test(test_known_knobs_are_items),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

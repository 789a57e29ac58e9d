// SPDX-License-Identifier: GPL-2.0-or-later
/* A module's state as a snapshot records it (lib/kmodule.c): the lines
 * of /proc/modules, the state from them and the configuration, the
 * recorded words read back, and this machine's own /proc/modules. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "lib/kmodule.h"
#include "lib/procfs.h"

#include <stdlib.h>
#include <string.h>

/* Lines as proc_modules(5) shows them (a Debian 6.12 guest's). */
static const char modules[] = "nf_conntrack_netlink 57344 0 - Live 0x0000000000000000\n"
			      "xfs 2949120 1 - Live 0x0000000000000000\n"
			      "nf_conntrack 196608 1 nf_conntrack_netlink, Live 0x0000000000000000";

static void test_listed(void **state)
{
	(void)state;
	size_t n = strlen(modules);
	assert_true(aw_kmodule_listed(modules, n, "xfs"));
	assert_true(aw_kmodule_listed(modules, n, "nf_conntrack")); /* the last line, no newline */
	assert_true(aw_kmodule_listed(modules, n, "nf_conntrack_netlink"));
	assert_false(aw_kmodule_listed(modules, n, "nf_conntrack_net")); /* a prefix is not a name */
	assert_false(aw_kmodule_listed(modules, n, "fuse"));
	assert_false(aw_kmodule_listed(NULL, 0, "xfs")); /* no /proc/modules: CONFIG_MODULES=n */
}

static void test_state(void **state)
{
	(void)state;
	assert_int_equal(aw_kmodule_state(true, true, "m"), AW_KMOD_LOADED);
	assert_int_equal(aw_kmodule_state(false, true, "m"), AW_KMOD_NOT_LOADED);
	assert_int_equal(aw_kmodule_state(false, true, "y"), AW_KMOD_BUILT_IN);
	assert_int_equal(aw_kmodule_state(false, true, "n"), AW_KMOD_NOT_BUILT);
	assert_int_equal(aw_kmodule_state(false, true, NULL), AW_KMOD_NOT_BUILT);
	assert_int_equal(aw_kmodule_state(false, false, NULL), AW_KMOD_NOT_LOADED);
}

static void round_trip(enum aw_kmodule_state st, const char *value, const char *want)
{
	char *s = aw_kmodule_format(st, "NF_CONNTRACK", value);
	const char *how;
	assert_string_equal(s, want);
	assert_int_equal(aw_kmodule_parse(s, &how), st);
	assert_string_equal(how, strchr(want, '(') ? strchr(want, '(') : "");
	free(s);
}

static void test_words(void **state)
{
	(void)state;
	round_trip(AW_KMOD_LOADED, "m", "loaded (CONFIG_NF_CONNTRACK=m)");
	round_trip(AW_KMOD_NOT_LOADED, "m", "not loaded (CONFIG_NF_CONNTRACK=m)");
	round_trip(AW_KMOD_NOT_LOADED, NULL, "not loaded (CONFIG_NF_CONNTRACK: configuration unknown)");
	round_trip(AW_KMOD_BUILT_IN, "y", "built in (CONFIG_NF_CONNTRACK=y)");
	round_trip(AW_KMOD_NOT_BUILT, NULL, "not built (CONFIG_NF_CONNTRACK absent)");
	round_trip(AW_KMOD_NOT_BUILT, "n", "not built (CONFIG_NF_CONNTRACK=n)");
	assert_int_equal(aw_kmodule_parse("notloaded", NULL), AW_KMOD_UNKNOWN);
	assert_int_equal(aw_kmodule_parse("loadedx", NULL), AW_KMOD_UNKNOWN);
	assert_int_equal(aw_kmodule_parse(NULL, NULL), AW_KMOD_UNKNOWN);
	assert_true(aw_kmodule_present(AW_KMOD_LOADED) && aw_kmodule_present(AW_KMOD_BUILT_IN));
	assert_false(aw_kmodule_present(AW_KMOD_NOT_LOADED) || aw_kmodule_present(AW_KMOD_NOT_BUILT) ||
		     aw_kmodule_present(AW_KMOD_UNKNOWN));
}

/* This machine: every module /proc/modules lists is found by its name. */
static void test_machine(void **state)
{
	(void)state;
	char *text;
	size_t len;
	if (aw_file_slurp("/proc/modules", &text, &len) != 0)
		return; /* a kernel without CONFIG_MODULES has no such file */
	for (char *line = text; *line;) {
		char *nl = strchr(line, '\n'), name[64];
		size_t n = strcspn(line, " ");
		if (n && n < sizeof(name)) {
			memcpy(name, line, n);
			name[n] = '\0';
			assert_true(aw_kmodule_listed(text, len, name));
		}
		if (!nl)
			break;
		line = nl + 1;
	}
	free(text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_listed),
		cmocka_unit_test(test_state),
		cmocka_unit_test(test_words),
		cmocka_unit_test(test_machine),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

// SPDX-License-Identifier: GPL-2.0-or-later
/* lib/kconfig: the lines of a kernel .config, as the sysctl and surface families read them. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "lib/kconfig.h"

#include <stdlib.h>
#include <string.h>

static void expect_config(const char *config, const char *option, const char *want)
{
	char *v = aw_kconfig_value(config, strlen(config), option);
	if (!want) {
		assert_null(v);
		return;
	}
	assert_non_null(v);
	assert_string_equal(v, want);
	free(v);
}

static void test_kconfig(void **state)
{
	(void)state;
	const char *cfg = "#\n# Automatically generated file\n"
			  "CONFIG_IO_URING=y\n"
			  "# CONFIG_MEMCG_V1 is not set\n"
			  "CONFIG_HZ=250\n"
			  "CONFIG_HZ_250=y\n"
			  "CONFIG_LSM=\"landlock,lockdown,yama\"\n"
			  "CONFIG_XFS_FS=m\n"
			  "# CONFIG_MEMCG_V1_X is not set\n"
			  "CONFIG_LAST=n";
	expect_config(cfg, "IO_URING", "y");
	expect_config(cfg, "MEMCG_V1", "n");
	expect_config(cfg, "HZ", "250");
	expect_config(cfg, "HZ_250", "y");
	expect_config(cfg, "LSM", "\"landlock,lockdown,yama\"");
	expect_config(cfg, "XFS_FS", "m");
	expect_config(cfg, "LAST", "n");
	expect_config(cfg, "IO", NULL);
	expect_config(cfg, "MEMCG", NULL);
	expect_config(cfg, "NOPE", NULL);
	expect_config(cfg, "", NULL);
	expect_config("", "HZ", NULL);
	expect_config("CONFIG_HZ", "HZ", NULL);
	expect_config("# CONFIG_HZ is not se", "HZ", NULL);
	expect_config("CONFIG_HZ=", "HZ", "");
}

/* Every knob documented one by one is an item of sysctl.knob, and every
 * such item's knob is in the table that knows its configuration. */
static void test_option(void **state)
{
	(void)state;
	char text[] = "CONFIG_MEMCG_V1=y\n# CONFIG_USELIB is not set\nCONFIG_HZ=250\n";
	struct aw_kconfig c = { .text = text, .len = sizeof(text) - 1 };
	char *v = aw_kconfig_option(&c, "memcg_v1");
	assert_string_equal(v, "y");
	free(v);
	v = aw_kconfig_option(&c, "uselib");
	assert_string_equal(v, "n");
	free(v);
	v = aw_kconfig_option(&c, "secretmem"); /* not mentioned: no such option */
	assert_string_equal(v, "absent");
	free(v);
	v = aw_kconfig_option(&c, "hz");
	assert_string_equal(v, "250");
	free(v);
	struct aw_kconfig none = { 0 };
	assert_null(aw_kconfig_option(&none, "hz"));
}

static void test_load(void **state)
{
	(void)state;
	struct aw_kconfig c;
	aw_kconfig_load(&c);
	/* Whatever this machine has, the source says where or why not. */
	assert_non_null(c.source);
	if (c.text)
		assert_true(c.len > 0);
	else
		assert_memory_equal(c.source, "none found", 10);
	aw_kconfig_free(&c);
	assert_null(c.text);
	assert_null(c.source);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_kconfig),
		cmocka_unit_test(test_option),
		cmocka_unit_test(test_load),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

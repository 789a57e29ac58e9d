// SPDX-License-Identifier: GPL-2.0-or-later
/* lib/kconfig.c: the value of an option in the text of a kernel .config. */
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_kconfig),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

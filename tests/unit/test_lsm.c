// SPDX-License-Identifier: GPL-2.0-or-later
/* The active security modules (lib/lsm.c): the names of the uapi ids,
 * the list's lookup, the machine's own answer held against securityfs
 * where the test can read it, and the lockdown mode read as
 * lockdown_read() writes it. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "lib/lsm.h"
#include "lib/procfs.h"
#include "lib/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void test_names(void **state)
{
	(void)state;
	/* this host's answer on 6.18: lockdown, capability, landlock, bpf */
	const uint64_t ids[] = { 108, 100, 110, 109, 105, 113, 99, 200 };
	char *s = aw_lsm_names(ids, 8);
	assert_string_equal(s, "lockdown,capability,landlock,bpf,yama,ipe,99,200");
	free(s);
	s = aw_lsm_names(ids, 0);
	assert_string_equal(s, "");
	free(s);
}

static void test_listed(void **state)
{
	(void)state;
	assert_true(aw_lsm_listed("lockdown,capability,yama", "yama"));
	assert_true(aw_lsm_listed("yama", "yama"));
	assert_false(aw_lsm_listed("lockdown,capability,landlock", "yama"));
	assert_false(aw_lsm_listed("yamax,capability", "yama"));
	assert_false(aw_lsm_listed("", "yama"));
	assert_false(aw_lsm_listed(NULL, "yama"));
}

/* Every kernel abiwatch runs on has the capability module; where
 * securityfs is mounted its list is the same as the answer. */
static void test_active(void **state)
{
	(void)state;
	const char *why = NULL;
	char *list = aw_lsm_active(&why);
	if (!list) {
		assert_non_null(why);
		skip();
	}
	assert_null(why);
	assert_true(aw_lsm_listed(list, "capability"));
	char *text;
	size_t len;
	if (aw_file_slurp("/sys/kernel/security/lsm", &text, &len) == 0) {
		while (len && (text[len - 1] == '\n' || text[len - 1] == ','))
			text[--len] = '\0';
		assert_string_equal(list, text);
		free(text);
	}
	free(list);
}

static char *lockdown_of(const char *text)
{
	char dir[] = "/tmp/abiwatch-lockdown.XXXXXX";
	assert_non_null(mkdtemp(dir));
	char *path = xasprintf("%s/lockdown", dir);
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
	char *mode = aw_lockdown_by_securityfs(dir);
	unlink(path);
	rmdir(dir);
	free(path);
	return mode;
}

/* lockdown_read()'s form: the mode in force in brackets, wherever it is;
 * a file without one gives no mode; no file, no mode. */
static void test_lockdown_file(void **state)
{
	(void)state;
	static const struct {
		const char *text, *mode;
	} cases[] = {
		{ "[none] integrity confidentiality\n", "none" },
		{ "none [integrity] confidentiality\n", "integrity" },
		{ "none integrity [confidentiality]\n", "confidentiality" },
		{ "none integrity confidentiality\n", NULL },
		{ "[]\n", NULL },
		{ "[none", NULL },
		{ "", NULL },
	};
	for (size_t i = 0; i < AW_ARRAY_SIZE(cases); i++) {
		char *mode = lockdown_of(cases[i].text);
		if (cases[i].mode)
			assert_string_equal(mode, cases[i].mode);
		else
			assert_null(mode);
		free(mode);
	}
	assert_null(aw_lockdown_by_securityfs("/nonexistent-abiwatch"));
}

/* A kernel whose lockdown module does not run locks nothing down. */
static void test_lockdown_mode(void **state)
{
	(void)state;
	char *mode = aw_lockdown_mode("capability,landlock,yama");
	assert_string_equal(mode, "none");
	free(mode);
	mode = aw_lockdown_mode(NULL);
	assert_non_null(mode);
	assert_true(strcmp(mode, "none") == 0 || strcmp(mode, "integrity") == 0 ||
		    strcmp(mode, "confidentiality") == 0 || strncmp(mode, "unknown: ", 9) == 0);
	free(mode);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_listed),
		cmocka_unit_test(test_active),
		cmocka_unit_test(test_lockdown_file),
		cmocka_unit_test(test_lockdown_mode),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

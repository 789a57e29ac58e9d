// SPDX-License-Identifier: GPL-2.0-or-later
/* Reading /proc/PID/maps (lib/maps.h): by name and by address, on text
 * as the kernels print it, on text they never print, and on this
 * process's own maps (a named anonymous mapping where the kernel has
 * PR_SET_VMA_ANON_NAME). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "lib/maps.h"
#include "lib/procfs.h"

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>

#define LEN(s) (sizeof(s) - 1)

static const char maps[] =
	"55d0a0000000-55d0a0001000 r--p 00000000 08:01 1234                       /usr/bin/cat\n"
	"55d0a0001000-55d0a0002000 r-xp 00001000 08:01 1234                       /tmp/a b (deleted)\n"
	"7f0000000000-7f0000001000 rw-p 00000000 00:00 0 \n"
	"7f0000001000-7f0000002000 rw-p 00000000 00:00 0                          [anon:my name]\n"
	"7ffc1e3d0000-7ffc1e3f1000 rwxp 00000000 00:00 0                          [stack]\n"
	"7ffc1e3fe000-7ffc1e400000 r-xp 00000000 00:00 0                          [vdso]\n"
	"ffffffffff600000-ffffffffff601000 --xp 00000000 00:00 0                  [vsyscall]";

static void test_by_name(void **state)
{
	struct aw_map m;
	(void)state;
	assert_int_equal(aw_maps_by_name(maps, LEN(maps), "[vsyscall]", &m), 0);
	assert_string_equal(m.perms, "--xp");
	assert_int_equal(m.start, 0xffffffffff600000UL);
	assert_int_equal(m.end, 0xffffffffff601000UL);
	assert_int_equal(aw_maps_by_name(maps, LEN(maps), "[stack]", &m), 0);
	assert_string_equal(m.perms, "rwxp");
	assert_int_equal(aw_maps_by_name(maps, LEN(maps), "[anon:my name]", &m), 0);
	assert_int_equal(m.start, 0x7f0000001000UL);
	assert_int_equal(aw_maps_by_name(maps, LEN(maps), "/tmp/a b (deleted)", &m), 0);
	assert_string_equal(m.perms, "r-xp");
	assert_int_equal(aw_maps_by_name(maps, LEN(maps), "[vvar]", &m), -ENOENT);
	/* "" is no name to look for, though anonymous mappings have it */
	assert_int_equal(aw_maps_by_name(maps, LEN(maps), "", &m), -ENOENT);
	/* a name that begins with the one looked for is not it */
	static const char longer[] = "ffffffffff600000-ffffffffff601000 r-xp 0 00:00 0 [vsyscall]x\n";
	assert_int_equal(aw_maps_by_name(longer, LEN(longer), "[vsyscall]", &m), -ENOENT);
	/* a permission field of another width is no mapping's line */
	static const char wide[] = "ffffffffff600000-ffffffffff601000 r-xps 0 00:00 0 [vsyscall]\n";
	assert_int_equal(aw_maps_by_name(wide, LEN(wide), "[vsyscall]", &m), -ENOENT);
	/* nor is a line with fields missing, or a range wider than a word */
	static const char short_line[] = "ffffffffff600000-ffffffffff601000 r-xp 0\n";
	assert_int_equal(aw_maps_by_addr(short_line, LEN(short_line), 0xffffffffff600000UL, &m), -ENOENT);
	static const char huge[] = "1ffffffffff600000-ffffffffff601000 r-xp 0 00:00 0 [x]\n";
	assert_int_equal(aw_maps_by_name(huge, LEN(huge), "[x]", &m), -ENOENT);
}

static void test_by_addr(void **state)
{
	struct aw_map m;
	(void)state;
	assert_int_equal(aw_maps_by_addr(maps, LEN(maps), 0x7f0000000fffUL, &m), 0);
	assert_string_equal(m.name, "");
	assert_string_equal(m.perms, "rw-p");
	assert_int_equal(aw_maps_by_addr(maps, LEN(maps), 0x7f0000001000UL, &m), 0);
	assert_string_equal(m.name, "[anon:my name]");
	assert_int_equal(aw_maps_by_addr(maps, LEN(maps), 0x7f0000002000UL, &m), -ENOENT);
	assert_int_equal(aw_maps_by_addr("", 0, 0, &m), -ENOENT);
	/* a name longer than the buffer is cut, and found by no name */
	char line[600];
	int n = snprintf(line, sizeof(line), "1000-2000 r--p 0 00:00 0 /%0400d\n", 0);
	assert_int_equal(aw_maps_by_addr(line, (size_t)n, 0x1000UL, &m), 0);
	assert_int_equal(strlen(m.name), sizeof(m.name) - 1);
	char cut[sizeof(m.name)];
	memcpy(cut, m.name, sizeof(cut));
	assert_int_equal(aw_maps_by_name(line, (size_t)n, cut, &m), -ENOENT);
}

#ifndef PR_SET_VMA
#define PR_SET_VMA 0x53564d41
#define PR_SET_VMA_ANON_NAME 0
#endif

static void test_own_maps(void **state)
{
	char *text = NULL;
	size_t len = 0;
	struct aw_map m;
	(void)state;
	void *p = mmap(NULL, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	assert_true(p != MAP_FAILED);
	bool named = prctl(PR_SET_VMA, PR_SET_VMA_ANON_NAME, (unsigned long)p, 4096UL, "unit test") == 0;
	assert_int_equal(aw_file_slurp("/proc/self/maps", &text, &len), 0);
	assert_int_equal(aw_maps_by_addr(text, len, (unsigned long)(uintptr_t)p, &m), 0);
	assert_string_equal(m.perms, "r--p");
	assert_int_equal(m.start, (unsigned long)(uintptr_t)p);
	if (named) {
		assert_string_equal(m.name, "[anon:unit test]");
		assert_int_equal(aw_maps_by_name(text, len, "[anon:unit test]", &m), 0);
		assert_int_equal(m.start, (unsigned long)(uintptr_t)p);
	}
	assert_int_equal(aw_maps_by_name(text, len, "[stack]", &m), 0);
	free(text);
	munmap(p, 4096);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_by_name),
		cmocka_unit_test(test_by_addr),
		cmocka_unit_test(test_own_maps),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

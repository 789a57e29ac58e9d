// SPDX-License-Identifier: GPL-2.0-or-later
/* The mm family's readers of kernel text (probes/mm/parse.h): smaps
 * VmFlags, /proc/PID/limits, sysfs choices and the
 * kernel command line, on text as the kernels print it and on text
 * they never print; and the same readers on this process's own files. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "probes/mm/layout.h"
#include "probes/mm/parse.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#define LEN(s) (sizeof(s) - 1)

static const char smaps[] =
	"7f0000000000-7f0000100000 rw-p 00000000 00:00 0 \n"
	"Size:               1024 kB\n"
	"THPeligible:        0\n"
	"VmFlags: rd wr mr mw me ac nh \n"
	"7f0000100000-7f0000101000 ---p 00000000 00:00 0 \n"
	"Size:                  4 kB\n"
	"VmFlags: mr mw me \n"
	"7ffd00000000-7ffd00021000 rw-p 00000000 00:00 0                          [stack]\n"
	"Size:                132 kB\n"
	"VmFlags: rd wr mr mw me gd ac\n";

static void test_smaps_vmflags(void **state)
{
	char flags[64];
	(void)state;
	assert_int_equal(mm_smaps_vmflags(smaps, LEN(smaps), 0x7f0000000000UL, flags, sizeof(flags)), 0);
	assert_string_equal(flags, "rd wr mr mw me ac nh");
	assert_true(mm_has_token(flags, "nh"));
	assert_false(mm_has_token(flags, "n"));
	assert_false(mm_has_token(flags, "hg"));
	assert_int_equal(mm_smaps_vmflags(smaps, LEN(smaps), 0x7f0000100000UL, flags, sizeof(flags)), 0);
	assert_string_equal(flags, "mr mw me");
	/* the last block, its line without a trailing space or newline */
	assert_int_equal(mm_smaps_vmflags(smaps, LEN(smaps) - 1, 0x7ffd00000000UL, flags, sizeof(flags)), 0);
	assert_string_equal(flags, "rd wr mr mw me gd ac");
	/* an address inside a block is not its start */
	assert_int_equal(mm_smaps_vmflags(smaps, LEN(smaps), 0x7f0000001000UL, flags, sizeof(flags)), -ENOENT);
	assert_int_equal(mm_smaps_vmflags(smaps, LEN(smaps), 0x7f0000000000UL, flags, 8), -ENOSPC);
	assert_int_equal(mm_smaps_vmflags("", 0, 0, flags, sizeof(flags)), -ENOENT);
}

static void test_smaps_without_vmflags(void **state)
{
	/* before 3.8 smaps had no VmFlags line */
	static const char old[] = "00400000-00401000 r-xp 00000000 08:01 12 /bin/x\nSize: 4 kB\n"
				  "00600000-00601000 rw-p 00000000 08:01 12 /bin/x\nSize: 4 kB\n";
	char flags[64];
	(void)state;
	assert_int_equal(mm_smaps_vmflags(old, LEN(old), 0x400000UL, flags, sizeof(flags)), -EINVAL);
	assert_int_equal(mm_smaps_vmflags(old, LEN(old), 0x600000UL, flags, sizeof(flags)), -EINVAL);
	/* a range line that is not one: no hex digits, too many, no space */
	static const char odd[] = "-1000 rw-p\nVmFlags: nh\nzz-10 rw\n100000000000000000-1 x\n10-20\n";
	assert_int_equal(mm_smaps_vmflags(odd, LEN(odd), 0x10UL, flags, sizeof(flags)), -ENOENT);
}

static void test_own_smaps(void **state)
{
	(void)state;
	char *p = mmap(NULL, 1 << 20, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	assert_true(p != MAP_FAILED);
	FILE *f = fopen("/proc/self/smaps", "r");
	assert_non_null(f);
	size_t size = 1 << 22, len;
	char *buf = malloc(size), flags[128];
	assert_non_null(buf);
	len = fread(buf, 1, size, f);
	fclose(f);
	assert_int_equal(mm_smaps_vmflags(buf, len, (unsigned long)(uintptr_t)p, flags, sizeof(flags)), 0);
	assert_true(mm_has_token(flags, "rd"));
	assert_false(mm_has_token(flags, "wr"));
	free(buf);
	munmap(p, 1 << 20);
}

static const char limits[] =
	"Limit                     Soft Limit           Hard Limit           Units     \n"
	"Max cpu time              unlimited            unlimited            seconds   \n"
	"Max stack size            8388608              unlimited            bytes     \n"
	"Max core file size        0                    unlimited            bytes     \n"
	"Max processes             3841                 3841                 processes \n"
	"Max open files            1024                 4096                 files     \n"
	"Max locked memory         8388608              8388608              bytes     \n"
	"Max nice priority         0                    0                    \n"
	"Max realtime timeout      unlimited            unlimited            us        \n";

static void test_limits(void **state)
{
	struct mm_limit rows[16];
	size_t bad = 0;
	(void)state;
	int n = mm_limits_parse(limits, LEN(limits), rows, 16, &bad);
	assert_int_equal(n, 8);
	const struct mm_limit *l = mm_limits_find(rows, (size_t)n, "Max locked memory");
	assert_non_null(l);
	assert_true(l->soft == 8388608 && l->hard == 8388608);
	assert_string_equal(l->unit, "bytes");
	l = mm_limits_find(rows, (size_t)n, "Max stack size");
	assert_true(l && l->soft == 8388608 && l->hard == MM_UNLIMITED);
	l = mm_limits_find(rows, (size_t)n, "Max nice priority");
	assert_true(l && l->soft == 0 && l->unit[0] == '\0');
	assert_null(mm_limits_find(rows, (size_t)n, "Max locked"));
	/* fewer slots than rows: all counted, the first kept */
	assert_int_equal(mm_limits_parse(limits, LEN(limits), rows, 2, &bad), 8);
	assert_string_equal(rows[1].name, "Max stack size");
}

static void test_limits_refused(void **state)
{
	struct mm_limit rows[4];
	size_t bad = 0;
	(void)state;
	static const char no_header[] = "Max cpu time unlimited unlimited seconds\n";
	assert_int_equal(mm_limits_parse(no_header, LEN(no_header), rows, 4, &bad), -1);
	assert_int_equal(bad, 1);
	static const char one_value[] = "Limit Soft Hard Units\nMax cpu time 5 hard seconds\n";
	assert_int_equal(mm_limits_parse(one_value, LEN(one_value), rows, 4, &bad), -1);
	assert_int_equal(bad, 2);
	static const char extra[] = "Limit\nMax a 1 2 bytes more\n";
	assert_int_equal(mm_limits_parse(extra, LEN(extra), rows, 4, &bad), -1);
	static const char no_name[] = "Limit\n1 2 bytes\n";
	assert_int_equal(mm_limits_parse(no_name, LEN(no_name), rows, 4, &bad), -1);
	static const char huge[] = "Limit\nMax a 99999999999999999999 1\n";
	assert_int_equal(mm_limits_parse(huge, LEN(huge), rows, 4, &bad), -1);
	assert_int_equal(mm_limits_parse("", 0, rows, 4, &bad), -1);
	static const char header_only[] = "Limit                     Soft Limit\n";
	assert_int_equal(mm_limits_parse(header_only, LEN(header_only), rows, 4, &bad), 0);
}

static void test_own_limits(void **state)
{
	struct mm_limit rows[32];
	char buf[8192];
	size_t bad = 0;
	(void)state;
	FILE *f = fopen("/proc/self/limits", "r");
	assert_non_null(f);
	size_t len = fread(buf, 1, sizeof(buf), f);
	fclose(f);
	int n = mm_limits_parse(buf, len, rows, 32, &bad);
	assert_int_equal(n, 16); /* every RLIMIT_* since 2.6.25 */
	assert_non_null(mm_limits_find(rows, 16, "Max msgqueue size"));
}

static void test_bracketed_word(void **state)
{
	char w[16];
	(void)state;
	static const char thp[] = "always [madvise] never\n";
	assert_int_equal(mm_bracketed_word(thp, LEN(thp), w, sizeof(w)), 0);
	assert_string_equal(w, "madvise");
	static const char first[] = "[always] madvise never\n";
	assert_int_equal(mm_bracketed_word(first, LEN(first), w, sizeof(w)), 0);
	assert_string_equal(w, "always");
	assert_int_equal(mm_bracketed_word("always madvise never", 20, w, sizeof(w)), -EINVAL);
	assert_int_equal(mm_bracketed_word("[a] [b]", 7, w, sizeof(w)), -EINVAL);
	assert_int_equal(mm_bracketed_word("[]", 2, w, sizeof(w)), -EINVAL);
	assert_int_equal(mm_bracketed_word("[a b]", 5, w, sizeof(w)), -EINVAL);
	assert_int_equal(mm_bracketed_word("[madvise", 8, w, sizeof(w)), -EINVAL);
	assert_int_equal(mm_bracketed_word("[madvise]", 9, w, 4), -ENOSPC);
}

static void test_alignment_word(void **state)
{
	char buf[32];
	(void)state;
	assert_string_equal(mm_alignment_word(16, 16, buf, sizeof(buf)), "aligned");
	assert_string_equal(mm_alignment_word(15, 16, buf, sizeof(buf)), "aligned");
	assert_string_equal(mm_alignment_word(2, 16, buf, sizeof(buf)), "unaligned");
	assert_string_equal(mm_alignment_word(0, 32, buf, sizeof(buf)), "unaligned");
	assert_string_equal(mm_alignment_word(9, 32, buf, sizeof(buf)), "mixed (9 of 32)");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_smaps_vmflags),
		cmocka_unit_test(test_smaps_without_vmflags),
		cmocka_unit_test(test_own_smaps),
		cmocka_unit_test(test_limits),
		cmocka_unit_test(test_limits_refused),
		cmocka_unit_test(test_own_limits),
		cmocka_unit_test(test_bracketed_word),
		cmocka_unit_test(test_alignment_word),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

// SPDX-License-Identifier: GPL-2.0-or-later
/* The ELF reader (lib/elf.c): the process's own vDSO, found and called
 * through it; small images built here in both classes and byte orders,
 * with versioned symbols; every truncation of them and corrupted fields
 * refused without a read outside the image (ASan watches the twin). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "lib/elf.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* ---- a tiny image ---- */

struct img {
	unsigned char b[1024];
	bool is64, be;
};

static void put(struct img *m, size_t off, uint64_t v, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		m->b[off + (m->be ? n - 1 - i : i)] = (unsigned char)(v >> (8 * i));
}

#define STR "\0foo\0bar\0LINUX_2.6\0LINUX_X\0libx.so\0"
enum { S_FOO = 1, S_BAR = 5, S_V1 = 9, S_V2 = 19, S_BASE = 27 };
enum { O_PH = 100, O_STR = 200, O_SYM = 256, O_VERSYM = 400, O_VERDEF = 420, O_SH = 600 };

/* An image with .dynsym {null, foo@@LINUX_2.6 (value 0x1010), bar@LINUX_X
 * (hidden, 0x1020)}, a PT_LOAD at vaddr 0x1000 offset 0. */
static size_t build(struct img *m, bool is64, bool be)
{
	memset(m, 0, sizeof(*m));
	m->is64 = is64;
	m->be = be;
	memcpy(m->b, "\177ELF", 4);
	m->b[4] = is64 ? 2 : 1;
	m->b[5] = be ? 2 : 1;
	m->b[6] = 1;
	put(m, 16, 3, 2);
	put(m, 18, is64 ? 62 : 3, 2);
	unsigned phent = is64 ? 56 : 32, shent = is64 ? 64 : 40, syment = is64 ? 24 : 16;
	size_t tail = is64 ? 54 : 42;
	if (is64) {
		put(m, 32, O_PH, 8);
		put(m, 40, O_SH, 8);
	} else {
		put(m, 28, O_PH, 4);
		put(m, 32, O_SH, 4);
	}
	put(m, tail, phent, 2);
	put(m, tail + 2, 1, 2);
	put(m, tail + 4, shent, 2);
	put(m, tail + 6, 5, 2);
	/* PT_LOAD offset 0, vaddr 0x1000 */
	put(m, O_PH, 1, 4);
	if (is64)
		put(m, O_PH + 16, 0x1000, 8);
	else
		put(m, O_PH + 8, 0x1000, 4);
	memcpy(m->b + O_STR, STR, sizeof(STR));
	const struct { unsigned name; uint64_t value; unsigned info; } syms[] = {
		{ 0, 0, 0 }, { S_FOO, 0x1010, 0x12 }, { S_BAR, 0x1020, 0x22 },
	};
	for (unsigned i = 0; i < 3; i++) {
		size_t at = O_SYM + i * syment;
		put(m, at, syms[i].name, 4);
		if (is64) {
			m->b[at + 4] = (unsigned char)syms[i].info;
			put(m, at + 6, i ? 7 : 0, 2);
			put(m, at + 8, syms[i].value, 8);
		} else {
			put(m, at + 4, syms[i].value, 4);
			m->b[at + 12] = (unsigned char)syms[i].info;
			put(m, at + 14, i ? 7 : 0, 2);
		}
	}
	put(m, O_VERSYM, 0, 2);
	put(m, O_VERSYM + 2, 2, 2);
	put(m, O_VERSYM + 4, 0x8003, 2);
	/* verdefs: 1 the base (libx.so), 2 LINUX_2.6, 3 LINUX_X */
	const unsigned names[] = { S_BASE, S_V1, S_V2 };
	for (unsigned i = 0; i < 3; i++) {
		size_t at = O_VERDEF + i * 28;
		put(m, at, 1, 2);
		put(m, at + 2, i == 0, 2);
		put(m, at + 4, i + 1, 2);
		put(m, at + 6, 1, 2);
		put(m, at + 12, 20, 4);
		put(m, at + 16, i < 2 ? 28 : 0, 4);
		put(m, at + 20, names[i], 4);
	}
	/* sections: null, .dynsym, .dynstr, .gnu.version, .gnu.version_d */
	const struct { unsigned type, link; size_t off, size, ent; } sh[] = {
		{ 0, 0, 0, 0, 0 }, { 11, 2, O_SYM, 3 * syment, syment },
		{ 3, 0, O_STR, sizeof(STR), 0 }, { 0x6fffffff, 1, O_VERSYM, 6, 2 },
		{ 0x6ffffffd, 2, O_VERDEF, 84, 0 },
	};
	for (unsigned i = 0; i < 5; i++) {
		size_t at = O_SH + i * shent;
		put(m, at + 4, sh[i].type, 4);
		if (is64) {
			put(m, at + 24, sh[i].off, 8);
			put(m, at + 32, sh[i].size, 8);
			put(m, at + 40, sh[i].link, 4);
			put(m, at + 56, sh[i].ent, 8);
		} else {
			put(m, at + 16, sh[i].off, 4);
			put(m, at + 20, sh[i].size, 4);
			put(m, at + 24, sh[i].link, 4);
			put(m, at + 36, sh[i].ent, 4);
		}
	}
	return O_SH + 5 * shent;
}

static void check_image(bool is64, bool be)
{
	struct img m;
	size_t size = build(&m, is64, be);
	struct aw_elf e;
	struct aw_elf_sym s;
	size_t off;

	assert_int_equal(aw_elf_open(&e, m.b, size), 0);
	assert_int_equal(e.is64, is64);
	assert_int_equal(e.machine, is64 ? 62 : 3);
	assert_int_equal(aw_elf_sym_count(&e), 3);
	assert_int_equal(aw_elf_sym(&e, 1, &s), 0);
	assert_string_equal(s.name, "foo");
	assert_string_equal(s.version, "LINUX_2.6");
	assert_false(s.hidden_version);
	assert_int_equal(s.type, 2);
	assert_int_equal(s.bind, 1);
	assert_int_equal(aw_elf_sym(&e, 2, &s), 0);
	assert_string_equal(s.name, "bar");
	assert_string_equal(s.version, "LINUX_X");
	assert_true(s.hidden_version);
	assert_int_equal(s.bind, 2);
	assert_int_equal(aw_elf_sym(&e, 3, &s), -ERANGE);
	assert_int_equal(aw_elf_lookup(&e, "foo", NULL, &s), 0);
	assert_int_equal(aw_elf_sym_offset(&e, &s, &off), 0);
	assert_int_equal(off, 0x10);
	assert_int_equal(aw_elf_lookup(&e, "foo", "LINUX_X", &s), -ENOENT);
	assert_int_equal(aw_elf_lookup(&e, "bar", "LINUX_X", &s), 0);
	assert_int_equal(aw_elf_lookup(&e, "baz", NULL, &s), -ENOENT);

	/* Every truncation: refused or read within its size (ASan). */
	for (size_t n = 0; n < size; n++) {
		unsigned char *cut = malloc(n ? n : 1);
		memcpy(cut, m.b, n);
		if (aw_elf_open(&e, cut, n) == 0)
			for (size_t i = 0; i < aw_elf_sym_count(&e); i++)
				(void)aw_elf_sym(&e, i, &s);
		free(cut);
	}
}

static void test_images(void **state)
{
	(void)state;
	check_image(true, false);
	check_image(false, false);
	check_image(true, true);
	check_image(false, true);
}

static void test_malformed(void **state)
{
	(void)state;
	struct img m;
	struct aw_elf e;
	struct aw_elf_sym s;
	size_t size = build(&m, true, false);

	assert_int_equal(aw_elf_open(&e, "nope", 4), -ENOEXEC);
	m.b[4] = 3;
	assert_int_equal(aw_elf_open(&e, m.b, size), -ENOEXEC);
	build(&m, true, false);
	put(&m, 40, 1000, 8); /* section headers past the end */
	assert_int_equal(aw_elf_open(&e, m.b, size), -EINVAL);
	build(&m, true, false);
	put(&m, O_SYM + 24, 5000, 4); /* foo's name outside .dynstr */
	assert_int_equal(aw_elf_open(&e, m.b, size), 0);
	assert_int_equal(aw_elf_sym(&e, 1, &s), -EINVAL);
	build(&m, true, false);
	put(&m, O_VERDEF + 16, 0, 4); /* the verdef chain ends early */
	assert_int_equal(aw_elf_open(&e, m.b, size), 0);
	assert_int_equal(aw_elf_sym(&e, 1, &s), 0);
	assert_null(s.version);
	build(&m, true, false);
	put(&m, O_VERDEF + 16, 0xfffffff0u, 4); /* a chain leaving the section */
	assert_int_equal(aw_elf_open(&e, m.b, size), 0);
	assert_int_equal(aw_elf_sym(&e, 1, &s), -EINVAL);
}

typedef int (*gettime_fn)(clockid_t, struct timespec *);

static void test_own_vdso(void **state)
{
	(void)state;
	const void *img;
	size_t size, off;
	struct aw_elf e;
	struct aw_elf_sym s;

	if (aw_elf_vdso(&img, &size) != 0)
		skip();
	assert_true(size >= 4096);
	assert_int_equal(aw_elf_open(&e, img, size), 0);
	assert_int_equal(e.type, 3);
	assert_true(aw_elf_sym_count(&e) > 1);
#if defined(__x86_64__)
	assert_int_equal(aw_elf_lookup(&e, "__vdso_clock_gettime", "LINUX_2.6", &s), 0);
	assert_int_equal(aw_elf_sym_offset(&e, &s, &off), 0);
	gettime_fn fn = (gettime_fn)(uintptr_t)((const char *)img + off);
	struct timespec a, b;
	assert_int_equal(clock_gettime(CLOCK_MONOTONIC, &a), 0);
	assert_int_equal(fn(CLOCK_MONOTONIC, &b), 0);
	assert_true(b.tv_sec > a.tv_sec || (b.tv_sec == a.tv_sec && b.tv_nsec >= a.tv_nsec));
#endif
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_images),
		cmocka_unit_test(test_malformed),
		cmocka_unit_test(test_own_vdso),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

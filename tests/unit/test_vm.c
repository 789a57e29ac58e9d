// SPDX-License-Identifier: GPL-2.0-or-later
/* The VM step's pure parts: the cpio writer, module resolution on a tree of
 * hand-made ELF modules (modules.dep, .modinfo depends and softdeps,
 * aliases, built-ins, compressed files), bzImage headers, anonymous files
 * and children that die with their parent, and the guest paths refused
 * before a VM starts. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "lib/util.h"
#include "vm/bzimage.h"
#include "vm/cpio.h"
#include "vm/deb.h"
#include "vm/initramfs.h"
#include "vm/modules.h"
#include "lib/proc.h"
#include "lib/procfs.h"

#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

/* ---- cpio ---- */

struct entry {
	char name[256];
	unsigned mode, size, rmajor, rminor;
	char data[64];
};

static unsigned hex8(const char *p)
{
	char b[9];
	memcpy(b, p, 8);
	b[8] = '\0';
	return (unsigned)strtoul(b, NULL, 16);
}

/* Parse a newc archive back; returns the number of entries before the trailer. */
static size_t parse_newc(const char *buf, size_t len, struct entry *out, size_t max)
{
	size_t off = 0, n = 0;
	while (off + 110 <= len && n < max) {
		assert_memory_equal(buf + off, "070701", 6);
		unsigned mode = hex8(buf + off + 14), size = hex8(buf + off + 54);
		unsigned rmaj = hex8(buf + off + 78), rmin = hex8(buf + off + 86);
		unsigned namesize = hex8(buf + off + 94);
		assert_int_equal(hex8(buf + off + 30), 0); /* uid */
		assert_int_equal(hex8(buf + off + 46), 0); /* mtime */
		const char *name = buf + off + 110;
		assert_int_equal(name[namesize - 1], '\0');
		off += 110 + namesize;
		off = (off + 3) & ~(size_t)3;
		if (strcmp(name, "TRAILER!!!") == 0)
			return n;
		snprintf(out[n].name, sizeof(out[n].name), "%s", name);
		out[n].mode = mode;
		out[n].size = size;
		out[n].rmajor = rmaj;
		out[n].rminor = rmin;
		memcpy(out[n].data, buf + off, size < sizeof(out[n].data) - 1 ? size : sizeof(out[n].data) - 1);
		off += size;
		off = (off + 3) & ~(size_t)3;
		n++;
	}
	fail_msg("no trailer");
	return n;
}

static void test_cpio_newc(void **state)
{
	(void)state;
	int fd = aw_anon_file("cpio");
	assert_true(fd >= 0);
	struct aw_cpio c;
	aw_cpio_init(&c, fd);
	assert_int_equal(aw_cpio_mem(&c, "usr/bin/hello", 0755, "hi!\n", 4), 0);
	assert_int_equal(aw_cpio_symlink(&c, "sbin/modprobe", "/init"), 0);
	assert_int_equal(aw_cpio_node(&c, "dev/console", S_IFCHR | 0600, 5, 1), 0);
	assert_int_equal(aw_cpio_dir(&c, "usr", 0755), 0); /* already there: fine */
	assert_int_equal(aw_cpio_finish(&c), 0);
	aw_cpio_free(&c);

	char *buf;
	size_t len;
	assert_int_equal(aw_fd_slurp(fd, &buf, &len), 0);
	assert_int_equal(len % 4, 0);
	struct entry e[16];
	size_t n = parse_newc(buf, len, e, 16);
	/* usr, usr/bin, usr/bin/hello, sbin, sbin/modprobe, dev, dev/console */
	assert_int_equal(n, 7);
	assert_string_equal(e[0].name, "usr");
	assert_int_equal(e[0].mode, S_IFDIR | 0755);
	assert_string_equal(e[1].name, "usr/bin");
	assert_string_equal(e[2].name, "usr/bin/hello");
	assert_int_equal(e[2].mode, S_IFREG | 0755);
	assert_int_equal(e[2].size, 4);
	assert_string_equal(e[2].data, "hi!\n");
	assert_string_equal(e[4].name, "sbin/modprobe");
	assert_int_equal(e[4].mode, S_IFLNK | 0777);
	assert_string_equal(e[4].data, "/init");
	assert_string_equal(e[6].name, "dev/console");
	assert_int_equal(e[6].mode, S_IFCHR | 0600);
	assert_int_equal(e[6].rmajor, 5);
	assert_int_equal(e[6].rminor, 1);
	free(buf);
	close(fd);

	/* A name twice is an error that sticks: no archive is half right. */
	fd = aw_anon_file("cpio2");
	aw_cpio_init(&c, fd);
	assert_int_equal(aw_cpio_mem(&c, "a", 0644, "x", 1), 0);
	assert_int_equal(aw_cpio_mem(&c, "a", 0644, "y", 1), -1);
	assert_int_equal(aw_cpio_finish(&c), -1);
	assert_int_equal(errno, EEXIST);
	assert_int_equal(aw_cpio_mem(&c, "/absolute", 0644, "y", 1), -1);
	aw_cpio_free(&c);
	close(fd);
}

/* ---- modules ---- */

/* A minimal ELF64 relocatable file whose .modinfo holds the strings. */
static void write_module(const char *path, const char *const *info)
{
	char modinfo[1024];
	size_t mlen = 0;
	for (const char *const *s = info; s && *s; s++) {
		size_t l = strlen(*s) + 1;
		memcpy(modinfo + mlen, *s, l);
		mlen += l;
	}
	static const char shstr[] = "\0.modinfo\0.shstrtab";
	Elf64_Ehdr eh = { 0 };
	memcpy(eh.e_ident, ELFMAG, SELFMAG);
	eh.e_ident[EI_CLASS] = ELFCLASS64;
	eh.e_ident[EI_DATA] = ELFDATA2LSB;
	eh.e_ident[EI_VERSION] = EV_CURRENT;
	eh.e_type = ET_REL;
	eh.e_machine = EM_X86_64;
	eh.e_version = EV_CURRENT;
	eh.e_ehsize = sizeof(eh);
	eh.e_shentsize = sizeof(Elf64_Shdr);
	eh.e_shnum = 3;
	eh.e_shstrndx = 2;
	size_t data_off = sizeof(eh), str_off = data_off + mlen, sh_off = (str_off + sizeof(shstr) + 7) & ~7UL;
	eh.e_shoff = sh_off;
	Elf64_Shdr sh[3] = { { 0 } };
	sh[1].sh_name = 1;
	sh[1].sh_type = SHT_PROGBITS;
	sh[1].sh_offset = data_off;
	sh[1].sh_size = mlen;
	sh[2].sh_name = 10;
	sh[2].sh_type = SHT_STRTAB;
	sh[2].sh_offset = str_off;
	sh[2].sh_size = sizeof(shstr);
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fwrite(&eh, sizeof(eh), 1, f);
	fwrite(modinfo, 1, mlen, f);
	fwrite(shstr, 1, sizeof(shstr), f);
	for (size_t pad = str_off + sizeof(shstr); pad < sh_off; pad++)
		fputc(0, f);
	fwrite(sh, sizeof(sh), 1, f);
	fclose(f);
}

static char *tree_dir;

static void mkdirs(const char *path)
{
	char *copy = xstrdup(path);
	for (char *p = copy + 1; *p; p++) {
		if (*p == '/') {
			*p = '\0';
			mkdir(copy, 0755);
			*p = '/';
		}
	}
	free(copy);
}

static void module(const char *rel, const char *const *info)
{
	char *path = xasprintf("%s/%s", tree_dir, rel);
	mkdirs(path);
	write_module(path, info);
	free(path);
}

static void text_file(const char *rel, const char *text)
{
	char *path = xasprintf("%s/%s", tree_dir, rel);
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
	free(path);
}

static void rm_rf(const char *dir)
{
	char *cmd = xasprintf("rm -rf '%s'", dir);
	assert_int_equal(system(cmd), 0);
	free(cmd);
}

/* A tree like a .deb's: no modules.dep, depends and softdeps in .modinfo. */
static void make_tree(void)
{
	char tmpl[] = "/tmp/abiwatch-unit-modules.XXXXXX";
	tree_dir = xstrdup(mkdtemp(tmpl));
	module("kernel/lib/libcrc32c.ko", (const char *const[]){ "name=libcrc32c", "depends=",
		"softdep=pre: crc32c", NULL });
	module("kernel/fs/xfs/xfs.ko", (const char *const[]){ "name=xfs", "depends=libcrc32c",
		"alias=fs-xfs", NULL });
	module("kernel/lib/raid6/raid6_pq.ko", (const char *const[]){ "depends=", NULL });
	module("kernel/crypto/xor.ko", (const char *const[]){ "depends=", NULL });
	module("kernel/crypto/xxhash_generic.ko", (const char *const[]){ "depends=",
		"alias=crypto-xxhash64", "alias=xxhash64", NULL });
	module("kernel/fs/btrfs/btrfs.ko", (const char *const[]){ "depends=xor,raid6_pq,libcrc32c",
		"softdep=pre: xxhash64", "softdep=pre: crypto-crc32c", "alias=fs-btrfs", NULL });
	module("kernel/drivers/block/loop.ko", (const char *const[]){ "depends=", NULL });
	/* crc32c is built in, under an alias too */
	text_file("modules.builtin", "kernel/crypto/crc32c_generic.ko\nkernel/fs/ext4/ext4.ko\n");
	static const char bmi[] = "crc32c_generic.alias=crypto-crc32c\0crc32c_generic.alias=crc32c\0";
	char *path = xasprintf("%s/modules.builtin.modinfo", tree_dir);
	FILE *f = fopen(path, "w");
	fwrite(bmi, 1, sizeof(bmi) - 1, f);
	fclose(f);
	free(path);
}

static const char *names(const struct aw_modplan *p, char *buf, size_t len)
{
	buf[0] = '\0';
	for (size_t i = 0; i < p->nload; i++) {
		strncat(buf, p->load[i]->name, len - strlen(buf) - 2);
		strncat(buf, " ", len - strlen(buf) - 1);
	}
	return buf;
}

static void test_modules_from_modinfo(void **state)
{
	(void)state;
	make_tree();
	struct aw_modtree t;
	struct aw_modplan p;
	char *err = NULL, buf[512];
	aw_modtree_init(&t);
	assert_int_equal(aw_modtree_from_dir(&t, tree_dir, &err), 0);
	assert_null(t.dep);
	const char *const wanted[] = { "loop", "fs-btrfs", "fs-xfs", "ext4", "nosuch" };
	assert_int_equal(aw_modules_resolve(&t, wanted, 5, &p, &err), 0);
	/* Dependencies and softdeps first; each once; built-ins left out. */
	assert_string_equal(names(&p, buf, sizeof(buf)), "loop xxhash_generic xor raid6_pq libcrc32c btrfs xfs ");
	bool missing = false;
	for (size_t i = 0; i < p.nnotes; i++)
		missing = missing || strstr(p.notes[i], "nosuch: not in this kernel");
	assert_true(missing);
	/* What modprobe fs-xfs loads: libcrc32c, then xfs. */
	assert_int_equal(p.nnamed, 3);
	size_t n, *seq = aw_modplan_sequence(&p, p.named[2], &n);
	assert_int_equal(n, 2);
	assert_string_equal(p.load[seq[0]]->name, "libcrc32c");
	assert_string_equal(p.load[seq[1]]->name, "xfs");
	free(seq);
	seq = aw_modplan_sequence(&p, p.named[1], &n);
	assert_int_equal(n, 5); /* btrfs and its four */
	assert_string_equal(p.load[seq[n - 1]]->name, "btrfs");
	free(seq);
	aw_modplan_free(&p);
	aw_modtree_free(&t);
	rm_rf(tree_dir);
	free(tree_dir);
}

static void test_modules_dep_and_alias_files(void **state)
{
	(void)state;
	make_tree();
	/* depmod's view wins over .modinfo: here xfs also needs loop. */
	text_file("modules.dep", "kernel/fs/xfs/xfs.ko: kernel/drivers/block/loop.ko kernel/lib/libcrc32c.ko\n"
		  "kernel/lib/libcrc32c.ko:\nkernel/drivers/block/loop.ko:\n");
	text_file("modules.alias", "alias fs-x* xfs\n");
	struct aw_modtree t;
	struct aw_modplan p;
	char *err = NULL, buf[512];
	aw_modtree_init(&t);
	assert_int_equal(aw_modtree_from_dir(&t, tree_dir, &err), 0);
	assert_non_null(t.dep);
	const char *const wanted[] = { "fs-xfs-by-glob" };
	assert_int_equal(aw_modules_resolve(&t, wanted, 1, &p, &err), 0);
	assert_string_equal(names(&p, buf, sizeof(buf)), "loop libcrc32c xfs ");
	aw_modplan_free(&p);
	aw_modtree_free(&t);
	rm_rf(tree_dir);
	free(tree_dir);
}

static void test_modules_compressed(void **state)
{
	(void)state;
	char *xz = aw_which("xz");
	if (!xz)
		skip();
	free(xz);
	make_tree();
	char *cmd = xasprintf("xz '%s/kernel/fs/xfs/xfs.ko'", tree_dir);
	assert_int_equal(system(cmd), 0);
	free(cmd);
	struct aw_modtree t;
	struct aw_modplan p;
	char *err = NULL, buf[512];
	aw_modtree_init(&t);
	assert_int_equal(aw_modtree_from_dir(&t, tree_dir, &err), 0);
	const char *const wanted[] = { "xfs" };
	assert_int_equal(aw_modules_resolve(&t, wanted, 1, &p, &err), 0);
	assert_string_equal(names(&p, buf, sizeof(buf)), "libcrc32c xfs ");
	/* Decompressed for the guest: plain ELF. */
	assert_memory_equal(p.load[1]->elf, ELFMAG, SELFMAG);
	assert_string_equal(p.load[1]->path, "kernel/fs/xfs/xfs.ko.xz");
	aw_modplan_free(&p);
	aw_modtree_free(&t);
	rm_rf(tree_dir);
	free(tree_dir);
}

static void test_modinfo_rejects_junk(void **state)
{
	(void)state;
	size_t n;
	assert_null(aw_elf_modinfo("not an elf", 10, &n));
	char junk[256] = { 0x7f, 'E', 'L', 'F', ELFCLASS64 };
	assert_null(aw_elf_modinfo(junk, sizeof(junk), &n));
	char *out, *err = NULL;
	size_t len;
	assert_int_equal(aw_decompress("x.ko.xz", "garbage", 7, &out, &len, &err), -1);
	assert_non_null(err);
	free(err);
}

/* ---- decompression with libarchive's filters ---- */

/* data compressed by the program tool (xz, zstd, gzip), malloc'd: what
 * the packages hold, made by the tools Debian makes them with. */
static char *compressed_by(const char *tool, const char *data, size_t *len)
{
	char *path = xasprintf("%s/abiwatch-unit-%d.%s", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp",
			       (int)getpid(), tool);
	char *cmd = xasprintf("%s -c > '%s'", tool, path);
	FILE *p = popen(cmd, "w");
	free(cmd);
	assert_non_null(p);
	fputs(data, p);
	assert_int_equal(pclose(p), 0);
	char *out = NULL;
	assert_int_equal(aw_file_slurp(path, &out, len), 0);
	unlink(path);
	free(path);
	return out;
}

static void test_decompress_each_filter(void **state)
{
	(void)state;
	static const char *const tools[][2] = { { "xz", "m.ko.xz" }, { "zstd", "m.ko.zst" },
						{ "gzip", "m.ko.gz" } };
	const char *module = "\177ELF not really a module, but its bytes come back";
	for (size_t i = 0; i < AW_ARRAY_SIZE(tools); i++) {
		char *tool = aw_which(tools[i][0]);
		if (!tool) {
			printf("# %s not installed: its round trip not tried\n", tools[i][0]);
			continue;
		}
		free(tool);
		size_t clen, len;
		char *packed = compressed_by(tools[i][0], module, &clen), *out = NULL, *err = NULL;
		assert_int_equal(aw_decompress(tools[i][1], packed, clen, &out, &len, &err), 0);
		assert_int_equal(len, strlen(module));
		assert_string_equal(out, module);
		free(out);
		/* Cut short: an error, not half a module. */
		assert_int_equal(aw_decompress(tools[i][1], packed, clen / 2, &out, &len, &err), -1);
		assert_non_null(err);
		free(err);
		err = NULL;
		/* Another compression than the suffix says: refused, named. */
		const char *other = i == 0 ? "m.ko.gz" : "m.ko.xz";
		assert_int_equal(aw_decompress(other, packed, clen, &out, &len, &err), -1);
		assert_non_null(strstr(err, i == 0 ? "not gz data" : "not xz data"));
		free(err);
		free(packed);
	}
}

/* ---- a package's control file ---- */

static void test_control_field(void **state)
{
	(void)state;
	const char *c = "Package: linux-image-6.1.0-57-cloud-amd64\n"
			"Source: linux-signed-amd64 (6.1.192+3)\n"
			"version:  6.1.192-3 \t\n"
			"Description: Linux 6.1\n"
			" continued, with Version: 9 inside\n"
			"\n"
			"Architecture: amd64\n";
	char *v = aw_deb_control_field(c, strlen(c), "Version");
	assert_string_equal(v, "6.1.192-3"); /* any case, blanks around dropped */
	free(v);
	assert_null(aw_deb_control_field(c, strlen(c), "Architecture")); /* second paragraph */
	assert_null(aw_deb_control_field(c, strlen(c), "Vers")); /* a prefix is not the name */
	const char *empty = "Package: x\nVersion:   \n";
	assert_null(aw_deb_control_field(empty, strlen(empty), "Version"));
	const char nul[] = "Version: \0" "1.0\n";
	assert_null(aw_deb_control_field(nul, sizeof(nul) - 1, "Version"));
	const char *no_newline = "Version: 1.0";
	v = aw_deb_control_field(no_newline, strlen(no_newline), "Version");
	assert_string_equal(v, "1.0");
	free(v);
}

/* The seeds of fuzz_deb (tests/fuzz/deb-seeds), which dpkg-deb built with
 * Version 1.0.0-1 and each compression it writes, control.tar included. */
static void test_deb_version(void **state)
{
	(void)state;
	static const char *const z[] = { "xz", "gzip", "zstd", "none" };
	for (size_t i = 0; i < AW_ARRAY_SIZE(z); i++) {
		char *path = xasprintf("tests/fuzz/corpus/deb/seed-%s.deb", z[i]), *err = NULL;
		char *v = aw_deb_version(path, &err);
		if (!v)
			fail_msg("%s: %s", path, err);
		assert_string_equal(v, "1.0.0-1");
		free(v);
		free(path);
	}
	char *err = NULL;
	assert_null(aw_deb_version("tests/unit/test_vm.c", &err));
	assert_non_null(strstr(err, "not a Debian package"));
	free(err);
	err = NULL;
	assert_null(aw_deb_version("/nonexistent.deb", &err));
	assert_non_null(strstr(err, "No such file"));
	free(err);
}

/* ---- bzImage ---- */

static void test_bzimage_release(void **state)
{
	(void)state;
	char img[0x400] = { 0 };
	memcpy(img + 0x202, "HdrS", 4);
	img[0x206] = 0x0f;
	img[0x207] = 0x02;
	img[0x20e] = 0x00; /* version string at 0x100 + 0x200 */
	img[0x20f] = 0x01;
	strcpy(img + 0x300, "6.1.0-57-cloud-amd64 (debian-kernel@lists.debian.org) #1 SMP");
	int fd = aw_anon_file("bzimage");
	assert_int_equal(aw_write_all(fd, img, sizeof(img)), 0);
	char *err = NULL, *rel = aw_bzimage_release(fd, &err);
	assert_non_null(rel);
	assert_string_equal(rel, "6.1.0-57-cloud-amd64");
	free(rel);
	close(fd);
	fd = aw_anon_file("junk");
	assert_int_equal(aw_write_all(fd, img + 0x300, 0x100), 0);
	assert_null(aw_bzimage_release(fd, &err));
	assert_non_null(strstr(err, "not a bzImage"));
	free(err);
	close(fd);
}

/* ---- processes ---- */

static void test_spawn_and_anon_files(void **state)
{
	(void)state;
	int out = aw_anon_file("out");
	const char *argv[] = { "sh", "-c", "echo hello; echo oops >&2; exit 3", NULL };
	char *err_text = NULL;
	assert_int_equal(aw_run_wait(argv, -1, out, &err_text), 3);
	assert_non_null(strstr(err_text, "oops"));
	free(err_text);
	char *data;
	size_t len;
	assert_int_equal(aw_fd_slurp(out, &data, &len), 0);
	assert_string_equal(data, "hello\n");
	free(data);
	/* A child opens the same anonymous file through /proc/self/fd/N. */
	char *path = aw_fd_path(out), *script = xasprintf("echo again >> %s", path);
	const int keep[] = { out, -1 };
	const char *argv2[] = { "sh", "-c", script, NULL };
	struct aw_spawn how = { .in = -1, .out = -1, .err = -1, .keep = keep, .own_pgrp = true };
	pid_t pid = aw_spawn(argv2, &how);
	assert_true(pid > 0);
	int st;
	assert_int_equal(aw_wait_until(pid, 0, &st), 1);
	assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	assert_int_equal(aw_fd_slurp(out, &data, &len), 0);
	assert_string_equal(data, "hello\nagain\n");
	free(data);
	free(script);
	free(path);
	close(out);
	/* A program that does not exist is an error, not a child. */
	const char *argv3[] = { "/nonexistent/abiwatch-none", NULL };
	struct aw_spawn none = { .in = -1, .out = -1, .err = -1 };
	assert_int_equal(aw_spawn(argv3, &none), -1);
	/* A deadline ends the wait with the child still running. */
	const char *argv4[] = { "sleep", "10", NULL };
	pid = aw_spawn(argv4, &none);
	assert_true(pid > 0);
	assert_int_equal(aw_wait_until(pid, aw_now() + 0.2, &st), 0);
	assert_int_equal(kill(pid, 0), 0); /* returned before the child ended */
	aw_kill_reap(pid);
	assert_int_equal(kill(pid, 0), -1);
}

/* ---- guest paths ---- */

static void expect_refused(const char *path, const char *why)
{
	char *got = aw_guest_path_refused(path);
	if (!got || !strstr(got, why))
		fail_msg("%s: expected a refusal with '%s', got '%s'", path, why, got ? got : "none");
	free(got);
}

static void test_guest_path_refused(void **state)
{
	(void)state;
	/* Kept by init (/tmp, /run), or never mounted over. */
	static const char *const fine[] = { "/tmp/x/tools/cookiefs/cookiefs", "/run/a", "/tmp",
					    "/mnt/x", "/boot/config-6.1", "/devices", "/procx/y",
					    "/vmlinuz", "/vm-outer", "/usr/bin/abiwatchx", "/.x" };
	for (size_t i = 0; i < sizeof(fine) / sizeof(fine[0]); i++) {
		char *got = aw_guest_path_refused(fine[i]);
		if (got)
			fail_msg("%s refused: %s", fine[i], got);
	}
	expect_refused("x/y", "'x/y' is not an absolute path");
	expect_refused("", "not an absolute path");
	expect_refused("/", "not a plain path");
	expect_refused("/tmp/", "not a plain path");
	expect_refused("/tmp//x", "not a plain path");
	expect_refused("/tmp/../proc/x", "not a plain path");
	expect_refused("/./x", "not a plain path");
	expect_refused("/proc", "/proc is under /proc, which the guest's init mounts");
	expect_refused("/sys/kernel/x", "is under /sys,");
	expect_refused("/dev/shm/x", "/dev/shm/x is under /dev,");
	expect_refused("/vm-out/snapshot", "under /vm-out,");
	expect_refused("/vm/setup", "/vm/setup is reserved for the guest's init (/vm)");
	expect_refused("/init", "reserved for the guest's init (/init)");
	expect_refused("/sbin/modprobe", "reserved");
	expect_refused("/usr/bin/abiwatch", "reserved");
	expect_refused("/usr/libexec/abiwatch/abiwatch-dirent-m32", "reserved");
}

static void test_guest_file_path(void **state)
{
	(void)state;
	char *err = NULL, *got = aw_guest_file_path("/etc/hostname", &err);
	assert_string_equal(got, "etc/hostname");
	free(got);
	got = aw_guest_file_path("cfg/x=/tmp/ci/config", &err);
	assert_string_equal(got, "tmp/ci/config");
	free(got);
	assert_null(err);
	static const char *const bad[][2] = {
		{ "x=y", "--file x=y: 'y' is not an absolute path" },
		{ "data", "--file data: 'data' is not an absolute path (give a guest path: HOST=GUEST)" },
		{ "=/tmp/x", "--file =/tmp/x: no host file before '='" },
		{ "/etc/hostname=/dev/x", "--file /etc/hostname=/dev/x: /dev/x is under /dev," },
		{ "/proc/cpuinfo", "(give a guest path: HOST=GUEST)" },
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		err = NULL;
		assert_null(aw_guest_file_path(bad[i][0], &err));
		assert_non_null(err);
		if (!strstr(err, bad[i][1]))
			fail_msg("%s: '%s' lacks '%s'", bad[i][0], err, bad[i][1]);
		free(err);
	}
}

static void test_setup_program(void **state)
{
	(void)state;
	char *err = NULL, *got = aw_setup_program("sh -c true", &err);
	assert_non_null(got); /* PATH searched, links resolved */
	assert_true(got[0] == '/');
	assert_null(aw_guest_path_refused(got));
	free(got);
	assert_null(aw_setup_program("/dev/null /mnt", &err));
	assert_non_null(strstr(err, "--setup '/dev/null /mnt': /dev/null is under /dev,"));
	free(err);
	err = NULL;
	assert_null(aw_setup_program("abiwatch-no-such-program", &err));
	assert_non_null(strstr(err, "abiwatch-no-such-program: not found in PATH"));
	free(err);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cpio_newc),
		cmocka_unit_test(test_modules_from_modinfo),
		cmocka_unit_test(test_modules_dep_and_alias_files),
		cmocka_unit_test(test_modules_compressed),
		cmocka_unit_test(test_modinfo_rejects_junk),
		cmocka_unit_test(test_decompress_each_filter),
		cmocka_unit_test(test_control_field),
		cmocka_unit_test(test_deb_version),
		cmocka_unit_test(test_bzimage_release),
		cmocka_unit_test(test_spawn_and_anon_files),
		cmocka_unit_test(test_guest_path_refused),
		cmocka_unit_test(test_guest_file_path),
		cmocka_unit_test(test_setup_program),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

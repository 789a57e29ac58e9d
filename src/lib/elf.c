// SPDX-License-Identifier: GPL-2.0-or-later
/* The ELF reader of lib/elf.h.  Every field is read through rd*() with
 * the image's byte order and every range is checked against the image's
 * size, with sums checked for overflow, before anything is dereferenced. */
#include "elf.h"
#include "procfs.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>

#define SHT_DYNSYM_ 11
#define SHT_GNU_verdef_ 0x6ffffffd
#define SHT_GNU_versym_ 0x6fffffff
#define PT_LOAD_ 1
#define VER_NDX_MASK 0x7fff
#define VER_HIDDEN 0x8000

static uint64_t rd(const struct aw_elf *e, size_t off, unsigned n)
{
	uint64_t v = 0;
	for (unsigned i = 0; i < n; i++) {
		unsigned b = e->img[off + (e->big_endian ? i : n - 1 - i)];
		v = (v << 8) | b;
	}
	return v;
}

/* Whether [off, off + len) lies in the image. */
static bool inside(const struct aw_elf *e, uint64_t off, uint64_t len)
{
	return off <= e->size && len <= e->size - off;
}

/* A NUL-terminated string at offset off of the string table, or NULL. */
static const char *str_at(const struct aw_elf *e, uint64_t off)
{
	if (off >= e->str_size)
		return NULL;
	const char *s = (const char *)e->img + e->str_off + off;
	if (!memchr(s, '\0', e->str_size - off))
		return NULL;
	return s;
}

struct shdr {
	uint32_t type, link;
	uint64_t offset, size, entsize;
};

static void read_shdr(const struct aw_elf *e, size_t at, struct shdr *s)
{
	s->type = (uint32_t)rd(e, at + 4, 4);
	if (e->is64) {
		s->offset = rd(e, at + 24, 8);
		s->size = rd(e, at + 32, 8);
		s->link = (uint32_t)rd(e, at + 40, 4);
		s->entsize = rd(e, at + 56, 8);
	} else {
		s->offset = rd(e, at + 16, 4);
		s->size = rd(e, at + 20, 4);
		s->link = (uint32_t)rd(e, at + 24, 4);
		s->entsize = rd(e, at + 36, 4);
	}
}

static int read_phdrs(struct aw_elf *e, uint64_t phoff, unsigned phentsize, unsigned phnum)
{
	if (!phnum)
		return 0;
	if (phentsize < (e->is64 ? 56u : 32u) || !inside(e, phoff, (uint64_t)phentsize * phnum))
		return -EINVAL;
	for (unsigned i = 0; i < phnum; i++) {
		size_t at = (size_t)phoff + (size_t)i * phentsize;
		if (rd(e, at, 4) != PT_LOAD_)
			continue;
		uint64_t off = e->is64 ? rd(e, at + 8, 8) : rd(e, at + 4, 4);
		uint64_t vaddr = e->is64 ? rd(e, at + 16, 8) : rd(e, at + 8, 4);
		e->load_bias = vaddr - off;
		e->have_load = true;
		break;
	}
	return 0;
}

static int read_shdrs(struct aw_elf *e, uint64_t shoff, unsigned shentsize, unsigned shnum)
{
	if (!shnum)
		return 0;
	if (shentsize < (e->is64 ? 64u : 40u) || !inside(e, shoff, (uint64_t)shentsize * shnum))
		return -EINVAL;
	struct shdr s, str;
	for (unsigned i = 0; i < shnum; i++) {
		read_shdr(e, (size_t)shoff + (size_t)i * shentsize, &s);
		if (s.type == SHT_DYNSYM_ && !e->sym_count) {
			unsigned need = e->is64 ? 24 : 16;
			if (s.entsize < need || !inside(e, s.offset, s.size) || s.link >= shnum)
				return -EINVAL;
			read_shdr(e, (size_t)shoff + (size_t)s.link * shentsize, &str);
			if (!inside(e, str.offset, str.size))
				return -EINVAL;
			e->sym_off = (size_t)s.offset;
			e->sym_count = (size_t)(s.size / s.entsize);
			e->sym_entsize = (size_t)s.entsize;
			e->str_off = (size_t)str.offset;
			e->str_size = (size_t)str.size;
		} else if (s.type == SHT_GNU_versym_ && !e->versym_off) {
			if (!inside(e, s.offset, s.size) || s.offset == 0)
				return -EINVAL;
			e->versym_off = (size_t)s.offset;
		} else if (s.type == SHT_GNU_verdef_ && !e->verdef_off) {
			if (!inside(e, s.offset, s.size) || s.offset == 0)
				return -EINVAL;
			e->verdef_off = (size_t)s.offset;
			e->verdef_size = (size_t)s.size;
		}
	}
	/* .gnu.version has one entry per symbol. */
	if (e->versym_off && !inside(e, e->versym_off, (uint64_t)e->sym_count * 2))
		e->versym_off = 0;
	return 0;
}

int aw_elf_open(struct aw_elf *e, const void *img, size_t size)
{
	memset(e, 0, sizeof(*e));
	e->img = img;
	e->size = size;
	if (size < 52 || memcmp(img, "\177ELF", 4) != 0)
		return -ENOEXEC;
	unsigned cls = e->img[4], data = e->img[5];
	if ((cls != 1 && cls != 2) || (data != 1 && data != 2) || e->img[6] != 1)
		return -ENOEXEC;
	e->is64 = cls == 2;
	e->big_endian = data == 2;
	if (e->is64 && size < 64)
		return -EINVAL;
	e->type = (unsigned)rd(e, 16, 2);
	e->machine = (unsigned)rd(e, 18, 2);
	uint64_t phoff = e->is64 ? rd(e, 32, 8) : rd(e, 28, 4);
	uint64_t shoff = e->is64 ? rd(e, 40, 8) : rd(e, 32, 4);
	size_t tail = e->is64 ? 54 : 42;
	unsigned phentsize = (unsigned)rd(e, tail, 2), phnum = (unsigned)rd(e, tail + 2, 2);
	unsigned shentsize = (unsigned)rd(e, tail + 4, 2), shnum = (unsigned)rd(e, tail + 6, 2);
	int rc = read_phdrs(e, phoff, phentsize, phnum);
	if (rc == 0)
		rc = read_shdrs(e, shoff, shentsize, shnum);
	return rc;
}

size_t aw_elf_sym_count(const struct aw_elf *e)
{
	return e->sym_count;
}

/* The name of version index ndx in .gnu.version_d, or NULL (-EINVAL in
 * *rc when the chain is malformed). */
static const char *verdef_name(const struct aw_elf *e, unsigned ndx, int *rc)
{
	size_t off = 0;
	/* Each Verdef is 20 bytes and its vd_next moves forward; no more
	 * entries than the section can hold. */
	for (size_t n = 0; n <= e->verdef_size / 20; n++) {
		if (!inside(e, e->verdef_off + off, 20) || off + 20 > e->verdef_size) {
			*rc = -EINVAL;
			return NULL;
		}
		size_t at = e->verdef_off + off;
		unsigned vd_ndx = (unsigned)rd(e, at + 4, 2), vd_cnt = (unsigned)rd(e, at + 6, 2);
		uint64_t vd_aux = rd(e, at + 12, 4), vd_next = rd(e, at + 16, 4);
		if (vd_ndx == ndx) {
			if (!vd_cnt)
				return NULL;
			if (off + vd_aux + 8 > e->verdef_size) {
				*rc = -EINVAL;
				return NULL;
			}
			const char *s = str_at(e, rd(e, at + vd_aux, 4));
			if (!s)
				*rc = -EINVAL;
			return s;
		}
		if (!vd_next)
			return NULL;
		off += vd_next;
	}
	*rc = -EINVAL;
	return NULL;
}

int aw_elf_sym(const struct aw_elf *e, size_t i, struct aw_elf_sym *sym)
{
	memset(sym, 0, sizeof(*sym));
	if (i >= e->sym_count)
		return -ERANGE;
	size_t at = e->sym_off + i * e->sym_entsize;
	uint64_t name;
	unsigned info;
	if (e->is64) {
		name = rd(e, at, 4);
		info = e->img[at + 4];
		sym->shndx = (unsigned)rd(e, at + 6, 2);
		sym->value = rd(e, at + 8, 8);
		sym->size = rd(e, at + 16, 8);
	} else {
		name = rd(e, at, 4);
		sym->value = rd(e, at + 4, 4);
		sym->size = rd(e, at + 8, 4);
		info = e->img[at + 12];
		sym->shndx = (unsigned)rd(e, at + 14, 2);
	}
	sym->type = info & 0xf;
	sym->bind = info >> 4;
	sym->name = name ? str_at(e, name) : "";
	if (!sym->name)
		return -EINVAL;
	if (e->versym_off && e->verdef_off) {
		unsigned vs = (unsigned)rd(e, e->versym_off + 2 * i, 2);
		unsigned ndx = vs & VER_NDX_MASK;
		sym->hidden_version = (vs & VER_HIDDEN) != 0;
		int rc = 0;
		/* 0 is local, 1 global (unversioned): no name. */
		if (ndx >= 2) {
			sym->version = verdef_name(e, ndx, &rc);
			if (rc)
				return rc;
		}
	}
	return 0;
}

int aw_elf_lookup(const struct aw_elf *e, const char *name, const char *ver,
		  struct aw_elf_sym *sym)
{
	struct aw_elf_sym s;
	bool found = false;
	for (size_t i = 1; i < e->sym_count; i++) {
		if (aw_elf_sym(e, i, &s) != 0 || s.shndx == 0 || strcmp(s.name, name) != 0)
			continue;
		if (ver && (!s.version || strcmp(s.version, ver) != 0))
			continue;
		if (!found || (sym->hidden_version && !s.hidden_version))
			*sym = s;
		found = true;
	}
	return found ? 0 : -ENOENT;
}

int aw_elf_sym_offset(const struct aw_elf *e, const struct aw_elf_sym *sym, size_t *off)
{
	if (!e->have_load || sym->value < e->load_bias)
		return -ERANGE;
	uint64_t o = sym->value - e->load_bias;
	if (o >= e->size)
		return -ERANGE;
	*off = (size_t)o;
	return 0;
}

int aw_elf_vdso(const void **img, size_t *size)
{
	unsigned long at = getauxval(AT_SYSINFO_EHDR);
	if (!at)
		return -ENOENT;
	char *maps;
	size_t len;
	if (aw_file_slurp("/proc/self/maps", &maps, &len) != 0)
		return -errno;
	int rc = -ENOENT;
	for (char *line = maps; line && *line;) {
		char *nl = strchr(line, '\n');
		unsigned long long lo, hi;
		if (sscanf(line, "%llx-%llx", &lo, &hi) == 2 && lo == at && hi > lo) {
			*img = (const void *)(uintptr_t)at;
			*size = (size_t)(hi - lo);
			rc = 0;
			break;
		}
		line = nl ? nl + 1 : NULL;
	}
	free(maps);
	return rc;
}

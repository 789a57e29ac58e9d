/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A small reader of ELF images held in memory: the dynamic symbols of a
 * shared object and their versions, as the vDSO the kernel maps into
 * every process holds them (AT_SYSINFO_EHDR, vdso(7)), for 32-bit and
 * 64-bit images of either byte order alike.  It follows the ELF
 * specification (System V gABI, elf(5)) and the GNU symbol versioning
 * sections (.gnu.version, .gnu.version_d: the LSB's "Symbol Versioning"),
 * reads nothing outside the size it is given and allocates nothing, so it
 * parses untrusted bytes (tests/fuzz/fuzz_elf.c) as well as the vDSO.
 * No C library help (no dlopen, no dl_iterate_phdr): the point is to see
 * the image as the kernel made it.  It builds into the static -m32
 * helpers too.
 */
#ifndef ABIWATCH_LIB_ELF_H
#define ABIWATCH_LIB_ELF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct aw_elf {
	const unsigned char *img;
	size_t size;
	bool is64, big_endian;
	unsigned type, machine;      /* e_type (ET_DYN 3), e_machine (EM_X86_64 62) */
	/* .dynsym, the string table it links to, .gnu.version, .gnu.version_d
	 * (offsets in the image; 0 sizes when absent) */
	size_t sym_off, sym_count, sym_entsize;
	size_t str_off, str_size;
	size_t versym_off;            /* 0: no .gnu.version */
	size_t verdef_off, verdef_size; /* 0: no .gnu.version_d */
	/* p_vaddr - p_offset of the first PT_LOAD: a symbol's value minus
	 * this is its offset in the image. */
	uint64_t load_bias;
	bool have_load;
};

/* One dynamic symbol. */
struct aw_elf_sym {
	const char *name;     /* in the image, NUL-terminated ("" for none) */
	const char *version;  /* its defined version ("LINUX_2.6"), or NULL */
	bool hidden_version;  /* the versym's hidden bit (a non-default version) */
	uint64_t value;
	uint64_t size;
	unsigned type;        /* STT_FUNC 2, STT_OBJECT 1, ... */
	unsigned bind;        /* STB_GLOBAL 1, STB_WEAK 2, ... */
	unsigned shndx;       /* 0: undefined */
};

/* Read the headers of the image at img (size bytes): 0, or -ENOEXEC when
 * it is no ELF file, -EINVAL when a header, a section or the symbol
 * table lies outside size or is malformed.  An image without .dynsym is
 * valid, with no symbols. */
int aw_elf_open(struct aw_elf *e, const void *img, size_t size);

/* The number of entries of .dynsym (entry 0, the null symbol, included). */
size_t aw_elf_sym_count(const struct aw_elf *e);

/* Entry i: 0, or -EINVAL when its name or version lies outside the image
 * or is not NUL-terminated inside it, -ERANGE when i is out of range. */
int aw_elf_sym(const struct aw_elf *e, size_t i, struct aw_elf_sym *sym);

/* The defined symbol called name (and of version ver, unless NULL), its
 * default version first: 0 with *sym, or -ENOENT. */
int aw_elf_lookup(const struct aw_elf *e, const char *name, const char *ver,
		  struct aw_elf_sym *sym);

/* Where a symbol's value lies in the image: 0 with *off, or -ERANGE when
 * it lies outside it (or there is no PT_LOAD to relate it to). */
int aw_elf_sym_offset(const struct aw_elf *e, const struct aw_elf_sym *sym, size_t *off);

/* The vDSO of the calling process: its address, from the auxiliary
 * vector's AT_SYSINFO_EHDR, and its size, the mapping of /proc/self/maps
 * that holds that address: 0, or -ENOENT when the kernel gave none, or
 * the -errno of reading the maps. */
int aw_elf_vdso(const void **img, size_t *size);

#endif

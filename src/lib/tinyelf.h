/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Tiny x86_64 executables written by hand, so that no toolchain is needed
 * at run time and each file has exactly the program headers a probe is
 * about (elf(5)): one or two PT_LOADs, with or without PT_GNU_STACK,
 * ET_EXEC at a chosen address or ET_DYN without an interpreter.  Their
 * code, position-independent, is one of a few programs: exit 0; stop
 * itself with SIGSTOP (so that the caller reads /proc/PID/maps of the new
 * image) and exit 0 when continued; or create a posix timer and exit with
 * its id (the process family's exec probes, the time family's timer ids
 * after exec).
 */
#ifndef ABIWATCH_LIB_TINYELF_H
#define ABIWATCH_LIB_TINYELF_H

#include <stdbool.h>
#include <stddef.h>

enum aw_tinyelf_stack {
	AW_TINYELF_STACK_NONE, /* no PT_GNU_STACK: the architecture's default */
	AW_TINYELF_STACK_RW,   /* PT_GNU_STACK PF_R|PF_W */
	AW_TINYELF_STACK_RWX,  /* PT_GNU_STACK PF_R|PF_W|PF_X: an executable stack */
};

enum aw_tinyelf_code {
	AW_TINYELF_EXIT,     /* exit(0) */
	AW_TINYELF_STOP,     /* kill(getpid(), SIGSTOP), then exit(0) */
	/* timer_create(CLOCK_MONOTONIC, NULL, &id): exit(id), or exit(128 +
	 * errno) when it fails; an id above 127 exits with its low 7 bits
	 * and bit 7 set, which the caller cannot tell from an errno. */
	AW_TINYELF_TIMER_ID,
};

struct aw_tinyelf_spec {
	bool dyn;              /* ET_DYN (no PT_INTERP) instead of ET_EXEC */
	unsigned long base;    /* the first PT_LOAD's address (ET_DYN: 0) */
	bool overlap;          /* a second PT_LOAD in the first one's last page */
	enum aw_tinyelf_stack stack;
	enum aw_tinyelf_code code;
};

/* Whether this build can write such files (x86_64). */
bool aw_tinyelf_supported(void);
/* Write the file into buf: its size, or 0 when size is too small (or the
 * architecture is not supported).  AW_TINYELF_SIZE is always enough. */
#define AW_TINYELF_SIZE 8192
size_t aw_tinyelf_build(const struct aw_tinyelf_spec *spec, unsigned char *buf, size_t size);
/* Write the file as a new executable at path (mode 0755; an existing path
 * is refused with -EEXIST).  0, or -errno. */
int aw_tinyelf_write(const struct aw_tinyelf_spec *spec, const char *path);

#endif

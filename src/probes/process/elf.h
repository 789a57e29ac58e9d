/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ELF executables the process family writes itself, so that no
 * toolchain is needed at run time and each file has exactly the program
 * headers a probe is about (elf(5)): one or two PT_LOADs, with or
 * without PT_GNU_STACK, ET_EXEC at a chosen address or ET_DYN without an
 * interpreter.  The code is x86_64's, position-independent: it stops
 * itself with SIGSTOP (so that the probe reads /proc/PID/maps of the new
 * image) and exits 0 when continued, or only exits 0.
 */
#ifndef ABIWATCH_PROCESS_ELF_H
#define ABIWATCH_PROCESS_ELF_H

#include <stdbool.h>
#include <stddef.h>

enum pelf_stack {
	PELF_STACK_NONE, /* no PT_GNU_STACK: the architecture's default */
	PELF_STACK_RW,   /* PT_GNU_STACK PF_R|PF_W */
	PELF_STACK_RWX,  /* PT_GNU_STACK PF_R|PF_W|PF_X: an executable stack */
};

struct pelf_spec {
	bool dyn;              /* ET_DYN (no PT_INTERP) instead of ET_EXEC */
	unsigned long base;    /* the first PT_LOAD's address (ET_DYN: 0) */
	bool overlap;          /* a second PT_LOAD in the first one's last page */
	enum pelf_stack stack;
	bool stop;             /* SIGSTOP itself before exiting */
};

/* Whether this build can write such files (x86_64). */
bool pelf_supported(void);
/* Write the file into buf: its size, or 0 when size is too small (or the
 * architecture is not supported).  PELF_SIZE is always enough. */
#define PELF_SIZE 8192
size_t pelf_build(const struct pelf_spec *spec, unsigned char *buf, size_t size);

#endif

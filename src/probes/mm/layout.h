/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Where the kernel puts mappings, measured the same way by the probes
 * and by the 32-bit helper (m32/mm_m32.c includes layout.c as source):
 * how many anonymous mappings of a size come back aligned to a huge
 * page, and how far below a stack another mapping stops its growth.
 * Only system calls and fork(2): no probe library, so that it builds
 * with -m32 -static.
 */
#ifndef ABIWATCH_MM_LAYOUT_H
#define ABIWATCH_MM_LAYOUT_H

#include <stddef.h>

#define MM_PMD_DEFAULT (2UL << 20) /* x86's PMD size, when sysfs does not say */
#define MM_ALIGN_TRIES 16

/* Map tries anonymous MAP_PRIVATE mappings of len bytes, each with a
 * 4 KiB PROT_NONE spacer placed right below and above it, and count
 * those that start on a multiple of align.  The spacers move an
 * unaligned layout by a page each time, so that chance aligns at most
 * one of 16 (without them, a 2 MiB-aligned mmap base would align them
 * all, or every other one of 3 MiB).  All is unmapped again.  The count, or -errno of the mmap that failed. */
int mm_count_aligned(size_t len, int tries, unsigned long align);

/* What a count means, for an observation: "aligned" (all but one at
 * most), "unaligned" (two at most), else "mixed (K of N)". */
const char *mm_alignment_word(int aligned, int tries, char *buf, size_t size);

/* Both sizes measured (MM_ALIGN_TRIES each) as one observation: its
 * value into word ("aligned", "unaligned", "mixed (K of N)") and the
 * counts as a sentence into note; *first the count of size a.  0, or
 * -errno of the mmap that failed. */
int mm_alignment_of(unsigned long a, unsigned long b, unsigned long pmd, char *word, size_t wsize,
		    char *note, size_t nsize, int *first);

/* The stack guard gap, measured: a one-page MAP_GROWSDOWN stack and,
 * one page above a free gap below it, a one-page neighbour of
 * protection prot; forked children each touch one page of the gap, and
 * a binary search finds the lowest page the stack grows down to.  The
 * distance in bytes from the neighbour's end to it (0: the stack may
 * grow right up to it), MM_GAP_BEYOND when even the page just below the
 * stack faults, or -errno when the layout cannot be made. */
#define MM_GAP_SPAN (6UL << 20) /* below RLIMIT_STACK's 8 MiB default */
#define MM_GAP_BEYOND (-1000000L)
long mm_stack_guard_gap(int prot);

#endif

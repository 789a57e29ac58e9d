/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * For formulas of values the kernel sizes at boot from the machine's
 * memory: the range taken for what the kernel read at boot and no one can
 * read later, the numbers of a value, and the formulas more than one
 * caller uses (threads-max).
 */
#ifndef ABIWATCH_LIB_SIZING_H
#define ABIWATCH_LIB_SIZING_H

#include <stdbool.h>

/* What the kernel sized its boot-time values from, as recorded later. */
struct aw_boot_inputs {
	unsigned long long pages;     /* MemTotal / page size: totalram_pages() once booted */
	unsigned long long page_size; /* PAGE_SIZE */
};

/* A count of pages the kernel had at a moment of boot (free then, or in
 * total before the initramfs and the init sections were freed): not
 * recorded, and taken from half of MemTotal's pages to all of them. */
#define AW_BOOT_UNREAD(what) \
	what " at that moment of boot, not recorded: taken from half of MemTotal's pages to all of them"

/* What a move of such a value means, true whichever way diff decides. */
#define AW_SIZED_CHANGE                                                                      \
	"sized at boot from the machine: a value the kernel's formula gives for the recorded " \
	"memory is the machine's doing (diff folds it), any other a formula that changed"

/* That range, for in. */
void aw_boot_range(const struct aw_boot_inputs *in, unsigned long long *lo, unsigned long long *hi);

/* The decimal numbers of value ("95422", "22206 29611 44412", "3838/3838"),
 * at most max, into v: how many; -1 for anything else ("unlimited"). */
int aw_sized_numbers(const char *value, long long *v, int max);

/* A formula of the pages, non-decreasing in them. */
typedef long long aw_pages_formula(unsigned long long pages, const struct aw_boot_inputs *in);

/* Whether every number of value lies between f at the range's ends. */
bool aw_sized_between(const char *value, const struct aw_boot_inputs *in, aw_pages_formula *f);

/* kernel.threads-max for the pages fork_init() saw (kernel/fork.c
 * set_max_threads(): pages x PAGE_SIZE / (THREAD_SIZE x 8), from 20 to
 * FUTEX_TID_MASK), with THREAD_SIZE x86_64's 16 KiB.  The pages are
 * totalram_pages() on 6.1, memblock_estimated_nr_free_pages() since 6.12
 * (0910bf0ef85c): either is below MemTotal's pages by what boot still
 * held (the initramfs, the init sections). */
long long aw_threads_max(unsigned long long pages, const struct aw_boot_inputs *in);
/* Half of it: what fork_init() gives init's RLIMIT_NPROC and
 * RLIMIT_SIGPENDING and the initial user namespace's ucount maxima. */
long long aw_threads_max_half(unsigned long long pages, const struct aw_boot_inputs *in);
/* Whether every number of value is one aw_threads_max_half() gives. */
bool aw_threads_max_half_fits(const char *value, const struct aw_boot_inputs *in);

#endif

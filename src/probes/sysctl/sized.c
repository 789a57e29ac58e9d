// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The kernel's formulas for the knobs it sizes at boot from the pages it
 * had then (struct aw_sizing), so that diff tells two boots of one kernel
 * (the same formula, other free pages) from a formula that changed.  The
 * same in 6.1 and 6.12; the sources name the functions.
 */
#include "sysctl.h"
#include "lib/sizing.h"

#define NR_FILE 8192LL /* include/linux/fs.h */

/* fits() of a formula non-decreasing in the unread pages. */
#define FITS_BETWEEN(name, f)                                                  \
	static bool name(const char *value, const struct aw_boot_inputs *in) \
	{                                                                      \
		return aw_sized_between(value, in, f);                         \
	}

/* fs/file_table.c files_maxfiles_init(), run by page_alloc_init_late()
 * once the kernel is up: memreserve = min((pages - free) x 3/2, pages - 1);
 * max((pages - memreserve) x (PAGE_SIZE / 1024) / 10, NR_FILE). */
static long long file_max(unsigned long long free, const struct aw_boot_inputs *in)
{
	unsigned long long total = in->pages, reserve = (total - free) * 3 / 2;
	if (reserve > total - 1)
		reserve = total - 1;
	long long n = (long long)((total - reserve) * (in->page_size / 1024) / 10);
	return n > NR_FILE ? n : NR_FILE;
}

static bool file_max_fits(const char *value, const struct aw_boot_inputs *in)
{
	return in->pages > 0 && aw_sized_between(value, in, file_max);
}

const struct aw_sizing sc_file_max = {
	.formula = "max((pages - min(3/2 x (pages - free pages), pages - 1)) x page KiB / 10, 8192) "
		   "(fs/file_table.c files_maxfiles_init())",
	.unread = AW_BOOT_UNREAD("the free pages"),
	.fits = file_max_fits,
};

/* mm/util.c (mm/mmap.c in 6.1) init_user_reserve() and
 * init_admin_reserve(), subsys_initcalls: min(free KiB / 32, a cap). */
static long long reserve(unsigned long long free, const struct aw_boot_inputs *in, long long cap)
{
	long long kib = (long long)(free * (in->page_size / 1024) / 32);
	return kib < cap ? kib : cap;
}

static long long user_reserve(unsigned long long free, const struct aw_boot_inputs *in)
{
	return reserve(free, in, 1LL << 17);
}

static long long admin_reserve(unsigned long long free, const struct aw_boot_inputs *in)
{
	return reserve(free, in, 1LL << 13);
}

FITS_BETWEEN(user_reserve_fits, user_reserve)

FITS_BETWEEN(admin_reserve_fits, admin_reserve)

const struct aw_sizing sc_user_reserve = {
	.formula = "min(free KiB / 32, 131072) (mm/util.c, 6.1 mm/mmap.c: init_user_reserve())",
	.unread = AW_BOOT_UNREAD("the free pages"),
	.fits = user_reserve_fits,
};

const struct aw_sizing sc_admin_reserve = {
	.formula = "min(free KiB / 32, 8192) (mm/util.c, 6.1 mm/mmap.c: init_admin_reserve())",
	.unread = AW_BOOT_UNREAD("the free pages"),
	.fits = admin_reserve_fits,
};

FITS_BETWEEN(threads_fits, aw_threads_max)

const struct aw_sizing sc_threads_max = {
	.formula = "pages x PAGE_SIZE / (16 KiB x 8), from 20 to 2^30 - 1 "
		   "(kernel/fork.c set_max_threads(), x86_64's THREAD_SIZE; the pages are "
		   "totalram_pages(), memblock's estimate of free pages since 6.12, 0910bf0ef85c)",
	.unread = AW_BOOT_UNREAD("the pages fork_init() counted (before the initramfs was freed)"),
	.fits = threads_fits,
};

const struct aw_sizing sc_half_threads_max = {
	.formula = "threads-max / 2 (kernel/fork.c fork_init(): init_user_ns.ucount_max)",
	.unread = AW_BOOT_UNREAD("the pages fork_init() counted (before the initramfs was freed)"),
	.fits = aw_threads_max_half_fits,
};

/* fs/eventpoll.c eventpoll_init(), an fs_initcall (before the initramfs
 * and the init sections are freed into totalram): ((totalram -
 * totalhigh) / 25) << PAGE_SHIFT / EP_ITEM_COST, the same in 6.1 and
 * 6.12.  EP_ITEM_COST is sizeof(struct epitem) + sizeof(struct
 * eppoll_entry), 120 + 64 on x86_64 (epoll_filefd and epoll_event are
 * packed there); x86_64 has no high memory. */
#define EP_ITEM_COST_X86_64 184ULL

static long long epoll_watches(unsigned long long pages, const struct aw_boot_inputs *in)
{
	return (long long)(pages / 25 * in->page_size / EP_ITEM_COST_X86_64);
}

FITS_BETWEEN(epoll_watches_fits, epoll_watches)

const struct aw_sizing sc_epoll_watches = {
	.formula = "(pages / 25) x PAGE_SIZE / 184, 184 bytes being an epitem and an eppoll_entry on x86_64 "
		   "(fs/eventpoll.c eventpoll_init(); no high memory on x86_64)",
	.unread = AW_BOOT_UNREAD("the pages eventpoll_init() counted (before the initramfs was freed)"),
	.fits = epoll_watches_fits,
};

/* mm/page_alloc.c (6.12: mm/mm_init.c) calculate_min_free_kbytes():
 * int_sqrt(lowmem KiB x 16), 128 to 262144; khugepaged raises it
 * (mm/khugepaged.c set_recommended_min_free_kbytes()) to at most 5 % of
 * lowmem. */
static long long isqrt(long long v)
{
	long long r = 0;
	while ((r + 1) * (r + 1) <= v)
		r++;
	return r;
}

static long long min_free(unsigned long long pages, const struct aw_boot_inputs *in)
{
	long long s = isqrt((long long)(pages * (in->page_size / 1024)) * 16);
	return s < 128 ? 128 : s > 262144 ? 262144 : s;
}

static bool min_free_fits(const char *value, const struct aw_boot_inputs *in)
{
	long long v;
	unsigned long long lo, hi;
	aw_boot_range(in, &lo, &hi);
	long long most = (long long)(hi * (in->page_size / 1024) / 20);
	if (aw_sized_numbers(value, &v, 1) != 1)
		return false;
	return v >= min_free(lo, in) && (v <= min_free(hi, in) || v <= most);
}

const struct aw_sizing sc_min_free = {
	.formula = "int_sqrt(lowmem KiB x 16), 128 to 262144, raised by khugepaged to at most 5 % of lowmem "
		   "(mm/page_alloc.c calculate_min_free_kbytes(), mm/khugepaged.c)",
	.unread = AW_BOOT_UNREAD("the low memory free"),
	.fits = min_free_fits,
};

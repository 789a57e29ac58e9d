// SPDX-License-Identifier: GPL-2.0-or-later
#include "sizing.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>

void aw_boot_range(const struct aw_boot_inputs *in, unsigned long long *lo, unsigned long long *hi)
{
	/* The kernel sizes these after its early allocations and before
	 * user space runs; what it used by then is far below half the
	 * memory, and MemTotal only grows after (the initramfs and the
	 * init sections are freed into it). */
	*lo = in->pages / 2;
	*hi = in->pages;
}

int aw_sized_numbers(const char *value, long long *v, int max)
{
	int n = 0;
	const char *p = value;
	while (*p) {
		char *end;
		if (!isdigit((unsigned char)*p) || n == max)
			return -1;
		errno = 0;
		v[n++] = strtoll(p, &end, 10);
		if (errno)
			return -1;
		p = end;
		if (*p == ' ' || *p == '\t' || *p == '/')
			p++;
		else if (*p)
			return -1;
	}
	return n ? n : -1;
}

bool aw_sized_between(const char *value, const struct aw_boot_inputs *in, aw_pages_formula *f)
{
	long long v[4];
	unsigned long long lo, hi;
	int n = aw_sized_numbers(value, v, 4);
	aw_boot_range(in, &lo, &hi);
	for (int i = 0; i < n; i++)
		if (v[i] < f(lo, in) || v[i] > f(hi, in))
			return false;
	return n > 0;
}

#define THREAD_SIZE_X86_64 16384ULL
#define MIN_THREADS 20LL
#define MAX_THREADS 0x3fffffffLL /* FUTEX_TID_MASK */

long long aw_threads_max(unsigned long long pages, const struct aw_boot_inputs *in)
{
	long long t = (long long)(pages * in->page_size / (THREAD_SIZE_X86_64 * 8));
	return t < MIN_THREADS ? MIN_THREADS : t > MAX_THREADS ? MAX_THREADS : t;
}

long long aw_threads_max_half(unsigned long long pages, const struct aw_boot_inputs *in)
{
	return aw_threads_max(pages, in) / 2;
}

bool aw_threads_max_half_fits(const char *value, const struct aw_boot_inputs *in)
{
	return aw_sized_between(value, in, aw_threads_max_half);
}

// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * abiwatch-mm-m32: the mm family's 32-bit caller, built by the
 * Makefile's m32 rule (gcc -m32 -static).  Its mmap(2) calls enter the
 * kernel through the compat path (in_compat_syscall() is true), where
 * THP alignment is not forced (4ef9ad19e176) and the legacy mmap base
 * lies below 4 GiB.  It measures what the 64-bit probes measure, with
 * the same code (layout.c), and reports the probe's compat32.* items,
 * without the prefix, as lines of the probe protocol on stdout:
 *
 *   abiwatch-mm-m32 thp PMD   pmd_multiple, non_multiple, not_forced
 *   abiwatch-mm-m32 gap       gap, gap_prot_none
 */
#include "lib/errname.h"
#include "lib/wire.h"
#include "probes/mm/layout.h"
/* The m32 rule builds this folder's files and the protocol's writer:
 * the family's measurements come in as source. */
#include "probes/mm/layout.c"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

_Static_assert(sizeof(void *) == 4, "build with -m32: the point is the compat entry points");

static void sizes(const char *item, unsigned long a, unsigned long b, unsigned long pmd, int *first)
{
	char word[48], note[160];
	int rc = mm_alignment_of(a, b, pmd, word, sizeof(word), note, sizeof(note), first);

	if (rc) {
		aw_out_unobserved(item, "mmap: %s", aw_errname(rc));
		return;
	}
	aw_out_note("%s: %s", item, note);
	aw_out_observe(item, "%s", word);
}

static int thp(const char *pmd_text)
{
	char *end;
	unsigned long pmd = strtoul(pmd_text, &end, 10);
	int two_mib, other;

	if (*end || pmd < 4096 || pmd > (64UL << 20))
		return 2;
	sizes("pmd_multiple", pmd, 2 * pmd, pmd, &two_mib);
	sizes("non_multiple", pmd + pmd / 2, pmd + 4096, pmd, &other);
	if (two_mib < 0)
		aw_out_skip("not_forced", "mmap of %lu B: %s", pmd, aw_errname(two_mib));
	else
		aw_out_expect("not_forced", two_mib <= 2, "%d of %d mappings of %lu B came back aligned",
			      two_mib, MM_ALIGN_TRIES, pmd);
	return 0;
}

static void gap(const char *item, int prot)
{
	long g = mm_stack_guard_gap(prot);

	if (g == MM_GAP_BEYOND)
		aw_out_unobserved(item, "the stack did not grow at all within %lu B", MM_GAP_SPAN);
	else if (g < 0)
		aw_out_unobserved(item, "setting up the stack: %s", aw_errname((int)g));
	else
		aw_out_observe(item, "%ld", g);
}

int main(int argc, char **argv)
{
	aw_helper_hello(argc, argv);
	if (argc == 3 && strcmp(argv[1], "thp") == 0)
		return thp(argv[2]);
	if (argc == 2 && strcmp(argv[1], "gap") == 0) {
		gap("gap", PROT_READ);
		gap("gap_prot_none", PROT_NONE);
		return 0;
	}
	fprintf(stderr, "usage: abiwatch-mm-m32 --hello | thp PMD_BYTES | gap\n");
	return 2;
}

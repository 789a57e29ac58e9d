// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * THP alignment of anonymous mappings.  Since efa7df3e3bb5 (6.8, and
 * 6.6.y/6.7.y stable) the kernel places an anonymous mapping without an
 * address hint on a huge-page (PMD) boundary; since d4148aeab412 (6.12)
 * only when its length is a multiple of the PMD size; never for 32-bit
 * callers since 4ef9ad19e176, whose ASLR lost 9 bits to it.  JVMs that
 * reserve heaps as many 2 MiB mappings saw their memory bloat.  The
 * alignment does not depend on the THP mode, which is recorded beside
 * it because what the aligned mapping costs does.
 */
#include "mm.h"
#include "layout.h"
#include "parse.h"
#include "lib/errname.h"
#include "core/probe.h"
#include "lib/procfs.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#define THP_SYSFS "/sys/kernel/mm/transparent_hugepage/"
#define HELPER_TIMEOUT_MS 5000

static const struct aw_item thp_items[] = {
	AW_OBS_ITEM("mode", "the THP mode of /sys/kernel/mm/transparent_hugepage/enabled (always, madvise, never)",
		    .varies_with = "setup",
		    .change = "what an aligned anonymous mapping costs changes: with always it is backed by huge pages at first touch"),
	AW_OBS_ITEM("anon64.pmd_multiple", "whether 64-bit anonymous mappings of 2 and 4 MiB come back PMD-aligned",
		    .change = "aligned: 2 MiB-multiple mappings land on huge-page boundaries (efa7df3e3bb5), so a program mapping many such regions gets huge pages and less ASLR entropy; programs that counted on adjacent placement no longer get it"),
	AW_OBS_ITEM("anon64.non_multiple", "whether 64-bit anonymous mappings of 3 MiB and 2 MiB + 4 KiB come back PMD-aligned",
		    .change = "aligned: mappings of other sizes are padded to huge-page boundaries too (6.8 to 6.11, before d4148aeab412), leaving holes that fragment the address space"),
	AW_OBS_ITEM("compat32.pmd_multiple", "whether a 32-bit caller's anonymous mappings of 2 and 4 MiB come back PMD-aligned",
		    .change = "aligned: 32-bit processes lose 9 bits of mmap ASLR, the regression 4ef9ad19e176 fixed"),
	AW_OBS_ITEM("compat32.non_multiple", "whether a 32-bit caller's anonymous mappings of 3 MiB and 2 MiB + 4 KiB come back PMD-aligned",
		    .change = "aligned: 32-bit address space is padded away at every large mapping"),
	AW_CHECK_ITEM("compat32.not_forced", "a 32-bit caller's 2 MiB anonymous mappings are not forced onto PMD boundaries (4ef9ad19e176)"),
	AW_ITEMS_END
};

/* The PMD size THP aligns to, from sysfs, else x86's. */
static unsigned long pmd_size(void)
{
	long long v;
	return aw_read_ll(THP_SYSFS "hpage_pmd_size", &v) == 0 && v > 0 ? (unsigned long)v : MM_PMD_DEFAULT;
}

static void observe_mode(struct aw_ctx *ctx)
{
	char *text = NULL, word[32];
	size_t len = 0;
	int read = aw_file_slurp(THP_SYSFS "enabled", &text, &len) == 0 ? 0 : -errno;
	int rc = read ? read : mm_bracketed_word(text, len, word, sizeof(word));

	free(text);
	if (read == -ENOENT)
		aw_unobserved(ctx, "mode", "no %senabled: a kernel without CONFIG_TRANSPARENT_HUGEPAGE", THP_SYSFS);
	else if (rc)
		aw_error(ctx, "mode", "reading %senabled: %s", THP_SYSFS, aw_errname(rc));
	else
		aw_observe(ctx, "mode", "%s", word);
}

/* Two sizes, MM_ALIGN_TRIES each: one word for both. */
static void observe_sizes(struct aw_ctx *ctx, const char *item, unsigned long a, unsigned long b,
			  unsigned long pmd)
{
	char word[48], note[160];
	int first;
	int rc = mm_alignment_of(a, b, pmd, word, sizeof(word), note, sizeof(note), &first);

	if (rc) {
		aw_error(ctx, item, "mmap: %s", aw_errname(rc));
		return;
	}
	aw_note(ctx, "%s: %s", item, note);
	aw_observe(ctx, item, "%s", word);
}

static void thp_run(struct aw_ctx *ctx)
{
	unsigned long pmd = pmd_size();
	char pmd_arg[32];

	observe_mode(ctx);
	observe_sizes(ctx, "anon64.pmd_multiple", pmd, 2 * pmd, pmd);
	observe_sizes(ctx, "anon64.non_multiple", pmd + pmd / 2, pmd + 4096, pmd);
	snprintf(pmd_arg, sizeof(pmd_arg), "%lu", pmd);
	const char *const args[] = { "thp", pmd_arg, NULL };
	const struct aw_helper helper = {
		.name = MM_HELPER, .args = args, .prefix = "compat32.", .timeout_ms = HELPER_TIMEOUT_MS,
	};
	(void)aw_helper_report(ctx, &helper);
}

static const char *const thp_tags[] = {
	"linux-git:efa7df3e3bb5", "linux-git:d4148aeab412", "linux-git:4ef9ad19e176",
	"linux-git:96204e15310c", "man:mmap(2)", NULL
};

static const char *const thp_kconfig[] = { "CONFIG_TRANSPARENT_HUGEPAGE", "CONFIG_IA32_EMULATION", NULL };

const struct aw_probe mm_thp_probes[] = {
	{
		.name = "thp",
		.summary = "where anonymous mappings land: PMD alignment for 64-bit and 32-bit callers, with the THP mode",
		.run = thp_run,
		.items = thp_items,
		.needs = { .kconfig = thp_kconfig },
		.tags = thp_tags,
	},
	AW_PROBES_END,
};

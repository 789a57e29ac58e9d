// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * MAP_STACK marks a mapping no-huge-page.  mmap(2) long called MAP_STACK
 * a no-op on Linux; since c4608d1bf7c6 (6.8, 6.6.y/6.7.y stable) it sets
 * VM_NOHUGEPAGE, so that thread stacks of 2 MiB, now THP-aligned, are
 * not backed by huge pages (the memory bloat of programs with many
 * threads), and since 7190b3c8bd2b (6.15) only where THP is built in.
 * smaps shows it as "nh" in the mapping's VmFlags.
 */
#include "mm.h"
#include "parse.h"
#include "lib/errname.h"
#include "lib/proc.h"
#include "lib/procfs.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>

#define LEN (1UL << 20)

static const struct aw_item map_stack_items[] = {
	AW_OBS_ITEM("nohuge", "yes when a MAP_STACK anonymous mapping has the nh (VM_NOHUGEPAGE) flag in smaps",
		    .change = "yes: MAP_STACK mappings are never backed by huge pages (c4608d1bf7c6); a program that used MAP_STACK for a heap-like region loses THP there, and the mapping no longer merges with its neighbours"),
	AW_OBS_ITEM("plain_nohuge", "yes when an anonymous mapping without MAP_STACK has the nh flag in smaps",
		    .change = "yes: every anonymous mapping is kept from huge pages, not only stacks"),
	AW_ITEMS_END
};

/* A read-write anonymous mapping with extra flags between two PROT_NONE
 * pages, so that it cannot merge with a neighbour and its smaps block
 * starts where it does.  Its address, or MAP_FAILED with errno. */
static char *fenced_mapping(int extra_flags)
{
	char *r = mmap(NULL, LEN + 2 * aw_page_size(), PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (r == MAP_FAILED)
		return r;
	char *p = mmap(r + aw_page_size(), LEN, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED | extra_flags, -1, 0);
	if (p == MAP_FAILED) {
		int err = errno;
		munmap(r, LEN + 2 * aw_page_size());
		errno = err;
	}
	return p;
}

static void observe_flag(struct aw_ctx *ctx, const char *item, const char *smaps, size_t len, char *p)
{
	char flags[256];
	int rc = mm_smaps_vmflags(smaps, len, (unsigned long)(uintptr_t)p, flags, sizeof(flags));

	if (rc == -EINVAL) {
		aw_unobserved(ctx, item, "no VmFlags line in /proc/self/smaps (before 3.8)");
		return;
	}
	if (rc) {
		aw_error(ctx, item, "the mapping at %p in /proc/self/smaps: %s", (void *)p, aw_errname(rc));
		return;
	}
	aw_note(ctx, "%s: VmFlags %s", item, flags);
	aw_observe(ctx, item, "%s", mm_has_token(flags, "nh") ? "yes" : "no");
}

static void map_stack_run(struct aw_ctx *ctx)
{
	char *stack = fenced_mapping(MAP_STACK);
	char *plain = stack == MAP_FAILED ? MAP_FAILED : fenced_mapping(0);
	char *smaps = NULL;
	size_t len = 0;

	if (plain == MAP_FAILED) {
		aw_error_rest(ctx, "mmap: %s", aw_errname(errno));
		return;
	}
	if (aw_file_slurp("/proc/self/smaps", &smaps, &len) != 0) {
		aw_error_rest(ctx, "reading /proc/self/smaps: %s", aw_errname(errno));
		return;
	}
	observe_flag(ctx, "nohuge", smaps, len, stack);
	observe_flag(ctx, "plain_nohuge", smaps, len, plain);
	free(smaps);
}

static const char *const map_stack_tags[] = {
	"linux-git:c4608d1bf7c6", "linux-git:7190b3c8bd2b", "man:mmap(2)", "man:proc_pid_smaps(5)", NULL
};

static const char *const map_stack_kconfig[] = { "CONFIG_TRANSPARENT_HUGEPAGE", "CONFIG_PROC_PAGE_MONITOR", NULL };

const struct aw_probe mm_map_stack_probes[] = {
	{
		.name = "map_stack",
		.summary = "whether MAP_STACK marks an anonymous mapping no-huge-page (nh in smaps)",
		.run = map_stack_run,
		.items = map_stack_items,
		.needs = { .kconfig = map_stack_kconfig },
		.tags = map_stack_tags,
	},
	AW_PROBES_END,
};

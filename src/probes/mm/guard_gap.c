// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The stack guard gap (1be7107fbe18, 4.12, CVE-2017-1000364 "Stack
 * Clash"): a stack (a MAP_GROWSDOWN mapping) does not grow to within
 * stack_guard_gap (256 pages, 1 MiB, unless the stack_guard_gap= boot
 * parameter says otherwise) of an accessible mapping below it; a
 * PROT_NONE one does not count.  Measured on a private stack in a child
 * (layout.c), for 64-bit and 32-bit callers: Java's 32-bit HotSpot put
 * its own guard pages right below thread stacks and crashed when the
 * gap first grew (JDK-8197429).
 */
#include "mm.h"
#include "layout.h"
#include "lib/child.h"
#include "lib/errname.h"
#include "core/probe.h"
#include "lib/util.h"

#include <errno.h>
#include <sys/mman.h>

#define CHILD_MS 5000
#define HELPER_TIMEOUT_MS 5000

#define GAP_CHANGE "a program that maps its own guard pages right below a stack (32-bit JVMs) crashes when it grows, or stack clash protection weakens"

static const struct aw_item gap_items[] = {
	AW_OBS_ITEM("gap", "how far below a stack an accessible mapping stops its growth", .unit = "B",
		    .change = GAP_CHANGE),
	AW_OBS_ITEM("gap_prot_none", "how far below a stack a PROT_NONE mapping stops its growth", .unit = "B",
		    .change = "0: a PROT_NONE guard mapping may sit right below a stack; more: such guards now stop stacks early"),
	AW_OBS_ITEM("boot_param", "the stack_guard_gap= kernel parameter in pages, or none",
		    .change = "the gap was set on the command line, not by the kernel's default"),
	AW_OBS_ITEM("compat32.gap", "how far below a 32-bit caller's stack an accessible mapping stops its growth",
		    .unit = "B", .change = GAP_CHANGE),
	AW_OBS_ITEM("compat32.gap_prot_none", "how far below a 32-bit caller's stack a PROT_NONE mapping stops its growth",
		    .unit = "B", .change = "0: a PROT_NONE guard may sit right below a 32-bit stack"),
	AW_ITEMS_END
};

static struct aw_ctx *gap_ctx;

static void observe_gap(const char *item, int prot)
{
	long g = mm_stack_guard_gap(prot);

	if (g == MM_GAP_BEYOND)
		aw_unobserved(gap_ctx, item, "the stack did not grow at all within %lu B", MM_GAP_SPAN);
	else if (g < 0)
		aw_error(gap_ctx, item, "setting up the stack: %s", aw_errname((int)g));
	else
		aw_observe(gap_ctx, item, "%ld", g);
}

/* A child: the measurement raises its RLIMIT_STACK. */
static int gap_child(void *arg)
{
	(void)arg;
	observe_gap("gap", PROT_READ);
	observe_gap("gap_prot_none", PROT_NONE);
	return 0;
}

static void gap_run(struct aw_ctx *ctx)
{
	static const char *const args[] = { "gap", NULL };
	const struct aw_helper helper = {
		.name = MM_HELPER, .args = args, .prefix = "compat32.", .timeout_ms = HELPER_TIMEOUT_MS,
	};

	gap_ctx = ctx;
	mm_observe_boot_param(ctx, "boot_param", "stack_guard_gap");
	int status = aw_child_run(gap_child, NULL, CHILD_MS);
	static const char *const native[] = { "gap", "gap_prot_none" };
	for (size_t i = 0; status != 0 && i < AW_ARRAY_SIZE(native); i++)
		if (!aw_reported(ctx, native[i]))
			aw_error(ctx, native[i], "the measuring child ended with status %d", status);
	(void)aw_helper_report(ctx, &helper);
}

static const char *const gap_tags[] = {
	"linux-git:1be7107fbe18", "man:mmap(2)", "man:getrlimit(2)", NULL
};

const struct aw_probe mm_guard_gap_probes[] = {
	{
		.name = "stack_guard_gap",
		.summary = "the distance below a stack at which another mapping stops its growth",
		.run = gap_run,
		.items = gap_items,
		.tags = gap_tags,
	},
	AW_PROBES_END,
};

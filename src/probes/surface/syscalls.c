// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * surface.syscalls and surface.syscalls32: which system calls the kernel
 * has, for x86-64 callers and for i386 callers (the family's 32-bit
 * helper, m32/), as the tables x86_64.tbl and i386.tbl list them.  Each
 * call is made with arguments that make it fail its first check (a bad
 * descriptor, a pointer to nothing, all flag bits), in a process of its
 * own (sweep.h); an unimplemented number answers ENOSYS
 * (kernel/sys_ni.c, syscall(2): "ENOSYS ... the system call is not
 * implemented"), anything else is a call the kernel has.  Per call two
 * items of one object: NAME.present (yes, no, or disabled: built but
 * switched off, see sweep.h) and NAME.result (ok, the
 * errno, or the signal that ended the caller).  A removal is a break for
 * every caller (sysctl(2), removed in 5.5: syscalls(2) and sysctl(2)
 * NOTES), an addition an interface that appeared (syscalls(2) gives the
 * version of each: cachestat 6.5, fchmodat2 and map_shadow_stack 6.6,
 * futex_wake/wait/requeue 6.7, listmount, statmount and lsm_* 6.8, mseal
 * 6.10, uretprobe 6.11, *xattrat 6.13; the kernel's
 * arch/x86/entry/syscalls/syscall_64.tbl and syscall_32.tbl give the
 * numbers).  Calls with effects no failing form avoids (reboot, kexec,
 * module loading, swapon, clock setting, acct, vhangup, sync) are swept
 * only in the VM guest; calls that never return or never fail (exit,
 * rt_sigreturn, pause, fork) are not swept: the tables say why.
 */
#include "surface.h"
#include "sweep.h"
#include "lib/util.h"

#include <stdlib.h>

static const char *const absent_no[] = { "no", NULL };
static const char *const absent_enosys[] = { "ENOSYS", NULL };

/* guest: NULL, or why the row is swept only in the VM guest (its items
 * declare it, and the runner skips them elsewhere). */
#define PRESENT(arch, n, nr, guest)                                                                  \
	AW_OBS_ITEM(#n ".present", arch " system call " #n " (" #nr "): yes; no when it answers ENOSYS; " \
		    "disabled when it answers ENOSYS but is built, switched off (sweep.h)",             \
		    .change = "no -> yes: the call appeared and programs may use it; yes -> no: it vanished " \
			      "and every program calling it breaks; disabled -> yes: the kernel had it, "   \
			      "switched off, and now has it on (by default or by the boot's parameters)",  \
		    .absent = absent_no, .vm_guest = (guest), .witness = &surface_call_witness)
#define RESULT(arch, n, nr, guest)                                                                   \
	AW_OBS_ITEM(#n ".result", "what " arch " " #n " (" #nr ") answers to the table's arguments: ok, "  \
		    "the errno, or the signal that ended the caller",                                    \
		    .change = "the kernel checks the arguments in another order, or answers another errno: " \
			      "a program that probes for the call by its errno may decide wrongly",       \
		    .absent = absent_enosys, .vm_guest = (guest), .witness = &surface_call_witness)
#define GUEST_ONLY(why) "not swept outside the VM guest: " why

/* ---- x86-64 ---- */

#define SC(n, nr, args) PRESENT("x86-64", n, nr, NULL), RESULT("x86-64", n, nr, NULL),
#define SG(n, nr, args, why) PRESENT("x86-64", n, nr, GUEST_ONLY(why)), RESULT("x86-64", n, nr, GUEST_ONLY(why)),
#define NS(n, nr, why)
static const struct aw_item x64_items[] = {
#include "x86_64.tbl"
	AW_ITEMS_END
};
#undef SC
#undef SG
#undef NS

#define SC(n, nr, args) { #n, nr, args, NULL, NULL },
#define SG(n, nr, args, why) { #n, nr, args, why, NULL },
#define NS(n, nr, why) { #n, nr, { 0 }, NULL, why },
static const struct surface_call x64_calls[] = {
#include "x86_64.tbl"
};
#undef SC
#undef SG
#undef NS

static void x64_run(struct aw_ctx *ctx)
{
	size_t n = AW_ARRAY_SIZE(x64_calls);
	int *codes = surface_codes(n);
	/* The guest-only rows are called where their items' need is met. */
	int rc = codes ? surface_sweep(x64_calls, n, aw_vm_guest(ctx), codes) : -errno;

	if (rc) {
		aw_error_rest(ctx, "sweeping the table: %s", aw_errname(rc));
		if (codes)
			surface_codes_free(codes, n);
		return;
	}
	for (size_t i = 0; i < n; i++) {
		const struct surface_call *c = &x64_calls[i];
		char present[64], result[64], buf[32];
		snprintf(present, sizeof(present), "%s.present", c->name);
		snprintf(result, sizeof(result), "%s.result", c->name);
		if (c->never || !aw_item_needs_met(ctx, present))
			continue;
		if (codes[i] == SURFACE_NOT_CALLED) {
			aw_error(ctx, present, "the sweep ended before this call");
			aw_error(ctx, result, "the sweep ended before this call");
		} else {
			aw_observe(ctx, present, "%s", surface_present(c->name, codes[i]));
			aw_observe(ctx, result, "%s", surface_result(codes[i], buf, sizeof(buf)));
		}
	}
	surface_codes_free(codes, n);
}

/* ---- i386, through the helper ---- */

#define SC(n, nr, args) PRESENT("i386", n, nr, NULL), RESULT("i386", n, nr, NULL),
#define SG(n, nr, args, why) PRESENT("i386", n, nr, GUEST_ONLY(why)), RESULT("i386", n, nr, GUEST_ONLY(why)),
#define NS(n, nr, why)
static const struct aw_item i386_items[] = {
#include "i386.tbl"
	AW_ITEMS_END
};
#undef SC
#undef SG
#undef NS

/* The helper sweeps the guest-only rows with --guest; elsewhere the
 * runner has skipped their items (.vm_guest), which the helper then
 * leaves out. */
static void i386_run(struct aw_ctx *ctx)
{
	static const char *const guest_args[] = { "--guest", NULL };
	const struct aw_helper helper = {
		.name = SURFACE_HELPER,
		.args = aw_vm_guest(ctx) ? guest_args : NULL,
		.prefix = "",
		.timeout_ms = SURFACE_HELPER_MS,
	};
	aw_helper_report(ctx, &helper);
}

static const char *const tags[] = {
	"man:syscall(2)", "man:syscalls(2)", "man:sysctl(2)", NULL,
};

const struct aw_probe surface_syscalls_probes[] = {
	{
		.name = "syscalls",
		.summary = "every x86-64 system call number, called so that it fails: present or ENOSYS",
		.run = x64_run,
		.items = x64_items,
		.tags = tags,
		.timeout_s = 120,
	},
	{
		.name = "syscalls32",
		.summary = "every i386 system call number, from the 32-bit helper: present or ENOSYS",
		.run = i386_run,
		.items = i386_items,
		.needs = { .i386_programs = true },
		.tags = tags,
		.timeout_s = 120,
	},
	AW_PROBES_END,
};

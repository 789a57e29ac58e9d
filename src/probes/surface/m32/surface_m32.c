// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * abiwatch-surface-m32: the surface family's i386 caller, built by the
 * Makefile's m32 rule (gcc -m32 -static) into build/m32/.  It makes every
 * call of ../i386.tbl through the i386 entry (int 0x80 or the vDSO's
 * sysenter, which glibc's syscall() uses in a 32-bit program), in a child
 * process (../sweep.h), and reports surface.syscalls32's
 * NAME.present and NAME.result as lines of the probe protocol on stdout
 * (lib/wire.h).  The table's guest-only rows are called only with
 * --guest, which the probe passes in the VM guest; elsewhere the runner
 * has skipped their items (they declare .vm_guest).
 */
#include "lib/wire.h"
#include "../sweep.h"

#include <stdbool.h>
#include <string.h>

_Static_assert(sizeof(void *) == 4, "build with -m32: the point is the i386 entry");

#define SC(n, nr, args) { #n, nr, args, NULL, NULL },
#define SG(n, nr, args, why) { #n, nr, args, why, NULL },
#define NS(n, nr, why) { #n, nr, { 0 }, NULL, why },
static const struct surface_call calls[] = {
#include "../i386.tbl"
};

int main(int argc, char **argv)
{
	aw_helper_hello(argc, argv);
	bool guest = argc == 2 && strcmp(argv[1], "--guest") == 0;
	if (argc > 2 || (argc == 2 && !guest)) {
		fprintf(stderr, "usage: abiwatch-surface-m32 [--hello | --guest]\n");
		return 2;
	}
	size_t n = sizeof(calls) / sizeof(calls[0]);
	int *codes = surface_codes(n);
	int rc = codes ? surface_sweep(calls, n, guest, codes) : -errno;
	if (rc) {
		fprintf(stderr, "abiwatch-surface-m32: sweeping the table: %s\n", aw_errname(rc));
		return 1;
	}
	for (size_t i = 0; i < n; i++) {
		const struct surface_call *c = &calls[i];
		char present[64], result[64], buf[32];
		if (c->never || (c->guest_only && !guest))
			continue;
		snprintf(present, sizeof(present), "%s.present", c->name);
		snprintf(result, sizeof(result), "%s.result", c->name);
		if (codes[i] == SURFACE_NOT_CALLED) {
			aw_out_unobserved(present, "the sweep ended before this call");
			aw_out_unobserved(result, "the sweep ended before this call");
			continue;
		}
		aw_out_observe(present, "%s", surface_present(c->name, codes[i]));
		aw_out_observe(result, "%s", surface_result(codes[i], buf, sizeof(buf)));
	}
	return 0;
}

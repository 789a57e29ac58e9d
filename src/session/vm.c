// SPDX-License-Identifier: GPL-2.0-or-later
/* abiwatch vm's work (vm.h): the kernel's release read, the outputs
 * checked, the guest booted, and what it sent printed and kept. */
#include "vm.h"
#include "session.h"
#include "core/status.h"
#include "model/snapshot.h"
#include "lib/util.h"
#include "vm/deb.h"
#include "vm/kernel.h"

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

int session_vm(const struct vm_opts *o)
{
	struct vm_opts c = *o; /* c.output may become the default */
	char *default_output = NULL, *err = NULL;
	int rc;
	/* A terminal sees the guest boot and each family end; a log only
	 * what -v asks for. */
	c.vm.progress = (struct aw_progress){ "abiwatch vm", aw_progress_wanted(c.vm.verbose, c.quiet) };

	const char *image = c.vm.deb ? c.vm.deb : c.vm.kernel;
	if (c.vm.deb && access(c.vm.deb, R_OK) == 0 && !aw_is_deb(c.vm.deb)) {
		rc = usage_error("vm", "%s: not a Debian package (no ar archive header)", c.vm.deb);
		goto out;
	}
	char *release = aw_kernel_release(image, &err);
	if (!release) {
		rc = usage_error("vm", "%s", err);
		goto out;
	}
	if (!c.output)
		c.output = default_output = xasprintf("abiwatch-%s.snapshot", release);
	free(release);
	if ((rc = check_writable("vm", NULL, c.output)) != 0 ||
	    (c.console && (rc = check_writable("vm", NULL, c.console)) != 0))
		goto out;

	struct aw_vm_result r;
	aw_vm_run(&c.vm, &r);
	/* A run that brought no snapshot back says why in its notes (a
	 * --setup command that failed, a module that would not load). */
	if (c.vm.verbose || !r.has_snapshot)
		for (size_t i = 0; i < r.nnotes; i++)
			fprintf(stderr, "abiwatch vm: note: %s\n", r.notes[i]);
	if (r.stdout_data) {
		fwrite(r.stdout_data, 1, r.stdout_len, stdout);
		fflush(stdout);
	}
	if (c.console && r.console && aw_vm_write_text(c.console, r.console, r.console_len, &err) != 0) {
		fprintf(stderr, "abiwatch vm: %s\n", err);
		free(err);
		err = NULL;
	}
	switch (r.outcome) {
	case AW_VM_OK:
		rc = r.run_status >= 0 ? r.run_status : AW_EXIT_FAIL;
		if (!r.has_snapshot) {
			fprintf(stderr, "abiwatch vm: the guest's run wrote no snapshot (it ended: %s)\n",
				r.run_end ? r.run_end : "?");
			rc = AW_EXIT_FAIL;
		} else if (aw_snapshot_save(&r.snapshot, c.output, &err) != 0) {
			fprintf(stderr, "abiwatch vm: %s\n", err);
			rc = AW_EXIT_USAGE;
		}
		break;
	case AW_VM_SETUP:
		rc = AW_EXIT_USAGE;
		break;
	default:
		rc = AW_EXIT_FAIL;
		break;
	}
	if (!c.quiet || r.outcome != AW_VM_OK) {
		char *line = aw_vm_summary(&r);
		fprintf(stderr, "abiwatch vm: %s\n", line);
		if (r.outcome == AW_VM_OK && r.has_snapshot && rc != AW_EXIT_USAGE)
			fprintf(stderr, "abiwatch vm: snapshot: %s\n", c.output);
		free(line);
	}
	aw_vm_result_free(&r);
out:
	free(err);
	free(default_output);
	return rc;
}

// SPDX-License-Identifier: GPL-2.0-or-later
/* abiwatch vm: run the probes on another kernel, in QEMU. */
#include "commands.h"
#include "vm_commands.h"
#include "guest_options.h"
#include "model/snapshot.h"
#include "lib/util.h"
#include "vm/deb.h"
#include "vm/kernel.h"
#include "vm/vm.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char vm_usage[] =
	"Usage: abiwatch vm --kernel VMLINUZ [--modules DIR] [OPTION...] [-- RUN-ARGS]\n"
	"       abiwatch vm --deb linux-image-....deb [OPTION...] [-- RUN-ARGS]\n"
	"Boot a kernel in QEMU and run 'abiwatch run RUN-ARGS' there as root with\n"
	"every capability; print what it printed (KTAP) and write its snapshot here.\n"
	"\n"
	"The initramfs holds a static abiwatch, its 32-bit helpers, the modules the\n"
	"probes need (loop, overlay, fuse, xfs, btrfs... with their dependencies,\n"
	"from modules.dep or the modules' own .modinfo) and the mkfs programs with\n"
	"their libraries.  Nothing is written on the host but the snapshot: every\n"
	"temporary file is anonymous, and QEMU dies with abiwatch.\n"
	"\n"
	"Options:\n"
	"      --kernel FILE    the kernel to boot (a bzImage, like /boot/vmlinuz-*)\n"
	"      --modules DIR    its modules: lib/modules/RELEASE, or a root holding it\n"
	"                       (default: /lib/modules/RELEASE when installed)\n"
	"      --deb FILE       boot the kernel and modules of a linux-image .deb\n"
	"  -o, --output FILE    write the guest's snapshot to FILE (default:\n"
	"                       abiwatch-RELEASE.snapshot in this directory)\n";

/* Then aw_guest_options_help, then: */
static const char vm_usage_more[] =
	"      --console FILE   write the guest's console there\n"
	"      --initramfs FILE write the initramfs there too, for a look inside\n"
	"  -v, --verbose        show progress and every note on stderr\n"
	"  -q, --quiet          no summary line on stderr\n"
	"  -h, --help           show this help and exit\n"
	"\n"
	"RUN-ARGS are options and globs of 'abiwatch run' (not -o).  Exit status:\n"
	"the guest run's (0, 1, 4); 1 when the VM timed out, panicked or sent no\n"
	"result; 2 for bad usage or a kernel that cannot be read.\n";

enum { OPT_KERNEL = 0x100, OPT_MODULES, OPT_DEB, OPT_CONSOLE, OPT_INITRAMFS };

static const struct option vm_options[] = {
	{ "kernel", required_argument, NULL, OPT_KERNEL },
	{ "modules", required_argument, NULL, OPT_MODULES },
	{ "deb", required_argument, NULL, OPT_DEB },
	{ "output", required_argument, NULL, 'o' },
	{ "console", required_argument, NULL, OPT_CONSOLE },
	{ "initramfs", required_argument, NULL, OPT_INITRAMFS },
	{ "verbose", no_argument, NULL, 'v' },
	{ "quiet", no_argument, NULL, 'q' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

int aw_vm_check_run_args(const char *cmd, char *const *args, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		const char *a = args[i];
		if (strcmp(a, "--") == 0)
			break;
		if (strcmp(a, "-o") == 0 || strncmp(a, "-o", 2) == 0 || strcmp(a, "--output") == 0 ||
		    strncmp(a, "--output=", 9) == 0)
			return usage_error(cmd, "RUN-ARGS may not set the snapshot ('%s'): use "
					   "abiwatch %s -o", a, cmd);
		if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0)
			return usage_error(cmd, "RUN-ARGS may not ask for help ('%s')", a);
	}
	return 0;
}

struct vm_cli {
	struct aw_vm_opts vm;
	const char *output;
	const char *console;
	bool quiet;
};

static int parse(int argc, char **argv, struct vm_cli *c)
{
	struct option *options = aw_guest_options_join(vm_options);
	int opt, rc = 0;
	optind = 1;
	opterr = 0;
	while (rc == 0 && (opt = getopt_long(argc, argv, "+:o:vqh", options, NULL)) != -1) {
		switch (opt) {
		case OPT_KERNEL: c->vm.kernel = optarg; break;
		case OPT_MODULES: c->vm.modules = optarg; break;
		case OPT_DEB: c->vm.deb = optarg; break;
		case 'o': c->output = optarg; break;
		case OPT_CONSOLE: c->console = optarg; break;
		case OPT_INITRAMFS: c->vm.save_initramfs = optarg; break;
		case 'v': c->vm.verbose = true; break;
		case 'q': c->quiet = true; break;
		case 'h':
			fputs(vm_usage, stdout);
			fputs(aw_guest_options_help, stdout);
			fputs(vm_usage_more, stdout);
			rc = -1;
			break;
		case ':':
			rc = usage_error("vm", "option '%s' needs a value", argv[optind - 1]);
			break;
		default:
			rc = aw_guest_option("vm", opt, optarg, &c->vm);
			if (rc == AW_GUEST_NOT_MINE)
				rc = usage_error("vm", "unknown option '%s'", argv[optind - 1]);
			break;
		}
	}
	free(options);
	if (rc != 0)
		return rc;
	/* Everything after "--" (or the first non-option) is for the run. */
	if (optind < argc && strcmp(argv[optind - 1], "--") != 0)
		return usage_error("vm", "unexpected argument '%s' (run arguments go after '--')",
				   argv[optind]);
	c->vm.run_args = argv + optind;
	c->vm.nrun_args = (size_t)(argc - optind);
	if (!c->vm.kernel == !c->vm.deb)
		return usage_error("vm", "give either --kernel or --deb");
	if (c->vm.deb && c->vm.modules)
		return usage_error("vm", "--modules goes with --kernel; a .deb brings its own");
	return aw_vm_check_run_args("vm", c->vm.run_args, c->vm.nrun_args);
}

int cmd_vm(int argc, char **argv)
{
	struct vm_cli c = { 0 };
	aw_guest_opts_init(&c.vm);
	char *default_output = NULL, *err = NULL;
	int rc = parse(argc, argv, &c);
	if (rc != 0)
		goto out;

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
	aw_guest_opts_free(&c.vm);
	return rc < 0 ? AW_EXIT_PASS : rc;
}

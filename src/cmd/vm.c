// SPDX-License-Identifier: GPL-2.0-or-later
/* abiwatch vm: run the probes on another kernel, in QEMU.  This is its
 * command line; session/vm.c boots the guest and keeps what it sent. */
#include "commands.h"
#include "vm_commands.h"
#include "guest_options.h"
#include "session/vm.h"
#include "lib/util.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
	"  -v, --verbose        show progress and every note on stderr (progress\n"
	"                       shows on a terminal without -v: the boot, each\n"
	"                       family as the guest's run ends it)\n"
	"  -q, --quiet          no progress and no summary line on stderr\n"
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

static int parse(int argc, char **argv, struct vm_opts *c)
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
	if ((rc = aw_vm_check_run_args("vm", c->vm.run_args, c->vm.nrun_args)) == 0)
		aw_guest_timeout_for_run(&c->vm);
	return rc;
}

static void free_vm(void *opts)
{
	struct vm_opts *c = opts;
	aw_guest_opts_free(&c->vm);
	free(c);
}

static int parse_vm(int argc, char **argv, void **opts)
{
	struct vm_opts *c = xcalloc(1, sizeof(*c));
	aw_guest_opts_init(&c->vm);
	return command_parsed(parse(argc, argv, c), c, free_vm, opts);
}

static int run(void *opts)
{
	int rc = session_vm(opts);
	free_vm(opts);
	return rc;
}

const struct command vm_command = {
	"vm",
	"  vm --kernel VMLINUZ | --deb PACKAGE [-- RUN-ARGS]\n"
	"                  boot another kernel in QEMU and run the probes there\n",
	parse_vm, run,
};

// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * abiwatch matrix: the VM step for several kernels (and the host, if
 * asked), in parallel up to the number of CPUs, one snapshot per kernel
 * and the diffs between neighbours (kernels in version order).  This is
 * its command line; session/matrix.c runs it and writes what it found,
 * vm/matrix.c schedules its jobs.
 */
#include "commands.h"
#include "vm_commands.h"
#include "guest_options.h"
#include "session/matrix.h"
#include "lib/util.h"

#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char matrix_usage[] =
	"Usage: abiwatch matrix [OPTION...] -o DIR KERNEL... [-- RUN-ARGS]\n"
	"       abiwatch matrix [OPTION...] -o DIR --apt PATTERN [-- RUN-ARGS]\n"
	"Run 'abiwatch run RUN-ARGS' on each kernel in QEMU (as 'abiwatch vm'\n"
	"does), and on this machine's kernel with --host, several at a time, and\n"
	"write into DIR one snapshot per kernel and the diffs between neighbours\n"
	"(the kernels in version order).\n"
	"\n"
	"A KERNEL is a linux-image .deb, a bzImage, or BZIMAGE:MODULES_DIR.\n"
	"A kernel given twice (one file, or one package and version) is refused.\n"
	"A snapshot DIR already has of the same package and version (its\n"
	"env.vm.package, whatever its file name) is reused, not run again.\n"
	"\n"
	"Options:\n"
	"  -o, --output DIR     where the results go (made if missing):\n"
	"                       RELEASE.snapshot, RELEASE.ktap, RELEASE.console,\n"
	"                       OLD--NEW.diff, and matrix.txt, a table of outcomes\n"
	"                       and times, then the series: each update's\n"
	"                       behaviour changes and a line per item changed, a\n"
	"                       value per kernel (flapping values marked)\n"
	"      --host           also run on this machine's kernel, not in a VM\n"
	"  -j, --jobs N         at most N at a time (default: the number of CPUs)\n"
	"      --apt PATTERN    also the linux-image packages of the Debian archive\n"
	"                       whose whole names match PATTERN (an extended regular\n"
	"                       expression): each ABI name's -unsigned package where\n"
	"                       apt has one of the same version, fetched with\n"
	"                       apt-get download into the cache unless it is there,\n"
	"                       and the newest version of each from the cache;\n"
	"                       offline, the cache serves\n"
	"      --apt-cache DIR  where --apt keeps packages (default:\n"
	"                       $XDG_CACHE_HOME/abiwatch/debs, else\n"
	"                       ~/.cache/abiwatch/debs)\n"
	"      --dry-run        fetch, then print each kernel (label, run or\n"
	"                       reused, package and version, file) and stop\n"
	;

/* Then aw_guest_options_help, then: */
static const char matrix_usage_more[] =
	"  -q, --quiet          no progress on stderr\n"
	"  -h, --help           show this help and exit\n"
	"\n"
	"Then 'abiwatch report DIR/*.snapshot -o report.html' shows them side by\n"
	"side.  Exit status: 0 every run passed, 1 a run failed or a VM timed out,\n"
	"panicked or sent no result, 4 every check was skipped, 2 bad usage.\n";

enum { OPT_HOST = 0x100, OPT_APT, OPT_APT_CACHE, OPT_DRY_RUN };

static const struct option matrix_options[] = {
	{ "output", required_argument, NULL, 'o' },
	{ "host", no_argument, NULL, OPT_HOST },
	{ "jobs", required_argument, NULL, 'j' },
	{ "apt", required_argument, NULL, OPT_APT },
	{ "apt-cache", required_argument, NULL, OPT_APT_CACHE },
	{ "dry-run", no_argument, NULL, OPT_DRY_RUN },
	{ "quiet", no_argument, NULL, 'q' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

static int add_kernel(struct aw_matrix *m, const char *spec)
{
	char *err = NULL;
	if (aw_matrix_add_kernel(m, spec, &err) == 0)
		return 0;
	int rc = usage_error("matrix", "%s", err);
	free(err);
	return rc;
}

static int parse(int argc, char **argv, struct matrix_opts *c)
{
	struct option *options = aw_guest_options_join(matrix_options);
	int opt, rc = 0;
	optind = 1;
	opterr = 0;
	/* Kernels and options mix; "--" starts RUN-ARGS. */
	while (rc == 0 && (opt = getopt_long(argc, argv, "-:o:j:qh", options, NULL)) != -1) {
		switch (opt) {
		case 1: rc = add_kernel(&c->m, optarg); break;
		case 'o': c->m.dir = optarg; break;
		case OPT_HOST: c->host = true; break;
		case OPT_APT: c->apt = optarg; break;
		case OPT_APT_CACHE: c->apt_cache = optarg; break;
		case OPT_DRY_RUN: c->dry_run = true; break;
		case 'j': rc = parse_jobs("matrix", optarg, &c->m.max_jobs); break;
		case 'q': c->quiet = true; break;
		case 'h':
			fputs(matrix_usage, stdout);
			fputs(aw_guest_options_help, stdout);
			fputs(matrix_usage_more, stdout);
			rc = -1;
			break;
		case ':':
			rc = usage_error("matrix", "option '%s' needs a value", argv[optind - 1]);
			break;
		default:
			rc = aw_guest_option("matrix", opt, optarg, &c->m.vm);
			if (rc == AW_GUEST_NOT_MINE)
				rc = usage_error("matrix", "unknown option '%s'", argv[optind - 1]);
			break;
		}
	}
	free(options);
	if (rc != 0)
		return rc;
	c->m.vm.run_args = argv + optind;
	c->m.vm.nrun_args = (size_t)(argc - optind);
	if (!c->m.dir)
		return usage_error("matrix", "-o DIR is needed");
	if (c->m.njobs == 0 && !c->host && !c->apt)
		return usage_error("matrix", "no kernel given (and no --host)");
	if ((rc = aw_vm_check_run_args("matrix", c->m.vm.run_args, c->m.vm.nrun_args)) == 0)
		aw_guest_timeout_for_run(&c->m.vm);
	return rc;
}

static void free_matrix(void *opts)
{
	struct matrix_opts *c = opts;
	aw_matrix_free(&c->m);
	aw_guest_opts_free(&c->m.vm);
	free(c);
}

static int parse_matrix(int argc, char **argv, void **opts)
{
	struct matrix_opts *c = xcalloc(1, sizeof(*c));
	aw_guest_opts_init(&c->m.vm);
	return command_parsed(parse(argc, argv, c), c, free_matrix, opts);
}

static int run(void *opts)
{
	int rc = session_matrix(opts);
	free_matrix(opts);
	return rc;
}

const struct command matrix_command = {
	"matrix",
	"  matrix KERNEL... [--apt PATTERN] [--host] -o DIR\n"
	"                  one snapshot per kernel, and diffs between neighbours\n",
	parse_matrix, run,
};

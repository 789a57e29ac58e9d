// SPDX-License-Identifier: GPL-2.0-or-later
/* abiwatch: catch kernel changes that break user space. */
#include "cmd/commands.h"
#include "cmd/vm_commands.h"
#include "core/env.h"
#include "lib/util.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char usage[] =
	"Usage: abiwatch COMMAND [OPTION...] [ARG...]\n"
	"Probe the kernel behaviour that programs rely on, check its documented\n"
	"contracts, and record what was observed as a snapshot.\n"
	"\n"
	"Commands:\n"
	"  run [GLOB...]   run the probes that the globs select (all by default),\n"
	"                  print KTAP and write a snapshot\n"
	"  list [GLOB...]  list families, probes, checks and observations\n"
	"  diff OLD NEW    compare two snapshots: what changed, and what it means\n"
	"  check ASSUMPTIONS [SNAPSHOT]\n"
	"                  evaluate a program's declared assumptions against a\n"
	"                  snapshot, or against the probes they need, run now\n"
	"  vm --kernel VMLINUZ | --deb PACKAGE [-- RUN-ARGS]\n"
	"                  boot another kernel in QEMU and run the probes there\n"
	"  matrix KERNEL... [--host] -o DIR\n"
	"                  one snapshot per kernel, and diffs between neighbours\n"
	"  bisect (--item ITEM | --assume FILE) KERNEL... | --git DIR ...\n"
	"                  the first kernel, or commit, where the answer changed\n"
	"  report SNAPSHOT... -o FILE\n"
	"                  snapshots side by side as one static HTML page\n"
	"  kcidb SNAPSHOT...\n"
	"                  snapshots as KCIDB JSON, for KernelCI's database\n"
	"  help [COMMAND]  show this help, or a command's\n"
	"\n"
	"Options:\n"
	"  -h, --help      show this help and exit\n"
	"  -V, --version   show the version and exit\n"
	"\n"
	"'abiwatch COMMAND --help' describes a command.  Exit status: 0 everything\n"
	"passed, 1 a check failed or a probe broke, 2 bad usage or input, 4 every\n"
	"check was skipped; diff and check document their own.  See abiwatch(1),\n"
	"abiwatch-snapshot(5) and abiwatch-assumptions(5).\n";

struct command {
	const char *name;
	int (*fn)(int argc, char **argv);
};

static const struct command commands[] = {
	{ "run", cmd_run },
	{ "list", cmd_list },
	{ "diff", cmd_diff },
	{ "check", cmd_check },
	{ "vm", cmd_vm },
	{ "matrix", cmd_matrix },
	{ "report", cmd_report },
	{ "bisect", cmd_bisect },
	{ "kcidb", cmd_kcidb },
};

static const struct command *find(const char *name)
{
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (strcmp(commands[i].name, name) == 0)
			return &commands[i];
	return NULL;
}

static int help(int argc, char **argv)
{
	if (argc < 2) {
		fputs(usage, stdout);
		return AW_EXIT_PASS;
	}
	const struct command *c = find(argv[1]);
	if (!c)
		return usage_error(NULL, "no command '%s'", argv[1]);
	char *args[] = { argv[1], "--help", NULL };
	return c->fn(2, args);
}

/* abiwatch hands descriptors to its children by number; started with
 * stdin, stdout or stderr closed, a directory it opens could take one of
 * those numbers and be replaced when a child's standard streams are set
 * up.  /dev/null fills the gap, as daemons do. */
static void fill_standard_fds(void)
{
	for (int fd = 0; fd < 3; fd++)
		if (fcntl(fd, F_GETFD) < 0 && open("/dev/null", fd ? O_WRONLY : O_RDONLY) < 0)
			break;
}

int main(int argc, char **argv)
{
	fill_standard_fds();
	free(aw_exe_dir()); /* remembered while /proc/self/exe still says it right */
	if (argc < 2)
		return usage_error(NULL, "a command is needed");
	const char *name = argv[1];
	if (strcmp(name, "-h") == 0 || strcmp(name, "--help") == 0 || strcmp(name, "help") == 0)
		return help(argc - 1, argv + 1);
	if (strcmp(name, "-V") == 0 || strcmp(name, "--version") == 0) {
		printf("abiwatch %s\n", ABIWATCH_VERSION);
		return AW_EXIT_PASS;
	}
	const struct command *c = find(name);
	if (!c)
		return usage_error(NULL, name[0] == '-' ? "unknown option '%s'" : "no command '%s'", name);
	return c->fn(argc - 1, argv + 1);
}

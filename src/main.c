// SPDX-License-Identifier: GPL-2.0-or-later
/* abiwatch: catch kernel changes that break user space. */
#include "cmd/commands.h"
#include "core/env.h"
#include "lib/util.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Every command, in the order the help lists them. */
static const struct command *const commands[] = {
	&run_command, &list_command, &diff_command, &check_command, &vm_command,
	&matrix_command, &bisect_command, &report_command, &kcidb_command,
};

static void usage(void)
{
	fputs("Usage: abiwatch COMMAND [OPTION...] [ARG...]\n"
	      "Probe the kernel behaviour that programs rely on, check its documented\n"
	      "contracts, and record what was observed as a snapshot.\n"
	      "\n"
	      "Commands:\n", stdout);
	for (size_t i = 0; i < AW_ARRAY_SIZE(commands); i++)
		fputs(commands[i]->help, stdout);
	fputs("  help [COMMAND]  show this help, or a command's\n"
	      "\n"
	      "Options:\n"
	      "  -h, --help      show this help and exit\n"
	      "  -V, --version   show the version and exit\n"
	      "\n"
	      "'abiwatch COMMAND --help' describes a command.  Exit status: 0 everything\n"
	      "passed, 1 a check failed or a probe broke, 2 bad usage or input, 4 every\n"
	      "check was skipped; diff and check document their own.  See abiwatch(1),\n"
	      "abiwatch-snapshot(5) and abiwatch-assumptions(5).\n", stdout);
}

static const struct command *find(const char *name)
{
	for (size_t i = 0; i < AW_ARRAY_SIZE(commands); i++)
		if (strcmp(commands[i]->name, name) == 0)
			return commands[i];
	return NULL;
}

/* Parse, then run: the exit status. */
static int dispatch(const struct command *c, int argc, char **argv)
{
	void *opts;
	int rc = c->parse(argc, argv, &opts);
	return opts ? c->run(opts) : rc;
}

static int help(int argc, char **argv)
{
	if (argc < 2) {
		usage();
		return AW_EXIT_PASS;
	}
	const struct command *c = find(argv[1]);
	if (!c)
		return usage_error(NULL, "no command '%s'", argv[1]);
	char *args[] = { argv[1], "--help", NULL };
	return dispatch(c, 2, args);
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
	return dispatch(c, argc - 1, argv + 1);
}

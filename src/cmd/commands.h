/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The commands: each turns its command line into an option struct and
 * hands it to the work it starts (session/), or, for the commands that
 * only read snapshots, to model/ and output/. */
#ifndef ABIWATCH_COMMANDS_H
#define ABIWATCH_COMMANDS_H

#include "session/run.h"
#include "session/session.h"

#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>

/* One command of abiwatch, a row of the table main.c dispatches through
 * and whose lines the top-level help lists.  parse reads argv (argv[0]
 * the command's name): 0 with *opts (malloc'd) to go on, else the exit
 * status to end with (0 after --help), *opts then NULL.  run does the work
 * with the options, frees them and returns the exit status. */
struct command {
	const char *name;
	const char *help; /* its lines under "Commands:" in abiwatch --help */
	int (*parse)(int argc, char **argv, void **opts);
	int (*run)(void *opts);
};

/* Each command's row, in its file; main.c holds the table. */
extern const struct command run_command, list_command, diff_command, check_command,
	vm_command, matrix_command, bisect_command, report_command, kcidb_command;

/* What a parse ends with: rc 0 keeps o as *opts, else o is freed with
 * free_opts and the exit status is rc (0 after --help, where rc is -1). */
int command_parsed(int rc, void *o, void (*free_opts)(void *), void **opts);

/* abiwatch run's command line into *a; the globs stay in argv.  0 to go
 * on, -1 after --help, else the usage status. */
int run_parse(int argc, char **argv, struct run_opts *a);
/* The RUN-ARGS of vm and matrix as the guest's run will read them, for
 * what the host may know of them first: the family options' values into
 * ps (checked, never acted on: aw_params_add_elsewhere()), the operands
 * (the globs) into *globs (malloc'd; the strings are args').  What that
 * run would refuse is left to it to say. */
void run_args_peek(char *const *args, size_t n, struct aw_params *ps, char ***globs,
		   size_t *nglobs);

/* The snapshot files that command-line arguments name: a directory stands
 * for the *.snapshot files in it (the output of abiwatch matrix), sorted.
 * Appends malloc'd paths to *files.  0, or the usage status. */
int snapshot_args(const char *cmd, char *const *args, size_t nargs, char ***files, size_t *nfiles);

/* ---- the options of running probes, which run and check share ---- */

/* Parse --output, --format (one that writes what op says), --timeout, --jobs,
 * the families' options and --help (usage, then the families' options, on
 * stdout); the operands start at optind.  0 to go on, -1 after --help,
 * else the usage status. */
int probes_parse(const char *cmd, int argc, char **argv, const char *usage,
		 enum aw_format_op op, struct probe_command *pc);

/* A family option's getopt code is FAMILY_OPT plus its index in the table. */
#define FAMILY_OPT 0x1000

/* A command's own options, then --timeout (code 't') and every family's
 * option (--FAMILY-NAME, and its alias where it has one), then the
 * terminator; free it with probes_option_table_free(). */
struct option *probes_option_table(const struct option *own, size_t nown);
void probes_option_table_free(struct option *opts);
/* Take --timeout or a family option of opts.  0, or the usage status. */
int probes_option(const char *cmd, int c, const char *arg, const struct option *opts,
		  struct probe_options *po);
/* The families' options, as a --help section. */
void probes_options_help(FILE *out);

/* ---- the command line, in usage.c ---- */

/* arg as one of names (NULL-terminated): its index in *choice.  0, or the
 * usage status after "OPTION takes a, b or c, not 'ARG'". */
int parse_choice(const char *cmd, const char *option, const char *arg, const char *const *names,
		 int *choice);

/* --format ARG: the format of output/'s table that writes what op says
 * (a run, a diff, a check).  0, or the usage status. */
int parse_format(const char *cmd, const char *arg, enum aw_format_op op,
		 const struct aw_format **format);
/* Seconds in (0, 86400] (--timeout).  0, or the usage status. */
int parse_seconds(const char *cmd, const char *option, const char *arg, double *seconds);
/* A whole number of option in [min, max]; what it is for the message
 * ("megabytes"): "--memory takes megabytes in [128, 65536], not 'x'".
 * 0, or the usage status. */
int parse_count(const char *cmd, const char *option, const char *arg, unsigned min,
		unsigned max, const char *what, unsigned *value);
/* --jobs N, N in [1, 256] (run's probes, matrix's guests, bisect's make
 * -j).  0, or the usage status. */
int parse_jobs(const char *cmd, const char *arg, unsigned *jobs);

#endif

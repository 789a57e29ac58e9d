/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The subcommands; each returns the process's exit status. */
#ifndef ABIWATCH_COMMANDS_H
#define ABIWATCH_COMMANDS_H

#include "core/params.h"
#include "core/result.h"
#include "output/format.h"

#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>

int cmd_run(int argc, char **argv);
int cmd_list(int argc, char **argv);
int cmd_diff(int argc, char **argv);
int cmd_check(int argc, char **argv);
int cmd_kcidb(int argc, char **argv);

/* The snapshot files that command-line arguments name: a directory stands
 * for the *.snapshot files in it (the output of abiwatch matrix), sorted.
 * Appends malloc'd paths to *files.  0, or the usage status. */
int snapshot_args(const char *cmd, char *const *args, size_t nargs, char ***files, size_t *nfiles);

/* ---- running probes: the path `abiwatch run` and `abiwatch check` share ---- */

/* How probes run: --timeout and the options families declare. */
struct probe_options {
	double timeout_s;
	unsigned jobs; /* --jobs; 0: not given (one at a time) */
	struct aw_params params;
};

/* What run and check are told: the snapshot to write, the format of what
 * they print, and how probes run. */
struct probe_command {
	const char *output;
	const struct aw_format *format;
	bool probe_options; /* --timeout or a family option was given */
	struct probe_options probes;
};

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
/* Apply the family options to the selection (narrowing it, adding the
 * probes they make) and collect the environment.  0, or the usage status. */
int probes_prepare(const char *cmd, struct probe_options *po, struct aw_probe_ref **refs,
		   size_t *nrefs, struct aw_run *run);
/* Run them, each isolated; KTAP streams to ktap_out unless it is NULL. */
void probes_execute(const struct probe_options *po, const struct aw_probe_ref *refs,
		    size_t nrefs, FILE *ktap_out, struct aw_run *run);
/* Write the run's snapshot to path.  0, or the usage status. */
int probes_save(const char *cmd, const struct aw_run *run, const char *path);

/* ---- the command line, in usage.c ---- */

/* "abiwatch CMD: message" on stderr and the usage exit status. */
int usage_error(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

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
/* Fail before anything runs if path could not be written: its directory
 * must be writable, and the file if it exists.  what ("the snapshot", or
 * NULL) names it in the message.  0, or the usage status. */
int check_writable(const char *cmd, const char *what, const char *path);
/* A directory of results (matrix, bisect), made if missing, that this
 * process can write in.  0, or the usage status. */
int prepare_output_dir(const char *cmd, const char *dir);

#endif

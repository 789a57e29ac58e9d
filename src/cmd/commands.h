/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The subcommands; each returns the process's exit status. */
#ifndef ABIWATCH_COMMANDS_H
#define ABIWATCH_COMMANDS_H

int cmd_run(int argc, char **argv);
int cmd_list(int argc, char **argv);

/* "abiwatch CMD: message" on stderr and the usage exit status. */
int usage_error(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif

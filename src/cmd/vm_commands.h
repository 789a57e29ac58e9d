/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The commands about other kernels (vm, matrix) and about several
 * snapshots (report), and what vm and matrix share on the command line. */
#ifndef ABIWATCH_CMD_VM_COMMANDS_H
#define ABIWATCH_CMD_VM_COMMANDS_H

#include <stddef.h>

int cmd_vm(int argc, char **argv);
int cmd_matrix(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_bisect(int argc, char **argv);

/* RUN-ARGS must leave the snapshot's path to the command.  0, or the
 * usage exit status after the message. */
int aw_vm_check_run_args(const char *cmd, char *const *args, size_t n);

#endif

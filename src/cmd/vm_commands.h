/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What the commands about other kernels (vm, matrix, bisect) share on the
 * command line. */
#ifndef ABIWATCH_CMD_VM_COMMANDS_H
#define ABIWATCH_CMD_VM_COMMANDS_H

#include <stddef.h>

/* RUN-ARGS must leave the snapshot's path to the command.  0, or the
 * usage exit status after the message. */
int aw_vm_check_run_args(const char *cmd, char *const *args, size_t n);

#endif

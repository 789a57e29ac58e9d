/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * How each guest is booted: the options `abiwatch vm` and `abiwatch matrix`
 * share (--timeout, --accel, --memory, --qemu, --module, --file, --setup,
 * --append).  A command joins the table to its own options, and hands
 * every getopt_long() result it does not know to aw_guest_option().
 */
#ifndef ABIWATCH_CMD_GUEST_OPTIONS_H
#define ABIWATCH_CMD_GUEST_OPTIONS_H

#include "vm/vm.h"

#include <getopt.h>

/* getopt_long() values of the shared options start here; a command's own
 * long-only options stay below. */
#define AW_GUEST_OPT_BASE 0x1000
/* aw_guest_option()'s answer for an option that is not a guest option. */
#define AW_GUEST_NOT_MINE (-100)

/* The lines of --help that describe the shared options. */
extern const char aw_guest_options_help[];

/* The defaults: 300 s (see aw_guest_timeout_for_run()), auto, 1024 MB,
 * qemu-system-x86_64. */
void aw_guest_opts_init(struct aw_vm_opts *vm);
/* own, then the shared options, as one getopt_long() table (malloc'd). */
struct option *aw_guest_options_join(const struct option *own);
/* Take one parsed option into vm: 0, a usage exit status after the
 * message, or AW_GUEST_NOT_MINE.  arg is kept (argv lives long enough). */
int aw_guest_option(const char *cmd, int opt, char *arg, struct aw_vm_opts *vm);
/* After the command line: where --timeout was not given, the default
 * follows the work RUN-ARGS ask for (aw_params_run_timeout(): 300 s for
 * the options' defaults, more for --entries beyond them). */
void aw_guest_timeout_for_run(struct aw_vm_opts *vm);
/* Free the lists aw_guest_option() made. */
void aw_guest_opts_free(struct aw_vm_opts *vm);

#endif

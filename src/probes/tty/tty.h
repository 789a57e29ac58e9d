/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What the tty family's files share: their probe tables, the pty pairs
 * every probe takes from a devpts instance of its own, and the way a
 * call's result is written (a count, or the errno's name). */
#ifndef ABIWATCH_TTY_H
#define ABIWATCH_TTY_H

#include "core/probe.h"

#include <stdbool.h>

#define TTY_HELPER "abiwatch-tty-m32"

extern const struct aw_probe tty_termios_probes[], tty_tiocsti_probes[], tty_splice_probes[],
	tty_pty_probes[], tty_jobctl_probes[], tty_console_probes[];

/* The devpts instance of the probe (mounted on first use in its private
 * mount namespace, under aw_tmpdir()): its directory, or NULL with the
 * reason noted and *err set. */
const char *tty_devpts(struct aw_ctx *ctx, int *err);

/* A pty pair of the probe's instance, O_NONBLOCK or 0 in flags: 0, or
 * -errno (every item of the probe is then an error, reported here). */
int tty_pair(struct aw_ctx *ctx, int flags, int *master, int *slave);

/* Observe rc: its decimal value when >= 0, else the name of err. */
void tty_observe_res(struct aw_ctx *ctx, const char *obs, long long rc, int err);

/* Whether CAP_SYS_ADMIN counts where the probe runs (held, and in the
 * initial user namespace, where the tty layer's capable() looks). */
bool tty_admin(void);

#endif

// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The tty family: pseudo-terminals and the virtual console, an old ABI
 * that still moves.  TIOCSTI became optional in 6.2 (83efeeeb3d04,
 * 690c8b804ad2: dev.tty.legacy_tiocsti, CONFIG_LEGACY_TIOCSTI); splice to
 * and from a tty broke in 5.10 (36e2c7421f02) until the tty layer got
 * read_iter/write_iter (dd78b0c483e3); TIOCLINUX selection needs
 * CAP_SYS_ADMIN since 6.7 (8d1b43f6a6df), which broke Emacs' console
 * mouse.  Every pty comes from a devpts instance of the probe's own
 * (mount -t devpts -o newinstance in its private mount namespace, see
 * lib/pty.h), so the host's /dev/pts never holds one; the console and
 * the global knob are touched only in a VM guest (docs/catalogue.md,
 * "tty").
 */
#include "tty.h"
#include "lib/caps.h"
#include "lib/errname.h"
#include "lib/pty.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/capability.h>
#include <stdio.h>

const char *tty_devpts(struct aw_ctx *ctx, int *err)
{
	static char dir[512];
	static bool mounted;

	if (mounted)
		return dir;
	snprintf(dir, sizeof(dir), "%s/pts", aw_tmpdir(ctx));
	int rc = aw_devpts_mount(dir, NULL);
	if (rc != 0) {
		*err = rc;
		aw_note(ctx, "mounting a devpts instance on %s: %s", dir, aw_errname(rc));
		return NULL;
	}
	mounted = true;
	return dir;
}

int tty_pair(struct aw_ctx *ctx, int flags, int *master, int *slave)
{
	int err = 0;
	const char *dir = tty_devpts(ctx, &err);
	if (dir)
		err = aw_pty_open(dir, flags, master, slave, NULL);
	if (err != 0)
		aw_error_rest(ctx, "a pty pair of the probe's devpts instance: %s", aw_errname(err));
	return err;
}

void tty_observe_res(struct aw_ctx *ctx, const char *obs, long long rc, int err)
{
	if (rc < 0)
		aw_observe(ctx, obs, "%s", aw_errname(err));
	else
		aw_observe_long(ctx, obs, rc);
}

bool tty_admin(void)
{
	return aw_has_cap(CAP_SYS_ADMIN);
}

static const struct aw_probe *const tables[] = {
	tty_termios_probes, tty_pty_probes, tty_splice_probes, tty_tiocsti_probes,
	tty_jobctl_probes, tty_console_probes, NULL,
};

static const struct aw_family tty_family = {
	.name = "tty",
	.summary = "pseudo-terminals and the virtual console: termios, TIOCSTI, splice, "
		   "line discipline, job control, TIOCLINUX, the 32-bit caller",
	.tables = tables,
	.helper32 = TTY_HELPER,
};

AW_FAMILY(tty_family);

// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * TIOCSTI, which pushes a byte into a terminal's input as if typed
 * (ioctl_tty(2)).  Since 83efeeeb3d04 ("tty: Allow TIOCSTI to be
 * disabled", 6.2) a caller without CAP_SYS_ADMIN gets EIO when
 * dev.tty.legacy_tiocsti is 0, whose default is CONFIG_LEGACY_TIOCSTI;
 * 690c8b804ad2 ("TIOCSTI: always enable for CAP_SYS_ADMIN", 6.2) keeps it
 * for the privileged.  Without CAP_SYS_ADMIN the terminal must also be
 * the caller's controlling terminal (EPERM otherwise, an older rule).
 * Programs that inject input (shell helpers that prefill the command
 * line, simh's REALCONS) stop working where it is disabled.
 *
 * tiocsti: the knob as the run finds it, CONFIG_LEGACY_TIOCSTI, and
 * TIOCSTI on a pty slave with CAP_SYS_ADMIN and without (a child that
 * made the slave its controlling terminal, then dropped the capability).
 * tiocsti_knob, only in a VM guest (the knob is the machine's, no
 * namespace holds it): the same with the knob set to 0 and to 1, then
 * put back.
 */
#include "tty.h"
#include "lib/caps.h"
#include "lib/child.h"
#include "lib/errname.h"
#include "lib/kconfig.h"
#include "lib/procfs.h"
#include "lib/pty.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/capability.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <unistd.h>

#define KNOB "dev.tty.legacy_tiocsti"
#define KNOB_PATH "/proc/sys/dev/tty/legacy_tiocsti"
#define CHILD_MS 3000

static const char *const absent[] = { "absent", NULL };

/* Both ways: 0 is the byte arriving, EIO the knob at 0 refusing it
 * (drivers/tty/tty_io.c tiocsti()). */
#define DISABLED "EIO: programs that inject terminal input with TIOCSTI (input prefill, REALCONS, " \
		 "old mail and shell helpers) fail, dev.tty.legacy_tiocsti being 0; 0: TIOCSTI works " \
		 "for them again (the knob is 1, or absent before 6.2)"
/* The knob's EIO is checked before the controlling-terminal rule's EPERM
 * (tiocsti(): !tty_legacy_tiocsti first), so this errno follows the
 * knob; the call fails either way. */
#define NOT_CTTY "EIO: dev.tty.legacy_tiocsti is 0, and tiocsti() checks it before the older " \
		 "controlling-terminal rule; EPERM: the knob allows TIOCSTI and that rule refuses " \
		 "another terminal. The call fails both ways: only the errno a program sees moved"

static const struct aw_item tiocsti_items[] = {
	AW_OBS_ITEM("knob", "dev.tty.legacy_tiocsti as the run finds it, or absent (before 6.2)",
		    .absent = absent, .change = "absent: TIOCSTI cannot be disabled (before 6.2); "
		    "0: unprivileged TIOCSTI gives EIO; 1: it works for everyone (CONFIG_LEGACY_TIOCSTI=y's default)"),
	AW_OBS_ITEM("config", "CONFIG_LEGACY_TIOCSTI, the knob's default (y, n, or absent where the "
		    "kernel has no such option or no configuration is found)", .absent = absent),
	AW_OBS_ITEM("cap", "TIOCSTI on a pty slave with CAP_SYS_ADMIN: 0 once the byte reached the "
		    "slave's input, else the errno"),
	AW_OBS_ITEM("no_cap", "TIOCSTI on the controlling pty without CAP_SYS_ADMIN: 0 once the "
		    "byte arrived, else the errno", .change = DISABLED),
	AW_OBS_ITEM("no_cap.not_ctty", "TIOCSTI on a pty that is not the caller's controlling "
		    "terminal, without CAP_SYS_ADMIN", .object = "no_cap", .change = NOT_CTTY),
	AW_CHECK_ITEM("knob_decides", "without CAP_SYS_ADMIN, TIOCSTI works when the knob is 1 "
		      "or absent and gives EIO when it is 0 (83efeeeb3d04)"),
	AW_ITEMS_END
};

/* What TIOCSTI of 'z' on slave s gives: 0 once a read of the raw,
 * non-blocking slave returns it, else -errno. */
static int inject(int s)
{
	char c = 'z', got = 0;
	if (ioctl(s, TIOCSTI, &c) != 0)
		return -errno;
	ssize_t n = read(s, &got, 1);
	return n == 1 && got == 'z' ? 0 : -EIO;
}

struct unpriv {
	int slave;
	bool ctty;
	int *result;
};

static int unpriv_child(void *arg)
{
	struct unpriv *u = arg;
	if (u->ctty && (setsid() < 0 || ioctl(u->slave, TIOCSCTTY, 0) != 0)) {
		*u->result = -errno;
		return 2;
	}
	int rc = aw_drop_cap(CAP_SYS_ADMIN);
	*u->result = rc != 0 ? rc : inject(u->slave);
	return rc != 0 ? 3 : 0;
}

/* TIOCSTI without CAP_SYS_ADMIN in a child: 0, -errno, or a status of
 * the child's set-up (> 0) with *why. */
static int unprivileged(int s, bool ctty, int *why)
{
	int *result = aw_shared_alloc(sizeof(int));
	if (!result)
		return *why = -ENOMEM, 1;
	struct unpriv u = { s, ctty, result };
	int st = aw_child_run(unpriv_child, &u, CHILD_MS);
	int r = *result;
	aw_shared_free(result, sizeof(int));
	*why = r;
	return st == 0 ? r : (st > 0 ? st : 1);
}

static void observe_unpriv(struct aw_ctx *ctx, const char *obs, int s, bool ctty, int *res)
{
	int why = 0;
	int r = unprivileged(s, ctty, &why);
	*res = r;
	if (r > 0)
		aw_error(ctx, obs, "%s failed in the child: %s", r == 2 ? "becoming a session with "
			 "the slave" : "dropping CAP_SYS_ADMIN", aw_errname(why));
	else
		tty_observe_res(ctx, obs, r, -r);
}

static void observe_cap(struct aw_ctx *ctx, const char *obs, int s)
{
	if (!tty_admin()) {
		aw_skip_cause(ctx, obs, "cap_sys_admin", "TIOCSTI with CAP_SYS_ADMIN in the initial "
			      "user namespace");
		return;
	}
	int r = inject(s);
	tty_observe_res(ctx, obs, r, -r);
}

/* The knob's value (0 with *v), or -errno (-ENOENT: absent). */
static int read_knob(long long *v)
{
	return aw_read_ll(KNOB_PATH, v);
}

static void tiocsti_run(struct aw_ctx *ctx)
{
	int m, s;
	long long knob = -1;
	int krc = read_knob(&knob);

	if (krc == 0)
		aw_observe_long(ctx, "knob", knob);
	else if (krc == -ENOENT)
		aw_observe(ctx, "knob", "absent");
	else
		aw_error(ctx, "knob", "%s: %s", KNOB_PATH, aw_errname(krc));

	struct aw_kconfig cfg;
	aw_kconfig_load(&cfg);
	if (cfg.text) {
		char *v = aw_kconfig_value(cfg.text, cfg.len, "LEGACY_TIOCSTI");
		aw_observe(ctx, "config", "%s", v ? v : "absent");
		free(v);
	} else {
		/* cfg.source names the release: a reason that would differ
		 * between kernels for no change of theirs */
		aw_unobserved(ctx, "config", "no kernel configuration here (no /proc/config.gz, "
			      "/boot/config-RELEASE or build/.config)");
	}
	aw_kconfig_free(&cfg);

	if (tty_pair(ctx, O_NONBLOCK, &m, &s) != 0)
		return;
	aw_pty_raw(s);
	observe_cap(ctx, "cap", s);
	int r = 0, ignored;
	observe_unpriv(ctx, "no_cap", s, true, &r);
	observe_unpriv(ctx, "no_cap.not_ctty", s, false, &ignored);
	if (r > 0 || (krc != 0 && krc != -ENOENT))
		aw_skip(ctx, "knob_decides", "the knob or the unprivileged TIOCSTI not known");
	else if (krc == 0 && knob == 0)
		aw_expect(ctx, "knob_decides", r == -EIO, "knob 0, TIOCSTI gave %s", aw_errname(-r));
	else
		aw_expect(ctx, "knob_decides", r == 0, "knob %s, TIOCSTI gave %s",
			  krc == 0 ? "1" : "absent", aw_errname(-r));
	close(m);
	close(s);
}

/* ---- in a VM guest: the knob at 0 and at 1 ---- */

#define KNOB_ITEMS(v)                                                                               \
	AW_OBS_ITEM("knob" #v ".no_cap", "TIOCSTI on the controlling pty without CAP_SYS_ADMIN, "  \
		    KNOB " = " #v " (VM guest only)", .object = "knob" #v, .absent = absent,       \
		    .change = DISABLED),                                                           \
	AW_OBS_ITEM("knob" #v ".cap", "TIOCSTI with CAP_SYS_ADMIN, " KNOB " = " #v,                \
		    .object = "knob" #v, .absent = absent)

static const struct aw_item knob_items[] = {
	KNOB_ITEMS(0),
	KNOB_ITEMS(1),
	AW_CHECK_ITEM("restored", "the knob holds its value from before the probe again"),
	AW_ITEMS_END
};

static void knob_run(struct aw_ctx *ctx)
{
	long long orig;
	int m, s;

	if (read_knob(&orig) != 0) {
		for (const struct aw_item *it = knob_items; it->name; it++)
			if (it->kind == AW_OBSERVATION)
				aw_observe(ctx, it->name, "absent");
		aw_skip(ctx, "restored", "no %s here (before 6.2)", KNOB);
		return;
	}
	if (tty_pair(ctx, O_NONBLOCK, &m, &s) != 0)
		return;
	aw_pty_raw(s);
	for (int v = 0; v <= 1; v++) {
		char item[32];
		int rc = aw_sysctl_write_ll(ctx, KNOB, v);
		snprintf(item, sizeof(item), "knob%d.no_cap", v);
		if (rc != 0) {
			aw_error(ctx, item, "writing %d: %s", v, aw_sysctl_strerror(rc));
			snprintf(item, sizeof(item), "knob%d.cap", v);
			aw_error(ctx, item, "writing %d: %s", v, aw_sysctl_strerror(rc));
			continue;
		}
		int r;
		observe_unpriv(ctx, item, s, true, &r);
		snprintf(item, sizeof(item), "knob%d.cap", v);
		observe_cap(ctx, item, s);
	}
	int rc = aw_sysctl_write_ll(ctx, KNOB, orig);
	long long now = -1;
	aw_expect(ctx, "restored", rc == 0 && read_knob(&now) == 0 && now == orig,
		  "wrote %lld back (%s), reads %lld", orig, aw_sysctl_strerror(rc), now);
	close(m);
	close(s);
}

static const char *const tiocsti_tags[] = {
	"linux-git:83efeeeb3d04", "linux-git:690c8b804ad2", "man:ioctl_tty(2)", NULL,
};
static const char *const tiocsti_kconfig[] = { "CONFIG_LEGACY_TIOCSTI", NULL };

const struct aw_probe tty_tiocsti_probes[] = {
	{ .name = "tiocsti", .summary = "TIOCSTI with and without CAP_SYS_ADMIN, beside "
	  "dev.tty.legacy_tiocsti and CONFIG_LEGACY_TIOCSTI", .run = tiocsti_run,
	  .items = tiocsti_items, .tags = tiocsti_tags, .needs = { .kconfig = tiocsti_kconfig } },
	{ .name = "tiocsti_knob", .summary = "TIOCSTI with dev.tty.legacy_tiocsti set to 0 and to 1",
	  .run = knob_run, .items = knob_items, .tags = tiocsti_tags,
	  .needs = { .vm_guest = "dev.tty.legacy_tiocsti is the whole machine's: it is written only "
		     "in a throwaway guest" },
	  .alone = "it sets dev.tty.legacy_tiocsti, which tty.tiocsti reads" },
	AW_PROBES_END
};

// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The virtual console's selection (TIOCLINUX, ioctl_console(2)), which
 * gpm and Emacs' console mouse support use.  8d1b43f6a6df ("tty:
 * Restrict access to TIOCLINUX' copy-and-paste subcommands", 6.7, against
 * TIOCSTI-like input through the selection) made TIOCL_SETSEL,
 * TIOCL_PASTESEL and TIOCL_SELLOADLUT need CAP_SYS_ADMIN, which hid
 * Emacs' mouse pointer on the console; 2f83e38a095f ("tty: Permit some
 * TIOCL_SETSEL modes without CAP_SYS_ADMIN", December 2024, Cc stable)
 * let TIOCL_SELCLEAR, TIOCL_SELPOINTER and, inconsistently,
 * TIOCL_SELMOUSEREPORT through again, and its author's follow-up "tty:
 * Require CAP_SYS_ADMIN for all usages of TIOCL_SELMOUSEREPORT" (2025)
 * took SELMOUSEREPORT back: only the mouse daemon, privileged, needs it.
 * Without CAP_SYS_ADMIN TIOCLINUX also wants the console
 * to be the caller's controlling terminal, so the unprivileged calls are
 * made by a child that opened /dev/tty1 as its session's terminal and
 * then dropped the capability.  KDGKBTYPE (console_ioctl(4)) is what
 * programs ask to tell a console from other terminals.
 *
 * Only in a VM guest: it opens the machine's first virtual console and
 * selects text on it.  A kernel without CONFIG_VT has no /dev/tty1: then
 * every item is skipped saying so.
 */
#include "tty.h"
#include "lib/caps.h"
#include "lib/child.h"
#include "lib/errname.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/capability.h>
#include <linux/kd.h>
#include <linux/tiocl.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#define CONSOLE "/dev/tty1"
#define CHILD_MS 3000

#define SEL_CHANGE "console mouse users (Emacs' xterm-mouse on the console, gpm clients) lose " \
		   "the pointer or the selection"
#define SEL_ITEMS(who, what)                                                                        \
	AW_OBS_ITEM(who ".setsel_char", "TIOCL_SETSEL, TIOCL_SELCHAR, " what, .object = who,      \
		    .change = SEL_CHANGE),                                                         \
	AW_OBS_ITEM(who ".selclear", "TIOCL_SETSEL, TIOCL_SELCLEAR, " what, .object = who,        \
		    .change = SEL_CHANGE),                                                         \
	AW_OBS_ITEM(who ".selpointer", "TIOCL_SETSEL, TIOCL_SELPOINTER, " what, .object = who,    \
		    .change = SEL_CHANGE),                                                         \
	AW_OBS_ITEM(who ".selmousereport", "TIOCL_SETSEL, TIOCL_SELMOUSEREPORT (no mouse "         \
		    "reporting on: EINVAL when allowed), " what, .object = who, .change = SEL_CHANGE)

static const struct aw_item console_items[] = {
	AW_OBS_ITEM("kdgkbtype", "KDGKBTYPE on " CONSOLE ": the keyboard type (2: KB_101)"),
	SEL_ITEMS("cap", "with CAP_SYS_ADMIN"),
	SEL_ITEMS("no_cap", "without CAP_SYS_ADMIN, " CONSOLE " the controlling terminal"),
	AW_ITEMS_END
};

static const struct {
	const char *name;
	unsigned short mode;
} modes[] = {
	{ "setsel_char", TIOCL_SELCHAR },
	{ "selclear", TIOCL_SELCLEAR },
	{ "selpointer", TIOCL_SELPOINTER },
	{ "selmousereport", TIOCL_SELMOUSEREPORT },
};

/* TIOCLINUX(TIOCL_SETSEL) of the first two characters of the first line. */
static int setsel(int fd, unsigned short mode)
{
	struct {
		char subcode;
		struct tiocl_selection sel;
	} __attribute__((packed)) arg = { TIOCL_SETSEL, { 1, 1, 2, 1, 0 } };
	arg.sel.sel_mode = mode;
	return ioctl(fd, TIOCLINUX, &arg) == 0 ? 0 : -errno;
}

static void selections(struct aw_ctx *ctx, const char *who, int fd)
{
	char item[64];
	for (size_t i = 0; i < sizeof(modes) / sizeof(modes[0]); i++) {
		snprintf(item, sizeof(item), "%s.%s", who, modes[i].name);
		int r = setsel(fd, modes[i].mode);
		tty_observe_res(ctx, item, r, -r);
	}
}

static struct aw_ctx *child_ctx;

static int unprivileged(void *arg)
{
	(void)arg;
	struct aw_ctx *ctx = child_ctx;
	if (setsid() < 0) {
		aw_error_rest(ctx, "setsid: %s", aw_errname(errno));
		return 1;
	}
	int fd = open(CONSOLE, O_RDWR | O_CLOEXEC); /* becomes the controlling terminal */
	int rc = fd < 0 ? -errno : aw_drop_cap(CAP_SYS_ADMIN);
	if (rc != 0) {
		aw_error_rest(ctx, "%s as the controlling terminal without CAP_SYS_ADMIN: %s", CONSOLE,
			      aw_errname(rc));
		return 1;
	}
	selections(ctx, "no_cap", fd);
	close(fd);
	return 0;
}

static void console_run(struct aw_ctx *ctx)
{
	int fd = open(CONSOLE, O_RDWR | O_NOCTTY | O_CLOEXEC);
	if (fd < 0) {
		aw_skip_rest(ctx, "no virtual console here: %s: %s (a kernel without CONFIG_VT)",
			     CONSOLE, aw_errname(errno));
		return;
	}
	char type = 0;
	if (ioctl(fd, KDGKBTYPE, &type) == 0)
		aw_observe(ctx, "kdgkbtype", "%d", type);
	else
		aw_observe(ctx, "kdgkbtype", "%s", aw_errname(errno));
	if (tty_admin())
		selections(ctx, "cap", fd);
	else
		for (size_t i = 0; i < sizeof(modes) / sizeof(modes[0]); i++) {
			char item[64];
			snprintf(item, sizeof(item), "cap.%s", modes[i].name);
			aw_skip_cause(ctx, item, "cap_sys_admin", "TIOCLINUX with CAP_SYS_ADMIN");
		}
	close(fd);
	child_ctx = ctx;
	int st = aw_child_run(unprivileged, NULL, CHILD_MS);
	if (st != 0)
		aw_error_rest(ctx, "the unprivileged child ended with %d", st);
}

static const char *const console_tags[] = {
	"linux-git:8d1b43f6a6df", "linux-git:2f83e38a095f", "man:ioctl_console(2)", "man:console_ioctl(4)", NULL,
};
static const char *const console_kconfig[] = { "CONFIG_VT", NULL };

const struct aw_probe tty_console_probes[] = {
	{ .name = "console", .summary = "TIOCLINUX selection with and without CAP_SYS_ADMIN, and "
	  "KDGKBTYPE, on the first virtual console", .run = console_run, .items = console_items,
	  .tags = console_tags, .needs = { .kconfig = console_kconfig,
	  .vm_guest = "it opens the machine's virtual console and selects text on it" } },
	AW_PROBES_END
};

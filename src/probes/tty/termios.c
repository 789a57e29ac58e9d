// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The termios and window size of a fresh pty pair, as the kernel hands
 * them out: what a program that never calls tcsetattr(3) works with
 * (echo, ICRNL, OPOST|ONLCR, the control characters).  The slave's come
 * from the pty driver's init_termios (drivers/tty/pty.c, which starts
 * from tty_std_termios: 38400 baud, CS8, ICANON|ECHO..., and the
 * control characters of INIT_C_CC); termios ioctls on the master answer
 * with the slave's (tty_mode_ioctl() takes the link of a pty master);
 * termios(3),
 * tty_ioctl(4) (TCGETS, TCGETS2, TIOCGWINSZ).  The speeds are the
 * termios2 integers of TCGETS2 (BOTHER, 2.6.20), else the Bnnn constant.
 *
 * compat32.*: the family's 32-bit helper (m32/) calls TCGETS, TCSETS,
 * TIOCSWINSZ/TIOCGWINSZ and TCGETS2 as an i386 program, through the
 * kernel's compat ioctl path (tty_compat_ioctl), on the same slave.
 */
#include "tty.h"
#include "lib/errname.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <unistd.h>

#define KERNEL_NCCS 19

/* asm/termbits.h's struct termios2, which glibc's termios.h hides. */
struct ktermios2 {
	unsigned int c_iflag, c_oflag, c_cflag, c_lflag;
	unsigned char c_line;
	unsigned char c_cc[KERNEL_NCCS];
	unsigned int c_ispeed, c_ospeed;
};
#define TTY_TCGETS2 _IOR('T', 0x2A, struct ktermios2)

#define CC_ITEMS(end)                                                                                  \
	AW_OBS_ITEM(end ".cc.vintr", end ": c_cc[VINTR]", .object = end), AW_OBS_ITEM(end ".cc.vquit", end ": c_cc[VQUIT]", .object = end), \
	AW_OBS_ITEM(end ".cc.verase", end ": c_cc[VERASE]", .object = end), AW_OBS_ITEM(end ".cc.vkill", end ": c_cc[VKILL]", .object = end), \
	AW_OBS_ITEM(end ".cc.veof", end ": c_cc[VEOF]", .object = end), AW_OBS_ITEM(end ".cc.vtime", end ": c_cc[VTIME]", .object = end), \
	AW_OBS_ITEM(end ".cc.vmin", end ": c_cc[VMIN]", .object = end), AW_OBS_ITEM(end ".cc.vswtc", end ": c_cc[VSWTC]", .object = end), \
	AW_OBS_ITEM(end ".cc.vstart", end ": c_cc[VSTART]", .object = end), AW_OBS_ITEM(end ".cc.vstop", end ": c_cc[VSTOP]", .object = end), \
	AW_OBS_ITEM(end ".cc.vsusp", end ": c_cc[VSUSP]", .object = end), AW_OBS_ITEM(end ".cc.veol", end ": c_cc[VEOL]", .object = end), \
	AW_OBS_ITEM(end ".cc.vreprint", end ": c_cc[VREPRINT]", .object = end), AW_OBS_ITEM(end ".cc.vdiscard", end ": c_cc[VDISCARD]", .object = end), \
	AW_OBS_ITEM(end ".cc.vwerase", end ": c_cc[VWERASE]", .object = end), AW_OBS_ITEM(end ".cc.vlnext", end ": c_cc[VLNEXT]", .object = end), \
	AW_OBS_ITEM(end ".cc.veol2", end ": c_cc[VEOL2]", .object = end)

#define CHANGED "programs that never call tcsetattr (a child under script(1), expect, a CI runner's pty) see other input or output processing"

#define END_ITEMS(end)                                                                                  \
	AW_OBS_ITEM(end ".iflag", end ": c_iflag of a fresh pty (TCGETS)", .change = CHANGED),        \
	AW_OBS_ITEM(end ".oflag", end ": c_oflag of a fresh pty", .change = CHANGED),                 \
	AW_OBS_ITEM(end ".cflag", end ": c_cflag of a fresh pty", .change = CHANGED),                 \
	AW_OBS_ITEM(end ".lflag", end ": c_lflag of a fresh pty", .change = CHANGED),                 \
	AW_OBS_ITEM(end ".line", end ": c_line, the line discipline number (0: N_TTY)"),             \
	AW_OBS_ITEM(end ".ispeed", end ": input speed of TCGETS2 (termios2), else cfgetispeed's", .unit = "baud"), \
	AW_OBS_ITEM(end ".ospeed", end ": output speed of TCGETS2, else cfgetospeed's", .unit = "baud"), \
	AW_OBS_ITEM(end ".winsize", end ": TIOCGWINSZ of a fresh pty: rows cols xpixel ypixel",      \
		    .change = "programs that size their output from the window of a fresh pty get another size"), \
	CC_ITEMS(end)

static const char *const cc_names[KERNEL_NCCS] = {
	"vintr", "vquit", "verase", "vkill", "veof", "vtime", "vmin", "vswtc", "vstart", "vstop",
	"vsusp", "veol", "vreprint", "vdiscard", "vwerase", "vlnext", "veol2",
};

/* What an ioctl the kernel does not know gives. */
static const char *const unknown_ioctl[] = { "ENOTTY", "EINVAL", NULL };

static const struct aw_item termios_items[] = {
	END_ITEMS("slave"),
	AW_CHECK_ITEM("master_is_slave", "TCGETS on the master gives the slave's termios (the tty "
		      "layer answers a pty master's termios ioctls with its link's)"),
	AW_CHECK_ITEM("compat32.tcgets", "a 32-bit TCGETS on the slave gives the flags, line and "
		      "control characters a 64-bit one does", .object = "compat32"),
	AW_CHECK_ITEM("compat32.tcsets", "a 32-bit TCSETS of a raw termios is what TCGETS then gives",
		      .object = "compat32"),
	AW_CHECK_ITEM("compat32.winsize", "a 32-bit TIOCSWINSZ then TIOCGWINSZ gives the size back",
		      .object = "compat32"),
	AW_CHECK_ITEM("compat32.winsize_native", "the size the 32-bit helper set is the one a "
		      "64-bit TIOCGWINSZ sees", .object = "compat32"),
	AW_OBS_ITEM("compat32.tcgets2", "a 32-bit TCGETS2: the termios2 speeds, or the errno",
		    .object = "compat32", .absent = unknown_ioctl, .change = "32-bit programs asking for arbitrary baud rates "
		    "(termios2) get another answer"),
	AW_ITEMS_END
};

static void observe_end(struct aw_ctx *ctx, const char *end, int fd, char *flags, size_t len)
{
	struct ktermios2 t2;
	struct termios t;
	struct winsize ws;
	char item[64];
#define ITEM(suffix) (snprintf(item, sizeof(item), "%s.%s", end, suffix), item)

	if (tcgetattr(fd, &t) != 0) {
		aw_error_rest(ctx, "tcgetattr(%s): %s", end, aw_errname(errno));
		return;
	}
	aw_observe(ctx, ITEM("iflag"), "%#o", (unsigned)t.c_iflag);
	aw_observe(ctx, ITEM("oflag"), "%#o", (unsigned)t.c_oflag);
	aw_observe(ctx, ITEM("cflag"), "%#o", (unsigned)t.c_cflag);
	aw_observe(ctx, ITEM("lflag"), "%#o", (unsigned)t.c_lflag);
	aw_observe(ctx, ITEM("line"), "%u", (unsigned)t.c_line);
	int n = snprintf(flags, len, "%o,%o,%o,%o,%u", (unsigned)t.c_iflag, (unsigned)t.c_oflag,
			 (unsigned)t.c_cflag, (unsigned)t.c_lflag, (unsigned)t.c_line);
	for (int i = 0; i < KERNEL_NCCS; i++) {
		if (!cc_names[i])
			continue;
		snprintf(item, sizeof(item), "%s.cc.%s", end, cc_names[i]);
		aw_observe(ctx, item, "0x%02x", (unsigned)t.c_cc[i]);
		if (n > 0 && (size_t)n < len)
			n += snprintf(flags + n, len - (size_t)n, ",%x", (unsigned)t.c_cc[i]);
	}
	if (ioctl(fd, TTY_TCGETS2, &t2) == 0) {
		aw_observe(ctx, ITEM("ispeed"), "%u", t2.c_ispeed);
		aw_observe(ctx, ITEM("ospeed"), "%u", t2.c_ospeed);
	} else {
		aw_observe(ctx, ITEM("ispeed"), "B%#o", (unsigned)cfgetispeed(&t));
		aw_observe(ctx, ITEM("ospeed"), "B%#o", (unsigned)cfgetospeed(&t));
	}
	if (ioctl(fd, TIOCGWINSZ, &ws) == 0)
		aw_observe(ctx, ITEM("winsize"), "%u %u %u %u", ws.ws_row, ws.ws_col, ws.ws_xpixel,
			   ws.ws_ypixel);
	else
		aw_observe(ctx, ITEM("winsize"), "%s", aw_errname(errno));
#undef ITEM
}

static void termios_run(struct aw_ctx *ctx)
{
	int m, s;
	char native[256], sfd[16];

	if (tty_pair(ctx, 0, &m, &s) != 0)
		return;
	observe_end(ctx, "slave", s, native, sizeof(native));
	struct termios ts, tm;
	bool same = tcgetattr(s, &ts) == 0 && tcgetattr(m, &tm) == 0 &&
		    ts.c_iflag == tm.c_iflag && ts.c_oflag == tm.c_oflag && ts.c_cflag == tm.c_cflag &&
		    ts.c_lflag == tm.c_lflag && memcmp(ts.c_cc, tm.c_cc, KERNEL_NCCS) == 0;
	aw_expect(ctx, "master_is_slave", same, "the master's termios differ from the slave's");

	snprintf(sfd, sizeof(sfd), "%d", s);
	const char *const args[] = { "--slave", sfd, "--expect", native, NULL };
	const char *const own[] = { "compat32.winsize_native", NULL };
	const int keep[] = { s, -1 };
	const struct aw_helper helper = {
		.name = TTY_HELPER, .args = args, .prefix = "compat32.", .own = own,
		.timeout_ms = 5000, .keep = keep,
	};
	if (aw_helper_report(ctx, &helper)) {
		struct winsize ws = { 0, 0, 0, 0 };
		bool ok = ioctl(s, TIOCGWINSZ, &ws) == 0;
		aw_expect(ctx, "compat32.winsize_native", ok && ws.ws_row == 33 && ws.ws_col == 77,
			  "64-bit TIOCGWINSZ after the helper's 33x77: %s %ux%u", ok ? "ok" :
			  aw_errname(errno), ws.ws_row, ws.ws_col);
	} else if (!aw_reported(ctx, "compat32.winsize_native")) {
		aw_skip(ctx, "compat32.winsize_native", "the 32-bit helper did not run to its end");
	}
	close(m);
	close(s);
}

static const char *const termios_tags[] = {
	"man:termios(3)", "man:tty_ioctl(4)", "posix:tcgetattr", NULL,
};
static const char *const pty_kconfig[] = { "CONFIG_UNIX98_PTYS", NULL };

const struct aw_probe tty_termios_probes[] = {
	{ .name = "termios", .summary = "termios, speeds and window size of a fresh pty pair, also "
	  "through the 32-bit compat ioctls", .run = termios_run, .items = termios_items,
	  .tags = termios_tags, .needs = { .kconfig = pty_kconfig } },
	AW_PROBES_END
};

// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * abiwatch-tty-m32: the tty family's 32-bit caller, built by the
 * Makefile's m32 rule (gcc -m32 -static) into build/m32/.  An i386
 * program's tty ioctls reach the kernel through tty_compat_ioctl(): the
 * i386 struct termios (36 bytes) has the x86-64 layout, so TCGETS and
 * TCSETS pass through as they are, as do TIOCGWINSZ/TIOCSWINSZ (struct
 * winsize, 8 bytes) and TCGETS2 (struct termios2, 44 bytes); what the
 * compat path refuses shows as ENOIOCTLCMD turned ENOTTY.  It works on
 * the pty slave the termios probe hands it (--slave FD), whose 64-bit
 * TCGETS values it is given (--expect), and reports the probe's
 * compat32.* items, without the prefix, as lines of the probe protocol
 * on stdout (lib/wire.h).  tty_ioctl(4), termios(3).
 */
#include "lib/errname.h"
#include "lib/wire.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <unistd.h>

_Static_assert(sizeof(void *) == 4, "build with -m32: the point is the i386 layout");

#define KERNEL_NCCS 19

struct kterm {
	unsigned int c_iflag, c_oflag, c_cflag, c_lflag;
	unsigned char c_line;
	unsigned char c_cc[KERNEL_NCCS];
};
struct kterm2 {
	struct kterm t;
	unsigned int c_ispeed, c_ospeed;
};
_Static_assert(sizeof(struct kterm) == 36, "the kernel's struct termios");
_Static_assert(sizeof(struct kterm2) == 44, "the kernel's struct termios2");


/* The flags, line and control characters as the probe writes them. */
static void text_of(const struct kterm *t, char *buf, size_t len)
{
	int n = snprintf(buf, len, "%o,%o,%o,%o,%u", t->c_iflag, t->c_oflag, t->c_cflag,
			 t->c_lflag, (unsigned)t->c_line);
	for (int i = 0; i < 17 && n > 0 && (size_t)n < len; i++)
		n += snprintf(buf + n, len - (size_t)n, ",%x", (unsigned)t->c_cc[i]);
}

static void tcgets(int fd, const char *expect)
{
	struct kterm t;
	char got[256];
	if (ioctl(fd, 0x5401 /* TCGETS */, &t) != 0) {
		aw_out_fail("tcgets", "TCGETS: %s", aw_errname(errno));
		return;
	}
	text_of(&t, got, sizeof(got));
	aw_out_expect("tcgets", strcmp(got, expect) == 0, "32-bit %s, 64-bit %s", got, expect);
}

static void tcsets(int fd)
{
	struct kterm t, back;
	if (ioctl(fd, 0x5401, &t) != 0) {
		aw_out_fail("tcsets", "TCGETS: %s", aw_errname(errno));
		return;
	}
	/* cfmakeraw(3) on the kernel's layout */
	t.c_iflag &= ~(unsigned)(IGNBRK | BRKINT | PARMRK | ISTRIP | INLCR | IGNCR | ICRNL | IXON);
	t.c_oflag &= ~(unsigned)OPOST;
	t.c_lflag &= ~(unsigned)(ECHO | ECHONL | ICANON | ISIG | IEXTEN);
	t.c_cflag = (t.c_cflag & ~(unsigned)(CSIZE | PARENB)) | CS8;
	t.c_cc[VMIN] = 1;
	t.c_cc[VTIME] = 0;
	if (ioctl(fd, 0x5402 /* TCSETS */, &t) != 0) {
		aw_out_fail("tcsets", "TCSETS: %s", aw_errname(errno));
		return;
	}
	memset(&back, 0, sizeof(back));
	if (ioctl(fd, 0x5401, &back) != 0) {
		aw_out_fail("tcsets", "TCGETS after TCSETS: %s", aw_errname(errno));
		return;
	}
	char a[256], b[256];
	text_of(&t, a, sizeof(a));
	text_of(&back, b, sizeof(b));
	aw_out_expect("tcsets", strcmp(a, b) == 0, "set %s, read back %s", a, b);
}

static void winsize(int fd)
{
	struct winsize ws = { .ws_row = 33, .ws_col = 77, .ws_xpixel = 0, .ws_ypixel = 0 }, back;
	if (ioctl(fd, TIOCSWINSZ, &ws) != 0) {
		aw_out_fail("winsize", "TIOCSWINSZ: %s", aw_errname(errno));
		return;
	}
	memset(&back, 0, sizeof(back));
	if (ioctl(fd, TIOCGWINSZ, &back) != 0) {
		aw_out_fail("winsize", "TIOCGWINSZ: %s", aw_errname(errno));
		return;
	}
	aw_out_expect("winsize", back.ws_row == 33 && back.ws_col == 77, "set 33x77, got %ux%u",
		      back.ws_row, back.ws_col);
}

static void tcgets2(int fd)
{
	struct kterm2 t2;
	if (ioctl(fd, _IOR('T', 0x2A, struct kterm2), &t2) != 0)
		aw_out_observe("tcgets2", "%s", aw_errname(errno));
	else
		aw_out_observe("tcgets2", "%u %u", t2.c_ispeed, t2.c_ospeed);
}

int main(int argc, char **argv)
{
	aw_helper_hello(argc, argv);
	if (argc != 5 || strcmp(argv[1], "--slave") != 0 || strcmp(argv[3], "--expect") != 0) {
		fprintf(stderr, "usage: abiwatch-tty-m32 --slave FD --expect FLAGS\n");
		return 2;
	}
	int fd = atoi(argv[2]);
	tcgets(fd, argv[4]);
	tcgets2(fd);
	tcsets(fd);
	winsize(fd);
	return 0;
}

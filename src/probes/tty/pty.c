// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The pty line discipline and the ptmx interface, on pairs of the
 * probe's own devpts instance (lib/pty.h).
 *
 * ldisc: the bytes a master takes before EAGAIN when nobody reads (the
 * slave's flip buffers, TTYB_DEFAULT_MEM_LIMIT, plus n_tty's 4096-byte
 * read buffer; drivers/tty/tty_buffer.c, n_tty.c), the canonical-mode
 * line limit (4095 characters and the newline: n_tty keeps room for the
 * end of line, termios(3) "MAX_CANON"), and VMIN/VTIME (termios(3)
 * "Noncanonical mode").  n_tty flushes its input work before it says
 * nothing is there (poll, read), so no timing decides a count; VTIME
 * cases wait their tenth of a second and give a count, not a time.
 *
 * hangup: a master read after the slave closed: the pending bytes, then
 * EIO (pty(7): "If ... the slave is closed, reads on the master return
 * EIO"), and the poll bits then (POLLHUP); the slave after the master
 * closed: hung up, reads 0.
 *
 * packet: TIOCPKT (ioctl_tty(2)): the first byte of each master read,
 * TIOCPKT_DATA before data, TIOCPKT_FLUSHREAD/STOP/START as control.
 *
 * ptmx: TIOCGPTPEER (54ebbfb16034, 4.13: the slave without a path
 * lookup), TIOCGPTN numbering of a fresh instance, TIOCGPTLCK/TIOCSPTLCK
 * (3.8), a devpts max= option, kernel.pty.max/reserve and what one pair
 * adds to kernel.pty.nr (Documentation/filesystems/devpts.rst).
 */
#include "tty.h"
#include "lib/errname.h"
#include "lib/procfs.h"
#include "lib/pty.h"
#include "lib/util.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <termios.h>
#include <unistd.h>

#ifndef TIOCGPTPEER
#define TIOCGPTPEER _IO('T', 0x41)
#endif

/* ---- ldisc ---- */

static const struct aw_item ldisc_items[] = {
	AW_OBS_ITEM("capacity", "bytes a non-blocking master takes before EAGAIN while nobody "
		    "reads the raw slave", .unit = "B", .change = "programs that write to a pty "
		    "without reading (test harnesses, expect) block or get EAGAIN at another point"),
	AW_CHECK_ITEM("canon_limit", "a canonical-mode line of 5000 characters and a newline "
		      "reads as 4095 characters and the newline"),
	AW_OBS_ITEM("canon.line", "canonical mode: what one read of the slave gives after 5000 "
		    "characters and a newline: bytes, and whether the last is the newline",
		    .change = "programs pasting long lines into a terminal get another cut"),
	AW_OBS_ITEM("canon.rest", "canonical mode: a second non-blocking read after that"),
	AW_OBS_ITEM("vmin0_vtime0", "raw, VMIN 0 VTIME 0, nothing pending: a blocking read's result",
		    .object = "vmin_vtime"),
	AW_OBS_ITEM("vmin0_vtime1", "raw, VMIN 0 VTIME 1, nothing pending: a blocking read's "
		    "result after the tenth of a second", .object = "vmin_vtime"),
	AW_OBS_ITEM("vmin2_vtime0.nonblock", "raw, VMIN 2, one byte pending: a non-blocking read",
		    .object = "vmin_vtime"),
	AW_OBS_ITEM("vmin2_vtime1", "raw, VMIN 2 VTIME 1, one byte pending: a blocking read's result "
		    "once the inter-byte timer ends", .object = "vmin_vtime"),
	AW_OBS_ITEM("vmin1_vtime0", "raw, VMIN 1, two bytes pending: a blocking read of 10",
		    .object = "vmin_vtime"),
	AW_ITEMS_END
};

static void flush_input(int fd)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };
	(void)poll(&p, 1, 0);
}

static void capacity(struct aw_ctx *ctx, int m, int s)
{
	/* One byte a write: every flip buffer is then the smallest size
	 * and filled before the next is taken, so what the kernel holds
	 * does not depend on when its flush work ran. */
	static char chunk[1];
	long long total = 0;
	int rounds = 0;
	bool more = true;

	memset(chunk, 'c', sizeof(chunk));
	while (more && rounds++ < 1024) {
		more = false;
		for (;;) {
			ssize_t n = write(m, chunk, sizeof(chunk));
			if (n <= 0)
				break;
			total += n;
			more = true;
		}
		if (errno != EAGAIN) {
			aw_error(ctx, "capacity", "write to the master: %s", aw_errname(errno));
			return;
		}
		flush_input(s);
	}
	aw_observe_long(ctx, "capacity", total);
}

static void canon(struct aw_ctx *ctx, int m, int s)
{
	static char line[5001], buf[8192];
	struct termios t;

	if (tcgetattr(s, &t) != 0 || (t.c_lflag &= ~(tcflag_t)ECHO, tcsetattr(s, TCSANOW, &t)) != 0) {
		aw_error(ctx, "canon.line", "tcsetattr(-ECHO): %s", aw_errname(errno));
		aw_error(ctx, "canon.rest", "tcsetattr(-ECHO): %s", aw_errname(errno));
		aw_error(ctx, "canon_limit", "tcsetattr(-ECHO): %s", aw_errname(errno));
		return;
	}
	memset(line, 'a', sizeof(line));
	line[5000] = '\n';
	ssize_t w = write(m, line, sizeof(line));
	flush_input(s);
	ssize_t n = read(s, buf, sizeof(buf));
	int err = errno;
	if (n > 0)
		aw_observe(ctx, "canon.line", "%zd%s", n, buf[n - 1] == '\n' ? " newline" : "");
	else
		tty_observe_res(ctx, "canon.line", n, err);
	aw_expect(ctx, "canon_limit", n == 4096 && buf[4095] == '\n', "wrote %zd, read %zd", w, n);
	n = read(s, buf, sizeof(buf));
	tty_observe_res(ctx, "canon.rest", n, errno);
}

static int set_raw(int fd, int vmin, int vtime)
{
	struct termios t;
	if (tcgetattr(fd, &t) != 0)
		return -1;
	cfmakeraw(&t);
	t.c_cc[VMIN] = (cc_t)vmin;
	t.c_cc[VTIME] = (cc_t)vtime;
	return tcsetattr(fd, TCSANOW, &t);
}

static void vmin_case(struct aw_ctx *ctx, const char *obs, int m, int s, int vmin, int vtime,
		      const char *feed, bool nonblock)
{
	char buf[16];
	if (set_raw(s, vmin, vtime) != 0 || fcntl(s, F_SETFL, nonblock ? O_NONBLOCK : 0) != 0) {
		aw_error(ctx, obs, "setting VMIN %d VTIME %d: %s", vmin, vtime, aw_errname(errno));
		return;
	}
	if (*feed && write(m, feed, strlen(feed)) != (ssize_t)strlen(feed)) {
		aw_error(ctx, obs, "writing to the master: %s", aw_errname(errno));
		return;
	}
	ssize_t n = read(s, buf, sizeof(buf) > 10 ? 10 : sizeof(buf));
	tty_observe_res(ctx, obs, n, errno);
	tcflush(s, TCIOFLUSH);
}

static void ldisc_run(struct aw_ctx *ctx)
{
	int m, s;

	if (tty_pair(ctx, O_NONBLOCK, &m, &s) != 0)
		return;
	if (aw_pty_raw(s) != 0)
		aw_error(ctx, "capacity", "raw mode: %s", aw_errname(errno));
	else
		capacity(ctx, m, s);
	close(m);
	close(s);
	if (tty_pair(ctx, O_NONBLOCK, &m, &s) != 0)
		return;
	canon(ctx, m, s);
	vmin_case(ctx, "vmin0_vtime0", m, s, 0, 0, "", false);
	vmin_case(ctx, "vmin0_vtime1", m, s, 0, 1, "", false);
	vmin_case(ctx, "vmin2_vtime0.nonblock", m, s, 2, 0, "x", true);
	vmin_case(ctx, "vmin2_vtime1", m, s, 2, 1, "x", false);
	vmin_case(ctx, "vmin1_vtime0", m, s, 1, 0, "xy", false);
	close(m);
	close(s);
}

/* ---- hangup ---- */

static const struct aw_item hangup_items[] = {
	AW_OBS_ITEM("master.read_pending", "master read after the slave wrote 2 bytes and closed",
		    .object = "master"),
	AW_OBS_ITEM("master.read_after", "the next master read: EIO, or 0 (end of file)",
		    .object = "master", .change = "terminal emulators and script(1) detect the end of "
		    "their child by EIO on the master: they may spin or lose the last output"),
	AW_OBS_ITEM("master.poll", "poll bits of the master (POLLIN|POLLOUT asked) then",
		    .object = "master", .change = "event loops waiting for POLLHUP on the master miss "
		    "the end of the session"),
	AW_CHECK_ITEM("master_eio", "reading the master after the slave closed and its bytes were "
		      "read gives EIO (pty(7))"),
	AW_OBS_ITEM("slave.read", "slave read after the master wrote 2 bytes and closed",
		    .object = "slave"),
	AW_OBS_ITEM("slave.poll", "poll bits of the slave then", .object = "slave"),
	AW_ITEMS_END
};

static void observe_poll(struct aw_ctx *ctx, const char *obs, int fd)
{
	static const struct { short bit; const char *name; } bits[] = {
		{ POLLIN, "POLLIN" }, { POLLPRI, "POLLPRI" }, { POLLOUT, "POLLOUT" },
		{ POLLERR, "POLLERR" }, { POLLHUP, "POLLHUP" }, { POLLNVAL, "POLLNVAL" },
		{ POLLRDNORM, "POLLRDNORM" }, { POLLWRNORM, "POLLWRNORM" },
	};
	struct pollfd p = { .fd = fd, .events = POLLIN | POLLOUT | POLLRDNORM | POLLWRNORM };
	char text[128] = "";
	int n = poll(&p, 1, 0);
	if (n < 0) {
		aw_observe(ctx, obs, "%s", aw_errname(errno));
		return;
	}
	for (size_t i = 0; i < AW_ARRAY_SIZE(bits); i++)
		if (p.revents & bits[i].bit) {
			if (text[0])
				strcat(text, "|");
			strcat(text, bits[i].name);
		}
	aw_observe(ctx, obs, "%s", text[0] ? text : "none");
}

static void hangup_run(struct aw_ctx *ctx)
{
	int m, s;
	char buf[16];

	if (tty_pair(ctx, O_NONBLOCK, &m, &s) != 0)
		return;
	aw_pty_raw(s);
	if (write(s, "ab", 2) != 2)
		aw_note(ctx, "writing to the slave: %s", aw_errname(errno));
	close(s);
	ssize_t n = read(m, buf, sizeof(buf));
	tty_observe_res(ctx, "master.read_pending", n, errno);
	n = read(m, buf, sizeof(buf));
	int err = errno;
	tty_observe_res(ctx, "master.read_after", n, err);
	aw_expect(ctx, "master_eio", n < 0 && err == EIO, "read gave %zd (%s)", n,
		  n < 0 ? aw_errname(err) : "-");
	observe_poll(ctx, "master.poll", m);
	close(m);

	if (tty_pair(ctx, O_NONBLOCK, &m, &s) != 0)
		return;
	aw_pty_raw(s);
	if (write(m, "cd", 2) != 2)
		aw_note(ctx, "writing to the master: %s", aw_errname(errno));
	close(m);
	n = read(s, buf, sizeof(buf));
	tty_observe_res(ctx, "slave.read", n, errno);
	observe_poll(ctx, "slave.poll", s);
	close(s);
}

/* What an ioctl the kernel does not know gives. */
static const char *const unknown_ioctl[] = { "ENOTTY", "EINVAL", NULL };
static const char *const absent_knob[] = { "absent", NULL };

/* ---- packet ---- */

static const struct aw_item packet_items[] = {
	AW_OBS_ITEM("data", "packet mode: a master read after the slave wrote \"x\": the first byte "
		    "and the length", .change = "terminal emulators and sshd in packet mode misparse "
		    "the master's reads"),
	AW_OBS_ITEM("flush", "packet mode: the first byte of a master read after tcflush(slave, "
		    "TCIOFLUSH), or the errno"),
	AW_OBS_ITEM("stop", "packet mode: after tcflow(slave, TCOOFF)"),
	AW_OBS_ITEM("start", "packet mode: after tcflow(slave, TCOON)"),
	AW_OBS_ITEM("tiocgpkt", "TIOCGPKT on the master in packet mode (3.8), or the errno",
		    .absent = unknown_ioctl),
	AW_ITEMS_END
};

static void packet_read(struct aw_ctx *ctx, const char *obs, int m)
{
	unsigned char buf[16];
	ssize_t n = read(m, buf, sizeof(buf));
	if (n > 0)
		aw_observe(ctx, obs, "0x%02x, %zd bytes", buf[0], n);
	else
		tty_observe_res(ctx, obs, n, errno);
}

static void packet_run(struct aw_ctx *ctx)
{
	int m, s, on = 1, got = -1;

	if (tty_pair(ctx, O_NONBLOCK, &m, &s) != 0)
		return;
	aw_pty_raw(s);
	if (ioctl(m, TIOCPKT, &on) != 0) {
		aw_error_rest(ctx, "TIOCPKT: %s", aw_errname(errno));
		goto out;
	}
	if (ioctl(m, TIOCGPKT, &got) == 0)
		aw_observe(ctx, "tiocgpkt", "%d", got);
	else
		aw_observe(ctx, "tiocgpkt", "%s", aw_errname(errno));
	if (write(s, "x", 1) != 1)
		aw_note(ctx, "writing to the slave: %s", aw_errname(errno));
	packet_read(ctx, "data", m);
	tcflush(s, TCIOFLUSH);
	packet_read(ctx, "flush", m);
	tcflow(s, TCOOFF);
	packet_read(ctx, "stop", m);
	tcflow(s, TCOON);
	packet_read(ctx, "start", m);
out:
	close(m);
	close(s);
}

/* ---- ptmx ---- */

static const struct aw_item ptmx_items[] = {
	AW_OBS_ITEM("ptpeer", "TIOCGPTPEER on a master: the slave of the same pty, or the errno",
		    .absent = unknown_ioctl, .change = "containers opening the slave without a path "
		    "lookup (runc, LXC) fall back to ptsname"),
	AW_OBS_ITEM("ptpeer.on_slave", "TIOCGPTPEER on a slave", .object = "ptpeer"),
	AW_OBS_ITEM("ptn.first", "TIOCGPTN of the first master of a fresh instance", .object = "ptn"),
	AW_OBS_ITEM("ptn.second", "TIOCGPTN of the second", .object = "ptn"),
	AW_OBS_ITEM("ptn.reuse", "TIOCGPTN of a third opened after the first closed", .object = "ptn"),
	AW_OBS_ITEM("lock.initial", "TIOCGPTLCK of a fresh master (1: locked until unlockpt)",
		    .object = "lock", .absent = unknown_ioctl),
	AW_OBS_ITEM("lock.open_locked", "opening the slave of a locked master", .object = "lock",
		    .change = "programs that open the slave before unlockpt(3) start working or fail"),
	AW_OBS_ITEM("lock.open_unlocked", "opening it after TIOCSPTLCK 0", .object = "lock"),
	AW_OBS_ITEM("instance_max", "the second pty of an instance mounted with max=1",
		    .object = "limits"),
	AW_OBS_ITEM("pty_max", "kernel.pty.max", .object = "limits", .unit = "ptys"),
	AW_OBS_ITEM("pty_reserve", "kernel.pty.reserve: ptys only the initial instance may use "
		    "(absent before 4.6)", .object = "limits", .unit = "ptys", .absent = absent_knob),
	AW_OBS_ITEM("pty_nr_delta", "what opening two pairs of the probe's own instance adds to "
		    "kernel.pty.nr (the count is the machine's)", .object = "limits", .unit = "ptys"),
	AW_ITEMS_END
};

static void ptpeer(struct aw_ctx *ctx, const char *dir)
{
	int m, s, ptn = -1;
	if (aw_pty_open(dir, 0, &m, &s, &ptn) != 0) {
		aw_error(ctx, "ptpeer", "a pty pair: %s", aw_errname(errno));
		aw_error(ctx, "ptpeer.on_slave", "a pty pair: %s", aw_errname(errno));
		return;
	}
	int fd = ioctl(m, TIOCGPTPEER, O_RDWR | O_NOCTTY | O_CLOEXEC);
	struct stat st;
	if (fd < 0)
		aw_observe(ctx, "ptpeer", "%s", aw_errname(errno));
	else if (fstat(fd, &st) == 0)
		aw_observe(ctx, "ptpeer", "%s", S_ISCHR(st.st_mode) && (int)minor(st.st_rdev) == ptn
			   ? "the slave" : "another file");
	else
		aw_observe(ctx, "ptpeer", "fstat: %s", aw_errname(errno));
	if (fd >= 0)
		close(fd);
	fd = ioctl(s, TIOCGPTPEER, O_RDWR | O_NOCTTY | O_CLOEXEC);
	aw_observe(ctx, "ptpeer.on_slave", "%s", fd < 0 ? aw_errname(errno) : "a descriptor");
	if (fd >= 0)
		close(fd);
	close(m);
	close(s);
}

static int open_master(const char *dir)
{
	char path[600];
	snprintf(path, sizeof(path), "%s/ptmx", dir);
	return open(path, O_RDWR | O_NOCTTY | O_CLOEXEC);
}

static void observe_ptn(struct aw_ctx *ctx, const char *obs, int m)
{
	int n = -1;
	if (m < 0 || ioctl(m, TIOCGPTN, &n) != 0)
		aw_observe(ctx, obs, "%s", aw_errname(errno));
	else
		aw_observe(ctx, obs, "%d", n);
}

static void ptn_lock(struct aw_ctx *ctx, const char *dir)
{
	char path[600];
	int a = open_master(dir), b = open_master(dir);
	observe_ptn(ctx, "ptn.first", a);
	observe_ptn(ctx, "ptn.second", b);
	if (a >= 0)
		close(a);
	int c = open_master(dir);
	observe_ptn(ctx, "ptn.reuse", c);

	int lock = -1, n = -1, unlock = 0;
	if (c < 0 || ioctl(c, TIOCGPTN, &n) != 0) {
		aw_error(ctx, "lock.initial", "no master: %s", aw_errname(errno));
	} else {
		if (ioctl(c, TIOCGPTLCK, &lock) == 0)
			aw_observe(ctx, "lock.initial", "%d", lock);
		else
			aw_observe(ctx, "lock.initial", "%s", aw_errname(errno));
		aw_pty_path(dir, n, path, sizeof(path));
		int s = open(path, O_RDWR | O_NOCTTY | O_CLOEXEC);
		aw_observe(ctx, "lock.open_locked", "%s", s < 0 ? aw_errname(errno) : "opened");
		if (s >= 0)
			close(s);
		if (ioctl(c, TIOCSPTLCK, &unlock) != 0)
			aw_note(ctx, "TIOCSPTLCK 0: %s", aw_errname(errno));
		s = open(path, O_RDWR | O_NOCTTY | O_CLOEXEC);
		aw_observe(ctx, "lock.open_unlocked", "%s", s < 0 ? aw_errname(errno) : "opened");
		if (s >= 0)
			close(s);
	}
	if (b >= 0)
		close(b);
	if (c >= 0)
		close(c);
}

static void limits(struct aw_ctx *ctx, const char *dir)
{
	static const char *const knobs[][2] = {
		{ "pty_max", "/proc/sys/kernel/pty/max" },
		{ "pty_reserve", "/proc/sys/kernel/pty/reserve" },
	};
	long long v;
	for (size_t i = 0; i < AW_ARRAY_SIZE(knobs); i++) {
		if (aw_read_ll(knobs[i][1], &v) == 0)
			aw_observe_long(ctx, knobs[i][0], v);
		else
			aw_observe(ctx, knobs[i][0], "absent");
	}

	char two[600];
	snprintf(two, sizeof(two), "%s-max1", dir);
	int rc = aw_devpts_mount(two, "max=1");
	int m[2] = { -1, -1 }, s[2] = { -1, -1 };
	if (rc != 0) {
		aw_error(ctx, "instance_max", "mounting devpts with max=1: %s", aw_errname(rc));
	} else {
		rc = aw_pty_open(two, 0, &m[0], &s[0], NULL);
		if (rc == 0)
			rc = aw_pty_open(two, 0, &m[1], &s[1], NULL);
		aw_observe(ctx, "instance_max", "%s", rc == 0 ? "opened" : aw_errname(rc));
		for (int i = 0; i < 2; i++)
			if (m[i] >= 0) {
				close(m[i]);
				close(s[i]);
			}
	}

	/* Others on the machine may open or close ptys meanwhile: the
	 * delta of the first of three tries that sees the same count
	 * before and after closing again. */
	long long before, during, after;
	for (int tries = 0; tries < 3; tries++) {
		if (aw_read_ll("/proc/sys/kernel/pty/nr", &before) != 0) {
			aw_observe(ctx, "pty_nr_delta", "absent");
			return;
		}
		int ok = aw_pty_open(dir, 0, &m[0], &s[0], NULL) == 0 &&
			 aw_pty_open(dir, 0, &m[1], &s[1], NULL) == 0;
		int got = aw_read_ll("/proc/sys/kernel/pty/nr", &during);
		for (int i = 0; i < 2; i++)
			if (m[i] >= 0) {
				close(m[i]);
				close(s[i]);
				m[i] = s[i] = -1;
			}
		if (!ok || got != 0) {
			aw_error(ctx, "pty_nr_delta", "two pairs: %s", aw_errname(errno));
			return;
		}
		if (aw_read_ll("/proc/sys/kernel/pty/nr", &after) == 0 && after == before) {
			aw_observe_long(ctx, "pty_nr_delta", during - before);
			return;
		}
	}
	aw_unobserved(ctx, "pty_nr_delta", "kernel.pty.nr kept moving: others open ptys meanwhile");
}

static void ptmx_run(struct aw_ctx *ctx)
{
	int err = 0;
	const char *dir = tty_devpts(ctx, &err);
	if (!dir) {
		aw_error_rest(ctx, "mounting a devpts instance: %s", aw_errname(err));
		return;
	}
	ptn_lock(ctx, dir);
	ptpeer(ctx, dir);
	limits(ctx, dir);
}

static const char *const pty_tags[] = {
	"man:pty(7)", "man:termios(3)", "man:ioctl_tty(2)", "linux-git:54ebbfb16034", NULL,
};
static const char *const pty_kconfig[] = { "CONFIG_UNIX98_PTYS", NULL };

const struct aw_probe tty_pty_probes[] = {
	{ .name = "ldisc", .summary = "the pty line discipline: capacity before EAGAIN, the "
	  "canonical line limit, VMIN/VTIME", .run = ldisc_run, .items = ldisc_items,
	  .tags = pty_tags, .needs = { .kconfig = pty_kconfig } },
	{ .name = "hangup", .summary = "reads and poll bits of one end after the other closed",
	  .run = hangup_run, .items = hangup_items, .tags = pty_tags,
	  .needs = { .kconfig = pty_kconfig } },
	{ .name = "packet", .summary = "TIOCPKT packet mode: the first byte of the master's reads",
	  .run = packet_run, .items = packet_items, .tags = pty_tags,
	  .needs = { .kconfig = pty_kconfig } },
	{ .name = "ptmx", .summary = "TIOCGPTPEER, TIOCGPTN, TIOCSPTLCK, devpts max= and the "
	  "kernel.pty limits", .run = ptmx_run, .items = ptmx_items, .tags = pty_tags,
	  .needs = { .kconfig = pty_kconfig } },
	AW_PROBES_END
};

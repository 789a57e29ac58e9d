// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * splice(2) and sendfile(2) between ttys, pipes, sockets, files and
 * /proc and /sys files: the bytes moved or the errno, per pair.
 *
 * 36e2c7421f02 (5.10) stopped splicing through ->read and ->write, so
 * every file without ->splice_read/->splice_write gives EINVAL: ttys
 * until dd78b0c483e3 and 9bb48c82aced gave them read_iter/write_iter
 * (stable 5.10.20, mainline 5.12), and for good the /proc files served
 * by seq_read alone (/proc/self/status).  A pty pair stands for the tty:
 * the slave is raw, both ends are non-blocking, and n_tty flushes its
 * input work before it reports nothing to read, so a splice right after
 * the other end's write sees the data (no timing decides).  The pair
 * comes from a devpts instance of the probe's own (lib/pty.h), never from
 * the host's /dev/pts.  /proc and
 * /sys are only read, never written.
 */
#include "fdio.h"
#include "lib/errname.h"
#include "lib/proc.h"
#include "lib/procfs.h"
#include "lib/pty.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/sendfile.h>
#include <sys/socket.h>
#include <unistd.h>

#define FILE_DATA "abiwatch\n" /* 9 bytes */
#define ONLINE "/sys/devices/system/cpu/online"

static const struct aw_item splice_items[] = {
	AW_CHECK_ITEM("tty_splice_read", "splice from either end of a pty into a pipe moves the "
		      "bytes written at the other end (dd78b0c483e3)"),
	AW_CHECK_ITEM("tty_splice_write", "splice from a pipe into either end of a pty moves the "
		      "bytes, and they reach the other end (9bb48c82aced)"),
	AW_CHECK_ITEM("tty_sendfile", "sendfile from a regular file to a pty moves the whole file"),
	AW_OBS_ITEM("pty_master_to_pipe", "splice(pty master -> pipe) after 6 bytes "
		    "written to the slave", .change = "programs splicing terminal output "
		    "(script, terminal multiplexers) fail with EINVAL"),
	AW_OBS_ITEM("pty_slave_to_pipe", "splice(pty slave -> pipe) after 6 bytes written "
		    "to the master", .change = "programs splicing terminal input fail"),
	AW_OBS_ITEM("pty_empty_to_pipe", "splice(pty master -> pipe), nothing pending, "
		    "non-blocking"),
	AW_OBS_ITEM("pipe_to_pty_slave", "splice(pipe holding 4 bytes -> pty slave)",
		    .change = "programs splicing into a terminal fail with EINVAL"),
	AW_OBS_ITEM("pipe_to_pty_master", "splice(pipe holding 4 bytes -> pty master)",
		    .change = "programs splicing into a terminal fail with EINVAL"),
	AW_OBS_ITEM("pty_offset", "splice(pty master with an offset pointer -> pipe)"),
	AW_OBS_ITEM("file_to_pty", "splice(regular file -> pty slave): no pipe on either side"),
	AW_OBS_ITEM("pipe_to_pipe", "splice(pipe -> another pipe), 4 bytes"),
	AW_OBS_ITEM("pipe_to_same_pipe", "splice(pipe -> the same pipe)"),
	AW_OBS_ITEM("unix_to_pipe", "splice(unix stream socket -> pipe), 4 bytes pending"),
	AW_OBS_ITEM("pipe_to_unix", "splice(pipe -> unix stream socket), 4 bytes"),
	AW_OBS_ITEM("zero_to_pipe", "splice(/dev/zero -> pipe), 100 bytes",
		    .change = "programs filling pipes from /dev/zero with splice fail with EINVAL, or start working"),
	AW_OBS_ITEM("eventfd_to_pipe", "splice(eventfd -> pipe)"),
	AW_OBS_ITEM("proc_status_to_pipe", "splice(/proc/self/status -> pipe): whole, "
		    "or the errno", .change = "programs splicing /proc/PID files (seq_read only) "
		    "get EINVAL, or bytes again"),
	AW_OBS_ITEM("proc_ostype_to_pipe", "splice(/proc/sys/kernel/ostype -> pipe): whole "
		    "when the bytes equal what read(2) gives, else the count or errno"),
	AW_OBS_ITEM("proc_version_to_pipe", "splice(/proc/version -> pipe): whole or errno"),
	AW_OBS_ITEM("sys_online_to_pipe", "splice(" ONLINE " -> pipe): whole or errno"),
	AW_OBS_ITEM("sendfile.file_to_pty", "sendfile(pty slave <- 9-byte regular file, with offset)"),
	AW_OBS_ITEM("sendfile.pty_to_pipe", "sendfile(pipe <- pty master, no offset), 2 bytes pending"),
	AW_OBS_ITEM("sendfile.pty_to_file", "sendfile(regular file <- pty master): the tty is "
		    "not seekable"),
	AW_OBS_ITEM("sendfile.pty_offset", "sendfile(pipe <- pty master, with an offset pointer)"),
	AW_OBS_ITEM("sendfile.file_to_pipe", "sendfile(pipe <- 9-byte regular file)"),
	AW_OBS_ITEM("sendfile.file_to_unix", "sendfile(unix stream socket <- 9-byte regular file)"),
	AW_OBS_ITEM("sendfile.file_to_null", "sendfile(/dev/null <- 9-byte regular file)"),
	AW_OBS_ITEM("sendfile.pipe_to_file", "sendfile(regular file <- pipe)"),
	AW_OBS_ITEM("sendfile.unix_to_file", "sendfile(regular file <- unix stream socket)"),
	AW_OBS_ITEM("sendfile.zero_to_pipe", "sendfile(pipe <- /dev/zero), 100 bytes",
		    .change = "programs filling pipes from /dev/zero with sendfile fail with EINVAL, or start working"),
	AW_OBS_ITEM("sendfile.proc_status_to_file", "sendfile(regular file <- /proc/self/status)",
		    .change = "programs copying /proc/PID files with sendfile (cat, cp) fall back "
		    "or fail"),
	AW_OBS_ITEM("sendfile.proc_ostype_to_file", "sendfile(regular file <- "
		    "/proc/sys/kernel/ostype): whole or errno"),
	AW_OBS_ITEM("sendfile.sys_online_to_file", "sendfile(regular file <- " ONLINE "): whole "
		    "or errno"),
	AW_ITEMS_END
};

struct fds {
	int master, slave;     /* a raw pty pair, non-blocking */
	int pipe[2], pipe2[2]; /* non-blocking */
	int sock[2];           /* a non-blocking unix stream pair */
	int file;              /* a regular file holding FILE_DATA */
	int out;               /* an empty regular file */
};

/* Drain fd (non-blocking) so the next case starts empty. */
static void drain(int fd)
{
	char buf[4096];
	while (read(fd, buf, sizeof(buf)) > 0)
		;
}

/* A raw pty pair from a devpts instance of the probe's own (lib/pty.h),
 * so that the host's /dev/pts never holds it. */
static int open_pty(struct aw_ctx *ctx, struct fds *f)
{
	char dir[512];

	snprintf(dir, sizeof(dir), "%s/pts", aw_tmpdir(ctx));
	int rc = aw_devpts_mount(dir, NULL);
	if (rc == 0)
		rc = aw_pty_open(dir, O_NONBLOCK, &f->master, &f->slave, NULL);
	return rc == 0 ? aw_pty_raw(f->slave) : rc;
}

static int open_fds(struct aw_ctx *ctx, struct fds *f)
{
	if (pipe2(f->pipe, O_NONBLOCK | O_CLOEXEC) != 0 || pipe2(f->pipe2, O_NONBLOCK | O_CLOEXEC) != 0 ||
	    socketpair(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0, f->sock) != 0)
		return -errno;
	f->file = aw_anon_file("fdio-source");
	f->out = aw_anon_file("fdio-dest");
	if (f->file < 0 || f->out < 0 || write(f->file, FILE_DATA, 9) != 9)
		return -errno;
	return open_pty(ctx, f);
}

static void close_fds(struct fds *f)
{
	int *all[] = { &f->master, &f->slave, &f->pipe[0], &f->pipe[1], &f->pipe2[0],
		       &f->pipe2[1], &f->sock[0], &f->sock[1], &f->file, &f->out };
	for (size_t i = 0; i < sizeof(all) / sizeof(all[0]); i++)
		if (*all[i] >= 0)
			close(*all[i]);
}

/* splice(in -> out) after "data" was written to feed (-1: nothing). */
static ssize_t fed_splice(int feed, const char *data, int in, int out)
{
	if (feed >= 0 && write(feed, data, strlen(data)) != (ssize_t)strlen(data))
		return -1;
	return splice(in, NULL, out, NULL, 100, SPLICE_F_NONBLOCK);
}

static void tty_cases(struct aw_ctx *ctx, struct fds *f)
{
	char buf[64];
	ssize_t m = fed_splice(f->slave, "hello\n", f->master, f->pipe[1]);
	fdio_observe_rc(ctx, "pty_master_to_pipe", m);
	drain(f->pipe[0]);
	ssize_t s = fed_splice(f->master, "hello\n", f->slave, f->pipe[1]);
	fdio_observe_rc(ctx, "pty_slave_to_pipe", s);
	drain(f->pipe[0]);
	aw_expect(ctx, "tty_splice_read", m == 6 && s == 6, "master -> pipe %zd, slave -> pipe %zd "
		  "(6 each expected; 5.10.0 to 5.10.19: EINVAL)", m, s);
	fdio_observe_rc(ctx, "pty_empty_to_pipe", fed_splice(-1, "", f->master, f->pipe[1]));

	ssize_t ws = fed_splice(f->pipe[1], "ping", f->pipe[0], f->slave);
	fdio_observe_rc(ctx, "pipe_to_pty_slave", ws);
	ssize_t at_master = read(f->master, buf, sizeof(buf));
	ssize_t wm = fed_splice(f->pipe[1], "pong", f->pipe[0], f->master);
	fdio_observe_rc(ctx, "pipe_to_pty_master", wm);
	ssize_t at_slave = read(f->slave, buf, sizeof(buf));
	drain(f->pipe[0]);
	aw_expect(ctx, "tty_splice_write", ws == 4 && wm == 4 && at_master == 4 && at_slave == 4,
		  "pipe -> slave %zd (master read %zd), pipe -> master %zd (slave read %zd); "
		  "4 each expected", ws, at_master, wm, at_slave);

	loff_t off = 0;
	fdio_observe_rc(ctx, "pty_offset", splice(f->master, &off, f->pipe[1], NULL, 10,
						    SPLICE_F_NONBLOCK));
	fdio_observe_rc(ctx, "file_to_pty", splice(f->file, &off, f->slave, NULL, 10, 0));
	off_t foff = 0;
	ssize_t sf = sendfile(f->slave, f->file, &foff, 100);
	fdio_observe_rc(ctx, "sendfile.file_to_pty", sf);
	drain(f->master);
	aw_expect(ctx, "tty_sendfile", sf == 9, "sendfile(pty, 9-byte file) gave %zd", sf);
	if (write(f->slave, "hi", 2) != 2)
		aw_note(ctx, "writing to the pty slave: %s", aw_errname(errno));
	fdio_observe_rc(ctx, "sendfile.pty_to_pipe", sendfile(f->pipe[1], f->master, NULL, 100));
	drain(f->pipe[0]);
	fdio_observe_rc(ctx, "sendfile.pty_to_file", sendfile(f->out, f->master, NULL, 10));
	foff = 0;
	fdio_observe_rc(ctx, "sendfile.pty_offset", sendfile(f->pipe[1], f->master, &foff, 10));
	drain(f->master);
}

static void pipe_socket_cases(struct aw_ctx *ctx, struct fds *f)
{
	fdio_observe_rc(ctx, "pipe_to_pipe", fed_splice(f->pipe[1], "abcd", f->pipe[0], f->pipe2[1]));
	drain(f->pipe2[0]);
	fdio_observe_rc(ctx, "pipe_to_same_pipe", fed_splice(-1, "", f->pipe[0], f->pipe[1]));
	drain(f->pipe[0]);
	fdio_observe_rc(ctx, "unix_to_pipe", fed_splice(f->sock[1], "abcd", f->sock[0], f->pipe[1]));
	drain(f->pipe[0]);
	fdio_observe_rc(ctx, "pipe_to_unix", fed_splice(f->pipe[1], "abcd", f->pipe[0], f->sock[0]));
	drain(f->sock[1]);
	drain(f->pipe[0]);

	int zero = open("/dev/zero", O_RDONLY | O_CLOEXEC);
	fdio_observe_rc(ctx, "zero_to_pipe", zero < 0 ? -1 : fed_splice(-1, "", zero, f->pipe[1]));
	drain(f->pipe[0]);
	fdio_observe_rc(ctx, "sendfile.zero_to_pipe", zero < 0 ? -1 : sendfile(f->pipe[1], zero, NULL, 100));
	drain(f->pipe[0]);
	if (zero >= 0)
		close(zero);
	int efd = eventfd(1, EFD_NONBLOCK | EFD_CLOEXEC);
	fdio_observe_rc(ctx, "eventfd_to_pipe", efd < 0 ? -1 : fed_splice(-1, "", efd, f->pipe[1]));
	if (efd >= 0)
		close(efd);

	off_t off = 0;
	fdio_observe_rc(ctx, "sendfile.file_to_pipe", sendfile(f->pipe[1], f->file, &off, 100));
	drain(f->pipe[0]);
	off = 0;
	fdio_observe_rc(ctx, "sendfile.file_to_unix", sendfile(f->sock[0], f->file, &off, 100));
	drain(f->sock[1]);
	int null = open("/dev/null", O_WRONLY | O_CLOEXEC);
	off = 0;
	fdio_observe_rc(ctx, "sendfile.file_to_null", null < 0 ? -1 : sendfile(null, f->file, &off, 100));
	if (null >= 0)
		close(null);
	if (write(f->pipe[1], "abcd", 4) != 4 || write(f->sock[1], "abcd", 4) != 4)
		aw_note(ctx, "feeding the pipe and the socket: %s", aw_errname(errno));
	fdio_observe_rc(ctx, "sendfile.pipe_to_file", sendfile(f->out, f->pipe[0], NULL, 10));
	fdio_observe_rc(ctx, "sendfile.unix_to_file", sendfile(f->out, f->sock[0], NULL, 10));
	drain(f->pipe[0]);
	drain(f->sock[0]);
}

/* A pseudo file moved into a pipe (to_pipe) or a file: "whole" when the
 * bytes moved are what read(2) gives, else the count or the errno. */
static void pseudo_case(struct aw_ctx *ctx, const char *obs, const char *path, bool to_pipe,
			struct fds *f)
{
	char *content = NULL, buf[FDIO_RES_LEN];
	size_t len = 0;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0 || aw_file_slurp(path, &content, &len) != 0) {
		aw_unobserved(ctx, obs, "%s: %s", path, aw_errname(errno));
		if (fd >= 0)
			close(fd);
		return;
	}
	ssize_t n;
	if (to_pipe) {
		n = splice(fd, NULL, f->pipe[1], NULL, 65536, SPLICE_F_NONBLOCK);
	} else {
		if (ftruncate(f->out, 0) != 0 || lseek(f->out, 0, SEEK_SET) != 0)
			aw_note(ctx, "emptying the destination: %s", aw_errname(errno));
		n = sendfile(f->out, fd, NULL, 65536);
	}
	int err = errno;
	if (n >= 0 && (size_t)n == len && len > 0)
		aw_observe(ctx, obs, "whole");
	else if (n >= 0)
		aw_observe(ctx, obs, "%zd of %zu bytes", n, len);
	else
		aw_observe(ctx, obs, "%s", fdio_res(buf, n, err));
	drain(f->pipe[0]);
	close(fd);
	free(content);
}

static void pseudo_cases(struct aw_ctx *ctx, struct fds *f)
{
	pseudo_case(ctx, "proc_status_to_pipe", "/proc/self/status", true, f);
	pseudo_case(ctx, "proc_ostype_to_pipe", "/proc/sys/kernel/ostype", true, f);
	pseudo_case(ctx, "proc_version_to_pipe", "/proc/version", true, f);
	pseudo_case(ctx, "sys_online_to_pipe", ONLINE, true, f);
	pseudo_case(ctx, "sendfile.proc_status_to_file", "/proc/self/status", false, f);
	pseudo_case(ctx, "sendfile.proc_ostype_to_file", "/proc/sys/kernel/ostype", false, f);
	pseudo_case(ctx, "sendfile.sys_online_to_file", ONLINE, false, f);
}

static void splice_run(struct aw_ctx *ctx)
{
	struct fds f = { -1, -1, { -1, -1 }, { -1, -1 }, { -1, -1 }, -1, -1 };
	int rc = open_fds(ctx, &f);

	if (rc != 0)
		aw_error_rest(ctx, "setting up the pty, pipes, socket and files: %s", aw_errname(rc));
	else {
		tty_cases(ctx, &f);
		pipe_socket_cases(ctx, &f);
		pseudo_cases(ctx, &f);
	}
	close_fds(&f);
}

static const char *const splice_tags[] = {
	"linux-git:36e2c7421f02", "linux-git:dd78b0c483e3", "linux-git:9bb48c82aced",
	"linux-git:1b057bd800c3", "man:splice(2)", "man:sendfile(2)", NULL,
};
static const char *const splice_kconfig[] = { "CONFIG_UNIX98_PTYS", NULL };

const struct aw_probe fdio_splice_probes[] = {
	{ .name = "splice", .summary = "splice and sendfile between ptys, pipes, sockets, files, "
	  "/proc and /sys: bytes or errno per pair", .run = splice_run, .items = splice_items,
	  .tags = splice_tags, .needs = { .kconfig = splice_kconfig } },
	AW_PROBES_END
};

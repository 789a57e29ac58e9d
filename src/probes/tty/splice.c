// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * splice(2) and sendfile(2) with a pty master or slave on one side and a
 * pipe or a regular file on the other: the bytes moved, or the errno.
 * 36e2c7421f02 (5.10, "fs: don't allow splice read/write without
 * explicit ops") made every file without ->splice_read/->splice_write
 * give EINVAL, ttys among them, until dd78b0c483e3 ("tty: implement
 * read_iter", 5.11, stable 5.10.20) and 9bb48c82aced ("tty: implement
 * write_iter") gave the tty layer iterators.  The fdio family's
 * splice probe covers pipes, sockets and pseudo files; this is the tty
 * side.  Both ends are non-blocking and n_tty flushes its input work
 * before it reports nothing to read, so no timing decides a count.
 */
#include "tty.h"
#include "lib/errname.h"
#include "lib/proc.h"
#include "lib/pty.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/sendfile.h>
#include <unistd.h>

#define FILE_DATA "abiwatch\n" /* 9 bytes */

#define SPLICE_CHANGE "programs moving terminal data with splice (terminal multiplexers, script(1) " \
		      "clones, a Rust/Go io.Copy fast path) fail with EINVAL, or start working"

static const struct aw_item splice_items[] = {
	AW_CHECK_ITEM("read", "splice from the master and from the slave into a pipe moves the "
		      "bytes written at the other end (dd78b0c483e3)"),
	AW_CHECK_ITEM("write", "splice from a pipe into the master and into the slave moves the "
		      "bytes, and the other end reads them (9bb48c82aced)"),
	AW_CHECK_ITEM("sendfile", "sendfile from a regular file to the master and to the slave "
		      "moves the whole file"),
	AW_OBS_ITEM("master_to_pipe", "splice(master -> pipe), 6 bytes pending", .object = "master",
		    .change = SPLICE_CHANGE),
	AW_OBS_ITEM("slave_to_pipe", "splice(slave -> pipe), 6 bytes pending", .object = "slave",
		    .change = SPLICE_CHANGE),
	AW_OBS_ITEM("pipe_to_master", "splice(pipe holding 4 bytes -> master)", .object = "master",
		    .change = SPLICE_CHANGE),
	AW_OBS_ITEM("pipe_to_slave", "splice(pipe holding 4 bytes -> slave)", .object = "slave",
		    .change = SPLICE_CHANGE),
	AW_OBS_ITEM("master_to_file", "splice(master -> regular file): no pipe on either side",
		    .object = "master"),
	AW_OBS_ITEM("file_to_slave", "splice(regular file -> slave): no pipe on either side",
		    .object = "slave"),
	AW_OBS_ITEM("sendfile.file_to_master", "sendfile(master <- 9-byte regular file)",
		    .object = "master", .change = SPLICE_CHANGE),
	AW_OBS_ITEM("sendfile.file_to_slave", "sendfile(slave <- 9-byte regular file)",
		    .object = "slave", .change = SPLICE_CHANGE),
	AW_OBS_ITEM("sendfile.master_to_pipe", "sendfile(pipe <- master), 2 bytes pending",
		    .object = "master"),
	AW_OBS_ITEM("sendfile.slave_to_pipe", "sendfile(pipe <- slave), 2 bytes pending",
		    .object = "slave"),
	AW_OBS_ITEM("sendfile.master_to_file", "sendfile(regular file <- master), 2 bytes pending",
		    .object = "master"),
	AW_OBS_ITEM("sendfile.slave_to_file", "sendfile(regular file <- slave), 2 bytes pending",
		    .object = "slave"),
	AW_ITEMS_END
};

static void drain(int fd)
{
	char buf[4096];
	while (read(fd, buf, sizeof(buf)) > 0)
		;
}

/* splice(in -> out) or sendfile(out <- in) after data was written to feed. */
static ssize_t move(int feed, const char *data, int in, int out, bool use_sendfile)
{
	if (feed >= 0 && write(feed, data, strlen(data)) != (ssize_t)strlen(data))
		return -1;
	if (use_sendfile)
		return sendfile(out, in, NULL, 100);
	return splice(in, NULL, out, NULL, 100, SPLICE_F_NONBLOCK);
}

static void observe(struct aw_ctx *ctx, const char *obs, ssize_t rc)
{
	tty_observe_res(ctx, obs, rc, errno);
}

static void splice_run(struct aw_ctx *ctx)
{
	int m, s, p[2], file = aw_anon_file("tty-source"), out = aw_anon_file("tty-dest");
	char buf[64];

	if (file < 0 || out < 0 || write(file, FILE_DATA, 9) != 9 ||
	    pipe2(p, O_NONBLOCK | O_CLOEXEC) != 0) {
		aw_error_rest(ctx, "a pipe and two files: %s", aw_errname(errno));
		return;
	}
	if (tty_pair(ctx, O_NONBLOCK, &m, &s) != 0)
		return;
	aw_pty_raw(s);

	ssize_t rm = move(s, "hello\n", m, p[1], false);
	observe(ctx, "master_to_pipe", rm);
	drain(p[0]);
	ssize_t rs = move(m, "hello\n", s, p[1], false);
	observe(ctx, "slave_to_pipe", rs);
	drain(p[0]);
	aw_expect(ctx, "read", rm == 6 && rs == 6, "master -> pipe %zd, slave -> pipe %zd (6 each "
		  "expected; 5.10.0 to 5.10.19: EINVAL)", rm, rs);

	ssize_t wm = move(p[1], "ping", p[0], m, false);
	observe(ctx, "pipe_to_master", wm);
	ssize_t at_slave = read(s, buf, sizeof(buf));
	drain(p[0]);
	ssize_t ws = move(p[1], "pong", p[0], s, false);
	observe(ctx, "pipe_to_slave", ws);
	ssize_t at_master = read(m, buf, sizeof(buf));
	drain(p[0]);
	aw_expect(ctx, "write", wm == 4 && ws == 4 && at_master == 4 && at_slave == 4,
		  "pipe -> master %zd (slave read %zd), pipe -> slave %zd (master read %zd); 4 each "
		  "expected", wm, at_slave, ws, at_master);

	loff_t off = 0;
	observe(ctx, "master_to_file", move(s, "hello\n", m, out, false));
	drain(m);
	observe(ctx, "file_to_slave", splice(file, &off, s, NULL, 100, SPLICE_F_NONBLOCK));
	drain(m);

	off_t foff = 0;
	ssize_t fm = sendfile(m, file, &foff, 100);
	observe(ctx, "sendfile.file_to_master", fm);
	drain(s);
	foff = 0;
	ssize_t fs = sendfile(s, file, &foff, 100);
	observe(ctx, "sendfile.file_to_slave", fs);
	drain(m);
	aw_expect(ctx, "sendfile", fm == 9 && fs == 9, "file -> master %zd, file -> slave %zd "
		  "(9 each expected)", fm, fs);

	observe(ctx, "sendfile.master_to_pipe", move(s, "hi", m, p[1], true));
	drain(m);
	drain(p[0]);
	observe(ctx, "sendfile.slave_to_pipe", move(m, "hi", s, p[1], true));
	drain(s);
	drain(p[0]);
	observe(ctx, "sendfile.master_to_file", move(s, "hi", m, out, true));
	drain(m);
	observe(ctx, "sendfile.slave_to_file", move(m, "hi", s, out, true));
	drain(s);

	close(m);
	close(s);
	close(p[0]);
	close(p[1]);
	close(file);
	close(out);
}

static const char *const splice_tags[] = {
	"linux-git:36e2c7421f02", "linux-git:dd78b0c483e3", "linux-git:9bb48c82aced",
	"man:splice(2)", "man:sendfile(2)", NULL,
};
static const char *const splice_kconfig[] = { "CONFIG_UNIX98_PTYS", NULL };

const struct aw_probe tty_splice_probes[] = {
	{ .name = "splice", .summary = "splice and sendfile between a pty's ends and pipes or "
	  "regular files: bytes or errno", .run = splice_run, .items = splice_items,
	  .tags = splice_tags, .needs = { .kconfig = splice_kconfig } },
	AW_PROBES_END
};

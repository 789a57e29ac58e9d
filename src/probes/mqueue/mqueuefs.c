// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The mqueue filesystem (mq_overview(7)): each queue of the IPC namespace
 * is a file, whose one line of text tells what mq_getattr() does not
 * (QSIZE, and who is registered for notification, how), and which can be
 * unlinked, listed and chmod'ed like a file.  Administrators and tools
 * (ls /dev/mqueue, rm) use it.  The probe mounts its own instance in a
 * directory of its private /tmp: /dev/mqueue is neither used nor made.
 */
#include "mq_util.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#define QBASE "aw_fs"
#define QNAME "/" QBASE

static const struct aw_item mqueuefs_items[] = {
	AW_CHECK_ITEM("mountable", "an mqueue filesystem can be mounted in the probe's mount namespace"),
	AW_CHECK_ITEM("queue_is_file", "a queue appears as a regular file of its name, found by stat and by readdir"),
	AW_CHECK_ITEM("mode_from_open", "the file's mode is the mq_open mode without the umask's bits"),
	AW_CHECK_ITEM("owner_creator", "the file belongs to the effective uid and gid of the process that created the queue"),
	AW_OBS_ITEM("file_size", "st_size of a queue's file", .unit = "B"),
	AW_OBS_ITEM("dir_mode", "permission bits of the filesystem's root directory, in octal"),
	AW_CHECK_ITEM("contents_format", "reading a queue's file gives one line QSIZE:n NOTIFY:n SIGNO:n NOTIFY_PID:n"),
	AW_OBS_ITEM("contents_length", "bytes in that line, padding included", .unit = "B"),
	AW_OBS_ITEM("contents.idle", "the line's fields for a queue holding 5 + 7 bytes, nobody registered"),
	AW_OBS_ITEM("qsize", "QSIZE of a queue holding messages of 5 and 7 bytes", .unit = "B"),
	AW_OBS_ITEM("qsize_counts", "what QSIZE counts: user_bytes, or user_bytes+N for N bytes more"),
	AW_OBS_ITEM("qsize_era", "the documented behaviour qsize_counts belongs to",
		    .change = "tools that read QSIZE as the bytes queued are off"),
	AW_CHECK_ITEM("notify_fields", "NOTIFY is the sigev_notify of the registration (0 signal, 1 none, 2 thread), SIGNO its signal, NOTIFY_PID the registered process"),
	AW_OBS_ITEM("contents.signal", "the line's fields with a SIGEV_SIGNAL (SIGUSR1) registration of the probe (PID 2 of its namespace)"),
	AW_OBS_ITEM("contents.thread", "the line's fields with a SIGEV_THREAD registration"),
	AW_CHECK_ITEM("unlink_through_fs", "unlink(2) of the file removes the queue's name; open descriptors keep working"),
	AW_OBS_ITEM("chmod_applies", "yes when chmod(2) of the file changes who may mq_open the queue"),
	AW_OBS_ITEM("create_through_fs", "what open(O_CREAT) of a new file in the filesystem makes: a queue and its shape, or the errno"),
	AW_ITEMS_END
};

struct fs {
	char dir[64];
	char file[96]; /* dir/aw_fs */
};

static int read_contents(const struct fs *fs, struct mqu_mqfs *m, ssize_t *len)
{
	char buf[256];
	int fd = open(fs->file, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return -errno;
	*len = read(fd, buf, sizeof(buf));
	int rc = *len < 0 ? -errno : 0;
	close(fd);
	return rc ? rc : mqu_parse_mqfs(buf, (size_t)*len, m);
}

static bool dir_lists(const char *dir, const char *name)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	bool found = false;

	if (!d)
		return false;
	while (!found && (e = readdir(d)))
		found = strcmp(e->d_name, name) == 0 && e->d_type == DT_REG;
	closedir(d);
	return found;
}

static void check_file(struct aw_ctx *ctx, const struct fs *fs)
{
	struct stat st, root;
	int rc = stat(fs->file, &st) == 0 ? 0 : -errno;
	bool listed = dir_lists(fs->dir, QBASE);

	aw_expect(ctx, "queue_is_file", rc == 0 && S_ISREG(st.st_mode) && listed,
		  "stat %s: %s%s; readdir %s it", fs->file, aw_errname(rc),
		  rc == 0 && !S_ISREG(st.st_mode) ? " (not a regular file)" : "",
		  listed ? "lists" : "does not list");
	if (rc) {
		aw_error(ctx, "mode_from_open", "stat: %s", aw_errname(rc));
		aw_unobserved(ctx, "file_size", "stat: %s", aw_errname(rc));
	} else {
		aw_expect(ctx, "mode_from_open", (st.st_mode & 07777) == 0644,
			  "created with mode 0666 under umask 022: %04o", st.st_mode & 07777);
		aw_observe_long(ctx, "file_size", (long long)st.st_size);
	}
	if (stat(fs->dir, &root) == 0)
		aw_observe(ctx, "dir_mode", "%o", root.st_mode & 07777);
	else
		aw_unobserved(ctx, "dir_mode", "stat: %s", aw_errname(errno));
}

static void check_contents(struct aw_ctx *ctx, const struct fs *fs, mqd_t q)
{
	struct mqu_mqfs m;
	ssize_t len = 0;
	char line[128];
	int rc = mqu_send(q, "hello", 5, 1);

	if (rc == 0)
		rc = mqu_send(q, "abcdefg", 7, 2);
	if (rc == 0)
		rc = read_contents(fs, &m, &len);
	aw_expect(ctx, "contents_format", rc == 0, "%s", rc == -EINVAL ?
		  "the text does not have the documented form" : aw_errname(rc));
	if (rc) {
		static const char *const obs[] = { "contents_length", "contents.idle", "qsize",
						   "qsize_counts", "qsize_era" };
		for (size_t i = 0; i < AW_ARRAY_SIZE(obs); i++)
			aw_unobserved(ctx, obs[i], "sending or reading the file failed: %s",
				      aw_errname(rc));
		mqu_drain(q);
		return;
	}
	aw_observe_long(ctx, "contents_length", (long long)len);
	mqu_format_mqfs(&m, line, sizeof(line));
	aw_observe(ctx, "contents.idle", "%s", line);
	aw_observe(ctx, "qsize", "%lu", m.qsize);
	if (m.qsize == 12)
		aw_observe(ctx, "qsize_counts", "user_bytes");
	else
		aw_observe(ctx, "qsize_counts", "user_bytes%+ld", (long)m.qsize - 12);
	mqu_observe_era(ctx, "qsize_era", mqu_qsize_eras,
			m.qsize == 12 ? "user_bytes" : m.qsize > 12 ? "overhead" : "less than the user bytes");
	mqu_drain(q);
}

/* Register as kind, read the line, unregister.  SIGEV_THREAD is
 * registered as the kernel knows it (a netlink socket), without the C
 * library's thread. */
static int contents_with(const struct fs *fs, mqd_t q, int kind, struct mqu_mqfs *m)
{
	struct sigevent ev = { .sigev_notify = kind, .sigev_signo = SIGUSR1 };
	ssize_t len;
	int sock = -1, rc;

	if (kind == SIGEV_THREAD)
		rc = (sock = mqu_notify_netlink(q)) < 0 ? sock : 0;
	else
		rc = (int)mqu_rc(mq_notify(q, &ev));
	if (rc == 0)
		rc = read_contents(fs, m, &len);
	mq_notify(q, NULL);
	if (sock >= 0)
		close(sock);
	return rc;
}

static void check_notify_fields(struct aw_ctx *ctx, const struct fs *fs, mqd_t q)
{
	static const int kinds[] = { SIGEV_SIGNAL, SIGEV_NONE, SIGEV_THREAD };
	struct mqu_mqfs m[3];
	char line[128];
	int pid = (int)getpid();

	for (size_t i = 0; i < 3; i++) {
		int rc = contents_with(fs, q, kinds[i], &m[i]);
		if (rc) {
			aw_error(ctx, "notify_fields", "registering sigev_notify %d or reading: %s",
				 kinds[i], aw_errname(rc));
			aw_unobserved(ctx, "contents.signal", "a registration failed");
			aw_unobserved(ctx, "contents.thread", "a registration failed");
			return;
		}
	}
	mqu_format_mqfs(&m[0], line, sizeof(line));
	aw_observe(ctx, "contents.signal", "%s", line);
	mqu_format_mqfs(&m[2], line, sizeof(line));
	aw_observe(ctx, "contents.thread", "%s", line);
	bool ok = m[0].notify == SIGEV_SIGNAL && m[0].signo == SIGUSR1 && m[0].notify_pid == pid &&
		  m[1].notify == SIGEV_NONE && m[1].signo == 0 && m[1].notify_pid == pid &&
		  m[2].notify == SIGEV_THREAD && m[2].signo == 0 && m[2].notify_pid == pid;
	aw_expect(ctx, "notify_fields", ok, "signal/none/thread: NOTIFY %d/%d/%d (expected %d/%d/%d), "
		  "SIGNO %d/%d/%d (expected %d/0/0), NOTIFY_PID %d/%d/%d (expected %d)",
		  m[0].notify, m[1].notify, m[2].notify, SIGEV_SIGNAL, SIGEV_NONE, SIGEV_THREAD,
		  m[0].signo, m[1].signo, m[2].signo, SIGUSR1, m[0].notify_pid, m[1].notify_pid,
		  m[2].notify_pid, pid);
}

static int creator_child(void *arg)
{
	(void)arg;
	return mqu_open_new("/aw_fs_user", O_RDWR, 0600, &(struct mqu_shape){ 1, 16 }) < 0;
}

static void check_owner(struct aw_ctx *ctx, const struct fs *fs)
{
	char path[128];
	struct stat st;
	int refused;
	int status = aw_child_run_as(AW_NOBODY2, AW_NOBODY, creator_child, NULL, MQU_BOUND_MS, &refused);

	if (refused) {
		aw_skip(ctx, "owner_creator", "%s", aw_become_user_why(refused));
		return;
	}
	snprintf(path, sizeof(path), "%s/aw_fs_user", fs->dir);
	int rc = status ? -EIO : stat(path, &st) == 0 ? 0 : -errno;
	aw_expect(ctx, "owner_creator", rc == 0 && st.st_uid == AW_NOBODY && st.st_gid == AW_NOBODY,
		  "a queue created with real uid %d, effective uid and gid %d: %s, owner %d:%d",
		  AW_NOBODY2, AW_NOBODY, aw_errname(rc), rc ? -1 : (int)st.st_uid,
		  rc ? -1 : (int)st.st_gid);
	mq_unlink("/aw_fs_user");
}

/* As uid 65534: 0 when it could open the queue for reading, 1 when not. */
static int reader_child(void *arg)
{
	(void)arg;
	mqd_t q = mq_open(QNAME, O_RDONLY);
	return q == (mqd_t)-1 ? 1 : 0;
}

static int read_as_nobody(int *refused)
{
	return aw_child_run_as(AW_NOBODY, AW_NOBODY, reader_child, NULL, MQU_BOUND_MS, refused);
}

static void observe_chmod(struct aw_ctx *ctx, const struct fs *fs)
{
	int refused, again;
	int before = read_as_nobody(&refused);
	int rc = chmod(fs->file, 0600) == 0 ? 0 : -errno;
	int after = rc ? rc : read_as_nobody(&again);

	if (refused)
		aw_unobserved(ctx, "chmod_applies", "%s", aw_become_user_why(refused));
	else if (rc || before < 0 || after < 0)
		aw_unobserved(ctx, "chmod_applies", "chmod or the child: %s", aw_errname(rc ? rc : -EIO));
	else
		aw_observe(ctx, "chmod_applies", "%s", before == 0 && after == 1 ? "yes" : "no");
}

static void check_unlink(struct aw_ctx *ctx, const struct fs *fs, mqd_t q)
{
	int rc = unlink(fs->file) == 0 ? 0 : -errno;
	int again = (int)mqu_rc(mq_open(QNAME, O_RDONLY));
	int send = mqu_send(q, "u", 1, 0);

	aw_expect(ctx, "unlink_through_fs", rc == 0 && again == -ENOENT && send == 0,
		  "unlink: %s; mq_open afterwards: %s (expected ENOENT); mq_send on the open "
		  "descriptor: %s", aw_errname(rc), aw_errname(again < 0 ? again : 0),
		  aw_errname(send));
	if (again >= 0)
		mq_close(again);
}

static void observe_create(struct aw_ctx *ctx, const struct fs *fs)
{
	char path[128];
	struct mq_attr a;

	snprintf(path, sizeof(path), "%s/aw_fs_made", fs->dir);
	int fd = open(path, O_CREAT | O_EXCL | O_RDWR | O_CLOEXEC, 0600);
	if (fd < 0) {
		aw_observe(ctx, "create_through_fs", "%s", aw_errname(errno));
		return;
	}
	int q = (int)mqu_rc(mq_open("/aw_fs_made", O_RDONLY));
	int rc = q < 0 ? q : mqu_getattr(q, &a);
	if (rc)
		aw_observe(ctx, "create_through_fs", "a file mq_open cannot use (%s)", aw_errname(rc));
	else
		aw_observe(ctx, "create_through_fs", "queue %ldx%ld", (long)a.mq_maxmsg,
			   (long)a.mq_msgsize);
	if (q >= 0)
		mq_close(q);
	close(fd);
	unlink(path);
}

static void mqueuefs_run(struct aw_ctx *ctx)
{
	struct fs fs;

	snprintf(fs.dir, sizeof(fs.dir), "%s/aw-mqueuefs", aw_tmpdir(ctx));
	snprintf(fs.file, sizeof(fs.file), "%s/%s", fs.dir, QBASE);
	if (mkdir(fs.dir, 0700) != 0 && errno != EEXIST) {
		aw_error_rest(ctx, "mkdir %s: %s", fs.dir, aw_errname(errno));
		return;
	}
	if (mount("mqueue", fs.dir, "mqueue", MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL) != 0) {
		aw_skip_rest(ctx, "mounting an mqueue filesystem on %s: %s", fs.dir, aw_errname(errno));
		return;
	}
	aw_pass(ctx, "mountable");
	umask(022);
	int q = mqu_open_new(QNAME, O_RDWR, 0666, &(struct mqu_shape){ 4, 16 });
	if (q < 0) {
		aw_error_rest(ctx, "creating %s: %s", QNAME, aw_errname(q));
		umount2(fs.dir, MNT_DETACH);
		return;
	}
	check_file(ctx, &fs);
	check_contents(ctx, &fs, q);
	check_notify_fields(ctx, &fs, q);
	check_owner(ctx, &fs);
	observe_chmod(ctx, &fs);
	check_unlink(ctx, &fs, q);
	observe_create(ctx, &fs);
	mq_close(q);
	umount2(fs.dir, MNT_DETACH);
}

static const char *const mqueuefs_tags[] = {
	"man:mq_overview(7)", "posix:mq_open", "linux-git:de54b9ac2537", NULL
};

const struct aw_probe mq_mqueuefs_probes[] = {
	{
		.name = "mqueuefs",
		.summary = "the mqueue filesystem: files, their contents line, owner, mode, unlink",
		.run = mqueuefs_run,
		.items = mqueuefs_items,
		.needs = { .kconfig = mqu_kconfig },
		.tags = mqueuefs_tags,
	},
	AW_PROBES_END,
};

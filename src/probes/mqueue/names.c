// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Queue names and the errors of mq_open() and mq_unlink() that do not
 * depend on the limits: the "/name" format (POSIX leaves the rest to the
 * implementation; glibc requires the slash and strips it, the kernel
 * refuses any further slash), NAME_MAX, ENOENT, EEXIST, EACCES from the
 * mode bits (as uid 65534 in a child: capabilities, not uid 0, decide),
 * EMFILE from RLIMIT_NOFILE (a queue descriptor is a file descriptor on
 * Linux, closed on exec as POSIX exec() requires), the atomicity of
 * O_EXCL, and unlinking a queue that is still open.
 */
#include "mq_util.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#define QNAME "/aw_names"

static const struct aw_item names_items[] = {
	AW_OBS_ITEM("no_leading_slash.libc", "errno of the C library's mq_open(\"aw_noslash\", O_CREAT), or success"),
	AW_OBS_ITEM("no_leading_slash.syscall", "errno of the mq_open system call for \"aw_noslash\", or success"),
	AW_CHECK_ITEM("eacces_second_slash", "a name with a slash after the first (\"/aw/x\") fails with EACCES"),
	AW_CHECK_ITEM("einval_empty", "the empty name fails with EINVAL"),
	AW_OBS_ITEM("slash_alone", "errno of mq_open(\"/\", O_CREAT), or success"),
	AW_CHECK_ITEM("name_max_accepted", "a name of NAME_MAX (255) characters after the slash is accepted"),
	AW_CHECK_ITEM("enametoolong", "a name of NAME_MAX + 1 characters after the slash fails with ENAMETOOLONG"),
	AW_CHECK_ITEM("enoent_without_creat", "opening a queue that does not exist, without O_CREAT, fails with ENOENT"),
	AW_CHECK_ITEM("eexist_with_excl", "O_CREAT | O_EXCL on an existing queue fails with EEXIST"),
	AW_OBS_ITEM("access_mode_3", "errno of mq_open with O_WRONLY | O_RDWR, or success"),
	AW_CHECK_ITEM("eacces_mode_bits", "without privilege, opening for an access the mode bits deny fails with EACCES, and one they grant works"),
	AW_CHECK_ITEM("emfile_rlimit_nofile", "with RLIMIT_NOFILE exhausted, mq_open fails with EMFILE"),
	AW_OBS_ITEM("emfile_leaves_queue", "yes when an mq_open(O_CREAT) failing with EMFILE still created the queue"),
	AW_CHECK_ITEM("excl_exactly_one", "of 8 processes racing to create one name with O_CREAT | O_EXCL, exactly one succeeds"),
	AW_CHECK_ITEM("closed_on_exec", "a queue descriptor from mq_open has FD_CLOEXEC set: exec closes it"),
	AW_CHECK_ITEM("close_ebadf", "mq_close of a descriptor that is not open fails with EBADF"),
	AW_CHECK_ITEM("persists_after_close", "a queue stays after its last descriptor is closed, messages included"),
	AW_CHECK_ITEM("unlink_while_open", "mq_unlink of an open queue succeeds and the open descriptor keeps working"),
	AW_CHECK_ITEM("unlink_name_gone", "after mq_unlink, the name is free: ENOENT without O_CREAT, a new empty queue with it"),
	AW_CHECK_ITEM("unlink_enoent", "mq_unlink of a name that does not exist fails with ENOENT"),
	AW_CHECK_ITEM("unlink_eacces", "mq_unlink of another user's queue without privilege fails with EACCES"),
	AW_CHECK_ITEM("unlink_enametoolong", "mq_unlink of a name of NAME_MAX + 1 characters fails with ENAMETOOLONG"),
	AW_ITEMS_END
};

static const struct mqu_shape tiny = { 2, 16 };

/* "/" followed by n copies of 'n'. */
static void long_name(char *buf, size_t n)
{
	buf[0] = '/';
	memset(buf + 1, 'n', n);
	buf[n + 1] = '\0';
}

/* mq_open(name, O_RDWR | O_CREAT, ...) through the C library; the queue
 * is removed again.  0 or -errno. */
static int libc_create(const char *name)
{
	mqd_t q = mq_open(name, O_RDWR | O_CREAT, 0600, NULL);

	if (q == (mqd_t)-1)
		return -errno;
	mq_close(q);
	mq_unlink(name);
	return 0;
}

static void expect_errno(struct aw_ctx *ctx, const char *check, int got, int want,
			 const char *what)
{
	aw_expect(ctx, check, got == -want, "%s: expected %s, got %s", what,
		  aw_errname(want), aw_errname(got));
}

static void observe_formats(struct aw_ctx *ctx)
{
	aw_observe(ctx, "no_leading_slash.libc", "%s", aw_errname(libc_create("aw_noslash")));
	/* The kernel sees the name after the C library removed the slash. */
	long fd = syscall(SYS_mq_open, "aw_noslash", O_RDWR | O_CREAT | O_EXCL, 0600, NULL);
	int rc = fd < 0 ? -errno : 0;
	if (fd >= 0) {
		close((int)fd);
		syscall(SYS_mq_unlink, "aw_noslash");
	}
	aw_observe(ctx, "no_leading_slash.syscall", "%s", aw_errname(rc));
	expect_errno(ctx, "eacces_second_slash", libc_create("/aw/x"), EACCES, "\"/aw/x\"");
	expect_errno(ctx, "einval_empty", libc_create(""), EINVAL, "\"\"");
	aw_observe(ctx, "slash_alone", "%s", aw_errname(libc_create("/")));
}

static void check_name_max(struct aw_ctx *ctx)
{
	char name[NAME_MAX + 3];

	long_name(name, NAME_MAX);
	int rc = libc_create(name);
	aw_expect(ctx, "name_max_accepted", rc == 0, "a %d-character name: %s", NAME_MAX,
		  aw_errname(rc));
	long_name(name, NAME_MAX + 1);
	expect_errno(ctx, "enametoolong", libc_create(name), ENAMETOOLONG,
		     "a name of NAME_MAX + 1 characters");
	expect_errno(ctx, "unlink_enametoolong", (int)mqu_rc(mq_unlink(name)), ENAMETOOLONG,
		     "mq_unlink of a name of NAME_MAX + 1 characters");
}

static void check_existence(struct aw_ctx *ctx)
{
	mq_unlink(QNAME);
	expect_errno(ctx, "enoent_without_creat", (int)mqu_rc(mq_open(QNAME, O_RDWR)), ENOENT,
		     "mq_open without O_CREAT");
	expect_errno(ctx, "unlink_enoent", (int)mqu_rc(mq_unlink(QNAME)), ENOENT,
		     "mq_unlink of a name that does not exist");
	int q = mqu_open_new(QNAME, O_RDWR, 0600, &tiny);
	if (q < 0) {
		aw_error(ctx, "eexist_with_excl", "creating %s: %s", QNAME, aw_errname(q));
		aw_error(ctx, "access_mode_3", "creating %s: %s", QNAME, aw_errname(q));
		return;
	}
	int rc = (int)mqu_rc(mq_open(QNAME, O_RDWR | O_CREAT | O_EXCL, 0600, NULL));
	if (rc >= 0)
		mq_close(rc);
	expect_errno(ctx, "eexist_with_excl", rc < 0 ? rc : 0, EEXIST, "O_CREAT | O_EXCL again");
	rc = (int)mqu_rc(mq_open(QNAME, O_WRONLY | O_RDWR));
	if (rc >= 0)
		mq_close(rc);
	aw_observe(ctx, "access_mode_3", "%s", aw_errname(rc < 0 ? rc : 0));
	mq_close(q);
	mq_unlink(QNAME);
}

/* What uid 65534 tries on the queues of uid 0, and the errno each must give. */
struct access_try {
	const char *name;
	int oflag;
	int want;
};

static const struct access_try access_tries[] = {
	{ "/aw_mode_0640", O_RDONLY, EACCES }, /* other may not read */
	{ "/aw_mode_0640", O_WRONLY, EACCES },
	{ "/aw_mode_0604", O_RDONLY, 0 },      /* other may read */
	{ "/aw_mode_0604", O_WRONLY, EACCES },
	{ "/aw_mode_0604", O_RDWR, EACCES },
};

/* As uid 65534: each open gives what the mode bits call for. */
static void check_mode_bits(struct aw_ctx *ctx)
{
	for (size_t i = 0; i < AW_ARRAY_SIZE(access_tries); i++) {
		const struct access_try *t = &access_tries[i];
		mqd_t q = mq_open(t->name, t->oflag);
		int rc = q == (mqd_t)-1 ? -errno : 0;
		if (q != (mqd_t)-1)
			mq_close(q);
		if (rc == -t->want)
			continue;
		aw_fail(ctx, "eacces_mode_bits", "uid %d opening %s (owned by uid 0) with %s: "
			"expected %s, got %s", AW_NOBODY, t->name, t->oflag == O_RDONLY ? "O_RDONLY" :
			t->oflag == O_WRONLY ? "O_WRONLY" : "O_RDWR", aw_errname(t->want),
			aw_errname(rc));
		return;
	}
	aw_pass(ctx, "eacces_mode_bits");
}

/* Runs as uid 65534 and reports both checks itself. */
static int access_child(void *arg)
{
	struct aw_ctx *ctx = arg;

	check_mode_bits(ctx);
	expect_errno(ctx, "unlink_eacces", (int)mqu_rc(mq_unlink("/aw_mode_0604")), EACCES,
		     "uid 65534 unlinking a queue of uid 0");
	return 0;
}

static void check_access(struct aw_ctx *ctx)
{
	static const char *const checks[] = { "eacces_mode_bits", "unlink_eacces" };
	int a = mqu_open_new("/aw_mode_0640", O_RDWR, 0640, &tiny);
	int b = mqu_open_new("/aw_mode_0604", O_RDWR, 0604, &tiny);
	int rc = a < 0 ? a : b < 0 ? b : 0;
	int refused = 0;

	/* The umask must not take bits away from the modes under test. */
	if (rc == 0)
		rc = fchmod(b, 0604) == 0 && fchmod(a, 0640) == 0 ? 0 : -errno;
	if (rc == 0)
		rc = aw_child_run_as(AW_NOBODY, AW_NOBODY, access_child, ctx, 5000, &refused);
	for (size_t i = 0; i < AW_ARRAY_SIZE(checks); i++) {
		if (refused)
			aw_skip(ctx, checks[i], "%s", aw_become_user_why(refused));
		else if (rc != 0 && !aw_reported(ctx, checks[i]))
			aw_error(ctx, checks[i], "setting up or running the child: %s",
				 rc > 0 ? "it failed" : aw_errname(rc));
	}
	if (a >= 0)
		mq_close(a);
	if (b >= 0)
		mq_close(b);
	mq_unlink("/aw_mode_0640");
	mq_unlink("/aw_mode_0604");
}

static void check_emfile(struct aw_ctx *ctx)
{
	struct rlimit old, none;

	mq_unlink(QNAME);
	if (getrlimit(RLIMIT_NOFILE, &old) != 0) {
		aw_error(ctx, "emfile_rlimit_nofile", "getrlimit: %s", aw_errname(errno));
		aw_unobserved(ctx, "emfile_leaves_queue", "getrlimit failed");
		return;
	}
	/* No descriptor at all may be opened; the soft limit goes back up
	 * afterwards, which needs no privilege. */
	none = (struct rlimit){ 0, old.rlim_max };
	int rc = setrlimit(RLIMIT_NOFILE, &none) == 0 ? 0 : -errno;
	int open_rc = rc ? rc : (int)mqu_rc(mq_open(QNAME, O_RDWR | O_CREAT, 0600, NULL));
	setrlimit(RLIMIT_NOFILE, &old);
	if (open_rc >= 0 && !rc)
		mq_close(open_rc);
	expect_errno(ctx, "emfile_rlimit_nofile", open_rc < 0 ? open_rc : 0, EMFILE,
		     "RLIMIT_NOFILE 0");
	int left = (int)mqu_rc(mq_open(QNAME, O_RDONLY));
	if (left >= 0)
		mq_close(left);
	if (open_rc == -EMFILE)
		aw_observe(ctx, "emfile_leaves_queue", "%s", left >= 0 ? "yes" : "no");
	else
		aw_unobserved(ctx, "emfile_leaves_queue", "mq_open did not fail with EMFILE");
	mq_unlink(QNAME);
}

#define RACERS 8

struct race {
	int go[2];
};

static int racer_child(void *arg)
{
	struct race *r = arg;
	char c;

	/* All start when the pipe's write end closes. */
	close(r->go[1]);
	if (read(r->go[0], &c, 1) != 0)
		return 1;
	mqd_t q = mq_open(QNAME, O_RDWR | O_CREAT | O_EXCL, 0600, &(struct mq_attr){ .mq_maxmsg = 1, .mq_msgsize = 16 });
	return q == (mqd_t)-1 ? (errno == EEXIST ? 2 : 3) : 0;
}

static void check_excl_race(struct aw_ctx *ctx)
{
	struct race r;
	pid_t pid[RACERS];
	int started = 0, won = 0, lost = 0, other = 0;

	mq_unlink(QNAME);
	if (pipe(r.go) != 0) {
		aw_error(ctx, "excl_exactly_one", "pipe: %s", aw_errname(errno));
		return;
	}
	for (; started < RACERS; started++)
		if ((pid[started] = aw_child_start(racer_child, &r)) < 0)
			break;
	close(r.go[1]);
	for (int i = 0; i < started; i++) {
		int st = aw_child_wait(pid[i], 5000);
		won += st == 0;
		lost += st == 2;
		other += st != 0 && st != 2;
	}
	close(r.go[0]);
	mq_unlink(QNAME);
	if (started < RACERS || other)
		aw_error(ctx, "excl_exactly_one", "%d of %d racers started, %d failed otherwise",
			 started, RACERS, other);
	else
		aw_expect(ctx, "excl_exactly_one", won == 1 && lost == RACERS - 1,
			  "%d created the queue, %d got EEXIST (expected 1 and %d)", won, lost,
			  RACERS - 1);
}

static void check_cloexec(struct aw_ctx *ctx)
{
	int q = mqu_open_new(QNAME, O_RDWR, 0600, &tiny);
	int fl = q < 0 ? q : fcntl(q, F_GETFD);

	if (fl < 0)
		aw_error(ctx, "closed_on_exec", "mq_open or fcntl: %s", aw_errname(q < 0 ? q : -errno));
	else
		aw_expect(ctx, "closed_on_exec", fl & FD_CLOEXEC, "F_GETFD gives %#x", fl);
	if (q >= 0)
		mq_close(q);
	mq_unlink(QNAME);
}

static void check_close(struct aw_ctx *ctx)
{
	int p[2];
	int bad = (int)mqu_rc(mq_close(-1));
	int closed = -EIO;

	if (pipe(p) == 0) {
		close(p[0]);
		close(p[1]);
		closed = (int)mqu_rc(mq_close(p[0]));
	}
	aw_expect(ctx, "close_ebadf", bad == -EBADF && closed == -EBADF,
		  "mq_close(-1): %s, of a closed descriptor: %s", aw_errname(bad), aw_errname(closed));
}

static void check_persists(struct aw_ctx *ctx)
{
	struct mq_attr a = { 0 };
	int q = mqu_open_new(QNAME, O_RDWR, 0600, &tiny);
	int rc = q < 0 ? q : mqu_send(q, "kept", 4, 1);

	if (q >= 0)
		mq_close(q);
	q = rc ? rc : (int)mqu_rc(mq_open(QNAME, O_RDONLY));
	rc = q < 0 ? q : mqu_getattr(q, &a);
	aw_expect(ctx, "persists_after_close", rc == 0 && a.mq_curmsgs == 1,
		  "reopening after mq_close: %s, mq_curmsgs %ld (expected 1)",
		  aw_errname(rc), (long)a.mq_curmsgs);
	if (q >= 0)
		mq_close(q);
	mq_unlink(QNAME);
}

static void check_unlink_open(struct aw_ctx *ctx)
{
	char buf[16];
	struct mq_attr a = { 0 };
	int q = mqu_open_new(QNAME, O_RDWR, 0600, &tiny);

	if (q < 0) {
		aw_error(ctx, "unlink_while_open", "creating %s: %s", QNAME, aw_errname(q));
		aw_error(ctx, "unlink_name_gone", "creating %s: %s", QNAME, aw_errname(q));
		return;
	}
	int rc = (int)mqu_rc(mq_unlink(QNAME));
	int send = mqu_send(q, "old", 3, 0);
	long got = mqu_recv(q, buf, sizeof(buf), NULL);
	aw_expect(ctx, "unlink_while_open", rc == 0 && send == 0 && got == 3,
		  "mq_unlink: %s; then mq_send: %s, mq_receive: %s", aw_errname(rc),
		  aw_errname(send), got < 0 ? aw_errname((int)got) : "success");
	mqu_send(q, "old", 3, 0);
	int again = (int)mqu_rc(mq_open(QNAME, O_RDWR));
	int fresh = mqu_open_new(QNAME, O_RDWR, 0600, &tiny);
	int arc = fresh < 0 ? fresh : mqu_getattr(fresh, &a);
	aw_expect(ctx, "unlink_name_gone", again == -ENOENT && arc == 0 && a.mq_curmsgs == 0,
		  "reopening without O_CREAT: %s (expected ENOENT); O_CREAT | O_EXCL: %s with "
		  "%ld messages (expected a new, empty queue)", aw_errname(again < 0 ? again : 0),
		  aw_errname(arc), (long)a.mq_curmsgs);
	if (again >= 0)
		mq_close(again);
	if (fresh >= 0)
		mq_close(fresh);
	mq_close(q);
	mq_unlink(QNAME);
}

static void names_run(struct aw_ctx *ctx)
{
	observe_formats(ctx);
	check_name_max(ctx);
	check_existence(ctx);
	check_access(ctx);
	check_emfile(ctx);
	check_excl_race(ctx);
	check_cloexec(ctx);
	check_close(ctx);
	check_persists(ctx);
	check_unlink_open(ctx);
}

static const char *const names_tags[] = {
	"posix:mq_open", "posix:mq_unlink", "posix:mq_close", "man:mq_open(3)",
	"man:mq_unlink(3)", "man:mq_overview(7)", NULL
};

const struct aw_probe mq_names_probes[] = {
	{
		.name = "names",
		.summary = "queue names, permissions, descriptors and unlinking in mq_open and mq_unlink",
		.run = names_run,
		.items = names_items,
		.needs = { .kconfig = mqu_kconfig },
		.tags = names_tags,
	},
	AW_PROBES_END,
};

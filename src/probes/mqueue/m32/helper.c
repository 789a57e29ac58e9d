// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * abiwatch-mqueue-m32: the mqueue family's 32-bit helper, built with
 * gcc -m32 -static.  On an x86_64 kernel its system calls take the
 * compat entry points, where struct mq_attr, struct sigevent, siginfo
 * and struct timespec have their 32-bit layouts; it runs the attribute,
 * send/receive, timeout, limit and notification contracts through them
 * and reports the results as lines of the probe protocol on stdout
 * (lib/wire.h), under the names the compat32 probe declares.  i386 has
 * two timed entry points of each kind, mq_timedsend (279, 32-bit time)
 * and mq_timedsend_time64 (418), and mq_timedreceive (280 and 419): the
 * timeout checks run through both, by number.
 *
 *   abiwatch-mqueue-m32 --foreign NAME:MAXMSG:MSGSIZE:CURMSGS --make NAME:MAXMSG:MSGSIZE
 *
 * --foreign names a queue the 64-bit probe made (its shape is checked
 * from here); --make names one to create here and leave for the probe.
 * It runs in the probe's namespaces and writes no sysctl.
 */
#include "lib/errname.h"
#include "lib/wire.h"
#include "probes/mqueue/mq_util.h"
/* The m32 rule builds this folder's files and the protocol's writer:
 * the family's queue helpers and the library's deadlines come in as
 * source. */
#include "lib/signals.c"
#include "probes/mqueue/mq_util.c"
#include "lib/procfs.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <mqueue.h>
#include <sched.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

/* ---- attributes ---- */

static bool attr_is(const struct mq_attr *a, long fl, long max, long size, long cur)
{
	return a->mq_flags == fl && a->mq_maxmsg == max && a->mq_msgsize == size && a->mq_curmsgs == cur;
}

static void attrs(void)
{
	struct mq_attr a = { 0 }, set = { .mq_flags = O_NONBLOCK, .mq_maxmsg = 99,
					  .mq_msgsize = 999, .mq_curmsgs = 7 };
	int q = mqu_open_new("/aw_m32_attr", O_RDWR, 0600, &(struct mqu_shape){ 4, 32 });

	aw_out_observe("sizeof_mq_attr", "%zu", sizeof(struct mq_attr));
	aw_out_observe("abi", "%s", sizeof(long) == 4 && sizeof(void *) == 4 ? "ilp32" : "other");
	int rc = q < 0 ? q : mqu_rc(mq_getattr(q, &a));
	aw_out_expect("attr.getattr_shape", rc == 0 && attr_is(&a, 0, 4, 32, 0),
		      "created 4x32: %s, {%ld, %ld, %ld, %ld}", aw_errname(rc), a.mq_flags, a.mq_maxmsg,
		      a.mq_msgsize, a.mq_curmsgs);
	rc = q < 0 ? q : mqu_rc(mq_send(q, "a", 1, 0));
	if (rc == 0)
		rc = mqu_rc(mq_send(q, "b", 1, 0));
	if (rc == 0)
		rc = mqu_rc(mq_getattr(q, &a));
	long two = a.mq_curmsgs;
	char buf[32];
	if (rc == 0)
		rc = mqu_rc(mq_receive(q, buf, sizeof(buf), NULL)) < 0 ? -EIO : 0;
	if (rc == 0)
		rc = mqu_rc(mq_getattr(q, &a));
	aw_out_expect("attr.curmsgs_tracks", rc == 0 && two == 2 && a.mq_curmsgs == 1,
		      "2 sent, then 1 received: mq_curmsgs %ld then %ld (%s)", two, a.mq_curmsgs, aw_errname(rc));
	rc = q < 0 ? q : mqu_rc(mq_setattr(q, &set, NULL));
	if (rc == 0)
		rc = mqu_rc(mq_getattr(q, &a));
	aw_out_expect("attr.setattr_only_nonblock", rc == 0 && attr_is(&a, O_NONBLOCK, 4, 32, 1),
		      "set {O_NONBLOCK, 99, 999, 7}: %s, got {%#lx, %ld, %ld, %ld}", aw_errname(rc), a.mq_flags,
		      a.mq_maxmsg, a.mq_msgsize, a.mq_curmsgs);
	if (q >= 0)
		mq_close(q);
	mq_unlink("/aw_m32_attr");
}

static void foreign(const char *spec)
{
	char name[64];
	long max, size, cur;
	struct mq_attr a = { 0 };

	if (!spec || sscanf(spec, "%63[^:]:%ld:%ld:%ld", name, &max, &size, &cur) != 4) {
		aw_out_skip("attr.foreign_shape", "no --foreign NAME:MAXMSG:MSGSIZE:CURMSGS given");
		return;
	}
	int q = mqu_rc(mq_open(name, O_RDONLY));
	int rc = q < 0 ? q : mqu_rc(mq_getattr(q, &a));
	aw_out_expect("attr.foreign_shape", rc == 0 && attr_is(&a, 0, max, size, cur),
		      "%s (made by the 64-bit probe as %ldx%ld with %ld messages): %s, {%ld, %ld, %ld, %ld}",
		      name, max, size, cur, aw_errname(rc), a.mq_flags, a.mq_maxmsg, a.mq_msgsize, a.mq_curmsgs);
	if (q >= 0)
		mq_close(q);
}

static void make(const char *spec)
{
	char name[64];
	long max, size;

	if (spec && sscanf(spec, "%63[^:]:%ld:%ld", name, &max, &size) == 3) {
		int q = mqu_open_new(name, O_RDWR, 0600, &(struct mqu_shape){ max, size });
		if (q >= 0)
			mq_close(q);
	}
}

/* ---- send and receive ---- */

static const unsigned prios[8] = { 3, 0, 7, 3, 32767, 0, 7, 1 };
/* Highest priority first, FIFO among equals: the indexes of prios. */
static const int expected[8] = { 4, 2, 6, 0, 3, 7, 1, 5 };

static void order(int q)
{
	char buf[64], want[8];
	unsigned prio;
	bool order_ok = true, fifo_ok = true;
	int rc = 0;

	for (int i = 0; i < 8 && rc == 0; i++) {
		snprintf(want, sizeof(want), "m%d", i);
		rc = mqu_rc(mq_send(q, want, strlen(want) + 1, prios[i]));
	}
	for (int k = 0; k < 8 && rc == 0; k++) {
		long n = mqu_rc(mq_receive(q, buf, sizeof(buf), &prio));
		int got = -1;
		if (n < 0 || sscanf(buf, "m%d", &got) != 1 || got < 0 || got > 7) {
			rc = n < 0 ? (int)n : -EIO;
			break;
		}
		if (got != expected[k]) {
			if (prios[got] == prios[expected[k]])
				fifo_ok = false;
			else
				order_ok = false;
		}
		if (prio != prios[got])
			order_ok = false;
	}
	aw_out_expect("sendrecv.priority_order", rc == 0 && order_ok, "%s", rc ? aw_errname(rc) :
		      "a message came out before one of higher priority, or with another priority");
	aw_out_expect("sendrecv.fifo_within_priority", rc == 0 && fifo_ok, "%s", rc ? aw_errname(rc) :
		      "messages of one priority came out of order");
	mqu_drain(q);
}

static void errors(int q)
{
	char buf[65];

	memset(buf, 'z', sizeof(buf));
	int at = mqu_rc(mq_send(q, "x", 1, 32768)), huge = mqu_rc(mq_send(q, "x", 1, UINT_MAX));
	aw_out_expect("sendrecv.einval_prio_at_max", at == -EINVAL && huge == -EINVAL,
		      "priority 32768: %s, UINT_MAX: %s", aw_errname(at), aw_errname(huge));
	int over = mqu_rc(mq_send(q, buf, 65, 0)), exact = mqu_rc(mq_send(q, buf, 64, 0));
	aw_out_expect("sendrecv.emsgsize_send", over == -EMSGSIZE && exact == 0, "65 bytes: %s, 64: %s",
		      aw_errname(over), aw_errname(exact));
	long shortbuf = mqu_rc(mq_receive(q, buf, 63, NULL));
	aw_out_expect("sendrecv.emsgsize_receive_short_buffer", shortbuf == -EMSGSIZE,
		      "a 63-byte buffer: %s", shortbuf < 0 ? aw_errname((int)shortbuf) : "success");
	mqu_drain(q);
	unsigned prio = 0;
	int zs = mqu_rc(mq_send(q, "", 0, 5));
	long zr = zs ? zs : mqu_rc(mq_receive(q, buf, 64, &prio));
	aw_out_expect("sendrecv.zero_length_message", zs == 0 && zr == 0 && prio == 5,
		      "0 bytes at priority 5: %s, received %ld bytes at %u", aw_errname(zs), zr, prio);
}

static void access_modes(void)
{
	char buf[64];
	int nb = mqu_rc(mq_open("/aw_m32_sr", O_RDWR | O_NONBLOCK));
	int ro = mqu_rc(mq_open("/aw_m32_sr", O_RDONLY)), wo = mqu_rc(mq_open("/aw_m32_sr", O_WRONLY));
	int rc = 0;

	long empty = nb < 0 ? nb : mqu_rc(mq_receive(nb, buf, sizeof(buf), NULL));
	aw_out_expect("sendrecv.eagain_receive_empty", empty == -EAGAIN, "%s", aw_errname((int)empty));
	for (int i = 0; i < 8 && rc == 0 && nb >= 0; i++)
		rc = mqu_rc(mq_send(nb, "f", 1, 0));
	int full = nb < 0 ? nb : rc ? rc : mqu_rc(mq_send(nb, "f", 1, 0));
	aw_out_expect("sendrecv.eagain_send_full", full == -EAGAIN, "%s", aw_errname(full));
	int s = ro < 0 ? ro : mqu_rc(mq_send(ro, "b", 1, 0));
	long r = wo < 0 ? wo : mqu_rc(mq_receive(wo, buf, sizeof(buf), NULL));
	aw_out_expect("sendrecv.ebadf_wrong_mode", s == -EBADF && r == -EBADF,
		      "mq_send on O_RDONLY: %s, mq_receive on O_WRONLY: %s", aw_errname(s), aw_errname((int)r));
	if (nb >= 0) {
		mqu_drain(nb);
		mq_close(nb);
	}
	if (ro >= 0)
		mq_close(ro);
	if (wo >= 0)
		mq_close(wo);
}

static void sendrecv(void)
{
	int q = mqu_open_new("/aw_m32_sr", O_RDWR, 0600, &(struct mqu_shape){ 8, 64 });

	if (q < 0) {
		static const char *const names[] = {
			"sendrecv.priority_order", "sendrecv.fifo_within_priority",
			"sendrecv.einval_prio_at_max", "sendrecv.emsgsize_send",
			"sendrecv.emsgsize_receive_short_buffer", "sendrecv.zero_length_message",
			"sendrecv.eagain_receive_empty", "sendrecv.eagain_send_full",
			"sendrecv.ebadf_wrong_mode",
		};
		for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
			aw_out_fail(names[i], "creating an 8x64 queue: %s", aw_errname(q));
		return;
	}
	order(q);
	errors(q);
	access_modes();
	mq_close(q);
	mq_unlink("/aw_m32_sr");
}

/* ---- timeouts, through both entry points ---- */

struct ts32 { int32_t tv_sec, tv_nsec; };
struct ts64 { int64_t tv_sec, tv_nsec; };

/* A deadline, to be passed as either layout. */
struct deadline {
	int64_t sec, nsec;
};

static struct deadline in_ms(long ms)
{
	struct timespec t = aw_deadline_ms(ms);
	return (struct deadline){ t.tv_sec, t.tv_nsec };
}

static bool reached(const struct deadline *d)
{
	return aw_realtime_reached(&(struct timespec){ (time_t)d->sec, (long)d->nsec });
}

/* mq_timedsend/receive through the legacy (time64 false) or the time64
 * entry point; recv: a receive into a 16-byte buffer, else a send. */
static long timed(bool time64, bool recv, int q, const struct deadline *d)
{
	char buf[16] = "t";
	long nr = time64 ? (recv ? __NR_mq_timedreceive_time64 : __NR_mq_timedsend_time64)
			 : (recv ? __NR_mq_timedreceive : __NR_mq_timedsend);
	struct ts32 t32 = { (int32_t)d->sec, (int32_t)d->nsec };
	struct ts64 t64 = { d->sec, d->nsec };
	void *t = time64 ? (void *)&t64 : (void *)&t32;

	if (recv)
		return mqu_rc(syscall(nr, q, buf, sizeof(buf), NULL, t));
	return mqu_rc(syscall(nr, q, buf, 1, 0, t));
}

static int fill(int q)
{
	int rc = 0;

	for (int i = 0; i < 2 && rc == 0; i++)
		rc = mqu_rc(mq_send(q, "f", 1, 0));
	return rc;
}

static void timed_entry(int q, bool time64)
{
	const char *ep = time64 ? "timed.time64." : "timed.legacy.";
	char name[48];
	struct deadline past = in_ms(-1000), d;

	long r = timed(time64, true, q, &past);
	int rc = fill(q);
	long s = rc ? rc : timed(time64, false, q, &past);
	mqu_drain(q);
	snprintf(name, sizeof(name), "%setimedout_past", ep);
	aw_out_expect(name, r == -ETIMEDOUT && s == -ETIMEDOUT, "deadline 1 s ago: receive %s, send %s",
		      aw_errname((int)r), aw_errname((int)s));
	d = in_ms(30);
	r = timed(time64, true, q, &d);
	bool late = reached(&d);
	snprintf(name, sizeof(name), "%setimedout_near", ep);
	aw_out_expect(name, r == -ETIMEDOUT && late, "deadline 30 ms ahead: %s, %s the deadline",
		      aw_errname((int)r), late ? "at or after" : "before");
	d = in_ms(1000);
	d.nsec = -1;
	long a = timed(time64, true, q, &d);
	d.nsec = 1000000000;
	long b = timed(time64, true, q, &d);
	snprintf(name, sizeof(name), "%seinval_nsec", ep);
	aw_out_expect(name, a == -EINVAL && b == -EINVAL, "tv_nsec -1: %s, 1000000000: %s",
		      aw_errname((int)a), aw_errname((int)b));
}

/* What only the time64 entry point can say: deadlines past 2038, and
 * the padding of a 32-bit tv_nsec in a 64-bit field. */
static void time64_only(int q)
{
	struct deadline far = { (int64_t)1 << 33, 0 };
	int nb = mqu_rc(mq_open("/aw_m32_t", O_RDONLY | O_NONBLOCK));
	int rc = mqu_rc(mq_send(q, "m", 1, 0));
	long full = rc ? rc : timed(true, true, q, &far);
	long empty = nb < 0 ? nb : timed(true, true, nb, &far);

	aw_out_expect("timed.time64.beyond_2038", full == 1 && empty == -EAGAIN,
		      "tv_sec 2^33: a waiting message %s, an empty O_NONBLOCK queue %s (expected EAGAIN)",
		      full == 1 ? "received" : aw_errname((int)full), aw_errname((int)empty));
	if (nb >= 0)
		mq_close(nb);
	mqu_drain(q);
	/* glibc's 32-bit struct timespec with 64-bit time has tv_nsec in 32
	 * bits and padding beside it: the kernel must not read the padding. */
	struct deadline pad = { 1, (int64_t)1 << 32 };
	long r = timed(true, true, q, &pad);
	if (r == -ETIMEDOUT || r == -EINVAL)
		aw_out_observe("timed.time64.nsec_padding_ignored", "%s", r == -ETIMEDOUT ? "yes" : "no");
	else
		aw_out_unobserved("timed.time64.nsec_padding_ignored", "unexpected %s", aw_errname((int)r));
}

static void timeouts(void)
{
	int q = mqu_open_new("/aw_m32_t", O_RDWR, 0600, &(struct mqu_shape){ 2, 16 });

	if (q < 0) {
		aw_out_unobserved("timed.time64.nsec_padding_ignored", "creating the queue: %s", aw_errname(q));
		return;
	}
	timed_entry(q, false);
	timed_entry(q, true);
	time64_only(q);
	mq_close(q);
	mq_unlink("/aw_m32_t");
}

/* ---- notification: struct sigevent and siginfo in their 32-bit forms ---- */

static void notification(void)
{
	sigset_t set;
	siginfo_t si;
	struct timespec wait = { 1, 0 };
	struct sigevent ev = { .sigev_notify = SIGEV_SIGNAL, .sigev_signo = SIGUSR1 };
	int q = mqu_open_new("/aw_m32_n", O_RDWR, 0600, &(struct mqu_shape){ 2, 16 });

	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	sigprocmask(SIG_BLOCK, &set, NULL);
	ev.sigev_value.sival_int = 0x5ee1;
	int rc = q < 0 ? q : mqu_rc(mq_notify(q, &ev));
	if (rc == 0)
		rc = mqu_rc(mq_send(q, "n", 1, 0));
	memset(&si, 0, sizeof(si));
	int got = rc ? rc : sigtimedwait(&set, &si, &wait) == SIGUSR1 ? 1 : -errno;
	aw_out_expect("notify.signal", got == 1 && si.si_code == SI_MESGQ &&
		      si.si_value.sival_int == 0x5ee1 && si.si_pid == getpid(),
		      "%s; si_code %d (SI_MESGQ %d), si_value %#x, si_pid %d (self %d)",
		      got == 1 ? "SIGUSR1 came" : aw_errname(got), si.si_code, SI_MESGQ,
		      si.si_value.sival_int, (int)si.si_pid, (int)getpid());
	if (q >= 0)
		mq_close(q);
	mq_unlink("/aw_m32_n");
}

/* ---- limits ---- */

static bool holds_sys_resource(void)
{
	FILE *f = fopen("/proc/self/status", "r");
	char line[256];
	unsigned long long eff = 0;

	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "CapEff: %llx", &eff) == 1)
			break;
	if (f)
		fclose(f);
	return eff & (1ULL << 24); /* CAP_SYS_RESOURCE */
}

static int try_shape(long maxmsg, long msgsize)
{
	return mqu_try_create("/aw_m32_lim", &(struct mqu_shape){ maxmsg, msgsize }, NULL);
}

static void limits(void)
{
	struct mq_attr a = { 0 };
	long long msg_max = -1;
	aw_sysctl_read_ll("fs.mqueue.msg_max", &msg_max);
	int q = mqu_open_new("/aw_m32_lim", O_RDWR, 0600, NULL);
	int rc = q < 0 ? q : mqu_rc(mq_getattr(q, &a));

	if (rc == 0) {
		aw_out_observe("limits.noattr.maxmsg", "%ld", a.mq_maxmsg);
		aw_out_observe("limits.noattr.msgsize", "%ld", a.mq_msgsize);
	} else {
		aw_out_unobserved("limits.noattr.maxmsg", "mq_open(attr NULL): %s", aw_errname(rc));
		aw_out_unobserved("limits.noattr.msgsize", "mq_open(attr NULL): %s", aw_errname(rc));
	}
	if (q >= 0)
		mq_close(q);
	mq_unlink("/aw_m32_lim");
	if (holds_sys_resource())
		aw_out_skip("limits.einval_above_msg_max", "the helper holds CAP_SYS_RESOURCE");
	else if (msg_max <= 0)
		aw_out_skip("limits.einval_above_msg_max", "cannot read /proc/sys/fs/mqueue/msg_max");
	else
		aw_out_expect("limits.einval_above_msg_max", try_shape(msg_max + 1, 128) == -EINVAL,
			      "maxmsg %lld (msg_max + 1): %s", msg_max + 1, aw_errname(try_shape(msg_max + 1, 128)));
	rc = mqu_rlimit_set_soft(8192);
	int big = rc ? rc : try_shape(2, 8192);
	mqu_rlimit_restore_soft();
	aw_out_expect("limits.emfile_beyond_rlimit", big == -EMFILE,
		      "2x8192 with RLIMIT_MSGQUEUE 8192: %s", aw_errname(big));
}

/* Last: it leaves the helper in a user namespace of its own, whose
 * ucounts start at 0, so the search finds the charge alone. */
static void charge(void)
{
	struct rlimit rl;
	long lo = 0, hi = 1 << 20;

	if (getrlimit(RLIMIT_MSGQUEUE, &rl) == 0 && rl.rlim_max < (rlim_t)hi)
		hi = (long)rl.rlim_max;
	if (unshare(CLONE_NEWUSER) != 0) {
		aw_out_unobserved("limits.charge.1x128", "unshare(CLONE_NEWUSER): %s", aw_errname(-errno));
		return;
	}
	if (mqu_rlimit_set_soft((rlim_t)hi) != 0 || try_shape(1, 128) != 0) {
		aw_out_unobserved("limits.charge.1x128", "no 1x128 queue even with %ld bytes", hi);
		mqu_rlimit_restore_soft();
		return;
	}
	while (lo < hi) {
		long mid = lo + (hi - lo) / 2;
		int rc = mqu_rlimit_set_soft((rlim_t)mid);
		rc = rc ? rc : try_shape(1, 128);
		if (rc == 0)
			hi = mid;
		else if (rc == -EMFILE)
			lo = mid + 1;
		else
			break;
	}
	mqu_rlimit_restore_soft();
	if (lo == hi)
		aw_out_observe("limits.charge.1x128", "%ld", hi);
	else
		aw_out_unobserved("limits.charge.1x128", "the search failed");
}

static const char *arg_after(int argc, char **argv, const char *opt)
{
	for (int i = 1; i + 1 < argc; i++)
		if (strcmp(argv[i], opt) == 0)
			return argv[i + 1];
	return NULL;
}

int main(int argc, char **argv)
{
	aw_helper_hello(argc, argv);

	attrs();
	foreign(arg_after(argc, argv, "--foreign"));
	make(arg_after(argc, argv, "--make"));
	sendrecv();
	timeouts();
	notification();
	limits();
	charge();
	return 0;
}

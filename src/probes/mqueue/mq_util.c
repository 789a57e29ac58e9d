// SPDX-License-Identifier: GPL-2.0-or-later
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "mq_util.h"

#include <errno.h>
#include <fcntl.h>
#include <mqueue.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/netlink.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

const char *const mqu_kconfig[] = { "CONFIG_POSIX_MQUEUE", "CONFIG_POSIX_MQUEUE_SYSCTL",
				    "CONFIG_IPC_NS", NULL };

static int open_queue(const char *name, const struct mqu_shape *shape, mqd_t *q)
{
	struct mq_attr attr = { 0 };

	if (shape) {
		attr.mq_maxmsg = shape->maxmsg;
		attr.mq_msgsize = shape->msgsize;
	}
	*q = mq_open(name, O_RDWR | O_CREAT | O_EXCL, 0600, shape ? &attr : NULL);
	return *q == (mqd_t)-1 ? -errno : 0;
}

int mqu_try_create(const char *name, const struct mqu_shape *shape,
		   struct mqu_shape *got)
{
	struct mq_attr attr;
	mqd_t q;
	int rc = open_queue(name, shape, &q);

	if (rc)
		return rc;
	if (got && mq_getattr(q, &attr) == 0) {
		got->maxmsg = attr.mq_maxmsg;
		got->msgsize = attr.mq_msgsize;
	}
	/* Close before unlink: the last reference going frees the queue and
	 * returns its charge at once, before the next attempt. */
	mq_close(q);
	mq_unlink(name);
	return 0;
}

int mqu_create_kept(const char *name, const struct mqu_shape *shape)
{
	mqd_t q;
	int rc = open_queue(name, shape, &q);

	if (rc == 0)
		mq_close(q);
	return rc;
}

int mqu_open_new(const char *name, int oflag, mode_t mode, const struct mqu_shape *shape)
{
	struct mq_attr attr = { 0 };

	if (shape) {
		attr.mq_maxmsg = shape->maxmsg;
		attr.mq_msgsize = shape->msgsize;
	}
	mq_unlink(name);
	mqd_t q = mq_open(name, oflag | O_CREAT | O_EXCL, mode, shape ? &attr : NULL);
	return q == (mqd_t)-1 ? -errno : q;
}

int mqu_getattr(mqd_t q, struct mq_attr *a)
{
	return (int)mqu_rc(mq_getattr(q, a));
}

int mqu_send(mqd_t q, const char *msg, size_t len, unsigned prio)
{
	char fill[256];

	if (!msg) {
		if (len > sizeof(fill))
			return -EINVAL;
		memset(fill, 'x', len);
		msg = fill;
	}
	return (int)mqu_rc(mq_send(q, msg, len, prio));
}

long mqu_recv(mqd_t q, char *buf, size_t len, unsigned *prio)
{
	return mqu_rc(mq_receive(q, buf, len, prio));
}

void mqu_drain(mqd_t q)
{
	const struct timespec past = { 0, 0 };
	struct mq_attr a;

	if (mq_getattr(q, &a) != 0 || a.mq_msgsize <= 0)
		return;
	char *buf = malloc((size_t)a.mq_msgsize);
	if (!buf)
		return;
	/* A deadline in the past: never blocks, whatever O_NONBLOCK says. */
	while (mq_timedreceive(q, buf, (size_t)a.mq_msgsize, NULL, &past) >= 0)
		;
	free(buf);
}

int mqu_rlimit_get(struct rlimit *rl)
{
	return getrlimit(RLIMIT_MSGQUEUE, rl) == 0 ? 0 : -errno;
}

int mqu_rlimit_set_soft(rlim_t soft)
{
	struct rlimit rl;
	int rc = mqu_rlimit_get(&rl);

	if (rc)
		return rc;
	rl.rlim_cur = soft;
	return setrlimit(RLIMIT_MSGQUEUE, &rl) == 0 ? 0 : -errno;
}

int mqu_rlimit_restore_soft(void)
{
	struct rlimit rl;
	int rc = mqu_rlimit_get(&rl);

	return rc ? rc : mqu_rlimit_set_soft(rl.rlim_max);
}

int mqu_first_true(long long lo, long long hi, mqu_pred_fn pred, void *arg,
		   long long *out)
{
	int rc;

	if (lo > hi)
		return -EINVAL;
	rc = pred(hi, arg);
	if (rc <= 0)
		return rc < 0 ? rc : 1;
	/* Invariant: pred(hi) holds, and nothing below lo does. */
	while (lo < hi) {
		/* Unsigned difference: hi - lo may not fit a long long. */
		long long mid = lo + (long long)(((unsigned long long)hi -
						  (unsigned long long)lo) / 2);
		rc = pred(mid, arg);
		if (rc < 0)
			return rc;
		if (rc)
			hi = mid;
		else
			lo = mid + 1;
	}
	*out = hi;
	return 0;
}

bool mqu_fit_linear(const struct mqu_charge *c, size_t n, long long *overhead)
{
	if (n == 0 || c[0].shape.maxmsg <= 0)
		return false;
	long long payload = (long long)c[0].shape.maxmsg * c[0].shape.msgsize;
	long long o = (c[0].bytes - payload) / c[0].shape.maxmsg;
	*overhead = o;
	for (size_t i = 0; i < n; i++) {
		const struct mqu_shape *s = &c[i].shape;
		if (s->maxmsg <= 0 || c[i].bytes != (long long)s->maxmsg * (s->msgsize + o))
			return false;
	}
	return true;
}

long long mqu_formula_charge(const struct mqu_shape *s, long long msg_size,
			     long long node_size)
{
	long long nodes = s->maxmsg < MQU_MQ_PRIO_MAX ? s->maxmsg : MQU_MQ_PRIO_MAX;
	return (long long)s->maxmsg * msg_size + nodes * node_size +
	       (long long)s->maxmsg * s->msgsize;
}

bool mqu_shape_eq(const struct mqu_shape *a, const struct mqu_shape *b)
{
	return a->maxmsg == b->maxmsg && a->msgsize == b->msgsize;
}

enum mqu_source mqu_classify_source(const struct mqu_shape *fresh,
				    const struct mqu_trial *defaults_lowered,
				    const struct mqu_trial *maxima_raised)
{
	/* Following the default knobs settles it: only >= 3.5 has them. */
	if (defaults_lowered && defaults_lowered->done &&
	    mqu_shape_eq(&defaults_lowered->got, &defaults_lowered->set))
		return MQU_SRC_DEFAULT_KNOBS;
	if (!maxima_raised || !maxima_raised->done)
		return MQU_SRC_OTHER;
	if (mqu_shape_eq(&maxima_raised->got, &maxima_raised->set))
		return MQU_SRC_MAXIMA;
	/* Neither knob moved it, so it is a constant, unless a lowered
	 * default did move it, but not to what was set. */
	if (mqu_shape_eq(&maxima_raised->got, fresh) &&
	    !(defaults_lowered && defaults_lowered->done &&
	      !mqu_shape_eq(&defaults_lowered->got, fresh)))
		return MQU_SRC_FIXED;
	return MQU_SRC_OTHER;
}

const char *mqu_source_name(enum mqu_source s)
{
	switch (s) {
	case MQU_SRC_DEFAULT_KNOBS: return "default_knobs";
	case MQU_SRC_MAXIMA: return "maxima";
	case MQU_SRC_FIXED: return "fixed";
	case MQU_SRC_OTHER: break;
	}
	return "other";
}

/* "LABEL:" then a decimal, then at least one space (or, for the last
 * field, spaces and the final newline).  Advances *p. */
static int mqfs_field(const char **p, const char *end, const char *label,
		      unsigned long long *v, bool last)
{
	size_t n = strlen(label);
	const char *q = *p;

	if ((size_t)(end - q) < n || memcmp(q, label, n) != 0)
		return -EINVAL;
	q += n;
	if (q == end || *q < '0' || *q > '9')
		return -EINVAL;
	unsigned long long x = 0;
	for (; q < end && *q >= '0' && *q <= '9'; q++) {
		if (x > (~0ULL - 9) / 10)
			return -EINVAL;
		x = x * 10 + (unsigned)(*q - '0');
	}
	const char *sp = q;
	while (q < end && *q == ' ')
		q++;
	if (last) {
		if (q + 1 != end || *q != '\n')
			return -EINVAL;
		q++;
	} else if (q == sp) {
		return -EINVAL;
	}
	*v = x;
	*p = q;
	return 0;
}

int mqu_parse_mqfs(const char *text, size_t len, struct mqu_mqfs *out)
{
	static const char *const labels[] = { "QSIZE:", "NOTIFY:", "SIGNO:", "NOTIFY_PID:" };
	unsigned long long v[4];
	const char *p = text, *end = text + len;

	if (!text)
		return -EINVAL;
	for (size_t i = 0; i < 4; i++)
		if (mqfs_field(&p, end, labels[i], &v[i], i == 3) != 0)
			return -EINVAL;
	for (size_t i = 1; i < 4; i++)
		if (v[i] > 0x7fffffffULL)
			return -EINVAL;
	out->qsize = (unsigned long)v[0];
	out->notify = (int)v[1];
	out->signo = (int)v[2];
	out->notify_pid = (int)v[3];
	return 0;
}

void mqu_format_mqfs(const struct mqu_mqfs *m, char *buf, size_t len)
{
	snprintf(buf, len, "QSIZE:%lu NOTIFY:%d SIGNO:%d NOTIFY_PID:%d",
		 m->qsize, m->notify, m->signo, m->notify_pid);
}

const char *mqu_poll_names(unsigned events, char *buf, size_t len)
{
	static const struct { unsigned bit; const char *name; } bits[] = {
		{ POLLIN, "POLLIN" }, { POLLPRI, "POLLPRI" }, { POLLOUT, "POLLOUT" },
		{ POLLERR, "POLLERR" }, { POLLHUP, "POLLHUP" }, { POLLNVAL, "POLLNVAL" },
		{ POLLRDNORM, "POLLRDNORM" }, { POLLRDBAND, "POLLRDBAND" },
		{ POLLWRNORM, "POLLWRNORM" }, { POLLWRBAND, "POLLWRBAND" },
	};
	size_t used = 0;

	if (len == 0)
		return buf;
	buf[0] = '\0';
	if (events == 0) {
		snprintf(buf, len, "0");
		return buf;
	}
	for (size_t i = 0; i < AW_ARRAY_SIZE(bits); i++) {
		if (!(events & bits[i].bit))
			continue;
		events &= ~bits[i].bit;
		int n = snprintf(buf + used, len - used, "%s%s", used ? "|" : "", bits[i].name);
		if (n < 0 || (size_t)n >= len - used)
			return buf;
		used += (size_t)n;
	}
	if (events)
		snprintf(buf + used, len - used, "%s0x%x", used ? "|" : "", events);
	return buf;
}

void mqu_expected_order(const unsigned *prio, size_t n, size_t *order)
{
	/* Insertion sort: stable, and n is a handful. */
	for (size_t i = 0; i < n; i++) {
		size_t j = i;
		while (j > 0 && prio[order[j - 1]] < prio[i]) {
			order[j] = order[j - 1];
			j--;
		}
		order[j] = i;
	}
}

int mqu_notify_netlink(mqd_t q)
{
	static char cookie[32]; /* NOTIFY_COOKIE_LEN, include/uapi/linux/mqueue.h */
	struct sigevent ev;
	int sock = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_ROUTE);

	if (sock < 0)
		return -errno;
	memset(&ev, 0, sizeof(ev));
	ev.sigev_notify = SIGEV_THREAD;
	ev.sigev_signo = sock;
	ev.sigev_value.sival_ptr = cookie;
	if (syscall(SYS_mq_notify, q, &ev) != 0) {
		int rc = -errno;
		close(sock);
		return rc;
	}
	return sock;
}

/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Helpers the mqueue probes share: queue creation that leaves nothing
 * behind, RLIMIT_MSGQUEUE handling, notification through netlink, and
 * the pure logic (searches, formula fitting, classification, parsers)
 * the unit tests exercise without a kernel.  Children, identities,
 * signals and errno names come from the probe library (src/lib/). */
#ifndef ABIWATCH_MQ_UTIL_H
#define ABIWATCH_MQ_UTIL_H

#include "core/probe.h"
#include "lib/child.h"
#include "lib/errname.h"
#include "lib/signals.h"
#include "lib/util.h"

#include <errno.h>
#include <mqueue.h>
#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/resource.h>
#include <sys/types.h>
#include <time.h>

/* Compiled-in values of current kernels (include/linux/ipc_namespace.h),
 * as documented in mq_overview(7); probes compare against these. */
#define MQU_DFLT_MSG         10
#define MQU_DFLT_MSGSIZE     8192
#define MQU_DFLT_QUEUESMAX   256
#define MQU_HARD_MSGMAX      65536
#define MQU_HARD_MSGSIZEMAX  (16 * 1024 * 1024)
#define MQU_MQ_PRIO_MAX      32768

/* How long a probe waits for a child to block, end or answer: a bound
 * against a kernel that never does, taking milliseconds otherwise.  Wide,
 * so that a machine under load or valgrind's memcheck cannot reach it. */
#define MQU_BOUND_MS 5000

#define MQU_KNOB_MSG_MAX         "fs/mqueue/msg_max"
#define MQU_KNOB_MSGSIZE_MAX     "fs/mqueue/msgsize_max"
#define MQU_KNOB_MSG_DEFAULT     "fs/mqueue/msg_default"
#define MQU_KNOB_MSGSIZE_DEFAULT "fs/mqueue/msgsize_default"
#define MQU_KNOB_QUEUES_MAX      "fs/mqueue/queues_max"

/* Each probe file's table, for family.c. */
extern const struct aw_probe mq_noattr_probes[], mq_attr_probes[], mq_rlimit_probes[],
	mq_sysctl_probes[], mq_queues_max_probes[], mq_privileged_probes[],
	mq_names_probes[], mq_sendrecv_probes[], mq_timed_probes[], mq_getsetattr_probes[],
	mq_notify_probes[], mq_notifyreg_probes[], mq_poll_probes[], mq_mqueuefs_probes[],
	mq_ipcns_probes[], mq_userns_probes[], mq_compat32_probes[];

/* The kconfig list most probes declare. */
extern const char *const mqu_kconfig[];

/* The shape of a queue. */
struct mqu_shape {
	long maxmsg;
	long msgsize;
};

/* ---- queues ---- */

/* Create name (O_CREAT|O_EXCL) with the shape, or the kernel's defaults
 * when shape is NULL; read its attributes back into *got (may be NULL);
 * close and unlink it, so that neither its charge nor its slot in
 * queues_max outlives the call.  0 or -errno of mq_open(). */
int mqu_try_create(const char *name, const struct mqu_shape *shape,
		   struct mqu_shape *got);
/* As above but the queue stays (closed, not unlinked): it keeps counting
 * against queues_max and RLIMIT_MSGQUEUE until the namespace dies. */
int mqu_create_kept(const char *name, const struct mqu_shape *shape);
/* mq_open(name, oflag | O_CREAT | O_EXCL, mode, shape or NULL), after
 * unlinking any leftover of that name: the descriptor (an int on Linux),
 * or -errno. */
int mqu_open_new(const char *name, int oflag, mode_t mode, const struct mqu_shape *shape);
/* mq_getattr(): 0 or -errno. */
int mqu_getattr(mqd_t q, struct mq_attr *a);
/* 0 (or a length) from a call that returns -1 and sets errno, or -errno. */
static inline long mqu_rc(long r)
{
	return r < 0 ? -errno : r;
}
/* Send len bytes of 'x' (or msg when not NULL) at prio: 0 or -errno. */
int mqu_send(mqd_t q, const char *msg, size_t len, unsigned prio);
/* Receive into a buffer of len bytes: the message length or -errno. */
long mqu_recv(mqd_t q, char *buf, size_t len, unsigned *prio);
/* Receive and discard every message, never blocking (a deadline in the
 * past), whatever O_NONBLOCK says. */
void mqu_drain(mqd_t q);

/* ---- RLIMIT_MSGQUEUE ---- */

int mqu_rlimit_get(struct rlimit *rl);          /* 0 or -errno */
int mqu_rlimit_set_soft(rlim_t soft);           /* keeps the hard limit */
int mqu_rlimit_restore_soft(void);              /* soft = hard */

/* ---- notification ---- */

/* Register for SIGEV_THREAD the way the kernel sees it: a netlink socket
 * in sigev_signo and a NOTIFY_COOKIE_LEN cookie in sigev_value (the C
 * library's SIGEV_THREAD is built on this).  The socket (to be closed by
 * the caller after mq_notify(q, NULL)) or -errno. */
int mqu_notify_netlink(mqd_t q);

/* ---- pure logic ---- */

/* A predicate over integers: 1 true, 0 false, < 0 a -errno. */
typedef int (*mqu_pred_fn)(long long x, void *arg);

/* The smallest x in [lo, hi] for which pred holds, pred being false
 * below some point and true from there on.  0 with *out set; 1 when
 * pred(hi) is false (no such x); the predicate's -errno if it failed;
 * -EINVAL when lo > hi.  Calls pred O(log(hi - lo)) times. */
int mqu_first_true(long long lo, long long hi, mqu_pred_fn pred, void *arg,
		   long long *out);

/* One measured RLIMIT_MSGQUEUE charge. */
struct mqu_charge {
	struct mqu_shape shape;
	long long bytes;
};

/* Fit bytes = maxmsg * (msgsize + overhead): *overhead is taken from
 * c[0] ((bytes - payload) / maxmsg, rounded down); returns true when
 * every c[i] matches it exactly.  false (with *overhead still set when
 * n > 0) otherwise, including n == 0 or a non-positive maxmsg. */
bool mqu_fit_linear(const struct mqu_charge *c, size_t n, long long *overhead);

/* The charge the >= 3.5 formula (getrlimit(2)) gives for a shape, with
 * the per-message and per-priority-node sizes of a kernel. */
long long mqu_formula_charge(const struct mqu_shape *s, long long msg_size,
			     long long node_size);

/* Which settings a queue created with attr NULL takes its shape from. */
enum mqu_source {
	MQU_SRC_DEFAULT_KNOBS, /* msg_default/msgsize_default (>= 3.5) */
	MQU_SRC_MAXIMA,        /* msg_max/msgsize_max (2.6.28 - 3.4) */
	MQU_SRC_FIXED,         /* compiled-in constants (< 2.6.28) */
	MQU_SRC_OTHER,
};

/* One experiment: knobs set to `set`, a queue with attr NULL got `got`. */
struct mqu_trial {
	bool done; /* false: not made (no such knob, or it failed) */
	struct mqu_shape set;
	struct mqu_shape got;
};

/* Decide the source from the fresh namespace's queue and two trials:
 * the default knobs moved below the maxima, and the maxima moved above
 * the fresh shape (defaults left alone). */
enum mqu_source mqu_classify_source(const struct mqu_shape *fresh,
				    const struct mqu_trial *defaults_lowered,
				    const struct mqu_trial *maxima_raised);
const char *mqu_source_name(enum mqu_source s);

bool mqu_shape_eq(const struct mqu_shape *a, const struct mqu_shape *b);

/* A file of the mqueue filesystem: "QSIZE:%-10lu NOTIFY:%-5d SIGNO:%-5d
 * NOTIFY_PID:%-6d\n" (ipc/mqueue.c, mq_overview(7)). */
struct mqu_mqfs {
	unsigned long qsize;
	int notify, signo, notify_pid;
};
/* Parse the text read from such a file (len bytes, no NUL needed):
 * exactly the four fields in order, each a decimal after its label and
 * followed by spaces, the last by a newline that ends the text.  0, or
 * -EINVAL. */
int mqu_parse_mqfs(const char *text, size_t len, struct mqu_mqfs *out);
/* "QSIZE:12 NOTIFY:0 SIGNO:10 NOTIFY_PID:2": the fields, single-spaced. */
void mqu_format_mqfs(const struct mqu_mqfs *m, char *buf, size_t len);

/* poll(2) event bits as names joined by '|' ("POLLIN|POLLRDNORM"), "0"
 * for none; unknown bits as hex. */
const char *mqu_poll_names(unsigned events, char *buf, size_t len);

/* The order in which a queue must return n messages sent with prio[i]
 * (highest priority first, FIFO among equals): order[k] is the index of
 * the k-th message to come out. */
void mqu_expected_order(const unsigned *prio, size_t n, size_t *order);

/* ---- eras (eras.c) ---- */

/* An observed value and the documented behaviour it belongs to. */
struct mqu_era {
	const char *value;
	const char *era;
};
extern const struct mqu_era mqu_noattr_eras[], mqu_charge_eras[], mqu_qsize_eras[],
	mqu_ceiling_eras[];
/* The era of value, or NULL when the history knows no such behaviour. */
const char *mqu_era_of(const struct mqu_era *table, const char *value);
/* Observe the era of value as obs ("none_known (...)" when there is none). */
void mqu_observe_era(struct aw_ctx *ctx, const char *obs, const struct mqu_era *table,
		     const char *value);

#endif

/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Helpers the mqueue probes share: queue creation that leaves nothing
 * behind, RLIMIT_MSGQUEUE and capability handling, errno names, child
 * processes with another identity or in new namespaces (mq_proc.c),
 * signals and deadlines, and the pure logic (searches, formula fitting,
 * classification, parsers) the unit tests exercise without a kernel. */
#ifndef ABIWATCH_MQ_UTIL_H
#define ABIWATCH_MQ_UTIL_H

#include "core/probe.h"
#include "lib/errname.h"

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

/* An unprivileged identity for the probes' children (nobody on Debian),
 * and a second one for "another user". */
#define MQU_NOBODY   65534
#define MQU_NOBODY2  65533

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

/* ---- child processes (mq_proc.c) ---- */

/* A child runs fn(arg) and _exits with its return value (0..255); it is
 * killed with the probe (PR_SET_PDEATHSIG).  A child must not call the
 * aw_* reporting functions: results go back through its exit status or
 * memory from mqu_shared_alloc(). */
typedef int (*mqu_child_fn)(void *arg);
/* The child's pid, or -errno. */
pid_t mqu_child_start(mqu_child_fn fn, void *arg);
/* Wait up to timeout_ms: the exit status (0..255), 128 + N when killed
 * by signal N, -ETIMEDOUT (then it is killed and reaped), or -errno. */
int mqu_child_wait(pid_t pid, int timeout_ms);
/* Start and wait. */
int mqu_child_run(mqu_child_fn fn, void *arg, int timeout_ms);
/* Zeroed memory shared with children forked afterwards; NULL on failure. */
void *mqu_shared_alloc(size_t size);
void mqu_shared_free(void *p, size_t size);

/* Become ruid/euid (and the gid of the same numbers) for real, effective
 * and saved ids, with no supplementary groups.  Leaving uid 0 this way
 * clears every capability.  The process stays dumpable, so that its
 * /proc/self files (uid_map) remain its own.  0 or -errno (-EINVAL: the
 * id is not mapped in this user namespace). */
int mqu_become_user(uid_t ruid, uid_t euid);
/* unshare(CLONE_NEWUSER | extra_flags) and map uid and gid 0 of the new
 * namespace to the caller's effective ids.  0 or -errno. */
int mqu_enter_userns(int extra_flags);
/* Why a child could not become MQU_NOBODY: a message for a skip. */
const char *mqu_become_user_why(int rc);
/* In a child: mqu_become_user(), or _exit(MQU_EXIT_BECOME + errno). */
#define MQU_EXIT_BECOME 64
void mqu_child_become(uid_t ruid, uid_t euid);
/* The -errno of a child that ended that way, or 0. */
int mqu_become_failed(int status);

/* Wait up to timeout_ms until pid sleeps in system call nr (from
 * /proc/PID/syscall).  0, -ETIMEDOUT, or -errno. */
int mqu_wait_blocked(pid_t pid, long nr, int timeout_ms);

/* ---- signals and time (mq_proc.c) ---- */

/* Block sig, so that a notification stays pending for mqu_wait_signal(). */
int mqu_block_signal(int sig);
/* Wait up to ms for the blocked sig: 1 with *si set, 0 when it did not
 * come, -errno. */
int mqu_wait_signal(int sig, int ms, siginfo_t *si);
/* Discard every pending instance of the blocked sig. */
void mqu_flush_signal(int sig);
/* An absolute CLOCK_REALTIME deadline ms from now (negative: in the past). */
struct timespec mqu_deadline_ms(long ms);
/* CLOCK_REALTIME now is at or past t. */
bool mqu_realtime_reached(const struct timespec *t);
void mqu_sleep_ms(long ms);
/* A handler counting its calls in mqu_signal_count, installed with
 * sigaction() and the given flags (0 or SA_RESTART). */
extern volatile sig_atomic_t mqu_signal_count;
int mqu_count_signal(int sig, int flags);
/* Deliver SIGALRM every ms, the first after ms (setitimer), so that one
 * lands while a call blocks however late the call starts; 0 or -errno. */
int mqu_alarm_ms(long ms);
/* Stop it. */
void mqu_alarm_cancel(void);

/* ---- notification ---- */

/* Register for SIGEV_THREAD the way the kernel sees it: a netlink socket
 * in sigev_signo and a NOTIFY_COOKIE_LEN cookie in sigev_value (the C
 * library's SIGEV_THREAD is built on this).  The socket (to be closed by
 * the caller after mq_notify(q, NULL)) or -errno. */
int mqu_notify_netlink(mqd_t q);

/* ---- reporting ---- */

/* Report an observation from a 0/-errno result: the value, or why not. */
void mqu_observe_rc(struct aw_ctx *ctx, const char *obs, int rc, long long value,
		    const char *what);

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

/* The system call number in the text of /proc/PID/syscall: 0 with *nr,
 * -EAGAIN when the task is "running" (not in a call), -EINVAL otherwise. */
int mqu_parse_proc_syscall(const char *text, long *nr);

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

// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * User namespaces and message queues, seen from unprivileged children
 * (uid 65534 with no capabilities, or root of a user namespace they made
 * and mapped themselves):
 *
 *  - who may write fs.mqueue.*: root of the user namespace that owns the
 *    IPC namespace (recent kernels give the files to that root; before,
 *    only the initial namespace's root could), not root of another one;
 *  - RLIMIT_MSGQUEUE is charged to the real uid (getrlimit(2)), across
 *    processes; since 5.14 (6e52a9f0532f) in ucounts, per user namespace
 *    and uid, each level held to the creator's limit at unshare time.
 *
 * The charged queues are 1 x 8192: one fits in a soft limit of 12000
 * bytes and two do not, whatever the per-message overhead (< 3800 bytes).
 */
#include "mq_util.h"
#include "lib/procfs.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <sys/resource.h>
#include <sys/stat.h>

#define HELD_Q "/aw_userns_held"
#define TRY_Q "/aw_userns_try"
#define ONE_FITS 12000

static const struct aw_item userns_items[] = {
	AW_OBS_ITEM("owner_root_writes_sysctl", "yes when root of a user namespace owning a new IPC namespace can write its fs.mqueue.msg_max, else the errno"),
	AW_OBS_ITEM("sysctl_owner_seen", "the uid that fs.mqueue.msg_max belongs to, seen from there"),
	AW_OBS_ITEM("nonowner_root_writes_sysctl", "yes when root of a new user namespace can write msg_max of an IPC namespace it does not own, else the errno"),
	AW_OBS_ITEM("unprivileged_writes_sysctl", "yes when uid 65534 without capabilities can write msg_max, else the errno"),
	AW_CHECK_ITEM("rlimit_per_uid", "a queue of uid 65534 counts against another process of that uid, not against another uid"),
	AW_CHECK_ITEM("rlimit_charged_to_real_uid", "RLIMIT_MSGQUEUE is charged to the real uid, not the effective one"),
	AW_OBS_ITEM("fresh_userns_counts_from_zero", "yes when a new user namespace does not count the uid's queues from outside it"),
	AW_OBS_ITEM("creator_limit_binds", "yes when the creator's soft limit at unshare time still bounds the uid's total from inside"),
	AW_ITEMS_END
};

enum action { ACT_HOLD, ACT_TRY, ACT_SYSCTL };
enum stage { ST_BECOME = 1, ST_RLIMIT, ST_UNSHARE, ST_ACTION };

/* What a child does, and what came of it (in shared memory). */
struct plan {
	struct aw_ctx *ctx;
	uid_t ruid, euid;
	long long soft_before; /* RLIMIT_MSGQUEUE soft limit before unshare; -1: keep */
	int unshare;           /* 0, or CLONE_NEWUSER with CLONE_NEWIPC or not */
	long long soft_after;  /* -1: keep; -2: the hard limit */
	enum action action;
	int failed_stage;      /* 0, or the enum stage that failed */
	int rc;                /* the failure, or the action's result */
	long long value;       /* ACT_SYSCTL: msg_max read back */
	long long owner;       /* ACT_SYSCTL: the knob file's uid as seen */
};

static const struct mqu_shape charged = { 1, 8192 };

/* The soft RLIMIT_MSGQUEUE: -1 keeps it, -2 raises it to the hard one. */
static int set_soft(long long soft)
{
	return soft == -1 ? 0 : soft == -2 ? mqu_rlimit_restore_soft()
					   : mqu_rlimit_set_soft((rlim_t)soft);
}

static int act(struct plan *p)
{
	struct stat st;

	switch (p->action) {
	case ACT_HOLD:
		return mqu_create_kept(HELD_Q, &charged);
	case ACT_TRY:
		return mqu_try_create(TRY_Q, &charged, NULL);
	case ACT_SYSCTL:
		p->owner = stat("/proc/sys/" MQU_KNOB_MSG_MAX, &st) == 0 ? (long long)st.st_uid : -1;
		int rc = aw_sysctl_write_ll(p->ctx, MQU_KNOB_MSG_MAX, 20);
		if (rc == 0 && aw_sysctl_read_ll(MQU_KNOB_MSG_MAX, &p->value) != 0)
			p->value = -1;
		return rc;
	}
	return -EINVAL;
}

static int plan_child(void *arg)
{
	struct plan *p = arg;

	p->failed_stage = ST_BECOME;
	if (p->ruid && (p->rc = aw_become_user(p->ruid, p->euid)) != 0)
		return 1;
	p->failed_stage = ST_RLIMIT;
	if ((p->rc = set_soft(p->soft_before)) != 0)
		return 1;
	p->failed_stage = ST_UNSHARE;
	if (p->unshare && (p->rc = aw_enter_userns(p->unshare & ~CLONE_NEWUSER)) != 0)
		return 1;
	p->failed_stage = ST_RLIMIT;
	if ((p->rc = set_soft(p->soft_after)) != 0)
		return 1;
	p->failed_stage = 0;
	p->rc = act(p);
	return 0;
}

/* Run the plan in a child; 0 when it got as far as its action. */
static int run_plan(struct plan *shared, const struct plan *plan)
{
	*shared = *plan;
	int status = aw_child_run(plan_child, shared, 5000);
	if (status < 0)
		return status;
	return shared->failed_stage ? -EIO : 0;
}

static const char *plan_failure(const struct plan *p)
{
	static __thread char buf[200];

	if (p->failed_stage == ST_BECOME)
		return aw_become_user_why(p->rc);
	snprintf(buf, sizeof(buf), "%s failed: %s", p->failed_stage == ST_RLIMIT ? "setrlimit" :
		 p->failed_stage == ST_UNSHARE ? "unshare(CLONE_NEWUSER) with its id maps" :
		 "the child", aw_errname(p->rc));
	return buf;
}

/* An observation the plan did not get to make: the machine's doing
 * (cause userns) when it refused the user namespace, else why, or
 * otherwise when the plan failed at no stage. */
static void unobserved_after(struct aw_ctx *ctx, const char *obs, const struct plan *sh,
			     const char *otherwise)
{
	bool refused = sh->failed_stage == ST_UNSHARE &&
		       (sh->rc == -EPERM || sh->rc == -EACCES || sh->rc == -ENOSPC);
	if (refused)
		aw_skip_cause(ctx, obs, "userns", "%s", plan_failure(sh));
	else
		aw_unobserved(ctx, obs, "%s", sh->failed_stage ? plan_failure(sh) : otherwise);
}

static void observe_write(struct aw_ctx *ctx, const char *obs, struct plan *sh,
			  const struct plan *plan)
{
	int rc = run_plan(sh, plan);

	if (rc)
		unobserved_after(ctx, obs, sh, aw_errname(rc));
	else if (sh->rc == 0)
		aw_observe(ctx, obs, "%s", sh->value == 20 ? "yes" : "accepted, not applied");
	else
		aw_observe(ctx, obs, "%s", sh->rc == AW_SYSCTL_REFUSED ? "refused by abiwatch" :
			   aw_errname(sh->rc));
}

static void observe_sysctls(struct aw_ctx *ctx, struct plan *sh)
{
	const struct plan owner = { ctx, AW_NOBODY, AW_NOBODY, -1,
				    CLONE_NEWUSER | CLONE_NEWIPC, -1, ACT_SYSCTL, 0, 0, 0, 0 };
	struct plan other = owner, plain = owner;

	observe_write(ctx, "owner_root_writes_sysctl", sh, &owner);
	if (sh->failed_stage == 0 && sh->owner >= 0)
		aw_observe_long(ctx, "sysctl_owner_seen", sh->owner);
	else
		unobserved_after(ctx, "sysctl_owner_seen", sh, "stat of the knob failed");
	other.unshare = CLONE_NEWUSER;
	observe_write(ctx, "nonowner_root_writes_sysctl", sh, &other);
	plain.unshare = 0;
	observe_write(ctx, "unprivileged_writes_sysctl", sh, &plain);
}

/* The result of trying a 1 x 8192 queue under the plan, or a failure. */
static int try_as(struct plan *sh, uid_t ruid, uid_t euid, long long before, int unshare,
		  long long after)
{
	const struct plan p = { NULL, ruid, euid, before, unshare, after, ACT_TRY, 0, 0, 0, 0 };
	int rc = run_plan(sh, &p);

	return rc ? rc : sh->rc;
}

static void check_rlimit(struct aw_ctx *ctx, struct plan *sh, int held)
{
	int same = try_as(sh, AW_NOBODY, AW_NOBODY, ONE_FITS, 0, -1);
	int other = try_as(sh, AW_NOBODY2, AW_NOBODY2, ONE_FITS, 0, -1);

	aw_expect(ctx, "rlimit_per_uid", same == -EMFILE && other == 0,
		  "uid %d holding a 1x8192 queue (%s); with a soft limit of %d, another process "
		  "of that uid: %s (expected EMFILE), uid %d: %s", AW_NOBODY, aw_errname(held),
		  ONE_FITS, aw_errname(same), AW_NOBODY2, aw_errname(other));
	int real = try_as(sh, AW_NOBODY, AW_NOBODY2, ONE_FITS, 0, -1);
	int eff = try_as(sh, AW_NOBODY2, AW_NOBODY, ONE_FITS, 0, -1);
	aw_expect(ctx, "rlimit_charged_to_real_uid", real == -EMFILE && eff == 0,
		  "real uid %d with effective %d: %s (expected EMFILE); real %d with effective "
		  "%d: %s", AW_NOBODY, AW_NOBODY2, aw_errname(real), AW_NOBODY2, AW_NOBODY,
		  aw_errname(eff));
}

static void observe_ucounts(struct aw_ctx *ctx, struct plan *sh)
{
	struct rlimit rl;
	int fresh = try_as(sh, AW_NOBODY, AW_NOBODY, -2, CLONE_NEWUSER, ONE_FITS);

	if (fresh == 0 || fresh == -EMFILE)
		aw_observe(ctx, "fresh_userns_counts_from_zero", "%s", fresh == 0 ? "yes" : "no");
	else
		unobserved_after(ctx, "fresh_userns_counts_from_zero", sh, aw_errname(fresh));
	if (getrlimit(RLIMIT_MSGQUEUE, &rl) != 0 || rl.rlim_max < 3 * (rlim_t)ONE_FITS) {
		aw_unobserved(ctx, "creator_limit_binds", "the hard RLIMIT_MSGQUEUE is below %d bytes",
			      3 * ONE_FITS);
		return;
	}
	int binds = try_as(sh, AW_NOBODY, AW_NOBODY, ONE_FITS, CLONE_NEWUSER, -2);
	if (binds == 0 || binds == -EMFILE)
		aw_observe(ctx, "creator_limit_binds", "%s", binds == -EMFILE ? "yes" : "no");
	else
		unobserved_after(ctx, "creator_limit_binds", sh, aw_errname(binds));
}

static void userns_run(struct aw_ctx *ctx)
{
	const struct plan hold = { NULL, AW_NOBODY, AW_NOBODY, -2, 0, -1, ACT_HOLD, 0, 0, 0, 0 };
	struct plan *sh = aw_shared_alloc(sizeof(*sh));

	if (!sh) {
		aw_error_rest(ctx, "%s", "mmap failed");
		return;
	}
	if (!aw_private_ipc(ctx)) {
		aw_skip_rest(ctx, "%s", "not in a private IPC namespace: knobs must not be written");
		aw_shared_free(sh, sizeof(*sh));
		return;
	}
	observe_sysctls(ctx, sh);
	/* The held queue stays (closed) until it is unlinked below. */
	int rc = run_plan(sh, &hold);
	if (rc || sh->rc) {
		const char *why = rc && sh->failed_stage ? plan_failure(sh) : aw_errname(rc ? rc : sh->rc);
		if (sh->failed_stage == ST_BECOME) {
			aw_skip_rest(ctx, "%s", why);
		} else {
			aw_error(ctx, "rlimit_per_uid", "the uid %d queue: %s", AW_NOBODY, why);
			aw_error(ctx, "rlimit_charged_to_real_uid", "the uid %d queue: %s", AW_NOBODY, why);
			aw_unobserved(ctx, "fresh_userns_counts_from_zero", "the uid %d queue: %s", AW_NOBODY, why);
			aw_unobserved(ctx, "creator_limit_binds", "the uid %d queue: %s", AW_NOBODY, why);
		}
	} else {
		check_rlimit(ctx, sh, sh->rc);
		observe_ucounts(ctx, sh);
	}
	mq_unlink(HELD_Q);
	aw_shared_free(sh, sizeof(*sh));
}

static const char *const userns_tags[] = {
	"man:getrlimit(2)", "man:user_namespaces(7)", "man:mq_overview(7)",
	"linux-git:6e52a9f0532f", "linux-git:f9d87929d451", NULL
};

static const char *const userns_kconfig[] = { "CONFIG_POSIX_MQUEUE", "CONFIG_USER_NS",
					      "CONFIG_IPC_NS", NULL };

const struct aw_probe mq_userns_probes[] = {
	{
		.name = "userns",
		.summary = "who may write fs.mqueue in user namespaces, and whose RLIMIT_MSGQUEUE a queue charges",
		.run = userns_run,
		.items = userns_items,
		.needs = { .kconfig = userns_kconfig },
		.tags = userns_tags,
		.alone = "RLIMIT_MSGQUEUE counts every queue of the user (per user namespace and "
			 "uid, not per IPC namespace), so another probe's queues would count",
	},
	AW_PROBES_END,
};

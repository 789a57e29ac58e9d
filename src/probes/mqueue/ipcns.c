// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * IPC namespaces (ipc_namespaces(7)): each has its own queues, its own
 * fs.mqueue sysctls, and an mqueue filesystem instance.  The probe tunes
 * the knobs of its own (private) namespace, then a child unshares
 * CLONE_NEWIPC: what it starts from is what a container gets (the
 * compiled-in defaults, mq_init_ns(), not the creator's values), and
 * neither side may see the other's queues or knob writes.  Container
 * runtimes and programs that tune the host and then run in a container
 * meet exactly this.
 */
#include "mq_util.h"
#include "lib/procfs.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#define PARENT_Q "/aw_ns_parent"
#define CHILD_Q "/aw_ns_child"
#define SAME_Q "/aw_ns_same"
#define NKNOBS 5

static const struct aw_item ipcns_items[] = {
	AW_CHECK_ITEM("queue_invisible_in_new_ns", "a queue of the creating namespace does not exist in a new one (ENOENT)"),
	AW_CHECK_ITEM("queue_invisible_from_parent", "a queue made in the new namespace does not exist in the creating one (ENOENT)"),
	AW_CHECK_ITEM("same_name_independent", "both namespaces can create a queue of the same name with O_EXCL"),
	AW_CHECK_ITEM("sysctls_isolated", "a knob written in either namespace keeps its value in the other"),
	AW_OBS_ITEM("fresh.queues_max", "queues_max in a new namespace made from one where it is 77",
		    .unit = "queues"),
	AW_OBS_ITEM("fresh.msg_max", "msg_max in a new namespace made from one where it is 42",
		    .unit = "messages"),
	AW_OBS_ITEM("fresh.msgsize_max", "msgsize_max in a new namespace made from one where it is 4242",
		    .unit = "B"),
	AW_OBS_ITEM("fresh.msg_default", "msg_default in a new namespace made from one where it is 7",
		    .unit = "messages"),
	AW_OBS_ITEM("fresh.msgsize_default", "msgsize_default in a new namespace made from one where it is 777",
		    .unit = "B"),
	AW_OBS_ITEM("fresh_follows", "what a new namespace's knobs follow: compiled_in defaults, the parent, or other"),
	AW_OBS_ITEM("old_mount_after_unshare", "whose queues an mqueue mount made before unshare(CLONE_NEWIPC) lists afterwards: parent, child, both, neither"),
	AW_OBS_ITEM("new_mount_after_unshare", "whose queues a new mqueue mount made after unshare(CLONE_NEWIPC) lists"),
	AW_ITEMS_END
};

static const char *const knobs[NKNOBS] = {
	MQU_KNOB_QUEUES_MAX, MQU_KNOB_MSG_MAX, MQU_KNOB_MSGSIZE_MAX, MQU_KNOB_MSG_DEFAULT,
	MQU_KNOB_MSGSIZE_DEFAULT,
};
static const long long tuned[NKNOBS] = { 77, 42, 4242, 7, 777 };
static const long long compiled_in[NKNOBS] = {
	MQU_DFLT_QUEUESMAX, MQU_DFLT_MSG, MQU_DFLT_MSGSIZE, MQU_DFLT_MSG, MQU_DFLT_MSGSIZE,
};
static const char *const fresh_obs[NKNOBS] = {
	"fresh.queues_max", "fresh.msg_max", "fresh.msgsize_max", "fresh.msg_default",
	"fresh.msgsize_default",
};

/* What the child found for the checks the probe decides; it lives in
 * shared memory.  What the child alone sees, it reports itself. */
struct nsview {
	struct aw_ctx *ctx;
	char mnt_old[64], mnt_new[64];
	int ready[2], go[2];
	int unshare_rc;
	int parent_q_rc, same_q_rc, child_q_rc;
	int write_rc;
	long long msg_max_after; /* msg_max in the child once the parent wrote its own */
	bool old_mounted;
};

/* "parent", "child", "both" or "neither": whose queue the directory lists. */
static void whose(const char *dir, char *out, size_t len)
{
	bool p = false, c = false;
	DIR *d = opendir(dir);
	struct dirent *e;

	while (d && (e = readdir(d))) {
		p = p || strcmp(e->d_name, &PARENT_Q[1]) == 0;
		c = c || strcmp(e->d_name, &CHILD_Q[1]) == 0;
	}
	if (d)
		closedir(d);
	snprintf(out, len, "%s", !d ? "unreadable" : p && c ? "both" : p ? "parent" :
		 c ? "child" : "neither");
}

/* In the new namespace: whose queues the mqueue mounts list. */
static void observe_mounts(const struct nsview *v)
{
	char lists[16];

	if (v->old_mounted) {
		whose(v->mnt_old, lists, sizeof(lists));
		aw_observe(v->ctx, "old_mount_after_unshare", "%s", lists);
	} else {
		aw_unobserved(v->ctx, "old_mount_after_unshare", "mounting mqueue here failed");
	}
	if (mkdir(v->mnt_new, 0700) == 0 &&
	    mount("mqueue", v->mnt_new, "mqueue", MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL) == 0)
		whose(v->mnt_new, lists, sizeof(lists));
	else
		snprintf(lists, sizeof(lists), "%s", aw_errname(errno));
	aw_observe(v->ctx, "new_mount_after_unshare", "%s", lists);
}

/* In the new namespace: the knobs it starts from, and what they follow. */
static void observe_fresh(struct aw_ctx *ctx)
{
	bool all_read = true, is_default = true, is_parent = true;

	for (int i = 0; i < NKNOBS; i++) {
		long long value;
		int rc = aw_sysctl_read_ll(knobs[i], &value);
		if (rc) {
			aw_unobserved(ctx, fresh_obs[i], "reading in the new namespace: %s",
				      aw_errname(rc));
			all_read = false;
			continue;
		}
		aw_observe_long(ctx, fresh_obs[i], value);
		is_default = is_default && value == compiled_in[i];
		is_parent = is_parent && value == tuned[i];
	}
	if (!all_read)
		aw_unobserved(ctx, "fresh_follows", "not every knob could be read");
	else
		aw_observe(ctx, "fresh_follows", "%s", is_default ? "compiled_in" :
			   is_parent ? "parent" : "other");
}

static int ns_child(void *arg)
{
	struct nsview *v = arg;
	char c;

	if (unshare(CLONE_NEWIPC | CLONE_NEWNS) != 0) {
		v->unshare_rc = -errno;
		return 1;
	}
	observe_fresh(v->ctx);
	v->parent_q_rc = (int)mqu_rc(mq_open(PARENT_Q, O_RDONLY));
	v->same_q_rc = mqu_open_new(SAME_Q, O_RDWR, 0600, &(struct mqu_shape){ 1, 16 });
	v->child_q_rc = mqu_open_new(CHILD_Q, O_RDWR, 0600, &(struct mqu_shape){ 1, 16 });
	v->write_rc = aw_sysctl_write_ll(v->ctx, MQU_KNOB_MSG_MAX, 33);
	observe_mounts(v);
	if (write(v->ready[1], "r", 1) != 1 || read(v->go[0], &c, 1) != 1)
		return 1;
	if (aw_sysctl_read_ll(MQU_KNOB_MSG_MAX, &v->msg_max_after) != 0)
		v->msg_max_after = -1;
	return 0;
}

static void report_queues(struct aw_ctx *ctx, const struct nsview *v, int parent_sees_child,
			  int same_q)
{
	aw_expect(ctx, "queue_invisible_in_new_ns", v->parent_q_rc == -ENOENT,
		  "the child opening %s of the creating namespace: %s", PARENT_Q,
		  aw_errname(v->parent_q_rc < 0 ? v->parent_q_rc : 0));
	if (v->child_q_rc < 0)
		aw_error(ctx, "queue_invisible_from_parent", "creating %s in the new namespace: %s",
			 CHILD_Q, aw_errname(v->child_q_rc));
	else
		aw_expect(ctx, "queue_invisible_from_parent", parent_sees_child == -ENOENT,
			  "opening the child's %s here: %s", CHILD_Q,
			  aw_errname(parent_sees_child < 0 ? parent_sees_child : 0));
	aw_expect(ctx, "same_name_independent", same_q >= 0 && v->same_q_rc >= 0,
		  "O_CREAT | O_EXCL of %s here: %s, in the new namespace: %s", SAME_Q,
		  aw_errname(same_q < 0 ? same_q : 0), aw_errname(v->same_q_rc < 0 ? v->same_q_rc : 0));
}

/* While the child waits: what this namespace sees, then a knob write. */
static void parent_side(struct aw_ctx *ctx, struct nsview *v, int *sees_child, long long *mm)
{
	struct pollfd p = { .fd = v->ready[0], .events = POLLIN };
	char c;

	*sees_child = -ETIMEDOUT;
	*mm = -1;
	if (poll(&p, 1, 3000) != 1 || read(v->ready[0], &c, 1) != 1)
		return;
	int q = (int)mqu_rc(mq_open(CHILD_Q, O_RDONLY));
	*sees_child = q < 0 ? q : 0;
	if (q >= 0)
		mq_close(q);
	if (aw_sysctl_read_ll(MQU_KNOB_MSG_MAX, mm) != 0)
		*mm = -1;
	aw_sysctl_write_ll(ctx, MQU_KNOB_MSG_MAX, 44);
}

static int setup(struct aw_ctx *ctx, struct nsview *v, int *parent_q, int *same_q)
{
	int rc = 0;

	for (int i = 0; i < NKNOBS && rc == 0; i++)
		rc = aw_sysctl_write_ll(ctx, knobs[i], tuned[i]);
	if (rc)
		return rc;
	*parent_q = mqu_open_new(PARENT_Q, O_RDWR, 0600, &(struct mqu_shape){ 1, 16 });
	*same_q = mqu_open_new(SAME_Q, O_RDWR, 0600, &(struct mqu_shape){ 1, 16 });
	if (*parent_q < 0)
		return *parent_q;
	v->ctx = ctx;
	snprintf(v->mnt_old, sizeof(v->mnt_old), "%s/aw-ipcns-old", aw_tmpdir(ctx));
	snprintf(v->mnt_new, sizeof(v->mnt_new), "%s/aw-ipcns-new", aw_tmpdir(ctx));
	v->old_mounted = mkdir(v->mnt_old, 0700) == 0 &&
		mount("mqueue", v->mnt_old, "mqueue", MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL) == 0;
	if (pipe(v->ready) != 0 || pipe(v->go) != 0)
		return -errno;
	return 0;
}

static void ipcns_run(struct aw_ctx *ctx)
{
	struct nsview *v = aw_shared_alloc(sizeof(*v));
	int parent_q = -1, same_q = -1, sees_child, status;
	long long mm;

	if (!aw_private_ipc(ctx)) {
		aw_skip_rest(ctx, "%s", "not in a private IPC namespace: knobs must not be written");
		aw_shared_free(v, sizeof(*v));
		return;
	}
	int rc = v ? setup(ctx, v, &parent_q, &same_q) : -ENOMEM;
	pid_t pid = rc ? rc : aw_child_start(ns_child, v);
	if (pid < 0) {
		aw_error_rest(ctx, "tuning the knobs or starting the child: %s",
			      rc == AW_SYSCTL_REFUSED ? aw_sysctl_strerror(rc) : aw_errname((int)pid));
		aw_shared_free(v, sizeof(*v));
		return;
	}
	parent_side(ctx, v, &sees_child, &mm);
	if (write(v->go[1], "g", 1) != 1)
		kill(pid, SIGKILL);
	status = aw_child_wait(pid, 3000);
	if (status != 0 || sees_child == -ETIMEDOUT) {
		aw_error_rest(ctx, "the child in the new namespace failed: %s", v->unshare_rc ?
			      aw_errname(v->unshare_rc) : status < 0 ? aw_errname(status) : "error");
	} else {
		report_queues(ctx, v, sees_child, same_q);
		aw_expect(ctx, "sysctls_isolated", v->write_rc == 0 && mm == 42 && v->msg_max_after == 33,
			  "the child set msg_max 33 (%s), here it stayed %lld (expected 42); this "
			  "namespace set 44, the child then read %lld (expected 33)",
			  aw_sysctl_strerror(v->write_rc), mm, v->msg_max_after);
	}
	if (parent_q >= 0)
		mq_close(parent_q);
	if (same_q >= 0)
		mq_close(same_q);
	umount2(v->mnt_old, MNT_DETACH);
	aw_shared_free(v, sizeof(*v));
}

static const char *const ipcns_tags[] = {
	"man:ipc_namespaces(7)", "man:mq_overview(7)", "linux-git:bdc8e5f85f9a", NULL
};

static const char *const ipcns_kconfig[] = { "CONFIG_POSIX_MQUEUE", "CONFIG_IPC_NS", NULL };

const struct aw_probe mq_ipcns_probes[] = {
	{
		.name = "ipcns",
		.summary = "queues, knobs and mqueue mounts across IPC namespaces",
		.run = ipcns_run,
		.items = ipcns_items,
		.needs = { .kconfig = ipcns_kconfig },
		.tags = ipcns_tags,
	},
	AW_PROBES_END,
};

// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * sysctl.scopes: abiwatch's one list of namespaced sysctls (core/sysctl.c,
 * aw_sysctl_scope()) held against the kernel's own.  That list is what
 * keeps the host unchanged: a probe writes a knob only where its
 * namespace is the probe's (mqueue's limits, sysctl.knob's write-back),
 * so a kernel that registers a knob per namespace where the list says
 * global only costs coverage, but one that made a listed knob global
 * again would let a probe's write reach the host.
 *
 * How the kernel's list is read, without writing anything: a table the
 * kernel registers per namespace (net/sysctl_net.c, kernel/ucount.c, and
 * the IPC tables that ipc/ipc_sysctl.c and ipc/mq_sysctl.c keep in each
 * IPC namespace) is a table of that namespace's own, and /proc/sys gives
 * a process in another namespace other inodes for it (fs/proc/
 * proc_sysctl.c: a dentry whose table the caller cannot see is not
 * reused, sysctl_is_seen()).  A global knob keeps its inode.  So the
 * probe stats every knob, stats them again in a child that made a new
 * namespace of one kind, and stats them once more itself: a knob whose
 * inode the child saw change, steady for the probe, is that namespace's.
 *
 * The UTS names (kernel/utsname_sysctl.c) are one table whose handler
 * follows the caller's namespace, so inodes cannot tell; the same holds
 * for IPC on kernels that kept one IPC table (before the per-namespace
 * tables of 5.19).  Those are held by writing: in a child with a new
 * namespace a different value is written, and the probe's value must
 * stay.  A write that the kernel did not confine would change the
 * machine, so it is made only in the throwaway guest of abiwatch vm:
 * "uts" declares it (.vm_guest), "ipc" finds out as it runs.
 */
#include "sysctl.h"
#include "lib/child.h"
#include "lib/errname.h"
#include "lib/procfs.h"
#include "lib/sysctl_walk.h"
#include "lib/util.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Far more files than any /proc/sys holds (about 1,500 in a fresh
 * network namespace): a bound on the walk, not a limit ever met. */
#define MAX_KNOBS 20000
/* Names of knobs in a failure message, at most. */
#define MAX_NAMED 12

/* Why a scope is held by writing, which is done only in the VM guest:
 * the list is what is tested, so it cannot guard the writes. */
#define ONLY_WRITING "so only writing tells, and a write is made only in an abiwatch vm guest"
#define UTS_WHY "the UTS names are one table whose handler follows the caller"
#define IPC_WHY "this kernel keeps one IPC table whose handlers follow the caller"

static const struct aw_item scopes_items[] = {
	AW_CHECK_ITEM("ipc", "the knobs a new IPC namespace has its own of are exactly those "
		      "abiwatch writes as the IPC namespace's (kernel.msg*, sem, shm*, fs.mqueue.*)"),
	AW_CHECK_ITEM("net", "the knobs a new network namespace has its own of are exactly the "
		      "net.* knobs a fresh namespace shows"),
	AW_CHECK_ITEM("user", "the knobs a new user namespace has its own of are exactly user.*"),
	AW_CHECK_ITEM("uts", "kernel.hostname and kernel.domainname, written in a new UTS "
		      "namespace, stay there (in a VM guest: the test writes)",
		      .vm_guest = UTS_WHY ", " ONLY_WRITING),
	AW_ITEMS_END,
};

struct knobs {
	char **name; /* dotted, as aw_sysctl_scope() takes them */
	char **path;
	ino_t *ino;  /* the probe's view */
	ino_t *seen; /* the child's (shared memory) */
	size_t n;
};

/* Every knob of the walk of /proc/sys, with its path. */
static bool collect(const struct aw_sysctl_entry *e, void *arg)
{
	struct knobs *k = arg;
	if (!e->st || k->n >= MAX_KNOBS)
		return false;
	/* A component with a dot (an interface "eth0.1") has no dotted
	 * name of its own; none is ever namespaced alone. */
	if (S_ISREG(e->st->st_mode) && !strchr(e->name, '.')) {
		k->name = xgrow(k->name, k->n, sizeof(*k->name));
		k->path = xgrow(k->path, k->n, sizeof(*k->path));
		k->name[k->n] = xstrdup(e->knob);
		k->path[k->n++] = xstrdup(e->path);
	}
	return S_ISDIR(e->st->st_mode);
}

static ino_t ino_of(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 ? st.st_ino : 0;
}

struct fresh {
	struct knobs *k;
	int flag; /* CLONE_NEWIPC, CLONE_NEWNET, or CLONE_NEWUSER */
};

static int stat_in_new_ns(void *arg)
{
	struct fresh *f = arg;
	int rc = f->flag == CLONE_NEWUSER ? aw_enter_userns(0) : unshare(f->flag) ? -errno : 0;
	if (rc)
		return 10;
	for (size_t i = 0; i < f->k->n; i++)
		f->k->seen[i] = ino_of(f->k->path[i]);
	return 0;
}

/* Append name to a list of at most MAX_NAMED, counting the rest. */
static void add_name(char **list, size_t *count, const char *name)
{
	if ((*count)++ < MAX_NAMED) {
		char *s = xasprintf("%s%s%s", *list ? *list : "", *list ? " " : "", name);
		free(*list);
		*list = s;
	}
}

static char *names_text(const char *what, char *list, size_t count)
{
	if (!count)
		return xstrdup("");
	return count > MAX_NAMED ? xasprintf("%s (%zu): %s ...; ", what, count, list)
				 : xasprintf("%s: %s; ", what, list);
}

/* One scope held by inodes: the kernel's own knobs of a new namespace
 * against the list's.  Returns false (and reports nothing) when the
 * kernel shows no table of that namespace of its own at all. */
static bool hold_by_inodes(struct aw_ctx *ctx, struct knobs *k, const char *item, int flag,
			   enum aw_sysctl_scope scope)
{
	struct fresh f = { k, flag };
	int rc = aw_child_run(stat_in_new_ns, &f, 20000);
	if (rc) {
		aw_error(ctx, item, "a child in a new %s namespace: %s", aw_sysctl_scope_name(scope),
			 rc == 10 ? "unshare refused" : "it failed");
		return true;
	}
	char *missing = NULL, *extra = NULL, *unsteady = NULL;
	size_t nmissing = 0, nextra = 0, nunsteady = 0, nkernel = 0, nlisted = 0;
	for (size_t i = 0; i < k->n; i++) {
		if (!k->ino[i] || !k->seen[i])
			continue;
		if (ino_of(k->path[i]) != k->ino[i]) {
			add_name(&unsteady, &nunsteady, k->name[i]);
			continue;
		}
		bool kernel = k->seen[i] != k->ino[i];
		bool listed = aw_sysctl_scope(k->name[i]) == scope;
		nkernel += kernel;
		nlisted += listed;
		if (kernel && !listed)
			add_name(&missing, &nmissing, k->name[i]);
		else if (listed && !kernel)
			add_name(&extra, &nextra, k->name[i]);
	}
	bool decided = nkernel > 0 || nunsteady > 0;
	if (decided) {
		char *a = names_text("the kernel's own per namespace, not on the list", missing, nmissing);
		char *b = names_text("on the list but global here", extra, nextra);
		char *c = names_text("inodes that changed under the probe", unsteady, nunsteady);
		aw_expect(ctx, item, !nmissing && !nextra && !nunsteady, "%s%s%s(%zu knobs per %s "
			  "namespace here, %zu on the list)", a, b, c, nkernel,
			  aw_sysctl_scope_name(scope), nlisted);
		free(a);
		free(b);
		free(c);
	}
	free(missing);
	free(extra);
	free(unsteady);
	return decided;
}

/* A value of a knob other than text: an integer one nearer zero (or 1
 * for 0), the first of several numbers likewise; a name gets a letter. */
static char *other_value(const char *text)
{
	char *end;
	long long v = strtoll(text, &end, 10);
	if (end == text)
		return xasprintf("abiwatch-%s", *text == 'a' ? "b" : "a");
	return xasprintf("%lld%s", v > 0 ? v - 1 : v + 1, end);
}

struct written {
	const char *const *knobs;
	int flag;
	int *outcome; /* shared: 0 written, else -errno */
};

static int write_in_new_ns(void *arg)
{
	struct written *w = arg;
	if (unshare(w->flag) != 0)
		return 10;
	for (size_t i = 0; w->knobs[i]; i++) {
		char *path = aw_sysctl_path(w->knobs[i]), *text;
		size_t len;
		w->outcome[i] = -ENOENT;
		if (aw_file_slurp(path, &text, &len) == 0) {
			char *other = other_value(text);
			w->outcome[i] = aw_file_write(path, other);
			free(other);
			free(text);
		}
		free(path);
	}
	return 0;
}

/* Held by writing, in the VM guest only: each knob written in a child
 * with a new namespace must keep the probe's value. */
static void hold_by_writes(struct aw_ctx *ctx, const char *item, const char *const *knobs, int flag)
{
	size_t n = 0;
	while (knobs[n])
		n++;
	char **before = xcalloc(n, sizeof(*before));
	int *outcome = aw_shared_alloc(n * sizeof(*outcome));
	struct written w = { knobs, flag, outcome };
	size_t len;
	for (size_t i = 0; i < n; i++) {
		char *path = aw_sysctl_path(knobs[i]);
		if (aw_file_slurp(path, &before[i], &len) != 0)
			before[i] = NULL;
		free(path);
	}
	int rc = aw_child_run(write_in_new_ns, &w, 20000);
	char *leaked = NULL, *refused = NULL;
	size_t nleaked = 0, nrefused = 0, nwritten = 0;
	for (size_t i = 0; rc == 0 && i < n; i++) {
		char *path = aw_sysctl_path(knobs[i]), *after = NULL;
		if (!before[i] || outcome[i] == -ENOENT) {
			free(path);
			continue;
		}
		if (outcome[i]) {
			char *why = xasprintf("%s (%s)", knobs[i], aw_errname(outcome[i]));
			add_name(&refused, &nrefused, why);
			free(why);
		} else if (aw_file_slurp(path, &after, &len) == 0 && strcmp(after, before[i]) != 0) {
			add_name(&leaked, &nleaked, knobs[i]);
			/* The machine is thrown away, but the probes after this
			 * one should see what they would have. */
			(void)aw_file_write(path, before[i]);
		}
		nwritten += outcome[i] == 0;
		free(after);
		free(path);
	}
	if (rc)
		aw_error(ctx, item, "a child in a new namespace: %s", rc == 10 ? "unshare refused" : "it failed");
	else {
		char *a = names_text("written in a new namespace, changed for the probe too", leaked, nleaked);
		char *b = names_text("writes refused", refused, nrefused);
		aw_expect(ctx, item, !nleaked && !nrefused && nwritten > 0, "%s%s(%zu written)", a, b, nwritten);
		free(a);
		free(b);
	}
	free(leaked);
	free(refused);
	for (size_t i = 0; i < n; i++)
		free(before[i]);
	free(before);
	aw_shared_free(outcome, n * sizeof(*outcome));
}

/* The knobs the list gives a scope, of those the walk found. */
static const char **listed(const struct knobs *k, enum aw_sysctl_scope scope)
{
	const char **out = xcalloc(k->n + 1, sizeof(*out));
	size_t n = 0;
	for (size_t i = 0; i < k->n; i++)
		if (aw_sysctl_scope(k->name[i]) == scope)
			out[n++] = k->name[i];
	return out;
}

static void hold_by_writes_listed(struct aw_ctx *ctx, const struct knobs *k, const char *item,
				  int flag, enum aw_sysctl_scope scope)
{
	const char **knobs = listed(k, scope);
	hold_by_writes(ctx, item, knobs, flag);
	free(knobs);
}

static void scopes_run(struct aw_ctx *ctx)
{
	struct knobs k = { 0 };
	aw_sysctl_walk("/proc/sys", "", collect, &k);
	if (!k.n) {
		aw_error_rest(ctx, "/proc/sys: no knobs found");
		return;
	}
	k.ino = xcalloc(k.n, sizeof(*k.ino));
	k.seen = aw_shared_alloc(k.n * sizeof(*k.seen));
	for (size_t i = 0; i < k.n; i++)
		k.ino[i] = ino_of(k.path[i]);

	/* Only a kernel without IPC tables of each namespace's own (before
	 * 5.19) makes writing the test, which the probe finds out here; the
	 * UTS names always do, so "uts" declares the guest. */
	if (!hold_by_inodes(ctx, &k, "ipc", CLONE_NEWIPC, AW_SCOPE_IPC)) {
		if (aw_vm_guest(ctx))
			hold_by_writes_listed(ctx, &k, "ipc", CLONE_NEWIPC, AW_SCOPE_IPC);
		else
			aw_skip_cause(ctx, "ipc", "vm", IPC_WHY ", " ONLY_WRITING);
	}
	if (!hold_by_inodes(ctx, &k, "net", CLONE_NEWNET, AW_SCOPE_NET))
		aw_fail(ctx, "net", "no knob of a new network namespace is its own");
	if (!hold_by_inodes(ctx, &k, "user", CLONE_NEWUSER, AW_SCOPE_USER))
		aw_skip(ctx, "user", "no user.* knob is a new user namespace's own here "
			"(a kernel without CONFIG_USER_NS, or before 4.9)");
	if (aw_item_needs_met(ctx, "uts"))
		hold_by_writes_listed(ctx, &k, "uts", CLONE_NEWUTS, AW_SCOPE_UTS);

	for (size_t i = 0; i < k.n; i++) {
		free(k.name[i]);
		free(k.path[i]);
	}
	free(k.name);
	free(k.path);
	free(k.ino);
	aw_shared_free(k.seen, k.n * sizeof(*k.seen));
}

static const char *const scopes_tags[] = {
	"man:namespaces(7)", "man:ipc_namespaces(7)", "man:uts_namespaces(7)",
	"man:network_namespaces(7)", "man:user_namespaces(7)", "man:proc_sys(5)", NULL,
};

const struct aw_probe sc_scopes_probes[] = {
	{ .name = "scopes",
	  .summary = "abiwatch's list of namespaced sysctls, the one that keeps hosts unchanged, "
		     "held against the kernel's own",
	  .run = scopes_run, .items = scopes_items, .tags = scopes_tags },
	AW_PROBES_END,
};

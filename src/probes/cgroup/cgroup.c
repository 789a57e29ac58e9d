// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The cgroup family: what container runtimes and systemd write under
 * /sys/fs/cgroup.  cgroup.v2: the controllers the root offers, the
 * root's files, and (in a VM guest) the files and defaults of a fresh
 * child with every controller enabled.  cgroup.v1 (in a VM guest only):
 * whether each controller's v1 hierarchy can still be mounted
 * (CONFIG_MEMCG_V1, 6.11; 3c41382e920f, 6.12) and memory.kmem.
 * limit_in_bytes, which runtimes still write (58056f77502f made writes
 * fail in 5.16, 86327e8eb94c removed it, 4597648fddea brought it back as
 * a no-op).
 *
 * Safety: a cgroup namespace gives no private hierarchy - every cgroup
 * made is the machine's, mounting cgroup2 the first time makes the
 * default hierarchy visible for good, and a v1 mount binds its
 * controller for the whole machine.  So on a host this family only reads
 * an existing cgroup2 mount; it mounts, makes cgroups and writes only in
 * the throwaway guest of abiwatch vm (aw_vm_guest(); the child's files
 * declare it, .vm_guest), and mounts
 * there read-write only in its own mount namespace.
 */
#include "core/probe.h"
#include "lib/util.h"
#include "lib/errname.h"
#include "lib/proc.h"
#include "lib/procfs.h"
#include "lib/mountinfo.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#define VM_ONLY "only in an abiwatch vm guest: cgroups made or mounted are the whole machine's"

static const struct aw_item v2_items[] = {
	/* On a host the root is the machine's: a container's is what was
	 * delegated to it (varies_with setup). */
	AW_OBS_ITEM("controllers", "cgroup.controllers of the cgroup2 root: the controllers v2 offers",
		    .varies_with = "setup",
		    .change = "a controller came or went: limits set through it fail (ENOENT on its files)"),
	AW_OBS_ITEM("root_files", "the files of the cgroup2 root, space-separated", .varies_with = "setup",
		    .change = "interface files of the root came or went"),
	/* One object, the fresh child: outside a guest child_files is
	 * skipped (cause vm) and no child.*.value is reported, which diff
	 * puts down to that skip rather than to values that vanished. */
	AW_OBS_ITEM("child_files", "the files of a fresh child cgroup with every offered controller enabled",
		    .change = "container runtimes writing a file that vanished fail to start containers; "
			      "new files are new interfaces", .object = "child", .vm_guest = VM_ONLY),
	AW_OBS_ITEM("child.*.value", "a fresh child's default for a limit or weight runtimes set (memory.max, pids.max, cpu.max...)",
		    .change = "the default limit of every new cgroup moved", .object = "child"),
	AW_ITEMS_END,
};

/* A mount point of cgroup2 whose root is the hierarchy's root, or NULL. */
static char *cgroup2_mount(void)
{
	struct aw_mount *m;
	size_t n;
	char *found = NULL;

	if (aw_mountinfo_read("/proc/self/mountinfo", &m, &n) != 0)
		return NULL;
	for (size_t i = 0; i < n && !found; i++)
		if (strcmp(m[i].fstype, "cgroup2") == 0 && strcmp(m[i].root, "/") == 0)
			found = xstrdup(m[i].point);
	aw_mountinfo_free(m, n);
	return found;
}

static char *read_text(const char *dir, const char *file)
{
	char *path = xasprintf("%s/%s", dir, file), *text = NULL;
	size_t len;
	if (aw_file_slurp(path, &text, &len) != 0)
		text = NULL;
	else if (len && text[len - 1] == '\n')
		text[len - 1] = '\0';
	free(path);
	return text;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The regular files of a directory, sorted, space-joined; NULL on error. */
static char *file_list(const char *dir)
{
	DIR *d = opendir(dir);
	char **names = NULL, *out = NULL;
	size_t n = 0, len = 1;
	struct dirent *de;
	if (!d)
		return NULL;
	while ((de = readdir(d)))
		if (de->d_type == DT_REG) {
			names = xgrow(names, n, sizeof(*names));
			names[n++] = xstrdup(de->d_name);
			len += strlen(de->d_name) + 1;
		}
	closedir(d);
	if (n)
		qsort(names, n, sizeof(*names), by_name);
	out = xcalloc(1, len);
	for (size_t i = 0; i < n; i++) {
		if (i)
			strcat(out, " ");
		strcat(out, names[i]);
		free(names[i]);
	}
	free(names);
	return out;
}

static void observe_text(struct aw_ctx *ctx, const char *obs, char *text, const char *why)
{
	if (text)
		aw_observe(ctx, obs, "%s", *text ? text : "(empty)");
	else
		aw_unobserved(ctx, obs, "%s", why);
	free(text);
}

/* The defaults runtimes override; counters and statistics are left out. */
static const char *const child_defaults[] = {
	"cgroup.max.depth", "cgroup.max.descendants", "cgroup.type", "cpu.idle", "cpu.max",
	"cpu.max.burst", "cpu.uclamp.max", "cpu.uclamp.min", "cpu.weight", "cpu.weight.nice",
	"io.weight", "memory.high", "memory.low", "memory.max", "memory.min", "memory.oom.group",
	"memory.swap.high", "memory.swap.max", "memory.zswap.max", "memory.zswap.writeback",
	"pids.max",
};

/* Whether root has no dying descendant left: a removed cgroup's css
 * lives on until its references drop (offlining runs from a workqueue,
 * after rmdir returns), and while it does its controllers cannot move
 * to a v1 hierarchy (rebind_subsystems(): EBUSY).  cgroup.stat's
 * nr_dying_descendants counts them (cgroup-v2.rst). */
static bool no_dying_descendants(const char *root)
{
	char *stat = read_text(root, "cgroup.stat");
	const char *line = stat ? strstr(stat, "nr_dying_descendants ") : NULL;
	bool none = !line || strtol(line + strlen("nr_dying_descendants "), NULL, 10) == 0;
	free(stat);
	return none;
}

/* In the guest: enable every offered controller, make a child, read it,
 * then undo both and wait (up to 2 s) until the child is gone for good,
 * so that the v1 probe finds the controllers free. */
static void fresh_child(struct aw_ctx *ctx, const char *root, const char *controllers)
{
	char *subtree = xasprintf("%s/cgroup.subtree_control", root);
	char *child = xasprintf("%s/abiwatch-child", root);
	char *words = xstrdup(controllers);
	for (char *c = strtok(words, " "); c; c = strtok(NULL, " ")) {
		char *plus = xasprintf("+%s", c);
		int rc = aw_file_write(subtree, plus);
		if (rc != 0)
			aw_note(ctx, "enabling %s: %s", c, aw_errname(-rc));
		free(plus);
	}
	if (mkdir(child, 0755) != 0) {
		aw_unobserved(ctx, "child_files", "mkdir: %s", aw_errname(errno));
	} else {
		observe_text(ctx, "child_files", file_list(child), "unreadable");
		for (size_t i = 0; i < AW_ARRAY_SIZE(child_defaults); i++) {
			char *v = read_text(child, child_defaults[i]);
			char *obs = xasprintf("child.%s.value", child_defaults[i]);
			if (v)
				observe_text(ctx, obs, v, "");
			free(obs);
		}
		rmdir(child);
	}
	free(words);
	words = xstrdup(controllers);
	for (char *c = strtok(words, " "); c; c = strtok(NULL, " ")) {
		char *minus = xasprintf("-%s", c);
		(void)aw_file_write(subtree, minus);
		free(minus);
	}
	free(words);
	int waits = 0;
	while (!no_dying_descendants(root) && waits++ < 200)
		usleep(10000);
	if (!no_dying_descendants(root))
		aw_note(ctx, "the removed child was still dying after 2 s: cgroup.v1 may find "
			"its controllers busy");
	free(subtree);
	free(child);
}

static void v2_run(struct aw_ctx *ctx)
{
	char *root = cgroup2_mount();
	/* Mounting the first cgroup2 makes the default hierarchy visible to
	 * the whole machine for the rest of its boot: only in the guest. */
	if (!root && aw_vm_guest(ctx)) {
		root = xasprintf("%s/cgroup2", aw_tmpdir(ctx));
		if (mkdir(root, 0755) != 0 || mount("none", root, "cgroup2", 0, NULL) != 0) {
			aw_skip_rest(ctx, "mounting cgroup2: %s", aw_errname(errno));
			free(root);
			return;
		}
	}
	if (!root) {
		aw_skip_rest(ctx, "no cgroup2 mount here; mounting one would make the default "
				  "hierarchy visible for the rest of the boot");
		return;
	}
	char *controllers = read_text(root, "cgroup.controllers");
	aw_observe(ctx, "controllers", "%s", controllers && *controllers ? controllers : "(none)");
	observe_text(ctx, "root_files", file_list(root), "unreadable");
	/* The runner has skipped child_files outside the guest (.vm_guest). */
	if (aw_item_needs_met(ctx, "child_files")) {
		if (controllers)
			fresh_child(ctx, root, controllers);
		else
			aw_unobserved(ctx, "child_files", "cgroup.controllers of the root is unreadable");
	}
	free(controllers);
	free(root);
}

/* ---- v1 ---- */

#define V1(c) AW_OBS_ITEM(c ".mount", "mounting a v1 hierarchy of " c " on a fresh boot: ok or the errno", \
			   .change = "runtimes and tools that still use cgroup v1 for " c " fail to start")

static const struct aw_item v1_items[] = {
	V1("cpu"), V1("cpuacct"), V1("cpuset"), V1("memory"), V1("devices"), V1("freezer"),
	V1("net_cls"), V1("perf_event"), V1("net_prio"), V1("hugetlb"), V1("pids"), V1("rdma"),
	V1("misc"), V1("blkio"),
	AW_OBS_ITEM("kmem_limit.value", "memory.kmem.limit_in_bytes of a fresh v1 memory cgroup",
		    .unit = "B", .change = "the file runtimes write came, went or changed meaning"),
	AW_OBS_ITEM("kmem_limit.write", "writing -1 to a fresh v1 memory cgroup's memory.kmem.limit_in_bytes: ok or the errno",
		    .change = "ok: accepted (a no-op again since 4597648fddea, Debian 6.1.64 on); errno 524 "
			      "(ENOTSUPP): refused, as from 5.16 (58056f77502f); ENOENT: the file was dropped "
			      "(86327e8eb94c); no v1 memory controller: see memory.mount. Any answer but ok fails "
			      "runc and older runtimes that write it when they start a container"),
	AW_ITEMS_END,
};

static int mount_v1(const char *dir, const char *controller)
{
	if (mount("none", dir, "cgroup", 0, controller) != 0)
		return errno;
	return umount2(dir, 0) == 0 ? 0 : -errno;
}

static void kmem(struct aw_ctx *ctx, const char *dir)
{
	/* What a runtime meets where the memory controller has no v1
	 * hierarchy (CONFIG_MEMCG_V1 unset): no such file to read or write. */
	if (mount("none", dir, "cgroup", 0, "memory") != 0) {
		aw_observe(ctx, "kmem_limit.value", "no v1 memory controller (mount: %s)", aw_errname(errno));
		aw_observe(ctx, "kmem_limit.write", "no v1 memory controller (mount: %s)", aw_errname(errno));
		return;
	}
	char *child = xasprintf("%s/abiwatch-kmem", dir);
	if (mkdir(child, 0755) != 0) {
		aw_unobserved(ctx, "kmem_limit.value", "mkdir: %s", aw_errname(errno));
		aw_unobserved(ctx, "kmem_limit.write", "mkdir: %s", aw_errname(errno));
	} else {
		char *v = read_text(child, "memory.kmem.limit_in_bytes");
		if (v)
			observe_text(ctx, "kmem_limit.value", v, "");
		else
			aw_observe(ctx, "kmem_limit.value", "absent");
		char *path = xasprintf("%s/memory.kmem.limit_in_bytes", child);
		int rc = aw_file_write(path, "-1");
		aw_observe(ctx, "kmem_limit.write", "%s", rc == 0 ? "ok" : aw_errname(-rc));
		free(path);
		rmdir(child);
	}
	free(child);
	umount2(dir, 0);
}

static void v1_run(struct aw_ctx *ctx)
{
	char *dir = xasprintf("%s/cgroup1", aw_tmpdir(ctx));
	if (mkdir(dir, 0755) != 0) {
		aw_error_rest(ctx, "mkdir %s: %s", dir, aw_errname(errno));
		free(dir);
		return;
	}
	for (const struct aw_item *it = v1_items; it->name; it++) {
		const char *dot = strstr(it->name, ".mount");
		if (!dot || dot[6])
			continue;
		char *controller = strndup(it->name, (size_t)(dot - it->name));
		int rc = mount_v1(dir, controller);
		if (rc < 0)
			aw_error(ctx, it->name, "mounted but umount failed: %s", aw_errname(-rc));
		else
			aw_observe(ctx, it->name, "%s", rc == 0 ? "ok" : aw_errname(rc));
		free(controller);
	}
	kmem(ctx, dir);
	rmdir(dir);
	free(dir);
}

static const char *const cg_tags[] = {
	"linux-git:e93d4166b40a", "linux-git:3c41382e920f", "linux-git:58056f77502f",
	"linux-git:4597648fddea", "man:cgroups(7)", NULL,
};

static const struct aw_probe cg_v2_probes[] = {
	{ .name = "v2", .summary = "cgroup v2: controllers offered, root files, a fresh child's files and defaults",
	  .run = v2_run, .items = v2_items, .tags = cg_tags },
	AW_PROBES_END,
};

static const struct aw_probe cg_v1_probes[] = {
	{ .name = "v1", .summary = "cgroup v1: which controllers' hierarchies mount, memory.kmem.limit_in_bytes",
	  .run = v1_run, .items = v1_items, .tags = cg_tags, .needs = { .vm_guest = VM_ONLY },
	  .alone = "a v1 hierarchy it mounts takes its controllers from the v2 hierarchy that "
		   "cgroup.v2 and runtimes read (cgroup-v2.rst: a controller is in one hierarchy)" },
	AW_PROBES_END,
};

static const struct aw_probe *const cgroup_tables[] = {
	cg_v2_probes, cg_v1_probes, NULL,
};

static const struct aw_family cgroup_family = {
	.name = "cgroup",
	.summary = "cgroup v2 controllers and a fresh child's files; v1 hierarchies and memory.kmem (in a VM guest)",
	.tables = cgroup_tables,
};

AW_FAMILY(cgroup_family);

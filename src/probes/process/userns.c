// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * User namespaces as an unprivileged sandbox (bubblewrap, rootless
 * containers, Go's SysProcAttr) makes them (user_namespaces(7)):
 * - gid_map is refused to an unprivileged writer until it has written
 *   "deny" to /proc/PID/setgroups, since 9cc46516ddf4 (3.19 and the
 *   stable series, CVE-2014-8989); Go's syscall package had to learn
 *   GidMappingsEnableSetgroups (golang#10626);
 * - an unprivileged writer maps one id, its own, and nothing else;
 * - after "deny", setgroups(2) fails with EPERM inside;
 * - /proc/sys/user/ seen from inside: a new namespace's ucount limits
 *   start at INT_MAX (create_user_ns());
 * - unshare(CLONE_NEWUSER) from a process with threads fails with
 *   EINVAL (unshare(2)).
 * The writer is a child that becomes nobody first (when abiwatch runs
 * as root), so that it holds no capability outside its namespace.
 */
#include "process.h"
#include "lib/child.h"
#include "lib/errname.h"
#include "lib/procfs.h"

#include <dirent.h>
#include <errno.h>
#include <grp.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAP_CHANGE "unprivileged sandboxes (bubblewrap, rootless podman, Go's user namespace support) set up their ids differently or fail"

static const struct aw_item userns_items[] = {
	AW_OBS_ITEM("gid_map.before_deny", "an unprivileged writer's gid_map of its own gid, before setgroups \"deny\": ok or the errno",
		    .change = MAP_CHANGE, .object = "gid_map"),
	AW_OBS_ITEM("gid_map.after_deny", "the same gid_map after writing \"deny\" to setgroups: ok or the errno",
		    .change = MAP_CHANGE, .object = "gid_map"),
	AW_OBS_ITEM("setgroups.after_deny", "setgroups(0, NULL) inside the namespace after \"deny\": ok or the errno",
		    .change = "a sandbox dropping supplementary groups inside fails, or gains the right to (CVE-2014-8989)",
		    .object = "setgroups"),
	AW_OBS_ITEM("uid_map.range", "an unprivileged writer's uid_map of two ids from its own: ok or the errno",
		    .change = MAP_CHANGE, .object = "uid_map"),
	AW_OBS_ITEM("uid_map.other", "an unprivileged writer's uid_map of root's id: ok or the errno",
		    .change = MAP_CHANGE, .object = "uid_map"),
	AW_OBS_ITEM("uid_map.own", "an unprivileged writer's uid_map of its own id: ok or the errno",
		    .change = MAP_CHANGE, .object = "uid_map"),
	AW_OBS_ITEM("inner.*", "a /proc/sys/user limit as a process of the new namespace reads it",
		    .change = "a limit a nested container inherits changed, or a limit appeared (a new namespace type or watch count)",
		    .object = "inner"),
	AW_OBS_ITEM("threaded_unshare", "unshare(CLONE_NEWUSER) in a process with two threads: ok or the errno",
		    .change = "runtimes that create threads before unsharing (Go) must unshare elsewhere, or no longer", .object = "unshare"),
	AW_ITEMS_END
};

static struct aw_ctx *uctx;

static const char *write_word(const char *path, const char *text)
{
	int rc = aw_file_write(path, text);
	return rc ? aw_errname(rc) : "ok";
}

static void inner_limits(void)
{
	DIR *d = opendir("/proc/sys/user");
	if (!d) {
		aw_unobserved(uctx, "inner.*", "opening /proc/sys/user: %s", aw_errname(errno));
		return;
	}
	struct dirent *e;
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		char path[300], item[300];
		long long v;
		snprintf(path, sizeof(path), "/proc/sys/user/%s", e->d_name);
		snprintf(item, sizeof(item), "inner.%s", e->d_name);
		int rc = aw_read_ll(path, &v);
		if (rc)
			aw_observe(uctx, item, "%s", aw_errname(rc));
		else
			aw_observe_long(uctx, item, v);
	}
	closedir(d);
}

static int maps_child(void *arg)
{
	(void)arg;
	uid_t uid = geteuid();
	gid_t gid = getegid();
	if (unshare(CLONE_NEWUSER) != 0) {
		aw_skip_rest_cause(uctx, "userns", "unshare(CLONE_NEWUSER) as uid %u: %s", (unsigned)uid, aw_errname(errno));
		return 0;
	}
	char map[64];
	snprintf(map, sizeof(map), "0 %u 1\n", (unsigned)gid);
	aw_observe(uctx, "gid_map.before_deny", "%s", write_word("/proc/self/gid_map", map));
	snprintf(map, sizeof(map), "0 %u 2\n", (unsigned)uid);
	aw_observe(uctx, "uid_map.range", "%s", write_word("/proc/self/uid_map", map));
	aw_observe(uctx, "uid_map.other", "%s", write_word("/proc/self/uid_map", uid ? "0 0 1\n" : "0 1 1\n"));
	snprintf(map, sizeof(map), "0 %u 1\n", (unsigned)uid);
	aw_observe(uctx, "uid_map.own", "%s", write_word("/proc/self/uid_map", map));
	int rc = aw_file_write("/proc/self/setgroups", "deny");
	if (rc) {
		aw_error(uctx, "gid_map.after_deny", "writing deny to setgroups: %s", aw_errname(rc));
		aw_error(uctx, "setgroups.after_deny", "writing deny to setgroups: %s", aw_errname(rc));
	} else {
		snprintf(map, sizeof(map), "0 %u 1\n", (unsigned)gid);
		aw_observe(uctx, "gid_map.after_deny", "%s", write_word("/proc/self/gid_map", map));
		aw_observe(uctx, "setgroups.after_deny", "%s", setgroups(0, NULL) == 0 ? "ok" : aw_errname(errno));
	}
	inner_limits();
	return 0;
}

static int block_fd = -1;

static void *idle_thread(void *arg)
{
	char c;
	(void)arg;
	(void)!read(block_fd, &c, 1);
	return NULL;
}

static int threads_child(void *arg)
{
	(void)arg;
	int p[2];
	pthread_t t;
	if (pipe(p) != 0) {
		aw_error(uctx, "threaded_unshare", "pipe: %s", aw_errname(errno));
		return 0;
	}
	block_fd = p[0];
	int rc = pthread_create(&t, NULL, idle_thread, NULL);
	if (rc) {
		aw_error(uctx, "threaded_unshare", "pthread_create: %s", aw_errname(rc));
		return 0;
	}
	aw_observe(uctx, "threaded_unshare", "%s", unshare(CLONE_NEWUSER) == 0 ? "ok" : aw_errname(errno));
	close(p[1]);
	pthread_join(t, NULL);
	return 0;
}

static int run_unprivileged(aw_child_fn fn)
{
	int refused = 0;
	if (geteuid() != 0)
		return aw_child_run(fn, NULL, PROCESS_CHILD_MS);
	int rc = aw_child_run_as(AW_NOBODY, AW_NOBODY, fn, NULL, PROCESS_CHILD_MS, &refused);
	if (refused)
		aw_skip_rest(uctx, "%s", aw_become_user_why(refused));
	return rc;
}

static void userns_run(struct aw_ctx *ctx)
{
	uctx = ctx;
	int rc = run_unprivileged(maps_child);
	if (rc)
		aw_note(ctx, "the namespace child ended with %d", rc);
	rc = run_unprivileged(threads_child);
	if (rc)
		aw_note(ctx, "the threaded child ended with %d", rc);
	aw_error_rest(ctx, "a child ended before it reported");
}

static const char *const userns_tags[] = {
	"linux-git:9cc46516ddf4", "man:user_namespaces(7)", "man:unshare(2)", NULL,
};

const struct aw_probe process_userns_probes[] = {
	{
		.name = "userns",
		.summary = "user namespaces made unprivileged: gid_map and setgroups, uid_map rules, limits inside, threads",
		.run = userns_run,
		.items = userns_items,
		.needs = { .userns = true },
		.tags = userns_tags,
	},
	AW_PROBES_END,
};

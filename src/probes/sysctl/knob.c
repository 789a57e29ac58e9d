// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * sysctl.knob: every file under /proc/sys as the probe's namespaces see
 * it (fresh network, IPC, UTS and PID namespaces; the machine's for the
 * rest): its mode, its value, and, where the value lives in a namespace
 * the probe makes itself, whether writing that value back is accepted.
 * sysctl -p, systemd-sysctl and container runtimes set knobs by name; a
 * knob that vanishes (net.ipv4.tcp_tw_recycle in 4.12) fails all of them.
 *
 * Safety: the walk only reads, never follows a mount or triggers an
 * automount (fs.binfmt_misc).  Writes happen only in children that made
 * new network, IPC and UTS namespaces (or a new user namespace) and
 * checked that they did, and only for knobs those namespaces own
 * (aw_sysctl_scope()).  A user namespace is no protection by itself (its
 * root is the host's root, who may write global knobs from it), so the
 * list of knobs is what keeps the host unchanged.  Global knobs are written back only inside an
 * `abiwatch vm` guest, which is thrown away, where the guard of every
 * sysctl write allows them (aw_sysctl_may_write()).
 */
#include "sysctl.h"
#include "lib/kconfig.h"
#include "lib/util.h"
#include "lib/child.h"
#include "lib/errname.h"
#include "lib/proc.h"
#include "lib/procfs.h"
#include "lib/sysctl_walk.h"
#include "lib/sizing.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define KNOB_CHANGE_VALUE \
	"a default that moved: configurations, tuning guides and programs that assume the old one behave differently"
/* A documented knob's value is "absent" (with the option that would make
 * it, where the configuration is known) on a kernel without the file:
 * diff counts absent -> a value as a knob that appeared, the other way
 * round as one that vanished. */
static const char *const knob_absent[] = { "absent", "absent (*", NULL };
#define KNOB_ITEM(n, s, ...) AW_OBS_ITEM(n, s, .absent = knob_absent, __VA_ARGS__)
#define SCALED(k, w, u, why)                                                             \
	KNOB_ITEM(k ".value", k ": " why, .varies_with = (w), .unit = (u),              \
		    .change = "sized from the machine's " w " at boot, by a formula abiwatch does not " \
			      "check: at equal " w ", the formula or what the kernel held then moved it")

/* A knob sized at boot whose formula the family declares (sized.c):
 * diff folds a move the formula gives for the recorded memory. */
#define SIZED(k, u, why, f)                                                              \
	KNOB_ITEM(k ".value", k ": " why, .varies_with = "memory", .unit = (u), .sizing = &(f), \
		  .change = AW_SIZED_CHANGE)

/* The initial user namespace's namespace limits, threads-max / 2 each. */
#define UCOUNT_MAX(ns)                                                                   \
	SIZED("user.max_" ns "_namespaces", "namespaces", "threads-max / 2 in the initial user namespace", \
	      sc_half_threads_max)

static const struct aw_item knob_items[] = {
	AW_OBS_ITEM("files", "files under /proc/sys the walk visited", .unit = "files",
		    .change = "knobs appeared or vanished (see the .mode keys)"),
	KNOB_ITEM("kernel.io_uring_disabled.value",
		    "kernel.io_uring_disabled (6.6): 0 io_uring for all, 1 only privileged or io_uring_group, 2 nobody",
		    .change = "io_uring_setup() may now fail with EPERM: programs need a fallback to epoll or threads"),
	KNOB_ITEM("kernel.io_uring_group.value",
		    "kernel.io_uring_group (6.6): the group allowed io_uring when io_uring_disabled is 1",
		    .change = "who may create io_uring instances changed"),
	KNOB_ITEM("dev.tty.legacy_tiocsti.value",
		    "dev.tty.legacy_tiocsti (6.2): 1 TIOCSTI works for everyone, 0 only with CAP_SYS_ADMIN",
		    .change = "0: ioctl(TIOCSTI) fails with EIO for programs without CAP_SYS_ADMIN (screen "
			      "readers, shells pushing input; the old suid attacks stop); 1: it works for everyone; "
			      "the boot default is CONFIG_LEGACY_TIOCSTI's (sysctl.kconfig.legacy_tiocsti)"),
	KNOB_ITEM("vm.memfd_noexec.value",
		    "vm.memfd_noexec (6.3): 0 memfd_create() executable by default, 1 sealed non-executable, 2 exec refused",
		    .change = "memfd_create() without MFD_EXEC may now give non-executable files or fail: "
			      "JITs and fexecve() loaders break"),
	KNOB_ITEM("kernel.sched_child_runs_first.value",
		    "kernel.sched_child_runs_first: whether the child runs first after fork() (removed in 6.7)",
		    .change = "sysctl.conf lines setting it fail with ENOENT; programs relying on it race"),
	/* kernel/sched/topology.c sched_energy_aware_handler() since
	 * 8f833c82cdab (6.9): where energy-aware scheduling is not possible
	 * (no energy model, symmetric CPUs: every x86 guest) a read gives
	 * nothing and a write EOPNOTSUPP. */
	KNOB_ITEM("kernel.sched_energy_aware.value",
		    "kernel.sched_energy_aware: 1 energy-aware scheduling on where the platform can do it; "
		    "reads empty where it cannot (6.9)",
		    .change = "empty: the kernel says this machine cannot do energy-aware scheduling "
			      "(8f833c82cdab, 6.9), where it showed 1 that did nothing; writing it now fails "
			      "with EOPNOTSUPP, so sysctl.conf lines setting it fail; not a default that moved",
		    .witness = &sc_witness),
	KNOB_ITEM("net.ipv4.tcp_tw_recycle.value",
		    "net.ipv4.tcp_tw_recycle: fast TIME-WAIT recycling (removed in 4.12)",
		    .change = "every sysctl -p with this line fails"),
	KNOB_ITEM("kernel.unprivileged_userns_clone.value",
		    "kernel.unprivileged_userns_clone (a Debian patch): whether unprivileged users may make user namespaces",
		    .change = "rootless containers and browser sandboxes fail (or start working)",
		    .witness = &sc_witness),
	KNOB_ITEM("kernel.split_lock_mitigate.value",
		    "kernel.split_lock_mitigate (6.2, 6.1.y): 1 split-lock offenders are slowed down, 0 only warned",
		    .change = "programs doing split locked accesses (old games under Wine) become very slow or not"),
	KNOB_ITEM("kernel.unprivileged_bpf_disabled.value",
		    "kernel.unprivileged_bpf_disabled: 0 bpf() for everyone, 1 or 2 only privileged",
		    .change = "unprivileged bpf() now fails with EPERM"),
	KNOB_ITEM("kernel.yama.ptrace_scope.value",
		    "kernel.yama.ptrace_scope: 0 classic ptrace, 1 descendants only, 2 admin only, 3 none",
		    .change = "debuggers and crash handlers attaching to other processes get EPERM"),
	SIZED("kernel.threads-max", "threads", "about one thread per 128 KiB of memory (kernel/fork.c)", sc_threads_max),
	SIZED("fs.file-max", "files", "about 10 % of the memory free once booted, in KiB (fs/file_table.c)", sc_file_max),
	SIZED("fs.epoll.max_user_watches", "watches", "4 % of memory per epoll item (fs/eventpoll.c)",
	      sc_epoll_watches),
	SCALED("fs.inotify.max_user_watches", "memory", "watches",
	       "1 % of memory per watch, 8192 to 1048576 since 5.11 (92890123749b)"),
	SCALED("fs.fanotify.max_user_marks", "memory", "marks", "1 % of memory per mark, 8192 to 1048576"),
	SCALED("user.max_inotify_watches", "memory", "watches", "the initial user namespace's inotify.max_user_watches"),
	SCALED("user.max_fanotify_marks", "memory", "marks", "the initial user namespace's fanotify.max_user_marks"),
	UCOUNT_MAX("user"),
	UCOUNT_MAX("pid"),
	UCOUNT_MAX("uts"),
	UCOUNT_MAX("ipc"),
	UCOUNT_MAX("net"),
	UCOUNT_MAX("mnt"),
	UCOUNT_MAX("cgroup"),
	UCOUNT_MAX("time"),
	SIZED("vm.min_free_kbytes", "KiB", "sqrt(16 x low memory in KiB), raised by khugepaged (mm/page_alloc.c)",
	      sc_min_free),
	SIZED("vm.user_reserve_kbytes", "KiB", "free memory / 32, at most 128 MiB (mm/util.c)", sc_user_reserve),
	SIZED("vm.admin_reserve_kbytes", "KiB", "free memory / 32, at most 8 MiB (mm/util.c)", sc_admin_reserve),
	SCALED("net.ipv4.tcp_max_syn_backlog", "memory", "requests", "established-hash size / 128, at least 128"),
	SCALED("net.ipv4.tcp_max_tw_buckets", "memory", "sockets", "established-hash size / 2"),
	SCALED("net.ipv4.tcp_ehash_entries", "memory", NULL,
	       "established-hash size, one slot per 128 KiB (negative in a child netns: the global table)"),
	SCALED("net.ipv4.udp_hash_entries", "memory", NULL, "UDP hash size, one slot per 2 MiB (negative in a child netns)"),
	SCALED("net.ipv4.tcp_rmem", "memory", NULL,
	       "receive buffer min, default, max: max from low memory / 128, capped (6 MiB, 32 MiB since 6.16)"),
	SCALED("net.ipv4.tcp_wmem", "memory", NULL, "send buffer min, default, max: max from low memory / 128, capped at 4 MiB"),
	KNOB_ITEM("kernel.pid_max.value",
		    "kernel.pid_max: 32768, or 1024 per possible CPU above 32; per PID namespace since 6.14 (7863dcc72d0f)",
		    .varies_with = "cpus", .unit = "pids", .witness = &sc_witness,
		    .change = "largest pid + 1: programs storing pids in 16 bits or sizing tables by it break"),
	KNOB_ITEM("kernel.watchdog_cpumask.value", "kernel.watchdog_cpumask: the CPUs the lockup watchdog runs on",
		    .varies_with = "cpus", .change = "follows the CPUs of the machine"),
	KNOB_ITEM("net.core.rps_default_mask.value", "net.core.rps_default_mask: a CPU mask as wide as the CPUs",
		    .varies_with = "cpus", .change = "follows the CPUs of the machine"),
	/* The hard lockup detector needs hardware perf events: on a CPU
	 * without a PMU (QEMU's TCG) writing the knob fails with ENOTSUPP
	 * (524), and newer kernels make it read-only (kernel/watchdog.c
	 * watchdog_sysctl_init(): 0644 only when watchdog_hardlockup_available). */
	AW_OBS_ITEM("kernel.nmi_watchdog.mode", "kernel.nmi_watchdog's permission bits: 0444 where the "
		    "kernel found no hard lockup detector to run", .varies_with = "pmu",
		    .change = "follows whether the CPU has a PMU; on one that has, a new mode changes "
			      "who may switch the NMI watchdog"),
	AW_OBS_ITEM("kernel.nmi_watchdog.value", "kernel.nmi_watchdog: 1 the hard lockup detector runs",
		    .varies_with = "pmu",
		    .change = "follows whether the CPU has a PMU; on one that has, the NMI watchdog's default moved"),
	AW_OBS_ITEM("kernel.nmi_watchdog.writeback", "writing kernel.nmi_watchdog's value back: accepted, "
		    "or the errno (ENOTSUPP, 524, without a PMU)", .varies_with = "pmu",
		    .change = "follows whether the CPU has a PMU; on one that has, sysctl.conf lines "
			      "switching the NMI watchdog now fail, or stop failing"),
	/* Before the walk: what registers knobs while it is there
	 * (witness.c), so that diff tells a module's knobs from the kernel's. */
	AW_OBS_ITEM("module.*", "a module that registers knobs while it is there, as the walk found it: "
		    "loaded, not loaded, built in or not built, with its configuration option (=m, =y)",
		    .witness = &sc_witness,
		    .change = "the module is there on one side only: the knobs it registers appear or vanish with it"),
	AW_OBS_ITEM("*.mode", "the file's permission bits, in octal: the knob exists on this kernel",
		    .change = "a knob that vanished fails every sysctl.conf line, runtime and program that sets it "
			      "(ENOENT); one that appeared is a new interface; a new mode changes who may set it",
		    .witness = &sc_witness),
	/* A running machine's values may be its set-up's (sysctl.d, the
	 * command line, its init; namespaced knobs too, where a new
	 * namespace copies the initial one's): compared between fresh boots
	 * or runs of one machine, not across. */
	AW_OBS_ITEM("*.value", "the value as read, tabs as spaces, without the last newline (unobserved: why not read)",
		    .change = KNOB_CHANGE_VALUE, .varies_with = "setup", .witness = &sc_witness),
	AW_OBS_ITEM("*.writeback",
		    "writing the value just read back, in a namespace of the probe's own (in an abiwatch vm guest, "
		    "any knob): accepted, or the errno",
		    .change = "tools that rewrite current values (sysctl --system, container runtimes, "
			      "configuration managers) now fail on this knob, or stop failing",
		    .witness = &sc_witness),
	AW_ITEMS_END,
};

/* The walk's context: where it is, what it counted. */
struct walk {
	struct aw_ctx *ctx;
	long files;
	char **writable; /* namespaced knobs to try writing back */
	size_t nwritable;
};

static bool key_safe(const char *component)
{
	if (!*component)
		return false;
	for (const char *c = component; *c; c++)
		if (!((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9') ||
		      *c == '_' || *c == '-' || *c == '+'))
			return false;
	return true;
}

/* The whole content of an open sysctl file, at most cap bytes; the
 * length, or -errno.  st_size is 0 for all of them. */
static ssize_t read_all(int fd, char *buf, size_t cap)
{
	size_t off = 0;
	for (;;) {
		ssize_t r = read(fd, buf + off, cap - off);
		if (r < 0)
			return errno == EINTR ? -EINTR : -errno;
		if (r == 0 || (off += (size_t)r) == cap)
			return (ssize_t)off;
	}
}

/* Read a knob relative to dirfd: the length, or -errno. */
static ssize_t read_knob(int dirfd, const char *file, char *buf, size_t cap)
{
	int fd = openat(dirfd, file, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOFOLLOW);
	if (fd < 0)
		return -errno;
	ssize_t n = read_all(fd, buf, cap);
	close(fd);
	return n;
}

#define READ_CAP 65536

static void observe_value(struct walk *w, const char *knob, int dirfd, const char *file,
			  mode_t mode)
{
	static char buf[READ_CAP];
	char obs[512];
	const char *why = sc_value_skip(knob);

	snprintf(obs, sizeof(obs), "%s.value", knob);
	if (why) {
		aw_unobserved(w->ctx, obs, "not recorded: %s", why);
		return;
	}
	if (!(mode & 0444)) {
		aw_unobserved(w->ctx, obs, "write-only (mode %04o): reading fails, writing acts", mode);
		return;
	}
	ssize_t n = read_knob(dirfd, file, buf, sizeof(buf));
	if (n < 0) {
		aw_unobserved(w->ctx, obs, "read: %s", aw_errname((int)-n));
		return;
	}
	char *text = sc_value_text(buf, (size_t)n);
	if (text)
		aw_observe(w->ctx, obs, "%s", text);
	else
		aw_unobserved(w->ctx, obs, "binary value of %zd bytes", n);
	free(text);
}

static void visit_file(struct walk *w, const char *knob, int dirfd, const char *file,
		       const struct stat *st)
{
	char obs[512];
	mode_t mode = st->st_mode & 07777;

	w->files++;
	snprintf(obs, sizeof(obs), "%s.mode", knob);
	aw_observe(w->ctx, obs, "%04o", mode);
	observe_value(w, knob, dirfd, file, mode);
	if (mode & 0444) {
		w->writable = xgrow(w->writable, w->nwritable, sizeof(*w->writable));
		w->writable[w->nwritable++] = xstrdup(knob);
	}
}

/* An entry of the walk of /proc/sys: a knob's file is visited, a
 * directory entered, where either has a name a snapshot key can hold. */
static bool visit(const struct aw_sysctl_entry *e, void *arg)
{
	struct walk *w = arg;

	if (e->why) {
		aw_note(w->ctx, "%s: %s", e->knob, e->why);
		return false;
	}
	if (!key_safe(e->name)) {
		aw_note(w->ctx, "%s: a name no snapshot key can hold, not recorded", e->knob);
		return false;
	}
	if (S_ISREG(e->st->st_mode))
		visit_file(w, e->knob, e->dirfd, e->name, e->st);
	return S_ISDIR(e->st->st_mode);
}

/* ---- writing back ---- */

/* Write back what a knob reads now, in one write(2) from offset 0 (as
 * kernel.sysctl_writes_strict wants), and say how it went. */
static void write_back(struct aw_ctx *ctx, const char *knob)
{
	static char buf[READ_CAP], after[READ_CAP];
	char obs[512];
	char *path = aw_sysctl_path(knob);
	ssize_t n = read_knob(AT_FDCWD, path, buf, sizeof(buf));

	snprintf(obs, sizeof(obs), "%s.writeback", knob);
	if (n <= 0) {
		aw_unobserved(ctx, obs, n == 0 ? "reads empty: nothing to write back"
					       : "read: %s", aw_errname((int)-n));
		free(path);
		return;
	}
	/* The guard of every sysctl write (core/probe.h): a knob of a
	 * namespace the writer does not own is never opened for writing. */
	int refused = aw_sysctl_may_write(ctx, knob);
	if (refused) {
		aw_unobserved(ctx, obs, "not tried: %s", aw_sysctl_strerror(refused));
		free(path);
		return;
	}
	int fd = open(path, O_WRONLY | O_CLOEXEC | O_NOFOLLOW);
	ssize_t wrote = fd < 0 ? -1 : write(fd, buf, (size_t)n);
	int err = errno;
	if (fd >= 0)
		close(fd);
	if (fd < 0 || wrote < 0) {
		aw_observe(ctx, obs, "%s", aw_errname(err));
	} else if (wrote != n) {
		aw_observe(ctx, obs, "short write: %zd of %zd bytes", wrote, n);
	} else {
		ssize_t m = read_knob(AT_FDCWD, path, after, sizeof(after));
		bool same = m == n && memcmp(buf, after, (size_t)n) == 0;
		aw_observe(ctx, obs, same ? "accepted" : "accepted, value changed");
	}
	free(path);
}

struct writer {
	struct aw_ctx *ctx;
	char **knobs;
	size_t n;
	enum aw_sysctl_scope scope;
};

static void write_back_scope(struct writer *wr)
{
	for (size_t i = 0; i < wr->n; i++) {
		enum aw_sysctl_scope s = aw_sysctl_scope(wr->knobs[i]);
		const char *why = sc_writeback_skip(wr->knobs[i]);
		char obs[512];
		if (wr->scope == AW_SCOPE_USER ? s != AW_SCOPE_USER : (s == AW_SCOPE_USER || s == AW_SCOPE_GLOBAL))
			continue;
		snprintf(obs, sizeof(obs), "%s.writeback", wr->knobs[i]);
		if (why)
			aw_unobserved(wr->ctx, obs, "not tried: %s", why);
		else
			write_back(wr->ctx, wr->knobs[i]);
	}
}

/* In new network, IPC and UTS namespaces, checked to be new. */
static int net_ipc_uts_writer(void *arg)
{
	struct writer *wr = arg;
	if (unshare(CLONE_NEWNET | CLONE_NEWIPC | CLONE_NEWUTS) != 0)
		return 10;
	if (!aw_private_ns(wr->ctx, AW_SCOPE_NET) || !aw_private_ns(wr->ctx, AW_SCOPE_IPC) ||
	    !aw_private_ns(wr->ctx, AW_SCOPE_UTS))
		return 11;
	wr->scope = AW_SCOPE_NET;
	write_back_scope(wr);
	return 0;
}

/* In a new user namespace, checked to be new: user.* there are its own
 * limits (kernel/ucount.c looks them up in the reader's namespace).  As
 * in the other writer, only the knobs of that namespace are written. */
static int user_writer(void *arg)
{
	struct writer *wr = arg;
	if (aw_enter_userns(0) != 0)
		return 10;
	if (!aw_private_ns(wr->ctx, AW_SCOPE_USER))
		return 11;
	wr->scope = AW_SCOPE_USER;
	write_back_scope(wr);
	return 0;
}

static void report_writer(struct aw_ctx *ctx, struct writer *wr, int rc, const char *what)
{
	if (rc == 0)
		return;
	for (size_t i = 0; i < wr->n; i++) {
		enum aw_sysctl_scope s = aw_sysctl_scope(wr->knobs[i]);
		char obs[512];
		if ((wr->scope == AW_SCOPE_USER) != (s == AW_SCOPE_USER) || s == AW_SCOPE_GLOBAL)
			continue;
		snprintf(obs, sizeof(obs), "%s.writeback", wr->knobs[i]);
		/* a second report of a name is harmless: the worse one stays */
		aw_unobserved(ctx, obs, "%s: %s", what,
			      rc == 10 ? "unshare refused" : rc == 11 ? "could not make or check it"
			      : rc == -ETIMEDOUT ? "timed out" : "the child failed");
	}
}

/* Global knobs, only where the guard of every sysctl write lets them be
 * written: in a guest of abiwatch vm, which is thrown away.  Elsewhere
 * each is recorded as a skip of cause vm, never left out, so that diff
 * folds a guest's "accepted" against a host's skip under the environment
 * instead of calling the key removed.  The guard decides, not the probe:
 * what it refuses a global knob is the VM guest. */
static void write_back_global(struct aw_ctx *ctx, char **knobs, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		char obs[512];
		const char *why = sc_writeback_skip(knobs[i]);
		if (aw_sysctl_scope(knobs[i]) != AW_SCOPE_GLOBAL)
			continue;
		snprintf(obs, sizeof(obs), "%s.writeback", knobs[i]);
		if (why)
			aw_unobserved(ctx, obs, "not tried: %s", why);
		else if (aw_sysctl_may_write(ctx, knobs[i]) == AW_SYSCTL_REFUSED)
			aw_skip_cause(ctx, obs, "vm", "a global knob is written back only in an abiwatch vm guest");
		else
			write_back(ctx, knobs[i]);
	}
}

/* A knob of a security module the kernel did not start: its value, mode
 * and write-back are skips with the cause lsm:NAME (aw_skip_unless_lsm()). */
static bool lsm_not_started(struct aw_ctx *ctx, const char *knob, const char *lsm)
{
	static const char *const parts[] = { "value", "mode", "writeback" };
	bool off = false;
	for (size_t i = 0; i < AW_ARRAY_SIZE(parts); i++) {
		char obs[512];
		snprintf(obs, sizeof(obs), "%s.%s", knob, parts[i]);
		off = aw_skip_unless_lsm(ctx, obs, lsm);
	}
	return off;
}

/* Every documented knob gets its value reported: "absent" where there is
 * no such file (what `sysctl -w` and a program opening it meet), with
 * the configuration option that would make it when the run knows it, so
 * that "absent (CONFIG_X=y)" reads as removed, not configured out. */
static void report_absent(struct aw_ctx *ctx)
{
	struct aw_kconfig cfg;
	aw_kconfig_load(&cfg);
	for (const struct aw_item *it = knob_items; it->name; it++) {
		size_t len = strlen(it->name);
		if (aw_item_is_pattern(it) || len < 6 || strcmp(it->name + len - 6, ".value") != 0 ||
		    aw_reported(ctx, it->name))
			continue;
		char *knob = strndup(it->name, len - 6);
		const char *option = NULL, *lsm = NULL;
		for (size_t k = 0; k < sc_nknown_knobs; k++)
			if (strcmp(sc_known_knobs[k].knob, knob) == 0) {
				option = sc_known_knobs[k].config;
				lsm = sc_known_knobs[k].lsm;
			}
		if (lsm && lsm_not_started(ctx, knob, lsm)) {
			free(knob);
			continue;
		}
		char *set = option && cfg.text ? aw_kconfig_value(cfg.text, cfg.len, option) : NULL;
		if (set)
			aw_observe(ctx, it->name, "absent (CONFIG_%s=%s)", option, set);
		else
			aw_observe(ctx, it->name, "absent");
		free(set);
		free(knob);
	}
	aw_kconfig_free(&cfg);
}

static void knob_run(struct aw_ctx *ctx)
{
	struct walk w = { .ctx = ctx };
	struct aw_kconfig cfg;
	aw_kconfig_load(&cfg);
	sc_report_modules(ctx, &cfg);
	aw_kconfig_free(&cfg);
	int rc = aw_sysctl_walk("/proc/sys", "", visit, &w);

	if (rc < 0) {
		aw_skip_rest(ctx, "/proc/sys: %s", aw_errname(-rc));
		return;
	}
	aw_observe_long(ctx, "files", w.files);
	report_absent(ctx);

	struct writer wr = { .ctx = ctx, .knobs = w.writable, .n = w.nwritable };
	report_writer(ctx, &wr, aw_child_run(net_ipc_uts_writer, &wr, 20000), "new namespaces");
	wr.scope = AW_SCOPE_USER;
	report_writer(ctx, &wr, aw_child_run(user_writer, &wr, 20000), "a new user namespace");
	write_back_global(ctx, w.writable, w.nwritable);
	for (size_t i = 0; i < w.nwritable; i++)
		free(w.writable[i]);
	free(w.writable);
}

static const char *const knob_tags[] = {
	"man:sysctl(8)", "man:proc_sys(5)", "linux-git:4396e46187ca", "linux-git:76d3ccecfa18",
	"linux-git:83efeeeb3d04", "linux-git:105ff5339f49", NULL,
};

const struct aw_probe sc_knob_probes[] = {
	{ .name = "knob", .summary = "every file under /proc/sys: mode, value, and whether its value can be written back",
	  .run = knob_run, .items = knob_items, .tags = knob_tags, .timeout_s = 60,
	  /* Writing a value back is not always idle: vm.drop_caches and
	   * vm.compact_memory act on every write. */
	  .alone = "in a VM guest it writes every global knob back, and some writes act on the "
		   "whole machine (vm.drop_caches, vm.compact_memory)" },
	AW_PROBES_END,
};

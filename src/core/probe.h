/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The interface between the core and a family of probes.
 *
 * A family is a folder under src/probes/ whose files declare probes in
 * tables and register the family with AW_FAMILY().  The core finds every
 * family through a linker section, so it never names one.  A probe runs in
 * a forked child inside private IPC, mount and PID namespaces; it reports
 * what it saw through the aw_* calls below, which the runner collects.
 */
#ifndef ABIWATCH_PROBE_H
#define ABIWATCH_PROBE_H

#include <stdbool.h>
#include <stddef.h>

#include "lib/sizing.h"

enum aw_item_kind {
	AW_CHECK,       /* a documented contract: pass, fail or skip */
	AW_OBSERVATION, /* a fact no contract fixes: a value to compare */
};

/* One check or observation a probe declares.  Its full name is
 * FAMILY.PROBE.NAME; NAME may itself contain dots.  A "*" component makes
 * it a pattern item ("knob.*.value"), for names known only at run time:
 * it covers every reported name with one or more components in its place
 * ("knob.net.ipv4.tcp_mem.value"), each a result of its own.  Declaration
 * order decides: a specific item declared before the pattern reports its
 * own name with its own summary and .change. */
struct aw_item {
	enum aw_item_kind kind;
	const char *name;
	const char *summary;
	/* For an observation: what a change of its value means for
	 * programs, in one line, for `abiwatch diff` ("encoders packing bits
	 * above d_off lose them").  NULL: the summary is shown instead. */
	const char *change;
	/* For an observation whose value is a decimal number: what it counts
	 * ("B", "bit", "messages"), for the number fields of KCIDB and LAVA.
	 * NULL: the value is not a quantity (an errno, a mode, a name). */
	const char *unit;
	/* For an observation whose value follows the machine rather than
	 * the kernel: "memory" or "cpus" (a default sized from RAM, like
	 * kernel.threads-max).  diff attributes a change of it to the
	 * environment when that side of the machine differs.  NULL: the
	 * value is the kernel's. */
	const char *varies_with;
	/* The thing the item describes, relative to the probe ("pidfd" for
	 * vfs.anon.pidfd.f_type), so that diff shows the changes of one
	 * object together: a knob that appeared is one line with its mode,
	 * value and write-back.  NULL: the item's name without its last
	 * component ("knob.net.ipv4.tcp_mem" of a pattern item's reported
	 * "knob.net.ipv4.tcp_mem.value"), or the probe itself for a name
	 * without a dot.  "": the probe itself (dirent's compat32.* items
	 * describe the same directory as its native ones). */
	const char *object;
	/* For an observation: the values that mean the interface is not there
	 * at all ("absent", "ENOSYS", "EINVAL" for a flag refused), ended by
	 * NULL, each an fnmatch(3) pattern ("absent (*"; a plain value
	 * matches itself).  A key one side lacks is absent there too.  A change from one of them to another value is an interface
	 * that appeared, which diff counts apart from behaviour changes; the
	 * other way round, one that vanished, a possible break.  NULL: no
	 * value means that. */
	const char *const *absent;
	/* Only in the guest of abiwatch vm (see struct aw_needs.vm_guest):
	 * why, for the skip elsewhere (cause vm).  For an item whose probe
	 * runs anywhere but which alone changes what no namespace holds (a
	 * system call that sets the clock, a write through a list under
	 * test).  Elsewhere the runner reports it skipped before the probe
	 * starts, and aw_item_needs_met() tells the probe to leave it.  Not
	 * for a pattern item, which has no name of its own to skip.  NULL:
	 * it is observed wherever its probe runs. */
	const char *vm_guest;
	/* For an observation the kernel sizes from the machine at boot
	 * (fs.file-max from the pages it had then): how the value follows
	 * what the snapshot records, so that diff folds a move the formula
	 * explains ("the same formula, other inputs") and keeps one it
	 * cannot give as the kernel's.  Needs .varies_with "memory".  NULL:
	 * no formula is declared; a move at equal memory is the kernel's. */
	const struct aw_sizing *sizing;
	/* For an observation whose key a run may have or lack, or whose
	 * value a run may read, for a reason the same snapshot records (a
	 * knob a module registers while loaded; one a kernel shows in a
	 * child network namespace or only in the initial one; one read in a
	 * fresh namespace; a default a distribution's patch sets): what
	 * records it, so that diff names that cause instead of calling the
	 * knob appeared, vanished or moved.  NULL: the kernel's own. */
	const struct aw_witness_rule *witness;
};

/* What a witness of an item is (struct aw_item.witness). */
enum aw_witness_kind {
	/* The item's key exists only while a module is there: the witness
	 * holds the module's state as lib/kmodule.h writes it. */
	AW_WITNESS_MODULE,
	/* The item's key exists only where a namespace shows it: the
	 * witness is the same knob's key as the initial namespace showed it
	 * alone, present on a run where the item's is not. */
	AW_WITNESS_ELSEWHERE,
	/* The item is read in the probe's fresh namespace: the witness is the
	 * same knob read in the run's own (env.sysctl.*). */
	AW_WITNESS_MACHINE,
	/* The item's key (or an element of its list) exists only where a
	 * configuration option is on: the witness is the option's value as
	 * a kconfig probe records it (sysctl.kconfig, surface.kconfig: "y",
	 * "m", "n", or "absent", not an option of that kernel). */
	AW_WITNESS_CONFIG,
	/* A default a distribution's patch set: the witness is the
	 * configuration option that decides it, which both sides must give
	 * alike for the patch, not the option, to explain the move. */
	AW_WITNESS_PATCH,
	/* The item's key exists only on a kernel that carries a
	 * distribution's patch: the witness is the kernel's version
	 * (env.kernel.version), which names the distribution; a kernel
	 * whose version does not has no witness. */
	AW_WITNESS_PATCH_ADDED,
};

struct aw_witness {
	enum aw_witness_kind kind;
	char cause[64];   /* "module:nf_conntrack", "netns", "pidns", "distro" */
	char key[512];    /* the witness's full item name ("sysctl.knob.module.nf_conntrack") */
	const char *why;  /* in words, with the source: "registered by net/netfilter/nf_conntrack_standalone.c" */
	/* AW_WITNESS_ELSEWHERE: the item is the initial namespace's reading
	 * and the witness a child's (false: the other way round). */
	bool initial;
};

struct aw_witness_rule {
	/* The witness of the reported item name (FAMILY.PROBE.NAME) on a
	 * kernel of release and version (env.kernel.release, .version; NULL
	 * where a snapshot lacks them): false where none. */
	bool (*find)(const char *name, const char *release, const char *version, struct aw_witness *out);
	/* For an observation whose value is a comma list of names (the keys
	 * of /proc/meminfo): the witness of one element, which may be there
	 * on one side only for a reason the snapshot records (a key printed
	 * only under a configuration option), so that diff folds that
	 * element under its cause and keeps the others the kernel's.  NULL,
	 * or false: the element is the kernel's own. */
	bool (*find_element)(const char *name, const char *element, struct aw_witness *out);
};

/* struct aw_boot_inputs (lib/sizing.h): what a snapshot records of what
 * the kernel sized its boot-time values from (env.memory, env.page_size). */

/* The kernel's formula for a value sized at boot, declared by the family
 * that observes it.  What the formula read at boot and no one can read
 * later (the free pages at that moment) is taken over a plausible range,
 * which .unread names, so that two boots of one kernel fit while a
 * formula that changed does not. */
struct aw_sizing {
	const char *formula; /* in words, with its source: "pages x 4 / 10 (fs/file_table.c)" */
	const char *unread;  /* the input not recorded, and the range taken for it */
	/* Whether the formula can give value (as observed) for in. */
	bool (*fits)(const char *value, const struct aw_boot_inputs *in);
};

/* Further fields may follow the summary: AW_OBS_ITEM("x", "...", .change = "..."). */
#define AW_CHECK_ITEM(n, s, ...) { .kind = AW_CHECK, .name = (n), .summary = (s), __VA_ARGS__ }
#define AW_OBS_ITEM(n, s, ...)   { .kind = AW_OBSERVATION, .name = (n), .summary = (s), __VA_ARGS__ }
#define AW_ITEMS_END         { .name = NULL }

/* Whether the item is a pattern item (a "*" component). */
bool aw_item_is_pattern(const struct aw_item *it);

/* What a probe needs before it is worth starting, decided by the runner
 * before it forks the probe.  Anything missing makes the whole probe a
 * skip whose reason names the missing piece, as a cause of the machine
 * where it is one (core/status.h), so that diff puts it under the
 * environment and not among the kernel's changes. */
struct aw_needs {
	const int *caps;           /* capabilities in the initial user
				      namespace, terminated by -1 (cause cap_NAME) */
	const char *const *files;  /* paths that must exist, NULL-terminated */
	const char *const *kconfig; /* CONFIG_ options, informational, for
				       kselftest's config file; NULL-terminated */
	/* Kernel modules (names or aliases) that the probe's calls load on
	 * demand where the kernel has them as modules (a netlink family, a
	 * filesystem), NULL-terminated: the VM guest carries them, as a
	 * machine with its modules installed would load them.  Not a skip
	 * where they are missing: the probe reports what the call says. */
	const char *const *modules;
	/* Only in the guest of abiwatch vm, a machine thrown away after the
	 * run (aw_vm_guest()): why, for the skip elsewhere (cause vm).
	 * For a probe that changes what no namespace holds (a cgroup v1
	 * mount), or whose values are a fresh machine's (init's rlimits).
	 * NULL: it runs anywhere. */
	const char *vm_guest;
	/* User namespaces an unprivileged process can make, as the run
	 * found (env.userns; cause userns). */
	bool userns;
	/* i386 programs, as the run found (env.i386; cause i386): for a
	 * probe that is its family's 32-bit helper and nothing else.  A probe
	 * with some 32-bit items needs nothing: aw_helper_report() skips
	 * those with the same cause. */
	bool i386_programs;
};

struct aw_ctx;

/* A probe's timeout where it declares none. */
#define AW_DEFAULT_TIMEOUT_S 10.0

struct aw_probe {
	const char *name;            /* unique within the family, no spaces */
	const char *summary;         /* one line */
	void (*run)(struct aw_ctx *ctx);
	const struct aw_item *items; /* terminated by AW_ITEMS_END */
	struct aw_needs needs;
	/* Where the contract and the history come from, as "kind:ref":
	 * linux-git:<commit>, man:<page>(<section>), posix:<interface>. */
	const char *const *tags;
	unsigned timeout_s;          /* 0: the runner's default */
	/* Where the probe's work grows with an AW_PARAM_INT option of its
	 * family (dirent's entries): the option's name.  timeout_s is made
	 * for the option's default, and each unit beyond it adds
	 * timeout_per_unit_s, so that a bound made for 10,000 entries does
	 * not take a million for a hang (core/runner.c).  NULL: fixed. */
	const char *timeout_param;
	double timeout_per_unit_s;
	/* For probes that share a run function (one per filesystem, say):
	 * what this one is about.  Read it back with aw_probe_data(). */
	const void *data;
	/* A directory of the host the probe works in (--path DIR).  The
	 * runner makes a fresh subdirectory there for each run of the probe
	 * and hands the probe a descriptor of it: aw_host_dirfd().  It
	 * removes the subdirectory once the probe's namespace is gone,
	 * however the probe ended (a timeout, a kill of abiwatch); where
	 * it cannot be made, the probe is skipped with the reason. */
	const char *host_path;
	/* Why the probe must run with no other probe beside it when a run
	 * runs several at a time (run --jobs, a guest with several CPUs):
	 * it changes what no namespace holds and others read (a global
	 * knob, the clock, a cgroup v1 mount), or what it measures is a
	 * time or a machine-wide count that another's work disturbs.  NULL:
	 * its namespaces are all it touches, so it may run beside any. */
	const char *alone;
};

/* What a family option takes: every value is checked against its
 * declaration before anything runs, and a bad one is a usage error that
 * names the option, the value and what was expected. */
enum aw_param_type {
	AW_PARAM_TEXT, /* any text */
	AW_PARAM_INT,  /* a whole number from .minval to .maxval */
	AW_PARAM_ENUM, /* one of .words */
	AW_PARAM_LIST, /* comma-separated globs of the family's probes (--fs ext4,xfs) */
};

/* An option of `abiwatch run` that a family declares, such as dirent's
 * entries: a table row, as stress-ng's and fio's options are.  On the
 * command line it is --FAMILY-NAME (--dirent-entries), so that families
 * never compete for a name.  Probes read its value (the last given, else
 * .dflt) by its name with aw_param_int(), aw_param_enum() or
 * aw_param_text(). */
struct aw_param {
	const char *name;       /* within the family: "entries" */
	/* An older spelling that keeps working ("entries": --entries), from
	 * before options were the family's own; NULL: none.  No new option
	 * has one. */
	const char *alias;
	const char *metavar;    /* "N", "LABEL=DIR" */
	const char *help;
	enum aw_param_type type;
	long long minval, maxval;   /* AW_PARAM_INT */
	const char *const *words;   /* AW_PARAM_ENUM: NULL-terminated */
	const char *dflt;           /* the value when not given, as it would be given */
	/* AW_PARAM_LIST (and only it): the probes it names are the ones of
	 * the family to run. */
	bool selects;
	/* Each value adds a probe made from it (--path LABEL=DIR), or fails
	 * with *why set (malloc'd): what was expected.  A name the family
	 * has already is refused before. */
	struct aw_probe *(*instantiate)(const char *value, char **why);
	void (*release)(struct aw_probe *made); /* undoes instantiate */
};

#define AW_PROBES_END { .name = NULL }

struct aw_family {
	const char *name;
	const char *summary;
	/* The probe tables of the family's files, in order, each ended by
	 * AW_PROBES_END; the list itself ends with NULL. */
	const struct aw_probe *const *tables;
	const struct aw_param *params; /* terminated by { .name = NULL } */
	/* Its static i386 helper program, if it has one ("abiwatch-dirent-m32"),
	 * found with aw_helper_path(); it answers --hello (core/i386.h). */
	const char *helper32;
};

/* Register a family: one line at the end of the family's main file. */
#define AW_FAMILY(var)                                                     \
	static const struct aw_family *const aw_family_ptr_##var           \
		__attribute__((used, section("aw_families"), aligned(sizeof(void *)))) = &(var)

/* ---- reporting, for use inside a probe's run function ---- */

/* These work alike in the probe and in any process it forks (see
 * lib/child.h): every process of a probe shares one record of what was
 * reported, and each report is one whole line to the runner. */

void aw_pass(struct aw_ctx *ctx, const char *check);
void aw_fail(struct aw_ctx *ctx, const char *check, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* A check (or observation) that cannot be decided here, and why. */
void aw_skip(struct aw_ctx *ctx, const char *check, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* A skip the machine caused: cause names what it lacked ("i386",
 * "cap_sys_resource", "userns", "fs:xfs", "memory", "cpus", "vm"; see
 * core/status.h), so that diff, check and report attribute it to the
 * environment and not to the kernel.  The reason reads "needs CAUSE: ...". */
void aw_skip_cause(struct aw_ctx *ctx, const char *item, const char *cause, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
/* A check or observation that could not be decided because the probe's
 * own machinery failed (an mkfs that broke, an unexpected errno). */
void aw_error(struct aw_ctx *ctx, const char *check, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* Pass when cond holds, otherwise fail with the message. */
bool aw_expect(struct aw_ctx *ctx, const char *check, bool cond,
	       const char *fmt, ...) __attribute__((format(printf, 4, 5)));

void aw_observe(struct aw_ctx *ctx, const char *obs, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void aw_observe_long(struct aw_ctx *ctx, const char *obs, long long value);
/* An observation that cannot be made here, and why. */
void aw_unobserved(struct aw_ctx *ctx, const char *obs, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Report every declared item not reported yet, as skipped (or as an
 * error): for a probe that finds out it cannot go on. */
void aw_skip_rest(struct aw_ctx *ctx, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void aw_error_rest(struct aw_ctx *ctx, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* aw_skip_rest() for a skip the machine caused (see aw_skip_cause()). */
void aw_skip_rest_cause(struct aw_ctx *ctx, const char *cause, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Whether item was reported already, by this process or another of the
 * probe's: for a probe that reports errors only where a child it waited
 * for left off.  For a name a pattern item covers: whether any name it
 * covers was.  aw_skip_rest() and aw_error_rest() pass pattern items by. */
bool aw_reported(const struct aw_ctx *ctx, const char *item);

/* A diagnostic line for humans; it reaches KTAP as "# ...". */
void aw_note(struct aw_ctx *ctx, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* The probe's own data pointer (struct aw_probe.data). */
const void *aw_probe_data(const struct aw_ctx *ctx);

/* The value of the probe's family option called name ("entries", not
 * "dirent-entries"): the last one given, else its .dflt.  The option must be declared with the type read (anything
 * else is a bug of the family's, which aborts the probe); its values
 * were checked before anything ran, so these cannot fail. */
long long aw_param_int(const struct aw_ctx *ctx, const char *name);   /* AW_PARAM_INT */
int aw_param_enum(const struct aw_ctx *ctx, const char *name);        /* the index in .words */
/* The text of any option (AW_PARAM_ENUM: the word); NULL when it was
 * not given and has no default. */
const char *aw_param_text(const struct aw_ctx *ctx, const char *name);

/* An O_DIRECTORY descriptor of a fresh, empty subdirectory of struct
 * aw_probe.host_path, which the runner removes, or -1; and that
 * subdirectory's name there (for messages), or NULL. */
int aw_host_dirfd(const struct aw_ctx *ctx);
const char *aw_host_dirname(const struct aw_ctx *ctx);

/* A directory every probe of the run shares, or -1 where none could be
 * made: a tmpfs that no mount table shows (made with fsopen() and
 * fsmount(), attached nowhere), gone with the run, also when abiwatch is
 * killed.  For what is costly to make and the same for every probe that
 * makes it, never for what a probe changes: a filesystem image fresh
 * from mkfs, which a probe copies instead of running mkfs again
 * (backends/backend.h).  What a probe writes there it writes whole, under
 * a name of its own, and renames into place. */
int aw_run_dirfd(const struct aw_ctx *ctx);

/* The probe's private scratch directory: a tmpfs of its own mount
 * namespace over /dev/shm (over /tmp where there is no /dev/shm), also
 * its $TMPDIR and working directory.  Host paths elsewhere stay visible. */
const char *aw_tmpdir(const struct aw_ctx *ctx);

/* Whether the run is the one `abiwatch vm` starts in its guest: a
 * machine booted for this run and thrown away after it, where a probe may
 * change global state (a sysctl no namespace holds, a cgroup v1 mount)
 * that it must never touch on a host.  Decided by the runner once per run
 * (from the kernel command line abiwatch vm boots with, rdinit=/init,
 * together with the environment its guest init sets, so that neither
 * alone says so) and handed to every probe.  What needs the guest is
 * declared: a probe (.needs.vm_guest) or an item (struct aw_item.vm_guest)
 * is skipped elsewhere by the runner, with the cause vm.  This is for a
 * probe that only does more there (mounts a cgroup2 hierarchy where the
 * machine has none) or finds out only as it runs that a check needs the
 * guest (then aw_skip_cause(..., "vm", ...)). */
bool aw_vm_guest(const struct aw_ctx *ctx);

/* Whether the needs item declares (struct aw_item.vm_guest) are met here,
 * so that the probe does its work: false when the runner has reported it
 * skipped already, and the probe leaves it alone. */
bool aw_item_needs_met(const struct aw_ctx *ctx, const char *item);

/* ---- sysctls: which namespace holds each, and writes that cannot reach the host ---- */

/* Where a knob's value lives.  Only what the kernel registers per
 * namespace is namespaced (core/sysctl.c holds the one list); anything
 * else is the whole machine's. */
enum aw_sysctl_scope {
	AW_SCOPE_GLOBAL, /* the machine: written only in the VM guest */
	AW_SCOPE_NET,    /* the network namespace */
	AW_SCOPE_IPC,    /* the IPC namespace (every probe has its own) */
	AW_SCOPE_UTS,    /* the UTS namespace */
	AW_SCOPE_USER,   /* the user namespace */
	AW_NSCOPES
};

/* The scope of a knob named as sysctl(8) does ("fs.mqueue.msg_max") or as
 * a path below /proc/sys ("fs/mqueue/msg_max"). */
enum aw_sysctl_scope aw_sysctl_scope(const char *knob);
const char *aw_sysctl_scope_name(enum aw_sysctl_scope scope); /* "ipc" */

/* Whether the calling process (the probe or a child of it) is in a
 * namespace of that scope other than the one abiwatch runs in. */
bool aw_private_ns(const struct aw_ctx *ctx, enum aw_sysctl_scope scope);
/* aw_private_ns(ctx, AW_SCOPE_IPC): the runner gives every probe an IPC
 * namespace of its own, so this says the isolation holds. */
bool aw_private_ipc(const struct aw_ctx *ctx);

/* What a write refused by the guard returns: outside the errno range, so
 * it cannot be mistaken for the kernel's answer. */
#define AW_SYSCTL_REFUSED (-100000)

/* 0 when writing knob from the calling process cannot reach the host:
 * its namespace is a private one (aw_private_ns()), or it is global and
 * the run is the VM guest's (aw_vm_guest()); else AW_SYSCTL_REFUSED.
 * Safe by construction: aw_sysctl_write() asks this before it opens
 * anything, so a probe cannot change the host's values even by mistake. */
int aw_sysctl_may_write(const struct aw_ctx *ctx, const char *knob);
/* Write text (as one write(2) from offset 0) or a decimal value: 0, the
 * kernel's -errno (-EINVAL: out of the knob's range), or
 * AW_SYSCTL_REFUSED. */
int aw_sysctl_write(const struct aw_ctx *ctx, const char *knob, const char *text);
int aw_sysctl_write_ll(const struct aw_ctx *ctx, const char *knob, long long value);
/* A message for any of those returns. */
const char *aw_sysctl_strerror(int rc);

/* ---- security modules ---- */

/* For an item a security module makes (kernel.yama.ptrace_scope): where
 * the kernel did not start the module (CONFIG_LSM, lsm=; lib/lsm.h), a
 * skip with the cause lsm:NAME, and true, so that diff folds the item's
 * absence under the machine's set-up rather than calling it removed.
 * False where the module runs or the run cannot tell: then the caller
 * reports what it finds. */
bool aw_skip_unless_lsm(struct aw_ctx *ctx, const char *item, const char *lsm);

/* ---- the kernel configuration ---- */

/* A probe that records configuration options (lib/kconfig.h): items[0]
 * is "source", where the configuration was read; every other item names
 * an option in lower case without CONFIG_ ("memcg_v1") and is reported
 * with its value ("n" when unset, "absent" when the file does not name
 * it: no such option, or its dependencies unmet).  Without a configuration every item is
 * skipped with the cause kconfig, giving the reason. */
void aw_report_kconfig(struct aw_ctx *ctx, const struct aw_item *items);

/* ---- a family's 32-bit helper ---- */

/* A static -m32 program built from src/probes/FAMILY/m32/ into
 * build/m32/abiwatch-FAMILY-m32 (struct aw_family.helper32), so that the
 * kernel's compat entry points and 32-bit layouts are what it meets.  It
 * runs in the probe's namespaces and reports as lines of the probe
 * protocol on stdout (lib/wire.h: aw_out_pass(), aw_out_observe() ...).
 * aw_helper_report() reads its whole output strictly before reporting
 * anything: an item the probe does not declare, one of the wrong kind,
 * one reported twice, a line that is not the protocol's make every item
 * of the helper an error.  What the helper left out is an error too;
 * where it cannot run at all (not installed, a kernel without i386, a
 * failed exec) its items are skips giving the reason. */
/* A run of a helper whose reports are items of the running probe. */
struct aw_helper {
	const char *name;         /* the program, found with aw_helper_path() */
	const char *const *args;  /* its arguments, NULL-terminated; NULL: none */
	/* Its item NAME is the probe's item PREFIX NAME ("compat32." for
	 * dirent's compat32.cookie_bits; "" for a probe that is all the
	 * helper's).  Every declared item under the prefix is the helper's
	 * to report, but the probe's items named in own (full names,
	 * NULL-terminated; NULL: none), which the probe reports itself from
	 * what the helper did. */
	const char *prefix;
	const char *const *own;
	int timeout_ms;           /* it is killed after this long */
	const int *keep;          /* descriptors it inherits, -1 ends; NULL: none */
	/* Called in the helper's process before exec (lib/proc.h). */
	void (*before_exec)(void *arg);
	void *before_exec_arg;
};

/* Run the helper and report its items, as described above.  True when
 * it ended with status 0 having reported every item it had to: then the
 * probe may check what it left behind and report its own items; else
 * those are the probe's to report (aw_reported() tells which are, since
 * where the helper cannot run they are skipped with the others). */
bool aw_helper_report(struct aw_ctx *ctx, const struct aw_helper *h);

#endif

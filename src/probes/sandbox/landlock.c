// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * sandbox.landlock: the Landlock ABI version and the access rights the
 * kernel takes.  Every Landlock user asks first for the version,
 * landlock_create_ruleset(NULL, 0, LANDLOCK_CREATE_RULESET_VERSION)
 * (landlock_create_ruleset(2); Documentation/userspace-api/landlock.rst,
 * "Landlock ABI versions"), and drops the rights a lower version lacks
 * ("best effort": go-landlock, rust-landlock, Chromium, Firefox,
 * systemd's RestrictFileSystems=... users, bubblewrap wrappers).  The
 * answer is ENOSYS where Landlock is not built and EOPNOTSUPP where it
 * is built but not started (CONFIG_LSM, lsm=; security/landlock/
 * syscalls.c: "if (!is_initialized()) return -EOPNOTSUPP").
 *
 * The rights are measured, not inferred: each bit of handled_access_fs,
 * handled_access_net and scoped is asked for alone in a struct
 * landlock_ruleset_attr of all three fields (24 bytes; a kernel that has
 * fewer fields refuses a non-zero one beyond them with E2BIG,
 * copy_struct_from_user()), and a right is one the kernel took (the
 * ruleset descriptor, closed at once).  The table below names each with
 * the ABI it came in (include/uapi/linux/landlock.h: "since the Landlock
 * ABI version N"; landlock.rst's "(ABI < N)" sections): ABI 1 (5.13) the
 * thirteen first filesystem rights, 2 (5.19) REFER, 3 (6.2) TRUNCATE,
 * 4 (6.7) the TCP bind and connect rights, 5 (6.10) IOCTL_DEV, 6 (6.12)
 * the abstract UNIX socket and signal scopes, 7 (6.15) the logging flags
 * of landlock_restrict_self(), which are tried in throwaway children
 * that set no_new_privs first (landlock_restrict_self(2)).  The errata
 * mask (LANDLOCK_CREATE_RULESET_ERRATA; backported to 6.1.y and 6.12.y,
 * whose syscalls.c answer it) is recorded as the kernel gives it.
 */
#include "sandbox.h"
#include "lib/errname.h"
#include "lib/util.h"

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#define NR_landlock_create_ruleset 444 /* arch/x86/entry/syscalls/syscall_64.tbl */
#define NR_landlock_restrict_self 446
#define CREATE_RULESET_VERSION (1U << 0)
#define CREATE_RULESET_ERRATA (1U << 1)

/* struct landlock_ruleset_attr as of ABI 6 (landlock.h). */
struct ruleset_attr {
	uint64_t handled_access_fs;
	uint64_t handled_access_net;
	uint64_t scoped;
};

enum field { FS, NET, SCOPE };

struct right {
	enum field field;
	uint64_t bit;
	const char *name;
	int abi;
};

#define R(f, b, n, a) { f, UINT64_C(1) << (b), n, a }
static const struct right rights[] = {
	R(FS, 0, "LANDLOCK_ACCESS_FS_EXECUTE", 1), R(FS, 1, "LANDLOCK_ACCESS_FS_WRITE_FILE", 1),
	R(FS, 2, "LANDLOCK_ACCESS_FS_READ_FILE", 1), R(FS, 3, "LANDLOCK_ACCESS_FS_READ_DIR", 1),
	R(FS, 4, "LANDLOCK_ACCESS_FS_REMOVE_DIR", 1), R(FS, 5, "LANDLOCK_ACCESS_FS_REMOVE_FILE", 1),
	R(FS, 6, "LANDLOCK_ACCESS_FS_MAKE_CHAR", 1), R(FS, 7, "LANDLOCK_ACCESS_FS_MAKE_DIR", 1),
	R(FS, 8, "LANDLOCK_ACCESS_FS_MAKE_REG", 1), R(FS, 9, "LANDLOCK_ACCESS_FS_MAKE_SOCK", 1),
	R(FS, 10, "LANDLOCK_ACCESS_FS_MAKE_FIFO", 1), R(FS, 11, "LANDLOCK_ACCESS_FS_MAKE_BLOCK", 1),
	R(FS, 12, "LANDLOCK_ACCESS_FS_MAKE_SYM", 1), R(FS, 13, "LANDLOCK_ACCESS_FS_REFER", 2),
	R(FS, 14, "LANDLOCK_ACCESS_FS_TRUNCATE", 3), R(FS, 15, "LANDLOCK_ACCESS_FS_IOCTL_DEV", 5),
	R(NET, 0, "LANDLOCK_ACCESS_NET_BIND_TCP", 4), R(NET, 1, "LANDLOCK_ACCESS_NET_CONNECT_TCP", 4),
	R(SCOPE, 0, "LANDLOCK_SCOPE_ABSTRACT_UNIX_SOCKET", 6), R(SCOPE, 1, "LANDLOCK_SCOPE_SIGNAL", 6),
};
#undef R

static const char *const unknown_prefix[] = {
	[FS] = "LANDLOCK_ACCESS_FS_BIT", [NET] = "LANDLOCK_ACCESS_NET_BIT", [SCOPE] = "LANDLOCK_SCOPE_BIT",
};

/* landlock_restrict_self()'s flags (landlock.h, ABI 7). */
static const struct aw_bitname restrict_flags[] = {
	{ 1U << 0, "LANDLOCK_RESTRICT_SELF_LOG_SAME_EXEC_OFF" },
	{ 1U << 1, "LANDLOCK_RESTRICT_SELF_LOG_NEW_EXEC_ON" },
	{ 1U << 2, "LANDLOCK_RESTRICT_SELF_LOG_SUBDOMAINS_OFF" },
};

/* The newest ABI the table knows. */
#define TABLE_ABI 7

static long create_ruleset(const struct ruleset_attr *attr, size_t size, unsigned flags)
{
	return syscall(NR_landlock_create_ruleset, attr, size, flags);
}

/* Whether the kernel takes a ruleset handling only bit of field. */
static bool takes(enum field field, uint64_t bit)
{
	struct ruleset_attr attr = { 0, 0, 0 };
	uint64_t *word = field == FS ? &attr.handled_access_fs : field == NET ? &attr.handled_access_net : &attr.scoped;
	*word = bit;
	long fd = create_ruleset(&attr, sizeof(attr), 0);
	if (fd < 0)
		return false;
	close((int)fd);
	return true;
}

/* Every right the kernel takes, by name, in the table's order, then the
 * bits no row names; *implied_ok says whether they are exactly the
 * table's rights of ABI <= abi (and, for an ABI newer than the table,
 * at least those). */
static char *measured_rights(int abi, bool *implied_ok, char *why, size_t whysize)
{
	char *out = xstrdup("");
	*implied_ok = true;
	*why = '\0';
	for (size_t i = 0; i < AW_ARRAY_SIZE(rights); i++) {
		bool took = takes(rights[i].field, rights[i].bit);
		if (took) {
			char *t = xasprintf("%s%s%s", out, *out ? "," : "", rights[i].name);
			free(out);
			out = t;
		}
		if (took != (rights[i].abi <= abi) && *implied_ok) {
			*implied_ok = false;
			snprintf(why, whysize, "%s (ABI %d) is %s at ABI %d", rights[i].name, rights[i].abi,
				 took ? "taken" : "refused", abi);
		}
	}
	for (enum field f = FS; f <= SCOPE; f++) {
		uint64_t named = 0, unknown = 0;
		for (size_t i = 0; i < AW_ARRAY_SIZE(rights); i++)
			if (rights[i].field == f)
				named |= rights[i].bit;
		for (unsigned b = 0; b < 64; b++)
			if (!(named & (UINT64_C(1) << b)) && takes(f, UINT64_C(1) << b))
				unknown |= UINT64_C(1) << b;
		if (unknown) {
			char *names = aw_bitnames(unknown, NULL, 0, unknown_prefix[f], "");
			char *t = xasprintf("%s%s%s", out, *out ? "," : "", names);
			free(out);
			free(names);
			out = t;
			if (abi <= TABLE_ABI && *implied_ok) {
				*implied_ok = false;
				snprintf(why, whysize, "a right no ABI up to %d names is taken", TABLE_ABI);
			}
		}
	}
	return out;
}

/* In a throwaway child: landlock_restrict_self() with the flag (and a
 * ruleset handling LANDLOCK_ACCESS_FS_EXECUTE, which the domain then
 * denies the child only).  0 or the errno. */
static int restrict_with(void *arg)
{
	unsigned flag = *(const unsigned *)arg;
	struct ruleset_attr attr = { 1, 0, 0 };
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0)
		return 255;
	long fd = create_ruleset(&attr, sizeof(attr.handled_access_fs), 0);
	if (fd < 0)
		return 255;
	return syscall(NR_landlock_restrict_self, (int)fd, flag) == 0 ? 0 : errno;
}

static void observe_restrict_flags(struct aw_ctx *ctx)
{
	uint64_t taken = 0;
	for (unsigned b = 0; b < 32; b++) {
		unsigned flag = 1U << b;
		int rc = sandbox_in_child(restrict_with, &flag);
		if (rc == 0)
			taken |= flag;
		else if (rc > 133 || rc == 255) {
			aw_error(ctx, "restrict_flags", "the child for flag %#x could not try it (status %d)", flag, rc);
			return;
		}
	}
	sandbox_observe_bits(ctx, "restrict_flags", taken, restrict_flags, AW_ARRAY_SIZE(restrict_flags),
			     "LANDLOCK_RESTRICT_SELF_BIT", "none");
}

static void landlock_run(struct aw_ctx *ctx)
{
	long abi = create_ruleset(NULL, 0, CREATE_RULESET_VERSION);
	int err = abi < 0 ? errno : 0;
	if (err == EOPNOTSUPP) {
		aw_observe(ctx, "state", "built, not started (EOPNOTSUPP)");
		aw_skip_rest_cause(ctx, "lsm:landlock",
				   "Landlock is built but the kernel did not start it (CONFIG_LSM or lsm= leave it out)");
		return;
	}
	if (err) {
		aw_observe(ctx, "state", "%s", err == ENOSYS ? "not built (ENOSYS)" : aw_errname(err));
		aw_observe(ctx, "abi", "%s", aw_errname(err));
		aw_observe(ctx, "rights", "%s", aw_errname(err));
		aw_skip_rest(ctx, "landlock_create_ruleset() answers %s", aw_errname(err));
		return;
	}
	aw_observe(ctx, "state", "enabled");
	aw_observe_long(ctx, "abi", abi);
	bool implied_ok;
	char why[160];
	char *got = measured_rights((int)abi, &implied_ok, why, sizeof(why));
	aw_observe(ctx, "rights", "%s", *got ? got : "none");
	free(got);
	aw_expect(ctx, "rights_match_abi", implied_ok, "%s", why);
	long errata = create_ruleset(NULL, 0, CREATE_RULESET_ERRATA);
	if (errata < 0)
		aw_observe(ctx, "errata", "%s", aw_errname(errno));
	else
		aw_observe(ctx, "errata", "%#lx", errata);
	observe_restrict_flags(ctx);
}

static const char *const abi_absent[] = { "ENOSYS", "EOPNOTSUPP", NULL };
static const char *const rights_absent[] = { "ENOSYS", "EOPNOTSUPP", "none", NULL };
static const char *const state_absent[] = { "not built*", "built, not started*", NULL };
static const char *const errata_absent[] = { "EINVAL", NULL };
static const char *const none_absent[] = { "none", NULL };

static const struct aw_item landlock_items[] = {
	AW_OBS_ITEM("state", "whether Landlock is there: enabled, built but not started (EOPNOTSUPP), or not built (ENOSYS)",
		    .change = "sandboxes that use Landlock (Chromium, Firefox, systemd, bubblewrap users, go-landlock, "
			      "rust-landlock) enforce it or silently fall back to none",
		    .absent = state_absent, .object = ""),
	AW_OBS_ITEM("abi", "the Landlock ABI version landlock_create_ruleset(NULL, 0, LANDLOCK_CREATE_RULESET_VERSION) answers",
		    .change = "Landlock libraries decide by it which rights they ask for (best effort): a higher ABI "
			      "restricts more, a lower one makes strict users refuse to start",
		    .absent = abi_absent, .object = ""),
	AW_OBS_ITEM("rights", "the access rights and scopes the kernel takes in a ruleset, each asked for alone, by name",
		    .change = "a right that appeared can be denied now (REFER: cross-directory renames, TRUNCATE, TCP "
			      "bind/connect, IOCTL_DEV, scopes); one that vanished makes every ruleset asking for it EINVAL",
		    .absent = rights_absent, .object = ""),
	AW_CHECK_ITEM("rights_match_abi", "the rights taken are exactly those the ABI version implies "
		      "(landlock.h: each right's ABI); a newer ABI than abiwatch knows may add rights"),
	AW_OBS_ITEM("errata", "the mask LANDLOCK_CREATE_RULESET_ERRATA answers: the Landlock fixes this kernel has",
		    .change = "a fix came or went: programs that check the errata (to trust TCP or signal scoping) decide otherwise",
		    .absent = errata_absent, .object = ""),
	AW_OBS_ITEM("restrict_flags", "the flags landlock_restrict_self() takes (ABI 7's audit logging flags), each tried in a throwaway child",
		    .change = "a program that turns Landlock's denial logging on or off gets EINVAL where they are missing",
		    .absent = none_absent, .object = ""),
	AW_ITEMS_END,
};

static const char *const landlock_tags[] = {
	"man:landlock(7)", "man:landlock_create_ruleset(2)", "man:landlock_restrict_self(2)", NULL,
};

const struct aw_probe sandbox_landlock_probes[] = {
	{
		.name = "landlock",
		.summary = "Landlock: whether it is there, its ABI version, the rights and scopes it takes by name, the errata, restrict_self's flags",
		.run = landlock_run,
		.items = landlock_items,
		.tags = landlock_tags,
	},
	AW_PROBES_END,
};

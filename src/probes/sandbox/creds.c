// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * sandbox.creds: the security modules the kernel started, and the
 * capability and privilege bits a sandbox sets on itself.
 *
 * The modules as lsm_list_modules(2) gives them (6.8) and as securityfs'
 * lsm file does (/sys/kernel/security/lsm; a securityfs of the probe's
 * own mount namespace where none is mounted), through lib/lsm.h, which
 * the run's env.lsm comes from too: which of AppArmor, SELinux, Landlock,
 * Yama, BPF LSM a machine enforces decides what systemd, container
 * runtimes and Landlock users can rely on.  cap_last_cap
 * (/proc/sys/kernel/cap_last_cap, capabilities(7)): libcap, systemd and
 * container runtimes size their capability sets by it (CAP_PERFMON,
 * CAP_BPF and CAP_CHECKPOINT_RESTORE made it 40 in 5.8 and 5.9).
 * securebits (prctl(PR_SET_SECUREBITS), include/uapi/linux/securebits.h):
 * which bits the kernel takes, each set alone in a throwaway child that
 * holds CAP_SETPCAP; NO_CAP_AMBIENT_RAISE came with ambient capabilities
 * in 4.3, EXEC_RESTRICT_FILE and EXEC_DENY_INTERACTIVE with
 * AT_EXECVE_CHECK in 6.14.  Ambient capabilities (4.3, capabilities(7)):
 * raised through libcap in a child after the capability was made
 * inheritable (systemd's AmbientCapabilities=, capsh --addamb), and
 * dropped again when it stops being inheritable ("no capability can
 * ever be ambient if it is not both permitted and inheritable").
 * no_new_privs (prctl(2), 3.5): once set it cannot be unset, a child
 * inherits it, and /proc/PID/status shows it (NoNewPrivs, 4.10); seccomp
 * without CAP_SYS_ADMIN and Landlock both require it.
 */
#include "sandbox.h"
#include "lib/caps.h"
#include "lib/child.h"
#include "lib/errname.h"
#include "lib/lsm.h"
#include "lib/procfs.h"
#include "lib/util.h"
#include "lib/words.h"

#include <errno.h>
#include <linux/capability.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/capability.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <unistd.h>

static void observe_lsm_syscall(struct aw_ctx *ctx, char **list)
{
	int err;
	*list = aw_lsm_by_syscall(&err);
	if (*list)
		aw_observe(ctx, "lsm.list_modules", "%s", *list);
	else
		aw_observe(ctx, "lsm.list_modules", "%s", aw_errname(err));
}

/* The lsm file of the machine's securityfs, else of one the probe mounts
 * in its own mount namespace (gone with it). */
static void observe_lsm_securityfs(struct aw_ctx *ctx, char **list)
{
	*list = aw_lsm_by_securityfs("/sys/kernel/security");
	if (!*list) {
		char dir[512];
		snprintf(dir, sizeof(dir), "%s/securityfs", aw_tmpdir(ctx));
		if (!aw_has_cap(CAP_SYS_ADMIN)) {
			aw_skip_cause(ctx, "lsm.securityfs", "cap_sys_admin",
				      "no securityfs mounted, and mounting one needs CAP_SYS_ADMIN");
			return;
		}
		if (mkdir(dir, 0700) != 0 || mount("securityfs", dir, "securityfs", MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL) != 0) {
			aw_observe(ctx, "lsm.securityfs", "%s", aw_errname(errno));
			return;
		}
		*list = aw_lsm_by_securityfs(dir);
		umount2(dir, MNT_DETACH);
	}
	if (*list)
		aw_observe(ctx, "lsm.securityfs", "%s", *list);
	else
		aw_observe(ctx, "lsm.securityfs", "absent");
}

/* Whether two comma-separated lists name the same modules (in any order). */
static bool same_names(const char *a, const char *b)
{
	size_t na, nb;
	char **wa = aw_words_split(a, ",", &na), **wb = aw_words_split(b, ",", &nb);
	bool same = na == nb;
	for (size_t i = 0; same && i < na; i++)
		same = aw_words_have(wb, nb, wa[i]);
	aw_words_free(wa, na);
	aw_words_free(wb, nb);
	return same;
}

static void observe_lsm(struct aw_ctx *ctx)
{
	char *by_syscall, *by_fs = NULL;
	observe_lsm_syscall(ctx, &by_syscall);
	observe_lsm_securityfs(ctx, &by_fs);
	if (by_syscall && by_fs)
		aw_expect(ctx, "lsm.agree", same_names(by_syscall, by_fs),
			  "lsm_list_modules says %s, securityfs %s", by_syscall, by_fs);
	else
		aw_skip(ctx, "lsm.agree", "only one of lsm_list_modules(2) (6.8) and securityfs answers");
	free(by_syscall);
	free(by_fs);
}

static void observe_last_cap(struct aw_ctx *ctx)
{
	char *text;
	size_t len;
	if (aw_file_slurp("/proc/sys/kernel/cap_last_cap", &text, &len) != 0) {
		aw_observe(ctx, "caps.last_cap", "%s", aw_errname(errno));
		return;
	}
	aw_observe(ctx, "caps.last_cap", "%ld", strtol(text, NULL, 10));
	free(text);
}

static const struct aw_bitname securebits[] = {
	{ 1U << 0, "NOROOT" },
	{ 1U << 1, "NOROOT_LOCKED" },
	{ 1U << 2, "NO_SETUID_FIXUP" },
	{ 1U << 3, "NO_SETUID_FIXUP_LOCKED" },
	{ 1U << 4, "KEEP_CAPS" },
	{ 1U << 5, "KEEP_CAPS_LOCKED" },
	{ 1U << 6, "NO_CAP_AMBIENT_RAISE" },
	{ 1U << 7, "NO_CAP_AMBIENT_RAISE_LOCKED" },
	{ 1U << 8, "EXEC_RESTRICT_FILE" },
	{ 1U << 9, "EXEC_RESTRICT_FILE_LOCKED" },
	{ 1U << 10, "EXEC_DENY_INTERACTIVE" },
	{ 1U << 11, "EXEC_DENY_INTERACTIVE_LOCKED" },
};

static int securebit_set(void *arg)
{
	unsigned bit = *(const unsigned *)arg;
	return prctl(PR_SET_SECUREBITS, bit, 0, 0, 0) == 0 && (unsigned)prctl(PR_GET_SECUREBITS, 0, 0, 0, 0) == bit
		       ? 0
		       : errno ? errno : 254;
}

static void observe_securebits(struct aw_ctx *ctx)
{
	if (!aw_cap_effective(CAP_SETPCAP)) {
		aw_skip_cause(ctx, "caps.securebits", "cap_setpcap", "PR_SET_SECUREBITS needs CAP_SETPCAP");
		return;
	}
	uint64_t taken = 0;
	for (unsigned b = 0; b < 32; b++) {
		unsigned bit = 1U << b;
		int rc = sandbox_in_child(securebit_set, &bit);
		if (rc == 0)
			taken |= bit;
		else if (rc > 133) {
			aw_error(ctx, "caps.securebits", "the child for bit %#x could not try it (status %d)", bit, rc);
			return;
		}
	}
	sandbox_observe_bits(ctx, "caps.securebits", taken, securebits, AW_ARRAY_SIZE(securebits), "SECBIT_", "none");
}

/* Make cap inheritable (libcap) or not. */
static int set_inheritable(cap_value_t cap, cap_flag_value_t on)
{
	cap_t caps = cap_get_proc();
	if (!caps)
		return errno;
	int rc = cap_set_flag(caps, CAP_INHERITABLE, 1, &cap, on) == 0 && cap_set_proc(caps) == 0 ? 0 : errno;
	cap_free(caps);
	return rc;
}

/* In a child: 0 when CAP_NET_BIND_SERVICE, made inheritable, can be
 * raised ambient (the errno otherwise, 1 where it was not ambient
 * after); then 100 + 0 when dropping it from the inheritable set took
 * it out of the ambient set too, 100 + 1 when it stayed. */
static int ambient_child(void *arg)
{
	(void)arg;
	int rc = set_inheritable(CAP_NET_BIND_SERVICE, CAP_SET);
	if (rc)
		return rc > 99 ? 99 : rc;
	if (cap_set_ambient(CAP_NET_BIND_SERVICE, CAP_SET) != 0)
		return errno > 99 ? 99 : errno;
	if (cap_get_ambient(CAP_NET_BIND_SERVICE) != 1)
		return 1;
	if (set_inheritable(CAP_NET_BIND_SERVICE, CAP_CLEAR) != 0)
		return 99;
	return 100 + (cap_get_ambient(CAP_NET_BIND_SERVICE) != 0);
}

static void observe_ambient(struct aw_ctx *ctx)
{
	if (!aw_cap_effective(CAP_NET_BIND_SERVICE)) {
		aw_skip_cause(ctx, "caps.ambient.raise", "cap_net_bind_service", "raising CAP_NET_BIND_SERVICE needs it permitted");
		aw_skip_cause(ctx, "caps.ambient.follows_inheritable", "cap_net_bind_service",
			      "raising CAP_NET_BIND_SERVICE needs it permitted");
		return;
	}
	int rc = sandbox_in_child(ambient_child, NULL);
	if (rc >= 100 && rc <= 101) {
		aw_observe(ctx, "caps.ambient.raise", "ok");
		aw_expect(ctx, "caps.ambient.follows_inheritable", rc == 100,
			  "CAP_NET_BIND_SERVICE stayed ambient after it left the inheritable set");
		return;
	}
	aw_observe(ctx, "caps.ambient.raise", "%s", rc == 1 ? "raised, not ambient" : rc < 99 ? aw_errname(rc) : "error");
	aw_skip(ctx, "caps.ambient.follows_inheritable", "the capability could not be raised ambient");
}

/* The grandchild of nnp_child ends at once; its bound leaves the child
 * time to answer within its own (family.c's 10 s). */
#define NNP_GRANDCHILD_MS 5000

/* In a child: bit 0 set when no_new_privs cannot be cleared, bit 1 when
 * a child of the child has it, bit 2 when NoNewPrivs in
 * /proc/self/status says 1. */
static int nnp_child(void *arg)
{
	(void)arg;
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0)
		return 255;
	int got = 0;
	if (prctl(PR_SET_NO_NEW_PRIVS, 0, 0, 0, 0) != 0 && errno == EINVAL && prctl(PR_GET_NO_NEW_PRIVS, 0, 0, 0, 0) == 1)
		got |= 1;
	pid_t pid = fork();
	if (pid == 0)
		_exit(prctl(PR_GET_NO_NEW_PRIVS, 0, 0, 0, 0) == 1 ? 0 : 1);
	if (pid > 0 && aw_child_end_ok(aw_child_reap(pid, NNP_GRANDCHILD_MS)))
		got |= 2;
	char *text;
	size_t len;
	if (aw_file_slurp("/proc/self/status", &text, &len) == 0) {
		if (strstr(text, "\nNoNewPrivs:\t1\n"))
			got |= 4;
		free(text);
	}
	return got;
}

static void observe_nnp(struct aw_ctx *ctx)
{
	int rc = sandbox_in_child(nnp_child, NULL);
	if (rc > 7) {
		aw_error_rest(ctx, "the no_new_privs child could not set it (status %d)", rc);
		return;
	}
	aw_expect(ctx, "nnp.sticky", rc & 1, "PR_SET_NO_NEW_PRIVS 0 after 1 did not fail with EINVAL, or cleared it");
	aw_expect(ctx, "nnp.inherited", rc & 2, "a child of a process with no_new_privs does not have it");
	aw_expect(ctx, "nnp.status", rc & 4, "/proc/self/status does not say NoNewPrivs: 1");
}

static void creds_run(struct aw_ctx *ctx)
{
	observe_lsm(ctx);
	observe_last_cap(ctx);
	observe_securebits(ctx);
	observe_ambient(ctx);
	observe_nnp(ctx);
}

static const char *const lsm_absent[] = { "ENOSYS", "absent", NULL };
static const char *const none_absent[] = { "none", NULL };
static const char *const raise_absent[] = { "EINVAL", NULL };

static const struct aw_item creds_items[] = {
	AW_OBS_ITEM("lsm.list_modules", "the security modules lsm_list_modules(2) names (6.8; ENOSYS before)",
		    .change = "a module started or no longer started: what AppArmor, SELinux, Yama, Landlock or BPF LSM "
			      "enforce changes, and systemd and container runtimes that check for one decide otherwise",
		    .absent = lsm_absent),
	AW_OBS_ITEM("lsm.securityfs", "the security modules securityfs' lsm file names (the machine's, else a securityfs of the probe's own)",
		    .change = "a module started or no longer started (the older interface, which tools read when the "
			      "system call is missing)",
		    .absent = lsm_absent),
	AW_CHECK_ITEM("lsm.agree", "lsm_list_modules(2) and securityfs' lsm file name the same modules"),
	AW_OBS_ITEM("caps.last_cap", "/proc/sys/kernel/cap_last_cap: the highest capability the kernel knows",
		    .change = "a new capability: libcap, systemd and container runtimes that size sets by an older number "
			      "cannot grant or drop it"),
	AW_OBS_ITEM("caps.securebits", "the securebits PR_SET_SECUREBITS takes, each set alone in a throwaway child",
		    .change = "a bit that appeared can be set (6.14's EXEC_RESTRICT_FILE for script interpreters); one that "
			      "vanished makes a service manager's PR_SET_SECUREBITS fail",
		    .absent = none_absent),
	AW_OBS_ITEM("caps.ambient.raise", "raising CAP_NET_BIND_SERVICE into the ambient set through libcap, once inheritable",
		    .change = "systemd's AmbientCapabilities= and capsh --addamb fail: services that bind low ports "
			      "without root stop starting",
		    .absent = raise_absent),
	AW_CHECK_ITEM("caps.ambient.follows_inheritable", "a capability dropped from the inheritable set leaves the ambient set "
		      "(capabilities(7))"),
	AW_CHECK_ITEM("nnp.sticky", "no_new_privs, once set, cannot be cleared: PR_SET_NO_NEW_PRIVS 0 fails with EINVAL (prctl(2))"),
	AW_CHECK_ITEM("nnp.inherited", "a child of a process with no_new_privs has it (prctl(2))"),
	AW_CHECK_ITEM("nnp.status", "/proc/PID/status says NoNewPrivs: 1 for it (proc(5), 4.10)"),
	AW_ITEMS_END,
};

static const char *const creds_tags[] = {
	"man:lsm_list_modules(2)", "man:capabilities(7)", "man:prctl(2)", "man:proc(5)", "man:cap_get_ambient(3)", NULL,
};

const struct aw_probe sandbox_creds_probes[] = {
	{
		.name = "creds",
		.summary = "the security modules started, cap_last_cap, the securebits taken, ambient capabilities, no_new_privs",
		.run = creds_run,
		.items = creds_items,
		.tags = creds_tags,
	},
	AW_PROBES_END,
};

// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * sandbox.seccomp: what seccomp offers a filter (seccomp(2)).  The return
 * actions available, asked one by one with SECCOMP_GET_ACTION_AVAIL
 * (4.14): KILL_PROCESS and LOG came in 4.14, USER_NOTIF in 5.0; Chromium,
 * Firefox and systemd pick the action of a denied call from what is
 * there (systemd's SystemCallErrorNumber=kill falls back from
 * KILL_PROCESS), and the kernel's own list in
 * /proc/sys/kernel/seccomp/actions_avail (seccomp(2)) must say the same.
 * The filter flags SECCOMP_SET_MODE_FILTER takes: each tried with an
 * allow-everything filter in a throwaway child that set no_new_privs
 * first (what an unprivileged caller must do; the filter dies with the
 * child): TSYNC (3.17), LOG (4.14), SPEC_ALLOW (4.17), NEW_LISTENER
 * (5.0, the user-notification descriptor of container managers: LXD,
 * podman's and crun's seccomp agents), TSYNC_ESRCH (5.7),
 * WAIT_KILLABLE_RECV (5.19, which the kernel takes only with
 * NEW_LISTENER, so it is tried with it), and every bit no name covers.
 * And SECCOMP_GET_NOTIF_SIZES (5.0): the sizes of struct seccomp_notif,
 * seccomp_notif_resp and seccomp_data, which a supervisor must use
 * instead of its own headers' sizeof (seccomp_unotify(2)).
 */
#include "sandbox.h"
#include "lib/errname.h"
#include "lib/procfs.h"
#include "lib/util.h"

#include <errno.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#ifndef SECCOMP_GET_NOTIF_SIZES
#define SECCOMP_GET_NOTIF_SIZES 3
#endif

/* The actions, with the word actions_avail uses for each (kernel/seccomp.c). */
static const struct {
	uint32_t action;
	const char *name, *word;
} actions[] = {
	{ 0x80000000U, "KILL_PROCESS", "kill_process" }, { 0x00000000U, "KILL_THREAD", "kill_thread" },
	{ 0x00030000U, "TRAP", "trap" },                 { 0x00050000U, "ERRNO", "errno" },
	{ 0x7fc00000U, "USER_NOTIF", "user_notif" },     { 0x7ff00000U, "TRACE", "trace" },
	{ 0x7ffc0000U, "LOG", "log" },                   { 0x7fff0000U, "ALLOW", "allow" },
};

static const struct aw_bitname filter_flags[] = {
	{ 1U << 0, "TSYNC" },        { 1U << 1, "LOG" },         { 1U << 2, "SPEC_ALLOW" },
	{ 1U << 3, "NEW_LISTENER" }, { 1U << 4, "TSYNC_ESRCH" }, { 1U << 5, "WAIT_KILLABLE_RECV" },
};
#define FLAG_NEW_LISTENER (1U << 3)
#define FLAG_WAIT_KILLABLE_RECV (1U << 5)

static long seccomp_call(unsigned op, unsigned flags, void *arg)
{
	return syscall(SYS_seccomp, op, flags, arg);
}

/* The names of the available actions; the words of those too, for the
 * comparison with actions_avail. */
static void observe_actions(struct aw_ctx *ctx, char *words, size_t size)
{
	uint64_t avail = 0;
	struct aw_bitname names[AW_ARRAY_SIZE(actions)];
	*words = '\0';
	for (size_t i = 0; i < AW_ARRAY_SIZE(actions); i++) {
		uint32_t a = actions[i].action;
		names[i] = (struct aw_bitname){ UINT64_C(1) << i, actions[i].name };
		if (seccomp_call(SECCOMP_GET_ACTION_AVAIL, 0, &a) == 0) {
			avail |= UINT64_C(1) << i;
			snprintf(words + strlen(words), size - strlen(words), "%s%s", *words ? " " : "", actions[i].word);
		} else if (errno != EOPNOTSUPP) {
			aw_error(ctx, "actions", "SECCOMP_GET_ACTION_AVAIL of %s: %s", actions[i].name, aw_errname(errno));
			return;
		}
	}
	sandbox_observe_bits(ctx, "actions", avail, names, AW_ARRAY_SIZE(names), NULL, "none");
}

static void check_actions_avail(struct aw_ctx *ctx, const char *words)
{
	char *text;
	size_t len;
	if (aw_file_slurp("/proc/sys/kernel/seccomp/actions_avail", &text, &len) != 0) {
		aw_skip(ctx, "actions_avail_agrees", "no /proc/sys/kernel/seccomp/actions_avail: %s", aw_errname(errno));
		return;
	}
	while (len && text[len - 1] == '\n')
		text[--len] = '\0';
	aw_expect(ctx, "actions_avail_agrees", strcmp(text, words) == 0,
		  "actions_avail says \"%s\", SECCOMP_GET_ACTION_AVAIL \"%s\"", text, words);
	free(text);
}

/* In a throwaway child: no_new_privs, then an allow-everything filter
 * with the flags.  0 or the errno. */
static int filter_with(void *arg)
{
	unsigned flags = *(const unsigned *)arg;
	struct sock_filter allow[] = { BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW) };
	struct sock_fprog prog = { .len = 1, .filter = allow };
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0)
		return 255;
	return seccomp_call(SECCOMP_SET_MODE_FILTER, flags, &prog) >= 0 ? 0 : errno;
}

static void observe_filter_flags(struct aw_ctx *ctx)
{
	uint64_t taken = 0;
	for (unsigned b = 0; b < 32; b++) {
		unsigned flag = 1U << b;
		unsigned with = flag == FLAG_WAIT_KILLABLE_RECV ? flag | FLAG_NEW_LISTENER : flag;
		int rc = sandbox_in_child(filter_with, &with);
		if (rc == 0)
			taken |= flag;
		else if (rc > 133) {
			aw_error(ctx, "filter_flags", "the child for flag %#x could not try it (status %d)", flag, rc);
			return;
		}
	}
	sandbox_observe_bits(ctx, "filter_flags", taken, filter_flags, AW_ARRAY_SIZE(filter_flags), "BIT", "none");
}

static void observe_notif_sizes(struct aw_ctx *ctx)
{
	struct seccomp_notif_sizes sizes;
	if (seccomp_call(SECCOMP_GET_NOTIF_SIZES, 0, &sizes) != 0)
		aw_observe(ctx, "notif_sizes", "%s", aw_errname(errno));
	else
		aw_observe(ctx, "notif_sizes", "notif %u, resp %u, data %u", sizes.seccomp_notif,
			   sizes.seccomp_notif_resp, sizes.seccomp_data);
}

static void seccomp_run(struct aw_ctx *ctx)
{
	char words[256];
	observe_actions(ctx, words, sizeof(words));
	if (!aw_reported(ctx, "actions"))
		aw_observe(ctx, "actions", "none");
	if (*words)
		check_actions_avail(ctx, words);
	else
		aw_skip(ctx, "actions_avail_agrees", "no action is available (SECCOMP_GET_ACTION_AVAIL)");
	observe_filter_flags(ctx);
	observe_notif_sizes(ctx);
}

static const char *const none_absent[] = { "none", "ENOSYS", "EINVAL", NULL };

static const struct aw_item seccomp_items[] = {
	AW_OBS_ITEM("actions", "the filter return actions SECCOMP_GET_ACTION_AVAIL says are available, by name",
		    .change = "a filter returning a missing action is refused or acts as KILL: systemd's SystemCallErrorNumber=, "
			      "Chromium's and Firefox's sandboxes and container runtimes (USER_NOTIF) pick another or fail",
		    .absent = none_absent, .object = ""),
	AW_CHECK_ITEM("actions_avail_agrees", "/proc/sys/kernel/seccomp/actions_avail names the same actions as "
		      "SECCOMP_GET_ACTION_AVAIL, in the same order (seccomp(2))"),
	AW_OBS_ITEM("filter_flags", "the flags SECCOMP_SET_MODE_FILTER takes, each with an allow-all filter in a throwaway child",
		    .change = "a flag that vanished makes the filter EINVAL: Chromium's TSYNC, systemd's LOG and SPEC_ALLOW, the "
			      "NEW_LISTENER of LXD's, crun's and podman's notification agents",
		    .absent = none_absent, .object = ""),
	AW_OBS_ITEM("notif_sizes", "SECCOMP_GET_NOTIF_SIZES: the sizes of struct seccomp_notif, seccomp_notif_resp and seccomp_data",
		    .change = "a supervisor that allocates its own headers' sizeof instead reads or writes short (seccomp_unotify(2))",
		    .absent = none_absent, .object = ""),
	AW_ITEMS_END,
};

static const char *const seccomp_tags[] = { "man:seccomp(2)", "man:seccomp_unotify(2)", NULL };

const struct aw_probe sandbox_seccomp_probes[] = {
	{
		.name = "seccomp",
		.summary = "seccomp: the return actions available, the filter flags taken, the notification sizes",
		.run = seccomp_run,
		.items = seccomp_items,
		.tags = seccomp_tags,
	},
	AW_PROBES_END,
};

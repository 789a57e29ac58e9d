// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The compat32.* observations: what a 32-bit program sees in the same
 * directory.  The helper (m32/dirent_m32.c) is started with fork and exec,
 * the directory handed over as descriptor 3, and its report read from a
 * pipe and parsed by helper_parse.c.  When it is not built or 32-bit
 * programs cannot run here, each compat32 observation says why.
 */
#include "dirent.h"
#include "cookies.h"
#include "helper_parse.h"
#include "core/util.h"
#include "lib/errname.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define MAX_REPORT 8192

static const char *const compat_items[] = {
	"compat32.cookie_bits", "compat32.eof_cookie", "compat32.duplicates",
	"compat32.nonlfs_readdir",
};

static void unobserved_all(struct aw_ctx *ctx, const char *why)
{
	for (size_t i = 0; i < AW_ARRAY_SIZE(compat_items); i++)
		aw_unobserved(ctx, compat_items[i], "%s", why);
}

/* Run the helper; its stdout in *out (malloc'd).  0, or -1 with *why. */
static int run_helper(const char *helper, int dirfd, size_t cap, char **out, char **why)
{
	int pipefd[2], status_pipe[2];
	char cap_s[32];

	snprintf(cap_s, sizeof(cap_s), "%zu", cap);
	if (pipe2(pipefd, O_CLOEXEC) != 0 || pipe2(status_pipe, O_CLOEXEC) != 0) {
		*why = xasprintf("pipe: %s", strerror(errno));
		return -1;
	}
	fflush(NULL);
	pid_t pid = fork();
	if (pid < 0) {
		*why = xasprintf("fork: %s", strerror(errno));
		return -1;
	}
	if (pid == 0) {
		/* Out of the way first, so no dup2 below hits one of them. */
		int d = fcntl(dirfd, F_DUPFD_CLOEXEC, 100);
		int w = fcntl(pipefd[1], F_DUPFD_CLOEXEC, 100);
		int null = open("/dev/null", O_RDWR | O_CLOEXEC);
		if (d < 0 || w < 0)
			_exit(126);
		if (null >= 0) {
			dup2(null, STDIN_FILENO);
			dup2(null, STDERR_FILENO);
		}
		if (dup2(w, STDOUT_FILENO) < 0 || dup2(d, 3) < 0)
			_exit(126);
		const char *argv[] = { helper, "3", cap_s, NULL };
		execv(helper, (char *const *)argv);
		int e = errno;
		(void)!write(status_pipe[1], &e, sizeof(e));
		_exit(127);
	}
	close(pipefd[1]);
	close(status_pipe[1]);

	size_t len = 0;
	char *buf = xmalloc(MAX_REPORT + 1);
	for (;;) {
		ssize_t n = read(pipefd[0], buf + len, MAX_REPORT - len);
		if (n > 0)
			len += (size_t)n;
		if (n == 0 || len == MAX_REPORT || (n < 0 && errno != EINTR))
			break;
	}
	buf[len] = '\0';
	close(pipefd[0]);

	int exec_errno = 0;
	ssize_t got;
	while ((got = read(status_pipe[0], &exec_errno, sizeof(exec_errno))) < 0 && errno == EINTR)
		;
	close(status_pipe[0]);
	int status = 0;
	/* A report that filled the buffer was not the helper's: stop it. */
	if (len == MAX_REPORT)
		kill(pid, SIGKILL);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;

	if (got == (ssize_t)sizeof(exec_errno)) {
		free(buf);
		*why = aw_helper_exec_failed(helper, exec_errno);
		return -1;
	}
	if (WIFSIGNALED(status)) {
		free(buf);
		*why = xasprintf("the 32-bit helper was killed by signal %d (%s)", WTERMSIG(status),
				 strsignal(WTERMSIG(status)));
		return -1;
	}
	if (WEXITSTATUS(status) != 0 && len == 0) {
		free(buf);
		*why = xasprintf("the 32-bit helper exited with status %d and no report",
				 WEXITSTATUS(status));
		return -1;
	}
	*out = buf;
	return 0;
}

void dirent_compat32(struct aw_ctx *ctx, int dirfd, size_t expect, size_t cap)
{
	char *helper = aw_helper_path(DIRENT_HELPER);
	char *out = NULL, *why = NULL;
	struct dh_report r;
	char perr[160];

	if (!helper) {
		why = aw_helper_missing(DIRENT_HELPER);
		unobserved_all(ctx, why);
		free(why);
		return;
	}
	if (aw_i386_refused()) {
		unobserved_all(ctx, aw_i386_refused());
		free(helper);
		return;
	}
	if (run_helper(helper, dirfd, cap, &out, &why) != 0) {
		unobserved_all(ctx, why);
		free(why);
		free(helper);
		return;
	}
	free(helper);
	if (dh_parse(out, strlen(out), &r, perr, sizeof(perr)) != 0) {
		char *msg = xasprintf("unreadable report from the 32-bit helper: %s", perr);
		unobserved_all(ctx, msg);
		free(msg);
		free(out);
		return;
	}
	free(out);
	if (r.error[0]) {
		char *msg = xasprintf("the 32-bit helper failed: %s", r.error);
		unobserved_all(ctx, msg);
		free(msg);
		return;
	}

	bool ended = !r.cycle && !r.capped && !r.getdents_errno;
	if (!ended || r.entries != expect)
		aw_note(ctx, "32-bit getdents64: %llu entries (expected %zu)%s%s%s",
			(unsigned long long)r.entries, expect,
			r.cycle ? ", stopped at a cycle" : "", r.capped ? ", stopped at the bound" : "",
			r.getdents_errno ? ", failed with an errno" : "");
	if (r.entries > 1)
		aw_observe_long(ctx, "compat32.cookie_bits", (long long)dc_bits(r.max_cookie));
	else
		aw_unobserved(ctx, "compat32.cookie_bits", "the 32-bit scan saw %llu entries",
			      (unsigned long long)r.entries);
	if (ended && r.entries)
		aw_observe(ctx, "compat32.eof_cookie", "0x%llx", (unsigned long long)r.eof_cookie);
	else
		aw_unobserved(ctx, "compat32.eof_cookie", "the 32-bit scan did not end normally%s",
			      r.getdents_errno ? " (getdents64 failed)" : "");
	aw_observe_long(ctx, "compat32.duplicates", (long long)r.duplicates);
	const char *wide = r.wide_ino && r.wide_off ? " (d_ino and d_off wider than 32 bits)"
			   : r.wide_ino ? " (d_ino wider than 32 bits)"
			   : r.wide_off ? " (d_off wider than 32 bits)" : "";
	if (r.nonlfs_errno)
		aw_observe(ctx, "compat32.nonlfs_readdir", "%s after %llu entries%s",
			   aw_errname((int)r.nonlfs_errno), (unsigned long long)r.nonlfs_entries, wide);
	else if (r.nonlfs_entries == r.entries)
		aw_observe(ctx, "compat32.nonlfs_readdir", "complete");
	else
		aw_observe(ctx, "compat32.nonlfs_readdir", "ended after %llu of %llu entries",
			   (unsigned long long)r.nonlfs_entries, (unsigned long long)r.entries);
}

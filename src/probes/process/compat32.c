// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The 32-bit caller, through the family's helper (m32/process_m32.c),
 * where the compat path differs from the native one: uname()'s machine
 * with and without PER_LINUX32, the sigaltstack minimum
 * (COMPAT_MINSIGSTKSZ) and a frame on AT_MINSIGSTKSZ bytes (the ia32
 * frame, which 1c33bb050712 sizes too), the compat siginfo of F_SETSIG
 * (fcntl(2)), and a 64-bit tracer's view of the 32-bit tracee:
 * PTRACE_GET_SYSCALL_INFO's arch (AUDIT_ARCH_I386) and i386's number of
 * getpid() (20), what strace and seccomp supervisors rely on to tell the
 * two system call tables apart (201766a20e30).
 *
 * The tracer is forked by the helper's own process just before it execs
 * (struct aw_helper.before_exec): a 64-bit copy of the probe that
 * attaches to its parent with PTRACE_SEIZE and PTRACE_O_EXITKILL, so
 * that the helper dies with it, and detaches at the getpid() entry.
 */
#include "process.h"
#include "lib/errname.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/wait.h>
#include <unistd.h>

#define AUDIT_ARCH_I386_ 0x40000003U
#define I386_NR_GETPID 20
#define HELPER_MS 5000 /* the helper's bound, which also ends a wait for its stop */

static const struct aw_item compat32_items[] = {
	AW_OBS_ITEM("uname_machine", "uname() machine of a 32-bit process",
		    .change = "32-bit programs and build scripts see another machine name", .object = "uname"),
	AW_OBS_ITEM("linux32_machine", "uname() machine of a 32-bit process with PER_LINUX32",
		    .change = "linux32(8) chroots see another machine name", .object = "uname"),
	AW_OBS_ITEM("altstack_min", "the smallest ss_size a 32-bit sigaltstack() accepts", .unit = "B",
		    .change = "32-bit programs passing MINSIGSTKSZ get ENOMEM", .object = "altstack"),
	AW_OBS_ITEM("minsigstksz", "whether a 32-bit process gets AT_MINSIGSTKSZ: present or absent",
		    .object = "altstack"),
	AW_CHECK_ITEM("altstack_at_minsigstksz", "a 32-bit signal frame fits an alternate stack of AT_MINSIGSTKSZ bytes",
		      .object = "altstack"),
	AW_OBS_ITEM("setsig_rt", "si_code a 32-bit process gets for F_SETSIG(SIGRTMIN+8) on a readable pipe",
		    .object = "setsig"),
	AW_OBS_ITEM("setsig_rt_fields", "si_band and si_fd of that signal in the 32-bit siginfo: 0x41 and the pipe",
		    .change = "32-bit event loops using the F_SETSIG idiom read a wrong band or descriptor",
		    .object = "setsig"),
	AW_OBS_ITEM("setsig_sigchld", "si_code a 32-bit process gets for F_SETSIG(SIGCHLD) on a readable pipe",
		    .object = "setsig"),
	AW_OBS_ITEM("ptrace_syscall_info", "a 64-bit tracer's PTRACE_GET_SYSCALL_INFO at the 32-bit tracee's getpid() entry: arch and number",
		    .change = "strace, gdb and seccomp supervisors mistake 32-bit calls for 64-bit ones (or fail: EIO before 5.3)",
		    .object = "ptrace"),
	AW_ITEMS_END
};

static struct aw_ctx *cctx;

/* In the tracer: follow h from its exec to its first i386 getpid(), and
 * leave it stopped there (or wherever it gave up) for the caller. */
static const char *trace(pid_t h, char *buf, size_t size)
{
	/* Bounded by stops, not by a clock: a loaded machine makes each
	 * stop slower, never more of them.  A stop that never comes ends
	 * with the helper, which its own timeout kills. */
	bool execed = false;
	for (int stops = 0; stops < 400; stops++) {
		int status;
		if (process_waitpid(h, &status, __WALL, HELPER_MS) != 1)
			return "no stop within 5 s";
		if (!WIFSTOPPED(status)) {
			snprintf(buf, size, "the tracee ended first: %s", process_status_word(status, buf + size / 2, size / 2));
			return buf;
		}
		int sig = WSTOPSIG(status), event = status >> 16, pass = 0;
		if (sig == SIGTRAP && event == PTRACE_EVENT_EXEC) {
			execed = true;
		} else if (sig == (SIGTRAP | 0x80) && execed) {
			struct process_syscall_info info;
			memset(&info, 0, sizeof(info));
			long n = ptrace((enum __ptrace_request)PROCESS_PTRACE_GET_SYSCALL_INFO, h, sizeof(info), &info);
			if (n < 0) {
				snprintf(buf, size, "%s", aw_errname(errno));
				return buf;
			}
			if (info.op == 1 && info.nr == I386_NR_GETPID) {
				/* Still stopped: the caller reports, then lets it go. */
				snprintf(buf, size, "arch %s, nr %llu", info.arch == AUDIT_ARCH_I386_ ? "i386" : "other",
					 (unsigned long long)info.nr);
				return buf;
			}
		} else if (sig != SIGTRAP && sig != (SIGTRAP | 0x80) && event == 0) {
			pass = sig; /* a signal for the tracee: deliver it */
		}
		if (ptrace(execed ? PTRACE_SYSCALL : PTRACE_CONT, h, 0, pass) != 0)
			return "PTRACE_SYSCALL failed";
	}
	return "no getpid() entry within 400 stops";
}

/* In the helper's process, before it execs (struct aw_helper.before_exec). */
static void seize_me(void *arg)
{
	int p[2];
	(void)arg;
	if (pipe(p) != 0)
		return;
	pid_t h = getpid();
	pid_t g = fork();
	if (g == 0) {
		close(p[0]);
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		int null = open("/dev/null", O_RDWR);
		dup2(null, 0);
		dup2(null, 1);
		dup2(null, 2);
		const char *item = "ptrace_syscall_info";
		if (ptrace(PTRACE_SEIZE, h, 0, PTRACE_O_TRACESYSGOOD | PTRACE_O_TRACEEXEC | PTRACE_O_EXITKILL) != 0) {
			aw_unobserved(cctx, item, "PTRACE_SEIZE of the helper: %s", aw_errname(errno));
			close(p[1]);
			_exit(0);
		}
		close(p[1]); /* the helper may exec now */
		char buf[128];
		const char *word = trace(h, buf, sizeof(buf));
		if (strncmp(word, "arch ", 5) == 0 || strncmp(word, "E", 1) == 0)
			aw_observe(cctx, item, "%s", word);
		else
			aw_error(cctx, item, "%s", word);
		/* Only now: the helper, let go, may exit at once, and its death
		 * kills this tracer (PR_SET_PDEATHSIG) before a later report. */
		ptrace(PTRACE_DETACH, h, 0, 0);
		_exit(0);
	}
	close(p[1]);
	char c;
	if (g > 0)
		(void)!read(p[0], &c, 1); /* EOF once the tracer has attached (or given up) */
	close(p[0]);
}

static void compat32_run(struct aw_ctx *ctx)
{
	static const char *const args[] = { "compat", "traced", NULL };
	static const char *const own[] = { "ptrace_syscall_info", NULL };
	cctx = ctx;
	const struct aw_helper helper = {
		.name = PROCESS_HELPER, .args = args, .prefix = "", .own = own,
		.timeout_ms = HELPER_MS, .before_exec = seize_me,
	};
	bool ok = aw_helper_report(ctx, &helper);
	/* the tracer reports on its own; wait for it a little */
	for (int i = 0; i < 2000 && !aw_reported(ctx, own[0]); i++)
		usleep(1000);
	if (!aw_reported(ctx, own[0])) {
		if (ok)
			aw_error(ctx, own[0], "the tracer did not report");
		else
			aw_skip(ctx, own[0], "the helper did not run");
	}
}

static const char *const compat32_tags[] = {
	"linux-git:1c33bb050712", "linux-git:201766a20e30", "man:personality(2)", "man:sigaltstack(2)",
	"man:ptrace(2)", NULL,
};

const struct aw_probe process_compat32_probes[] = {
	{
		.name = "compat32",
		.summary = "the 32-bit caller: uname machine, sigaltstack sizes, F_SETSIG si_codes, a 64-bit tracer's syscall info",
		.run = compat32_run,
		.items = compat32_items,
		.tags = compat32_tags,
		.needs = { .i386_programs = true },
	},
	AW_PROBES_END,
};

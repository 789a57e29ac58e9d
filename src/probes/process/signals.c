// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Signals as debuggers, runtimes and event loops meet them.
 * - A synchronous signal the kernel forces (SIGSEGV of a bad access,
 *   SIGTRAP of int3) while the signal is blocked or ignored: the task is
 *   killed (force_sig_info_to_task unblocks it), but a ptrace tracer must
 *   see a signal-delivery-stop first (ptrace(2)).  SA_IMMUTABLE
 *   (00b06da29cf9, 5.16-rc1) made such signals bypass the tracer and
 *   broke rr (Kyle Huey's report) until e349d945fac7 and fcb116bc43c8
 *   (5.16-rc2) limited it to the kernel's own fatal signals.
 * - The kernel's signal numbers: _NSIG 64, realtime signals from 32
 *   (signal(7); the C library keeps the first two or three for itself).
 * - sigaltstack(2): the smallest size accepted (MINSIGSTKSZ), and a
 *   signal delivered on a stack of AT_MINSIGSTKSZ bytes, the size the
 *   kernel says a frame needs (1c33bb050712, 5.14, getauxval(3)).
 * - fcntl(2) F_SETSIG: si_code of the SIGIO-style signal: POLL_IN for a
 *   signal of F_SETSIG, SI_KERNEL for plain SIGIO, and SI_SIGIO for a
 *   signal that has codes of its own (SIGCHLD), since Eric Biederman's
 *   "fcntl: Don't use ambiguous SIG_POLL si_codes" (4.15).
 * - RLIMIT_SIGPENDING bounds the signals a user has queued (getrlimit(2)):
 *   sigqueue(3) past it fails with EAGAIN, while kill(2) (si_code >= 0)
 *   passes it (__send_signal_locked's override_rlimit).  The count is
 *   the user's, over all its processes, so the probe sets the limit to
 *   0, where the answer does not depend on them.
 * Every case runs in a child of the probe.
 */
#include "process.h"
#include "sigmeasure.h"
#include "lib/child.h"
#include "lib/errname.h"
#include "lib/signals.h"
#include "lib/util.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#ifndef AT_MINSIGSTKSZ
#define AT_MINSIGSTKSZ 51
#endif

#define FORCED_CHANGE "debuggers and record/replay tools (gdb, rr) can no longer intercept a program's faults, or start to"

static const struct aw_item signal_items[] = {
	AW_OBS_ITEM("forced.segv_blocked_traced", "a traced child faults with SIGSEGV blocked: what its tracer sees",
		    .change = FORCED_CHANGE, .object = "forced"),
	AW_OBS_ITEM("forced.segv_ignored_traced", "a traced child faults with SIGSEGV ignored: what its tracer sees",
		    .change = FORCED_CHANGE, .object = "forced"),
	AW_OBS_ITEM("forced.trap_blocked_traced", "a traced child runs int3 with SIGTRAP blocked: what its tracer sees",
		    .change = FORCED_CHANGE, .object = "forced"),
	AW_OBS_ITEM("forced.segv_blocked", "an untraced child faults with SIGSEGV blocked: how it ends",
		    .change = "a program that blocks SIGSEGV no longer dies of a fault, or does", .object = "forced"),
	AW_OBS_ITEM("rt.nsig", "the highest signal number rt_sigaction() accepts (_NSIG)",
		    .change = "programs sizing signal tables by SIGRTMAX see another bound", .object = "rt"),
	AW_OBS_ITEM("rt.first_queued", "the lowest signal number of which two sent instances are both queued (SIGRTMIN)",
		    .change = "the C library's SIGRTMIN no longer names a realtime signal", .object = "rt"),
	AW_OBS_ITEM("altstack.min", "the smallest ss_size sigaltstack() accepts", .unit = "B",
		    .change = "programs passing MINSIGSTKSZ (coroutine libraries, Go, Rust) get ENOMEM", .object = "altstack"),
	AW_CHECK_ITEM("altstack.at_minsigstksz", "a signal is delivered on an alternate stack of AT_MINSIGSTKSZ bytes",
		      .object = "altstack"),
	AW_OBS_ITEM("setsig.rt", "si_code of the signal F_SETSIG(SIGRTMIN+8) asks for, when a pipe becomes readable",
		    .change = "event loops dispatching on si_code (POLL_IN) miss their events", .object = "setsig"),
	AW_OBS_ITEM("setsig.rt_fields", "si_band and si_fd of that signal: POLLIN|POLLRDNORM (0x41) and the pipe",
		    .change = "event loops reading si_fd or si_band (the F_SETSIG idiom) act on the wrong descriptor",
		    .object = "setsig"),
	AW_OBS_ITEM("setsig.sigio", "si_code of plain SIGIO (F_SETSIG 0), when a pipe becomes readable",
		    .object = "setsig"),
	AW_OBS_ITEM("setsig.sigchld", "si_code of SIGCHLD chosen with F_SETSIG, when a pipe becomes readable",
		    .change = "a SIGCHLD handler takes the I/O signal for a child's exit, or stops recognising it (SI_SIGIO)",
		    .object = "setsig"),
	AW_OBS_ITEM("sigpending.sigqueue", "sigqueue() of a realtime signal with RLIMIT_SIGPENDING 0: the errno, or queued",
		    .change = "programs queueing signals meet the limit differently", .object = "sigpending"),
	AW_OBS_ITEM("sigpending.kill", "kill() of a realtime signal with RLIMIT_SIGPENDING 0: the errno, or queued",
		    .change = "signals sent with kill() are dropped under the limit, or no longer", .object = "sigpending"),
	AW_ITEMS_END
};

static struct aw_ctx *sctx;

enum fault { FAULT_SEGV, FAULT_TRAP };
enum disposition { BLOCKED, IGNORED };

struct forced {
	enum fault fault;
	enum disposition how;
	bool traced;
};

static void fault_now(enum fault f)
{
	static volatile uintptr_t bad = 8; /* an address nothing maps */
	if (f == FAULT_SEGV)
		*(volatile int *)bad = 1;
	else
		__asm__ volatile("int3");
}

static void child_fault(const struct forced *f)
{
	int sig = f->fault == FAULT_SEGV ? SIGSEGV : SIGTRAP;
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (f->traced) {
		if (ptrace(PTRACE_TRACEME, 0, 0, 0) != 0)
			_exit(90);
		raise(SIGSTOP);
	}
	if (f->how == BLOCKED) {
		sigset_t set;
		sigemptyset(&set);
		sigaddset(&set, sig);
		sigprocmask(SIG_BLOCK, &set, NULL);
	} else {
		signal(sig, SIG_IGN);
	}
	fault_now(f->fault);
	_exit(91);
}

/* What a tracer (or a parent) sees of the child f describes. */
static void observe_forced(struct aw_ctx *ctx, const char *item, struct forced f)
{
	char a[48], b[48];
	int status;
	fflush(NULL);
	pid_t pid = fork();
	if (pid < 0) {
		aw_error(ctx, item, "fork: %s", aw_errname(errno));
		return;
	}
	if (pid == 0)
		child_fault(&f);
	int rc = process_waitpid(pid, &status, 0, PROCESS_CHILD_MS);
	if (rc == 1 && f.traced) {
		if (!WIFSTOPPED(status) || WSTOPSIG(status) != SIGSTOP) {
			aw_error(ctx, item, "the child did not stop itself: %s", process_status_word(status, a, sizeof(a)));
			goto out;
		}
		ptrace(PTRACE_CONT, pid, 0, 0);
		rc = process_waitpid(pid, &status, 0, PROCESS_CHILD_MS);
		if (rc == 1 && WIFSTOPPED(status)) {
			/* a signal-delivery-stop: pass the signal on, as a debugger
			 * that lets it through does */
			int sig = WSTOPSIG(status);
			ptrace(PTRACE_CONT, pid, 0, sig);
			rc = process_waitpid(pid, &status, 0, PROCESS_CHILD_MS);
			if (rc == 1)
				aw_observe(ctx, item, "signal-delivery-stop %s, then %s", process_signame(sig),
					   process_status_word(status, b, sizeof(b)));
		} else if (rc == 1) {
			aw_observe(ctx, item, "unseen, %s", process_status_word(status, a, sizeof(a)));
		}
	} else if (rc == 1) {
		aw_observe(ctx, item, "%s", process_status_word(status, a, sizeof(a)));
	}
	if (rc != 1)
		aw_error(ctx, item, "the child did not end: %s", rc ? aw_errname(rc) : "timed out");
out:
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
}

static int rt_child(void *arg)
{
	(void)arg;
	int nsig = 0, first = 0;
	for (int s = 1; s <= 1024; s++) {
		struct sigaction sa;
		/* the raw call: the C library refuses the numbers it keeps */
		if (syscall(SYS_rt_sigaction, s, NULL, &sa, 8) == 0)
			nsig = s;
		else if (nsig)
			break;
	}
	aw_observe_long(sctx, "rt.nsig", nsig);
	for (int s = 1; s <= nsig && !first; s++) {
		if (s == SIGKILL || s == SIGSTOP)
			continue;
		/* the kernel's own mask: sigaddset() refuses the C library's signals */
		unsigned long long set = 1ULL << (s - 1);
		if (syscall(SYS_rt_sigprocmask, SIG_BLOCK, &set, NULL, 8) != 0)
			continue;
		siginfo_t si = { .si_code = SI_QUEUE, .si_pid = getpid(), .si_uid = getuid() };
		syscall(SYS_rt_sigqueueinfo, getpid(), s, &si);
		syscall(SYS_rt_sigqueueinfo, getpid(), s, &si);
		int got = 0;
		struct timespec zero = { 0, 0 };
		while (syscall(SYS_rt_sigtimedwait, &set, NULL, &zero, 8) == s)
			got++;
		if (got == 2)
			first = s;
	}
	if (first)
		aw_observe_long(sctx, "rt.first_queued", first);
	else
		aw_unobserved(sctx, "rt.first_queued", "no signal queued twice");
	return 0;
}

static int altstack_child(void *arg)
{
	(void)arg;
	long min = pm_altstack_min();
	if (min < 0)
		aw_error(sctx, "altstack.min", "sigaltstack of 1 MiB: %s", aw_errname((int)min));
	else
		aw_observe_long(sctx, "altstack.min", min);
	unsigned long at_min = getauxval(AT_MINSIGSTKSZ);
	if (!at_min) {
		aw_skip(sctx, "altstack.at_minsigstksz", "no AT_MINSIGSTKSZ in the auxiliary vector");
		return 0;
	}
	/* a frame larger than the stack kills the child: the parent reports */
	int rc = pm_altstack_delivers(at_min);
	if (rc < -1)
		aw_fail(sctx, "altstack.at_minsigstksz", "an alternate stack of AT_MINSIGSTKSZ (%lu B): %s", at_min,
			aw_errname(rc));
	else
		aw_expect(sctx, "altstack.at_minsigstksz", rc == 1, "the handler of SIGUSR1 %s on the %lu-byte stack",
			  rc == 0 ? "ran, but not" : "did not run", at_min);
	return 0;
}

/* si_code of the signal a pipe's readiness sends with F_SETSIG(sig), and
 * (fields_item) the other fields it carries. */
static void observe_setsig(struct aw_ctx *ctx, const char *item, const char *fields_item, int sig)
{
	struct pm_setsig got;
	char fields[64];
	int rc = pm_setsig(sig, &got);
	if (rc == 0) {
		aw_observe(ctx, item, "%d", got.code);
		pm_setsig_fields(&got, fields, sizeof(fields));
		if (fields_item)
			aw_observe(ctx, fields_item, "%s", fields);
		return;
	}
	const char *items[] = { item, fields_item };
	for (size_t i = 0; i < 2 && items[i]; i++) {
		if (rc == -ETIMEDOUT)
			aw_observe(ctx, items[i], "no signal");
		else
			aw_error(ctx, items[i], "pipe, fcntl or write: %s", aw_errname(rc));
	}
}

static int setsig_child(void *arg)
{
	(void)arg;
	observe_setsig(sctx, "setsig.rt", "setsig.rt_fields", SIGRTMIN + 8);
	observe_setsig(sctx, "setsig.sigio", NULL, 0);
	observe_setsig(sctx, "setsig.sigchld", NULL, SIGCHLD);
	return 0;
}

static int sigpending_child(void *arg)
{
	(void)arg;
	int sig = SIGRTMIN + 4;
	sigset_t set;
	sigemptyset(&set);
	sigaddset(&set, sig);
	sigprocmask(SIG_BLOCK, &set, NULL);
	struct rlimit rl = { 0, 0 };
	if (setrlimit(RLIMIT_SIGPENDING, &rl) != 0) {
		aw_error(sctx, "sigpending.sigqueue", "setrlimit: %s", aw_errname(errno));
		aw_error(sctx, "sigpending.kill", "setrlimit: %s", aw_errname(errno));
		return 0;
	}
	union sigval v = { 0 };
	aw_observe(sctx, "sigpending.sigqueue", "%s", sigqueue(getpid(), sig, v) == 0 ? "queued" : aw_errname(errno));
	aw_flush_signal(sig);
	siginfo_t si;
	struct timespec zero = { 0, 0 };
	if (kill(getpid(), sig) != 0)
		aw_observe(sctx, "sigpending.kill", "%s", aw_errname(errno));
	else
		aw_observe(sctx, "sigpending.kill", "%s", sigtimedwait(&set, &si, &zero) == sig ? "queued" : "dropped");
	return 0;
}

static void run_child(struct aw_ctx *ctx, const char *item, aw_child_fn fn)
{
	int rc = aw_child_run(fn, NULL, PROCESS_CHILD_MS);
	if (rc && !aw_reported(ctx, item))
		aw_error(ctx, item, "the child ended with %d", rc);
	else if (rc)
		aw_note(ctx, "the child for %s ended with %d", item, rc);
}

static void signal_run(struct aw_ctx *ctx)
{
	sctx = ctx;
	observe_forced(ctx, "forced.segv_blocked_traced", (struct forced){ FAULT_SEGV, BLOCKED, true });
	observe_forced(ctx, "forced.segv_ignored_traced", (struct forced){ FAULT_SEGV, IGNORED, true });
#if defined(__x86_64__) || defined(__i386__)
	observe_forced(ctx, "forced.trap_blocked_traced", (struct forced){ FAULT_TRAP, BLOCKED, true });
#else
	aw_unobserved(ctx, "forced.trap_blocked_traced", "int3 is x86's");
#endif
	observe_forced(ctx, "forced.segv_blocked", (struct forced){ FAULT_SEGV, BLOCKED, false });
	run_child(ctx, "rt.nsig", rt_child);
	run_child(ctx, "altstack.at_minsigstksz", altstack_child);
	run_child(ctx, "setsig.rt", setsig_child);
	run_child(ctx, "sigpending.sigqueue", sigpending_child);
	aw_error_rest(ctx, "a child ended before it reported");
}

static const char *const signal_tags[] = {
	"linux-git:00b06da29cf9", "linux-git:e349d945fac7", "linux-git:fcb116bc43c8",
	"linux-git:1c33bb050712", "man:ptrace(2)", "man:signal(7)",
	"man:sigaltstack(2)", "man:fcntl(2)", NULL,
};

const struct aw_probe process_signal_probes[] = {
	{
		.name = "signals",
		.summary = "forced signals seen by a tracer, signal numbers, sigaltstack sizes, F_SETSIG's si_code, RLIMIT_SIGPENDING",
		.run = signal_run,
		.items = signal_items,
		.tags = signal_tags,
	},
	AW_PROBES_END,
};

// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The vDSO (vdso(7)), read by the probe's own ELF reader (lib/elf.h)
 * from the address in AT_SYSINFO_EHDR, without the C library's help:
 * its defined symbols with their versions (__vdso_clock_gettime@LINUX_2.6
 * ...; __vdso_getrandom since 6.11: 4ad10a5f5f78 the generic code,
 * 33385150ac45 x86's; glibc 2.41 uses it when present), and, for
 * every clock id and the other calls, whether the vDSO serves the call or falls back to the system
 * call.  That is decided by counting, never by timing: a child traced
 * with PTRACE_SYSCALL calls the vDSO function by the address the reader
 * found, each call preceded by a marker (close(-1000 - N)), and the
 * parent counts the system-call stops between markers
 * (PTRACE_GET_SYSCALL_INFO, 5.3).  Which clocks the vDSO serves follows
 * the clocksource as well as the kernel (a clocksource without a vDSO
 * mode, such as hpet or acpi_pm, sends the high-resolution clocks to the
 * system call; arch/x86/include/asm/vdso/gettimeofday.h), so those items
 * vary with env.clocksource.  __vdso_getrandom is called as
 * vgetrandom(2)'s protocol says: first with opaque_len ~0 for the
 * parameters of its state, then twice with a state mapped so; the first
 * call may fetch a key by the system call, the second must not.
 */
#include "time.h"
#include "lib/elf.h"
#include "lib/errname.h"

#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

#define MARK_BASE 1000

static const char *const sym_absent[] = { "absent", NULL };
static const char *const served_absent[] = { "no symbol", NULL };

#define SYM_ITEM(n)                                                                              \
	AW_OBS_ITEM("sym." n, "the version of the vDSO's defined symbol " n ", or absent",         \
		    .object = "sym", .absent = sym_absent,                                           \
		    .change = "C libraries that call " n " directly find it, or fall back to the system call")
#define SERVED_ITEM(n, what)                                                                     \
	AW_OBS_ITEM("served.clock_gettime." n, "whether the vDSO's clock_gettime(" what ") answers " \
		    "without a system call: vdso, syscall, or no symbol", .object = "served",         \
		    .varies_with = "clocksource", .absent = served_absent,                           \
		    .change = "reading this clock costs a system call (or no longer does)")

static const struct aw_item vdso_items[] = {
	AW_OBS_ITEM("image", "the vDSO as the ELF reader sees it: class, machine, type; or absent",
		    .object = "image", .absent = sym_absent),
	AW_OBS_ITEM("versions", "the versions the vDSO defines, in order", .object = "image"),
	SYM_ITEM("__vdso_clock_gettime"), SYM_ITEM("__vdso_gettimeofday"), SYM_ITEM("__vdso_time"),
	SYM_ITEM("__vdso_getcpu"), SYM_ITEM("__vdso_clock_getres"), SYM_ITEM("__vdso_getrandom"),
	SYM_ITEM("__vdso_sgx_enter_enclave"),
	AW_OBS_ITEM("sym.*", "the version of another defined symbol of the vDSO", .object = "sym",
		    .absent = sym_absent),
	SERVED_ITEM("realtime", "CLOCK_REALTIME"), SERVED_ITEM("monotonic", "CLOCK_MONOTONIC"),
	SERVED_ITEM("process_cputime", "CLOCK_PROCESS_CPUTIME_ID"),
	SERVED_ITEM("thread_cputime", "CLOCK_THREAD_CPUTIME_ID"),
	SERVED_ITEM("monotonic_raw", "CLOCK_MONOTONIC_RAW"),
	SERVED_ITEM("realtime_coarse", "CLOCK_REALTIME_COARSE"),
	SERVED_ITEM("monotonic_coarse", "CLOCK_MONOTONIC_COARSE"),
	SERVED_ITEM("boottime", "CLOCK_BOOTTIME"), SERVED_ITEM("realtime_alarm", "CLOCK_REALTIME_ALARM"),
	SERVED_ITEM("boottime_alarm", "CLOCK_BOOTTIME_ALARM"), SERVED_ITEM("sgi_cycle", "id 10"),
	SERVED_ITEM("tai", "CLOCK_TAI"), SERVED_ITEM("12", "id 12"), SERVED_ITEM("13", "id 13"),
	SERVED_ITEM("14", "id 14"), SERVED_ITEM("15", "id 15"),
	AW_OBS_ITEM("served.clock_getres.realtime", "whether the vDSO's clock_getres(CLOCK_REALTIME) "
		    "answers without a system call", .object = "served", .absent = served_absent),
	AW_OBS_ITEM("served.clock_getres.process_cputime", "whether the vDSO's "
		    "clock_getres(CLOCK_PROCESS_CPUTIME_ID) answers without a system call",
		    .object = "served", .absent = served_absent),
	AW_OBS_ITEM("served.gettimeofday", "whether the vDSO's gettimeofday answers without a "
		    "system call", .object = "served", .varies_with = "clocksource",
		    .absent = served_absent),
	AW_OBS_ITEM("served.time", "whether the vDSO's time answers without a system call",
		    .object = "served", .absent = served_absent),
	AW_OBS_ITEM("served.getcpu", "whether the vDSO's getcpu answers without a system call",
		    .object = "served", .absent = served_absent),
	AW_OBS_ITEM("getrandom.params", "vgetrandom's state parameters (opaque_len ~0): state size, "
		    "mmap prot and flags; or no symbol", .object = "getrandom", .absent = served_absent),
	AW_OBS_ITEM("served.getrandom", "whether the vDSO's second getrandom of 16 bytes with a "
		    "state answers without a system call", .object = "served", .absent = served_absent,
		    .change = "getrandom() in glibc 2.41+ and systemd costs a system call (or no longer)"),
	AW_CHECK_ITEM("clock_gettime_agrees", "the vDSO's clock_gettime(CLOCK_MONOTONIC) lies between "
		      "two system calls' readings of it (vdso(7))", .object = "served"),
	AW_ITEMS_END
};

enum op_kind { OP_GETTIME, OP_GETRES, OP_GETTIMEOFDAY, OP_TIME, OP_GETCPU, OP_GETRANDOM };

struct op {
	char item[64];
	enum op_kind kind;
	int arg;
	void *fn;
	int count;
};

struct vgetrandom_params {
	uint32_t size_of_opaque_state, mmap_prot, mmap_flags, reserved[13];
};

typedef int (*gettime_fn)(clockid_t, struct timespec *);
typedef int (*gettimeofday_fn)(struct timeval *, void *);
typedef long (*time_fn)(long *);
typedef long (*getcpu_fn)(unsigned *, unsigned *, void *);
typedef ssize_t (*getrandom_fn)(void *, size_t, unsigned, void *, size_t);

static const void *image;
static struct aw_elf elf;

/* The address of the vDSO's name (as __vdso_NAME or __kernel_NAME), or NULL. */
static void *vdso_fn(const char *name)
{
	static const char *const prefixes[] = { "__vdso_", "__kernel_" };
	for (size_t i = 0; i < 2; i++) {
		char full[64];
		struct aw_elf_sym s;
		size_t off;
		snprintf(full, sizeof(full), "%s%s", prefixes[i], name);
		if (aw_elf_lookup(&elf, full, NULL, &s) == 0 && s.type == 2 /* STT_FUNC */ &&
		    aw_elf_sym_offset(&elf, &s, &off) == 0)
			return (char *)image + off;
	}
	return NULL;
}

static void symbols(struct aw_ctx *ctx)
{
	static const char *const named[] = {
		"__vdso_clock_gettime", "__vdso_gettimeofday", "__vdso_time", "__vdso_getcpu",
		"__vdso_clock_getres", "__vdso_getrandom", "__vdso_sgx_enter_enclave",
	};
	bool seen[sizeof(named) / sizeof(named[0])] = { false };
	char versions[256] = "";
	for (size_t i = 1; i < aw_elf_sym_count(&elf); i++) {
		struct aw_elf_sym s;
		if (aw_elf_sym(&elf, i, &s) != 0) {
			aw_error(ctx, "versions", "symbol %zu is malformed", i);
			continue;
		}
		/* The versions themselves are absolute symbols (shndx ABS). */
		if (s.shndx == 0 || s.shndx == 0xfff1 /* SHN_ABS */ || !*s.name || (s.type != 1 && s.type != 2))
			continue;
		char item[128];
		snprintf(item, sizeof(item), "sym.%s", s.name);
		aw_observe(ctx, item, "%s%s", s.version ? s.version : "unversioned",
			   s.hidden_version ? " (hidden)" : "");
		for (size_t k = 0; k < sizeof(named) / sizeof(named[0]); k++)
			seen[k] |= strcmp(s.name, named[k]) == 0;
		if (s.version) {
			char *hit = strstr(versions, s.version);
			size_t n = strlen(s.version);
			bool dup = hit && (hit == versions || hit[-1] == ',') && (hit[n] == ',' || !hit[n]);
			if (!dup && strlen(versions) + n + 2 < sizeof(versions))
				snprintf(versions + strlen(versions), sizeof(versions) - strlen(versions),
					 "%s%s", *versions ? "," : "", s.version);
		}
	}
	if (!aw_reported(ctx, "versions"))
		aw_observe(ctx, "versions", "%s", *versions ? versions : "none");
	for (size_t i = 0; i < sizeof(named) / sizeof(named[0]); i++) {
		char item[64];
		snprintf(item, sizeof(item), "sym.%s", named[i]);
		if (!seen[i])
			aw_observe(ctx, item, "absent");
	}
}

static int add(struct op *ops, int n, enum op_kind kind, int arg, void *fn, const char *prefix,
	       const char *name)
{
	ops[n].kind = kind;
	ops[n].arg = arg;
	ops[n].fn = fn;
	ops[n].count = 0;
	snprintf(ops[n].item, sizeof(ops[n].item), "%s%s", prefix, name);
	return n + 1;
}

static void do_op(const struct op *o, void *state, size_t state_len)
{
	struct timespec ts;
	struct timeval tv;
	unsigned cpu, node;
	char buf[16];
	switch (o->kind) {
	case OP_GETTIME:
		((gettime_fn)o->fn)(o->arg, &ts);
		break;
	case OP_GETRES:
		((gettime_fn)o->fn)(o->arg, &ts);
		break;
	case OP_GETTIMEOFDAY:
		((gettimeofday_fn)o->fn)(&tv, NULL);
		break;
	case OP_TIME:
		((time_fn)o->fn)(NULL);
		break;
	case OP_GETCPU:
		((getcpu_fn)o->fn)(&cpu, &node, NULL);
		break;
	case OP_GETRANDOM:
		if (state)
			((getrandom_fn)o->fn)(buf, sizeof(buf), 0, state, state_len);
		break;
	}
}

/* The traced child: each op after its marker, then exit. */
static void traced_child(const struct op *ops, int n, void *state, size_t state_len)
{
	if (ptrace(PTRACE_TRACEME, 0, NULL, NULL) != 0)
		_exit(3);
	raise(SIGSTOP);
	for (int i = 0; i < n; i++) {
		syscall(SYS_close, -MARK_BASE - i);
		do_op(&ops[i], state, state_len);
	}
	syscall(SYS_close, -MARK_BASE - n);
	_exit(0);
}

/* Count each op's system calls in a traced child: 0, or -errno with
 * *why. */
static int trace_ops(struct op *ops, int n, void *state, size_t state_len, const char **why)
{
	pid_t pid = fork();
	if (pid < 0) {
		*why = "fork";
		return -errno;
	}
	if (pid == 0)
		traced_child(ops, n, state, state_len);
	int st, cur = -1, rc = 0;
	if (waitpid(pid, &st, 0) != pid || !WIFSTOPPED(st)) {
		*why = "the child did not stop (PTRACE_TRACEME refused?)";
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
		return -EPERM;
	}
	ptrace(PTRACE_SETOPTIONS, pid, NULL, (void *)(long)(PTRACE_O_TRACESYSGOOD | PTRACE_O_EXITKILL));
	for (;;) {
		if (ptrace(PTRACE_SYSCALL, pid, NULL, NULL) != 0) {
			*why = "PTRACE_SYSCALL";
			rc = -errno;
			break;
		}
		if (waitpid(pid, &st, 0) != pid) {
			*why = "waitpid";
			rc = -errno;
			break;
		}
		if (WIFEXITED(st) || WIFSIGNALED(st)) {
			if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) {
				*why = "the traced child ended abnormally";
				rc = -ECHILD;
			}
			return rc;
		}
		if (WSTOPSIG(st) != (SIGTRAP | 0x80))
			continue;
		struct __ptrace_syscall_info info;
		if (ptrace(PTRACE_GET_SYSCALL_INFO, pid, (void *)sizeof(info), &info) <= 0) {
			*why = "PTRACE_GET_SYSCALL_INFO";
			rc = -errno;
			break;
		}
		if (info.op != PTRACE_SYSCALL_INFO_ENTRY)
			continue;
		long long a0 = (long long)(int)info.entry.args[0];
		if (info.entry.nr == SYS_close && a0 <= -MARK_BASE && a0 >= -MARK_BASE - n)
			cur = (int)(-MARK_BASE - a0);
		else if (cur >= 0 && cur < n)
			ops[cur].count++;
	}
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	return rc;
}

/* A getrandom state as vgetrandom's parameters ask, or NULL. */
static void *getrandom_state(struct aw_ctx *ctx, void *fn, size_t *len)
{
	struct vgetrandom_params p;
	memset(&p, 0, sizeof(p));
	if (!fn) {
		aw_observe(ctx, "getrandom.params", "no symbol");
		return NULL;
	}
	ssize_t r = ((getrandom_fn)fn)(NULL, 0, 0, &p, ~0UL);
	if (r != 0) {
		aw_observe(ctx, "getrandom.params", "returned %zd", r);
		return NULL;
	}
	aw_observe(ctx, "getrandom.params", "state %u B, prot %#x, flags %#x", p.size_of_opaque_state,
		   p.mmap_prot, p.mmap_flags);
	*len = p.size_of_opaque_state;
	void *state = mmap(NULL, 4096, (int)p.mmap_prot, (int)p.mmap_flags, -1, 0);
	if (state == MAP_FAILED) {
		aw_note(ctx, "mmap of the getrandom state: %s", aw_errname(errno));
		return NULL;
	}
	return state;
}

static void agrees(struct aw_ctx *ctx, void *fn)
{
	if (!fn) {
		aw_skip(ctx, "clock_gettime_agrees", "the vDSO has no clock_gettime");
		return;
	}
	struct timespec a, b, c;
	syscall(SYS_clock_gettime, CLOCK_MONOTONIC, &a);
	int rc = ((gettime_fn)fn)(CLOCK_MONOTONIC, &b);
	syscall(SYS_clock_gettime, CLOCK_MONOTONIC, &c);
	aw_expect(ctx, "clock_gettime_agrees", rc == 0 && time_ns(&a) <= time_ns(&b) &&
		  time_ns(&b) <= time_ns(&c), "returned %d; %lld, vDSO %lld, %lld", rc,
		  time_ns(&a), time_ns(&b), time_ns(&c));
}

static void run_vdso(struct aw_ctx *ctx)
{
	size_t size;
	int rc = aw_elf_vdso(&image, &size);
	if (rc != 0) {
		aw_observe(ctx, "image", "absent");
		aw_skip_rest(ctx, "no vDSO: %s", aw_errname(rc));
		return;
	}
	rc = aw_elf_open(&elf, image, size);
	if (rc != 0) {
		aw_error_rest(ctx, "the vDSO (%zu bytes) does not parse: %s", size, aw_errname(rc));
		return;
	}
	aw_observe(ctx, "image", "ELF%d machine %u type %u", elf.is64 ? 64 : 32, elf.machine, elf.type);
	symbols(ctx);

	struct op ops[48];
	int n = 0;
	void *gettime = vdso_fn("clock_gettime"), *getres = vdso_fn("clock_getres");
	for (int id = 0; id < TIME_NCLOCKS; id++)
		n = add(ops, n, OP_GETTIME, id, gettime, "served.clock_gettime.", time_clock_names[id]);
	n = add(ops, n, OP_GETRES, CLOCK_REALTIME, getres, "served.clock_getres.", "realtime");
	n = add(ops, n, OP_GETRES, CLOCK_PROCESS_CPUTIME_ID, getres, "served.clock_getres.",
		"process_cputime");
	n = add(ops, n, OP_GETTIMEOFDAY, 0, vdso_fn("gettimeofday"), "served.", "gettimeofday");
	n = add(ops, n, OP_TIME, 0, vdso_fn("time"), "served.", "time");
	n = add(ops, n, OP_GETCPU, 0, vdso_fn("getcpu"), "served.", "getcpu");
	void *rnd = vdso_fn("getrandom");
	size_t state_len = 0;
	void *state = getrandom_state(ctx, rnd, &state_len);
	/* The first call may fetch a key; the second is the one counted. */
	n = add(ops, n, OP_GETRANDOM, 0, state ? rnd : NULL, "served.", "getrandom.first");
	n = add(ops, n, OP_GETRANDOM, 0, state ? rnd : NULL, "served.", "getrandom");

	const char *why = "";
	rc = trace_ops(ops, n, state, state_len, &why);
	for (int i = 0; i < n; i++) {
		if (strcmp(ops[i].item, "served.getrandom.first") == 0)
			continue;
		if (!ops[i].fn)
			aw_observe(ctx, ops[i].item, "no symbol");
		else if (rc != 0)
			aw_error(ctx, ops[i].item, "tracing: %s: %s", why, aw_errname(rc));
		else
			aw_observe(ctx, ops[i].item, "%s", ops[i].count ? "syscall" : "vdso");
	}
	agrees(ctx, gettime);
}

static const char *const vdso_tags[] = {
	"man:vdso(7)", "man:ptrace(2)", "man:elf(5)", "linux-git:4ad10a5f5f78",
	"linux-git:33385150ac45", NULL,
};

static const char *const vdso_kconfig[] = { "CONFIG_GENERIC_GETTIMEOFDAY", "CONFIG_VDSO_GETRANDOM", NULL };

const struct aw_probe time_vdso_probes[] = {
	{ .name = "vdso", .summary = "the vDSO's symbols and versions (own ELF reader), and which "
	  "calls it serves without a system call (counted by ptrace)", .run = run_vdso,
	  .items = vdso_items, .tags = vdso_tags, .needs = { .kconfig = vdso_kconfig } },
	AW_PROBES_END
};

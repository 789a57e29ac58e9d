// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * execve(2) of ELF files the probe writes itself (elf.h), the auxiliary
 * vector, and the argument limits.
 *
 * - Two PT_LOADs sharing a page: the ELF loader mapped segments with
 *   MAP_FIXED_NOREPLACE from 4ed28639519c (4.17), and such binaries (old
 *   ARM programs, Russell King's report) failed with EEXIST until
 *   b212921b13bd (5.4) went back to MAP_FIXED for all but the first;
 *   5f501d555653 (6.0) reintroduced NOREPLACE for the whole image only.
 * - A PT_LOAD a page below vm.mmap_min_addr: refused by the LSM hook
 *   (security_mmap_addr, CAP_SYS_RAWIO exempt), after the point of no
 *   return, so the process dies (bprm_execve: force_fatal_sig(SIGSEGV)).
 * - PT_GNU_STACK: absent, the stack is the architecture's default, not
 *   executable on x86_64 since 9fccc5c0c99f (5.8, "x86/elf: Disable
 *   automatic READ_IMPLIES_EXEC on 64-bit"); RWX asks for an executable
 *   stack (elf(5), setup_arg_pages).  The personality after exec shows
 *   whether READ_IMPLIES_EXEC came with it.
 * - ET_DYN without PT_INTERP (a static PIE): runs; where it lands with
 *   ADDR_NO_RANDOMIZE (the mmap base for such files since 4.13's
 *   "binfmt_elf: use ELF_ET_DYN_BASE only for PIE").
 * - The auxiliary vector's keys (getauxval(3)): AT_MINSIGSTKSZ on x86
 *   (1c33bb050712, 5.14), AT_RSEQ_FEATURE_SIZE and AT_RSEQ_ALIGN
 *   (317c8194e6ae, 6.3, part of ee3e3ac05c26's extensible rseq ABI), AT_HWCAP2 (x86: 0274f9551eff, 4.11).
 * - Argument limits (execve(2) "Limits on size of arguments and
 *   environment"): one string at most MAX_ARG_STRLEN (32 pages), all of
 *   them at most a quarter of RLIMIT_STACK, at least 32 pages
 *   (2.6.23), beyond that E2BIG.
 */
#include "process.h"
#include "lib/tinyelf.h"
#include "lib/errname.h"
#include "lib/procfs.h"
#include "lib/util.h"

#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/personality.h>
#include <unistd.h>

#define ELF_OUTCOME_CHANGE "programs (old binaries, loaders, JITs writing ELF files) that ran stop running, or the other way round"

static const char *const absent_words[] = { "absent", NULL };

static const struct aw_item exec_items[] = {
	AW_OBS_ITEM("elf.plain", "execve() of a minimal ET_EXEC with one PT_LOAD and PT_GNU_STACK RW: runs, or the errno",
		    .change = "the probe's baseline: every other elf.* item depends on it", .object = "elf"),
	AW_OBS_ITEM("elf.overlap", "execve() of an ET_EXEC whose two PT_LOADs share a page: runs, or the errno (EEXIST on 4.17 to 5.3)",
		    .change = "EEXIST: binaries with overlapping segments (old ARM programs, some loaders) no longer start (4ed28639519c)",
		    .object = "elf.overlap"),
	AW_OBS_ITEM("elf.below_min", "execve(), without CAP_SYS_RAWIO, of an ET_EXEC loaded one page below vm.mmap_min_addr: how it ends",
		    .change = "programs linked at low addresses start or die differently", .object = "elf.below_min"),
	AW_OBS_ITEM("elf.stack_default", "[stack] permissions of an ELF without PT_GNU_STACK",
		    .change = "rwxp: old binaries get an executable stack again (and READ_IMPLIES_EXEC); rw-p: code that runs on its stack (trampolines) faults",
		    .object = "elf.stack"),
	AW_OBS_ITEM("elf.stack_rw", "[stack] permissions of an ELF with PT_GNU_STACK RW", .object = "elf.stack"),
	AW_OBS_ITEM("elf.stack_rwx", "[stack] permissions of an ELF with PT_GNU_STACK RWX",
		    .change = "rw-p: a program that asks for an executable stack (nested-function trampolines) does not get one",
		    .object = "elf.stack"),
	AW_OBS_ITEM("elf.personality_default", "/proc/PID/personality of an ELF without PT_GNU_STACK, started with ADDR_NO_RANDOMIZE",
		    .change = "READ_IMPLIES_EXEC (0x400000) set or cleared for binaries without PT_GNU_STACK: every PROT_READ mapping becomes executable or not",
		    .object = "elf.stack"),
	AW_OBS_ITEM("elf.dyn", "execve() of an ET_DYN without PT_INTERP (a static PIE): runs, or the errno",
		    .change = ELF_OUTCOME_CHANGE, .object = "elf.dyn"),
	AW_OBS_ITEM("elf.dyn_load", "where that ET_DYN is loaded with ADDR_NO_RANDOMIZE",
		    .change = "static PIEs (and ld.so run as a program) land elsewhere: their brk and mmap space move", .object = "elf.dyn"),
	AW_OBS_ITEM("elf.stack_top", "the end of [stack] with ADDR_NO_RANDOMIZE",
		    .change = "the top of the user address space, or the stack's place below it, moved", .object = "elf.stack"),
	AW_OBS_ITEM("auxv.types", "the a_type numbers of the auxiliary vector the kernel gives, in order",
		    .change = "a key the C library or a runtime reads (getauxval) appeared or vanished", .object = "auxv"),
	AW_OBS_ITEM("auxv.minsigstksz", "whether AT_MINSIGSTKSZ (51) is passed: present or absent",
		    .change = "absent: programs cannot learn the signal frame size (AVX-512, AMX) and keep using MINSIGSTKSZ",
		    .object = "auxv", .absent = absent_words),
	AW_OBS_ITEM("auxv.hwcap2", "whether AT_HWCAP2 (26) is passed: present or absent", .object = "auxv", .absent = absent_words),
	AW_OBS_ITEM("auxv.rseq_feature_size", "AT_RSEQ_FEATURE_SIZE (27): the rseq area's feature size, or absent",
		    .change = "absent: the C library registers the original 32-byte rseq area only (before 6.3)", .unit = "B",
		    .object = "auxv", .absent = absent_words),
	AW_OBS_ITEM("auxv.rseq_align", "AT_RSEQ_ALIGN (28): the rseq area's alignment, or absent", .unit = "B",
		    .object = "auxv", .absent = absent_words),
	AW_OBS_ITEM("args.max_strlen", "the longest single argument execve() accepts, its NUL included (MAX_ARG_STRLEN)",
		    .change = "command lines with one long argument (a shell -c script, a long -D list) fail with E2BIG", .unit = "B",
		    .object = "args"),
	AW_OBS_ITEM("args.count_1m", "how many 4 KiB arguments execve() accepts with RLIMIT_STACK 1 MiB (a quarter of it)",
		    .change = "xargs, make and build systems sizing command lines by ARG_MAX meet E2BIG sooner or later",
		    .unit = "arguments", .object = "args"),
	AW_OBS_ITEM("args.count_256k", "how many 4 KiB arguments execve() accepts with RLIMIT_STACK 256 KiB (the 32-page floor)",
		    .unit = "arguments", .object = "args"),
	AW_OBS_ITEM("args.env_count_1m", "how many 4 KiB environment strings execve() accepts beside the program's "
		    "name with RLIMIT_STACK 1 MiB: the environment shares the arguments' quarter",
		    .change = "programs passing large environments (build systems, CI runners) meet E2BIG sooner or later",
		    .unit = "strings", .object = "args"),
	AW_OBS_ITEM("args.beyond", "the errno of execve() one argument past that count",
		    .change = "a program telling 'too long' from other failures by E2BIG misreads it", .object = "args"),
	AW_ITEMS_END
};

struct exec_env {
	const char *dir;
	char *self;
	int n;
};

/* Write the program spec describes as dir/name, mode 0755: 0 or -errno. */
static int write_elf(const char *dir, const char *name, const struct aw_tinyelf_spec *spec)
{
	char *path = xasprintf("%s/%s", dir, name);
	(void)unlink(path);
	int rc = aw_tinyelf_write(spec, path);
	free(path);
	return rc;
}

/* Run dir/name (a file write_elf() made): 0 with *r, or -errno. */
static int run_elf(const char *dir, const char *name, unsigned long persona, struct pexec *r)
{
	char *path = xasprintf("%s/%s", dir, name);
	char *argv[] = { (char *)name, NULL }, *envp[] = { NULL };
	/* a stack limit of its own: the mmap base follows it (and an
	 * unlimited one selects the legacy layout) */
	struct pexec_how how = { .persona = persona, .map_name = path, .stack_limit = 8UL << 20 };
	int rc = process_exec(path, argv, envp, &how, r);
	free(path);
	return rc;
}

static void observe_outcome(struct aw_ctx *ctx, const char *item, const char *dir, const char *name,
			    const struct aw_tinyelf_spec *spec, unsigned long persona, struct pexec *r)
{
	char buf[64];
	int rc = write_elf(dir, name, spec);
	if (rc == 0)
		rc = run_elf(dir, name, persona, r);
	if (rc)
		aw_error(ctx, item, "%s: %s", name, aw_errname(rc));
	else
		aw_observe(ctx, item, "%s", process_exec_word(r, buf, sizeof(buf)));
}

static void observe_stack(struct aw_ctx *ctx, const char *item, const struct pexec *r)
{
	if (!r->stopped)
		aw_unobserved(ctx, item, "the program did not run");
	else
		aw_observe(ctx, item, "%s", r->stack[0] ? r->stack : "none");
}

static void elf_items(struct aw_ctx *ctx, const char *dir)
{
	struct pexec r;
	struct aw_tinyelf_spec plain = { .base = 0x400000, .stack = AW_TINYELF_STACK_RW, .code = AW_TINYELF_STOP };

	observe_outcome(ctx, "elf.plain", dir, "plain", &plain, 0, &r);
	observe_stack(ctx, "elf.stack_rw", &r);
	struct aw_tinyelf_spec overlap = plain;
	overlap.overlap = true;
	observe_outcome(ctx, "elf.overlap", dir, "overlap", &overlap, 0, &r);
	long long min_addr = 0;
	int rc = aw_sysctl_read_ll("vm.mmap_min_addr", &min_addr);
	if (rc)
		aw_unobserved(ctx, "elf.below_min", "reading vm.mmap_min_addr: %s", aw_errname(rc));
	else if (min_addr < (long long)aw_page_size())
		aw_unobserved(ctx, "elf.below_min", "vm.mmap_min_addr is %lld: no page lies below it", min_addr);
	else {
		struct aw_tinyelf_spec low = plain;
		low.base = ((unsigned long)min_addr & ~(aw_page_size() - 1)) - aw_page_size();
		observe_outcome(ctx, "elf.below_min", dir, "low", &low, 0, &r);
	}

	struct aw_tinyelf_spec nostack = plain;
	nostack.stack = AW_TINYELF_STACK_NONE;
	char buf[64];
	if (write_elf(dir, "nostack", &nostack) == 0 && run_elf(dir, "nostack", ADDR_NO_RANDOMIZE, &r) == 0) {
		observe_stack(ctx, "elf.stack_default", &r);
		if (r.stopped) {
			aw_observe(ctx, "elf.personality_default", "%#lx", r.persona);
			aw_observe(ctx, "elf.stack_top", "%#lx", r.stack_end);
		} else {
			aw_unobserved(ctx, "elf.personality_default", "%s", process_exec_word(&r, buf, sizeof(buf)));
			aw_unobserved(ctx, "elf.stack_top", "%s", process_exec_word(&r, buf, sizeof(buf)));
		}
	} else {
		aw_error(ctx, "elf.stack_default", "writing or starting %s/nostack", dir);
	}
	struct aw_tinyelf_spec rwx = plain;
	rwx.stack = AW_TINYELF_STACK_RWX;
	if (write_elf(dir, "rwx", &rwx) == 0 && run_elf(dir, "rwx", 0, &r) == 0)
		observe_stack(ctx, "elf.stack_rwx", &r);
	else
		aw_error(ctx, "elf.stack_rwx", "writing or starting %s/rwx", dir);

	struct aw_tinyelf_spec dyn = { .dyn = true, .stack = AW_TINYELF_STACK_RW, .code = AW_TINYELF_STOP };
	observe_outcome(ctx, "elf.dyn", dir, "dyn", &dyn, ADDR_NO_RANDOMIZE, &r);
	if (r.stopped && r.load)
		aw_observe(ctx, "elf.dyn_load", "%#lx", r.load);
	else
		aw_unobserved(ctx, "elf.dyn_load", "the ET_DYN did not run, or has no mapping of its own");
}

static void auxv_items(struct aw_ctx *ctx)
{
	char *text = NULL;
	size_t len = 0;
	if (aw_file_slurp("/proc/self/auxv", &text, &len) != 0) {
		int e = errno;
		for (const char *const *it = (const char *const[]){ "auxv.types", "auxv.minsigstksz", "auxv.hwcap2",
				"auxv.rseq_feature_size", "auxv.rseq_align", NULL }; *it; it++)
			aw_error(ctx, *it, "reading /proc/self/auxv: %s", aw_errname(e));
		return;
	}
	char types[512] = "";
	size_t used = 0;
	bool minsig = false, hwcap2 = false, rseq_size = false, rseq_align = false;
	unsigned long size_v = 0, align_v = 0;
	for (size_t off = 0; off + sizeof(Elf64_auxv_t) <= len; off += sizeof(Elf64_auxv_t)) {
		Elf64_auxv_t a;
		memcpy(&a, text + off, sizeof(a));
		if (a.a_type == AT_NULL)
			break;
		if (used < sizeof(types) - 24)
			used += (size_t)snprintf(types + used, sizeof(types) - used, "%s%lu", used ? " " : "",
						 (unsigned long)a.a_type);
		switch (a.a_type) {
		case 51: minsig = true; break;
		case 26: hwcap2 = true; break;
		case 27: rseq_size = true; size_v = a.a_un.a_val; break;
		case 28: rseq_align = true; align_v = a.a_un.a_val; break;
		}
	}
	free(text);
	aw_observe(ctx, "auxv.types", "%s", types);
	aw_observe(ctx, "auxv.minsigstksz", "%s", minsig ? "present" : "absent");
	aw_observe(ctx, "auxv.hwcap2", "%s", hwcap2 ? "present" : "absent");
	if (rseq_size)
		aw_observe(ctx, "auxv.rseq_feature_size", "%lu", size_v);
	else
		aw_observe(ctx, "auxv.rseq_feature_size", "absent");
	if (rseq_align)
		aw_observe(ctx, "auxv.rseq_align", "%lu", align_v);
	else
		aw_observe(ctx, "auxv.rseq_align", "absent");
}

/* Whether "./exit" runs with count strings of len bytes each (NUL
 * included), as arguments or (in_env) as its environment, and
 * RLIMIT_STACK stack: 0, or the errno. */
static int strings_run(const char *dir, size_t count, size_t len, unsigned long stack, bool in_env)
{
	char **strings = xcalloc(count + 2, sizeof(*strings));
	char *s = xcalloc(1, len);
	memset(s, 'a', len - 1);
	if (in_env)
		s[0] = '=';
	for (size_t i = 0; i < count; i++)
		strings[i] = s;
	char *name_only[] = { (char *)"exit", NULL };
	char *argv_env[] = { NULL };
	char **argv = name_only, **envp = strings;
	if (!in_env) {
		memmove(strings + 1, strings, count * sizeof(*strings));
		strings[0] = (char *)"exit";
		argv = strings;
		envp = argv_env;
	}
	char *path = xasprintf("%s/exit", dir);
	struct pexec_how how = { .stack_limit = stack };
	struct pexec r;
	int rc = process_exec(path, argv, envp, &how, &r);
	free(path);
	free(s);
	free(strings);
	if (rc)
		return -rc;
	return r.err ? r.err : r.timed_out || r.sig || r.status ? -1 : 0;
}

static int args_run(const char *dir, size_t count, size_t len, unsigned long stack)
{
	return strings_run(dir, count, len, stack, false);
}

/* The largest n in [lo, hi) for which ok(n) holds, given ok(lo) and
 * !ok(hi); err_beyond gets the errno of hi. */
static long largest_exec_arg(const char *dir, long lo, long hi, bool by_len, unsigned long stack, int *err_beyond)
{
	*err_beyond = by_len ? args_run(dir, 1, (size_t)hi, stack) : args_run(dir, (size_t)hi, 4096, stack);
	if (*err_beyond == 0)
		return -1;
	while (hi - lo > 1) {
		long mid = lo + (hi - lo) / 2;
		int rc = by_len ? args_run(dir, 1, (size_t)mid, stack) : args_run(dir, (size_t)mid, 4096, stack);
		if (rc == 0)
			lo = mid;
		else if (rc == E2BIG)
			hi = mid;
		else
			return -2;
	}
	if (!by_len)
		*err_beyond = args_run(dir, (size_t)hi, 4096, stack);
	return lo;
}

/* The environment's strings count against the same quarter of
 * RLIMIT_STACK as the arguments: how many 4 KiB ones fit beside the
 * program's name. */
static void observe_env_count(struct aw_ctx *ctx, const char *dir)
{
	long lo = 1, hi = 1024;
	int rc = strings_run(dir, (size_t)hi, 4096, 1UL << 20, true);
	if (rc != E2BIG || strings_run(dir, (size_t)lo, 4096, 1UL << 20, true) != 0) {
		aw_unobserved(ctx, "args.env_count_1m", "one 4 KiB string runs: no; 1024: %s",
			      rc ? aw_errname(rc) : "runs");
		return;
	}
	while (hi - lo > 1) {
		long mid = lo + (hi - lo) / 2;
		rc = strings_run(dir, (size_t)mid, 4096, 1UL << 20, true);
		if (rc != 0 && rc != E2BIG) {
			aw_unobserved(ctx, "args.env_count_1m", "%ld strings: %s", mid, aw_errname(rc));
			return;
		}
		*(rc ? &hi : &lo) = mid;
	}
	aw_observe_long(ctx, "args.env_count_1m", lo);
}

static void args_items(struct aw_ctx *ctx, const char *dir)
{
	struct aw_tinyelf_spec quit = { .base = 0x400000, .stack = AW_TINYELF_STACK_RW };
	int rc = write_elf(dir, "exit", &quit);
	if (rc == 0 && (rc = args_run(dir, 1, 2, 0)) != 0)
		rc = rc > 0 ? -rc : -EIO;
	if (rc) {
		for (const char *const *it = (const char *const[]){ "args.max_strlen", "args.count_1m", "args.count_256k",
				"args.beyond", NULL }; *it; it++)
			aw_error(ctx, *it, "a program with one argument does not run: %s", aw_errname(rc));
		aw_error(ctx, "args.env_count_1m", "a program with one argument does not run: %s", aw_errname(rc));
		return;
	}
	int beyond;
	/* below 64 KiB every kernel takes one string (32 pages of 4 KiB at
	 * least); a quarter of 8 MiB bounds the search from above */
	long v = args_run(dir, 1, 64 << 10, 8UL << 20) ? -1 : largest_exec_arg(dir, 64 << 10, 2L << 20, true, 8UL << 20, &beyond);
	if (v < 0)
		aw_unobserved(ctx, "args.max_strlen", "a 64 KiB string is refused, or no E2BIG up to 2 MiB");
	else
		aw_observe_long(ctx, "args.max_strlen", v);
	v = largest_exec_arg(dir, 1, 1024, false, 1UL << 20, &beyond);
	if (v < 0) {
		aw_unobserved(ctx, "args.count_1m", "no E2BIG up to 1024 arguments, or another errno");
		aw_unobserved(ctx, "args.beyond", "no boundary");
	} else {
		aw_observe_long(ctx, "args.count_1m", v);
		aw_observe(ctx, "args.beyond", "%s", beyond ? aw_errname(beyond) : "runs");
	}
	v = largest_exec_arg(dir, 1, 1024, false, 256UL << 10, &beyond);
	if (v < 0)
		aw_unobserved(ctx, "args.count_256k", "no E2BIG up to 1024 arguments, or another errno");
	else
		aw_observe_long(ctx, "args.count_256k", v);
	observe_env_count(ctx, dir);
}

static void exec_run(struct aw_ctx *ctx)
{
	const char *dir = aw_tmpdir(ctx);
	auxv_items(ctx);
	if (!aw_tinyelf_supported()) {
		aw_skip_rest(ctx, "the probe writes x86_64 ELF files only");
		return;
	}
	elf_items(ctx, dir);
	args_items(ctx, dir);
}

static const char *const exec_tags[] = {
	"linux-git:4ed28639519c", "linux-git:b212921b13bd", "linux-git:5f501d555653",
	"linux-git:9fccc5c0c99f", "linux-git:1c33bb050712",
	"linux-git:317c8194e6ae", "linux-git:ee3e3ac05c26", "man:execve(2)", "man:elf(5)",
	"man:getauxval(3)", NULL,
};

const struct aw_probe process_exec_probes[] = {
	{
		.name = "exec",
		.summary = "execve() of hand-made ELF files, the auxiliary vector, the argument limits",
		.run = exec_run,
		.items = exec_items,
		.tags = exec_tags,
	},
	AW_PROBES_END,
};

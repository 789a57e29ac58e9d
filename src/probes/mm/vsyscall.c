// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The vsyscall page: the fixed address 0xffffffffff600000 where old
 * x86_64 binaries (static glibc before 2.14, old Go, some JITs) call
 * gettimeofday, time and getcpu.  Its mode is a build and boot choice:
 * emulate (readable, calls emulated), xonly (calls emulated, reads
 * fault; the default since 625b7b7f79c6, 5.3) or none (both fault;
 * Debian's CONFIG_LEGACY_VSYSCALL_NONE).  Read and called in children,
 * where a SIGSEGV is the answer; /proc/self/maps shows the page's
 * permissions, or no [vsyscall] line at all.
 */
#include "mm.h"
#include "parse.h"
#include "lib/child.h"
#include "lib/errname.h"
#include "lib/maps.h"
#include "lib/proc.h"
#include "lib/procfs.h"

#include <errno.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define VSYSCALL_PAGE 0xffffffffff600000UL
#define VSYSCALL_TIME (VSYSCALL_PAGE + 0x400)
#define CHILD_MS 2000

static const struct aw_item vsyscall_items[] = {
	AW_OBS_ITEM("maps", "the permissions of the [vsyscall] line of /proc/self/maps, or absent",
		    .change = "the vsyscall page's mode changed (r-xp emulate, --xp xonly, absent none)"),
	AW_OBS_ITEM("read", "reading a byte of the vsyscall page in a child: ok or the signal",
		    .change = "SIGSEGV: programs that read the vsyscall page (old JITs, debuggers) crash"),
	AW_OBS_ITEM("call", "calling time() at 0xffffffffff600400 in a child: ok or the signal",
		    .change = "SIGSEGV: old static binaries (glibc before 2.14, old Go) crash at their first gettimeofday/time"),
	AW_OBS_ITEM("mode", "the vsyscall mode these imply: emulate, xonly or none",
		    .change = "old binaries that call or read the vsyscall page work or crash"),
	AW_OBS_ITEM("boot_param", "the vsyscall= kernel parameter, or none",
		    .change = "the mode was chosen on the command line, not by the kernel's configuration"),
	AW_ITEMS_END
};

#if defined(__x86_64__)
/* In a child: a fault ends it with the signal, the answer. */
static void default_faults(void)
{
	struct sigaction dfl = { .sa_handler = SIG_DFL };
	sigaction(SIGSEGV, &dfl, NULL);
	sigaction(SIGBUS, &dfl, NULL);
}

static int read_child(void *arg)
{
	unsigned char byte;
	(void)arg;
	default_faults();
	/* asm: a sanitizer must not look up shadow memory for this address */
	__asm__ volatile("movb (%1), %0" : "=r"(byte) : "r"(VSYSCALL_PAGE) : "memory");
	return byte == 0x48 ? 0 : 2; /* mov $__NR_gettimeofday, %rax begins with REX.W */
}

static int call_child(void *arg)
{
	time_t (*vtime)(time_t *) = (time_t (*)(time_t *))VSYSCALL_TIME;
	(void)arg;
	default_faults();
	time_t t = vtime(NULL);
	return t > 0 && labs((long)(t - time(NULL))) <= 5 ? 0 : 2;
}

/* "ok", the signal's name, or the odd status. */
static const char *outcome(int status, char *buf, size_t size)
{
	if (status == 0)
		return "ok";
	if (status > 128 && status < 128 + 65 && sigabbrev_np(status - 128))
		snprintf(buf, size, "SIG%s", sigabbrev_np(status - 128));
	else
		snprintf(buf, size, "status %d", status);
	return buf;
}

static const char *mode_of(const char *read, const char *call)
{
	bool r = strcmp(read, "ok") == 0, c = strcmp(call, "ok") == 0;
	return r && c ? "emulate" : c ? "xonly" : !r ? "none" : "other (readable, not callable)";
}

static void observe_maps(struct aw_ctx *ctx)
{
	char *maps = NULL;
	size_t len = 0;
	struct aw_map m;

	if (aw_file_slurp("/proc/self/maps", &maps, &len) != 0) {
		aw_error(ctx, "maps", "reading /proc/self/maps: %s", aw_errname(errno));
		return;
	}
	aw_observe(ctx, "maps", "%s", aw_maps_by_name(maps, len, "[vsyscall]", &m) == 0 ? m.perms : "absent");
	free(maps);
}

static void vsyscall_run(struct aw_ctx *ctx)
{
	char rbuf[32], cbuf[32];
	int rs = aw_child_run(read_child, NULL, CHILD_MS);
	int cs = aw_child_run(call_child, NULL, CHILD_MS);

	observe_maps(ctx);
	mm_observe_boot_param(ctx, "boot_param", "vsyscall");
	if (rs < 0 || cs < 0) {
		aw_error_rest(ctx, "a child: %s", aw_errname(rs < 0 ? rs : cs));
		return;
	}
	const char *r = outcome(rs, rbuf, sizeof(rbuf)), *c = outcome(cs, cbuf, sizeof(cbuf));
	aw_observe(ctx, "read", "%s", r);
	aw_observe(ctx, "call", "%s", c);
	aw_observe(ctx, "mode", "%s", mode_of(r, c));
}
#else
static void vsyscall_run(struct aw_ctx *ctx)
{
	aw_skip_rest(ctx, "the vsyscall page is x86_64's");
}
#endif

static const char *const vsyscall_tags[] = {
	"linux-git:625b7b7f79c6", "man:vsyscall(2)", "man:proc_pid_maps(5)", NULL
};

static const char *const vsyscall_kconfig[] = { "CONFIG_X86_VSYSCALL_EMULATION", NULL };

const struct aw_probe mm_vsyscall_probes[] = {
	{
		.name = "vsyscall",
		.summary = "the vsyscall page: its mapping, and whether reading and calling it work",
		.run = vsyscall_run,
		.items = vsyscall_items,
		.needs = { .kconfig = vsyscall_kconfig },
		.tags = vsyscall_tags,
	},
	AW_PROBES_END,
};

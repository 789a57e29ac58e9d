// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * personality(2) flags programs still set (personality(2), setarch(8)):
 * - UNAME26 (3.1): uname() reports "2.6.(40+x)" for 3.x
 *   so that binary-only tools matching "2.6." keep working (LWN 451476);
 *   for a 6.x kernel override_release() adds 60 to the minor number;
 * - READ_IMPLIES_EXEC: every PROT_READ mmap() is executable too
 *   (do_mmap), as old binaries without PT_GNU_STACK once got it;
 * - ADDR_NO_RANDOMIZE: the layout does not change from one exec to the
 *   next (what gdb and rr start programs with);
 * - PER_LINUX32: uname() reports the compat machine ("i686" on x86_64:
 *   override_architecture(), COMPAT_UTS_MACHINE), what linux32(8) is for.
 * Each is set in a child, which then looks at itself (or, for the
 * layout, execs the family's ELF file twice, elf.h).
 */
#include "process.h"
#include "lib/tinyelf.h"
#include "lib/child.h"
#include "lib/errname.h"
#include "lib/maps.h"
#include "lib/procfs.h"
#include "lib/util.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/personality.h>
#include <sys/utsname.h>
#include <unistd.h>

static const struct aw_item personality_items[] = {
	AW_CHECK_ITEM("uname26.prefix", "with UNAME26, uname() release begins \"2.6.\" (personality(2))", .object = "uname26"),
	AW_OBS_ITEM("uname26.offset", "with UNAME26, the third number of the release minus the kernel's minor number",
		    .change = "scripts and tools matching a 2.6.x release see other numbers", .object = "uname26"),
	AW_CHECK_ITEM("uname26.rest", "with UNAME26, the release keeps what follows the kernel's version numbers (\"-amd64\")",
		      .object = "uname26"),
	AW_OBS_ITEM("read_implies_exec.mmap", "permissions of a PROT_READ anonymous mapping made with READ_IMPLIES_EXEC",
		    .change = "code run from PROT_READ memory (old JITs, binaries without PT_GNU_STACK) faults, or data becomes executable",
		    .object = "read_implies_exec"),
	AW_OBS_ITEM("read_implies_exec.exec", "the personality an ELF with PT_GNU_STACK RW gets when started with READ_IMPLIES_EXEC",
		    .change = "READ_IMPLIES_EXEC survives execve() or not: a launcher's setting reaches the program or is lost",
		    .object = "read_implies_exec"),
	AW_CHECK_ITEM("addr_no_randomize.same_layout", "with ADDR_NO_RANDOMIZE two execs of one program have the same stack and load address",
		      .object = "addr_no_randomize"),
	AW_OBS_ITEM("linux32.machine", "uname() machine of a 64-bit process with PER_LINUX32",
		    .change = "linux32(8) and 32-bit build chroots see another machine name", .object = "linux32"),
	AW_OBS_ITEM("linux32.persona", "what personality(0xffffffff) returns after personality(PER_LINUX32)", .object = "linux32"),
	AW_ITEMS_END
};

static struct aw_ctx *pctx;

/* "6.12.3-amd64" -> 6, 12 and what follows the leading numbers and
 * dots ("-amd64"), as override_release() splits it. */
static bool split_release(const char *rel, unsigned *major, unsigned *minor, const char **rest)
{
	char *end;
	*major = (unsigned)strtoul(rel, &end, 10);
	if (*end != '.')
		return false;
	*minor = (unsigned)strtoul(end + 1, &end, 10);
	int dots = 1;
	while (*end && (*end == '.' || (*end >= '0' && *end <= '9'))) {
		if (*end == '.' && ++dots >= 3)
			break;
		end++;
	}
	*rest = end;
	return true;
}

static int uname26_child(void *arg)
{
	struct utsname real, u26;
	(void)arg;
	if (uname(&real) != 0 || personality(PER_LINUX | UNAME26) == -1 || uname(&u26) != 0) {
		aw_error_rest(pctx, "uname/personality: %s", aw_errname(errno));
		return 0;
	}
	unsigned major, minor, m26a, m26b;
	const char *rest, *rest26;
	aw_expect(pctx, "uname26.prefix", strncmp(u26.release, "2.6.", 4) == 0, "release \"%s\"", u26.release);
	if (!split_release(real.release, &major, &minor, &rest) || strncmp(u26.release, "2.6.", 4) != 0 ||
	    !split_release(u26.release + 2, &m26a, &m26b, &rest26)) {
		aw_unobserved(pctx, "uname26.offset", "release \"%s\" with UNAME26 \"%s\"", real.release, u26.release);
		aw_skip(pctx, "uname26.rest", "release \"%s\" with UNAME26 \"%s\"", real.release, u26.release);
		return 0;
	}
	aw_observe_long(pctx, "uname26.offset", (long long)m26b - (long long)minor);
	aw_expect(pctx, "uname26.rest", strcmp(rest, rest26) == 0, "\"%s\" became \"%s\"", real.release, u26.release);
	return 0;
}

static int rie_child(void *arg)
{
	(void)arg;
	if (personality(READ_IMPLIES_EXEC) == -1) {
		aw_error(pctx, "read_implies_exec.mmap", "personality: %s", aw_errname(errno));
		return 0;
	}
	void *p = mmap(NULL, aw_page_size(), PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	char *maps = NULL;
	size_t len = 0;
	struct aw_map m;
	if (p == MAP_FAILED || aw_file_slurp("/proc/self/maps", &maps, &len) != 0)
		aw_error(pctx, "read_implies_exec.mmap", "mmap or /proc/self/maps: %s", aw_errname(errno));
	else if (aw_maps_by_addr(maps, len, (unsigned long)p, &m) != 0)
		aw_error(pctx, "read_implies_exec.mmap", "the mapping is not in /proc/self/maps");
	else
		aw_observe(pctx, "read_implies_exec.mmap", "%s", m.perms);
	free(maps);
	return 0;
}

static int linux32_child(void *arg)
{
	struct utsname u;
	(void)arg;
	if (personality(PER_LINUX32) == -1) {
		aw_observe(pctx, "linux32.machine", "%s", aw_errname(errno));
		aw_unobserved(pctx, "linux32.persona", "personality(PER_LINUX32) refused");
		return 0;
	}
	int now = personality(0xffffffff);
	if (uname(&u) != 0)
		aw_error(pctx, "linux32.machine", "uname: %s", aw_errname(errno));
	else
		aw_observe(pctx, "linux32.machine", "%s", u.machine);
	aw_observe(pctx, "linux32.persona", "%#x", (unsigned)now);
	return 0;
}

static void exec_items(struct aw_ctx *ctx)
{
	if (!aw_tinyelf_supported()) {
		aw_skip(ctx, "addr_no_randomize.same_layout", "the probe writes x86_64 ELF files only");
		aw_unobserved(ctx, "read_implies_exec.exec", "the probe writes x86_64 ELF files only");
		return;
	}
	unsigned char buf[AW_TINYELF_SIZE];
	struct aw_tinyelf_spec spec = { .dyn = true, .stack = AW_TINYELF_STACK_RW, .code = AW_TINYELF_STOP };
	size_t n = aw_tinyelf_build(&spec, buf, sizeof(buf));
	char *path = xasprintf("%s/persona", aw_tmpdir(ctx));
	int fd = open(path, O_CREAT | O_TRUNC | O_WRONLY | O_CLOEXEC, 0755);
	bool ok = fd >= 0 && write(fd, buf, n) == (ssize_t)n;
	if (fd >= 0)
		close(fd);
	if (!ok) {
		aw_error(ctx, "addr_no_randomize.same_layout", "writing %s: %s", path, aw_errname(errno));
		aw_error(ctx, "read_implies_exec.exec", "writing %s", path);
		free(path);
		return;
	}
	char *argv[] = { (char *)"persona", NULL }, *envp[] = { NULL };
	struct pexec a, b, c;
	struct pexec_how how = { .persona = ADDR_NO_RANDOMIZE, .stack_limit = 8UL << 20, .map_name = path };
	int rc = process_exec(path, argv, envp, &how, &a);
	if (rc == 0)
		rc = process_exec(path, argv, envp, &how, &b);
	if (rc || !a.stopped || !b.stopped)
		aw_error(ctx, "addr_no_randomize.same_layout", "the program did not run (%s)", aw_errname(rc));
	else
		aw_expect(ctx, "addr_no_randomize.same_layout", a.stack_end == b.stack_end && a.load == b.load,
			  "stack end %#lx and %#lx, load %#lx and %#lx", a.stack_end, b.stack_end, a.load, b.load);
	how.persona = READ_IMPLIES_EXEC;
	rc = process_exec(path, argv, envp, &how, &c);
	if (rc || !c.stopped)
		aw_error(ctx, "read_implies_exec.exec", "the program did not run (%s)", aw_errname(rc));
	else
		aw_observe(ctx, "read_implies_exec.exec", "%#lx", c.persona);
	free(path);
}

static void personality_run(struct aw_ctx *ctx)
{
	pctx = ctx;
	int rc = aw_child_run(uname26_child, NULL, PROCESS_CHILD_MS);
	if (rc)
		aw_error_rest(ctx, "the UNAME26 child ended with %d", rc);
	rc = aw_child_run(rie_child, NULL, PROCESS_CHILD_MS);
	if (rc)
		aw_error(ctx, "read_implies_exec.mmap", "the child ended with %d", rc);
	rc = aw_child_run(linux32_child, NULL, PROCESS_CHILD_MS);
	if (rc)
		aw_error(ctx, "linux32.machine", "the child ended with %d", rc);
	exec_items(ctx);
}

static const char *const personality_tags[] = {
	"man:personality(2)", "man:setarch(8)", NULL,
};

const struct aw_probe process_personality_probes[] = {
	{
		.name = "personality",
		.summary = "personality(2): UNAME26, READ_IMPLIES_EXEC, ADDR_NO_RANDOMIZE, PER_LINUX32",
		.run = personality_run,
		.items = personality_items,
		.tags = personality_tags,
	},
	AW_PROBES_END,
};

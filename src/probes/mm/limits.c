// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The vm.* limits on the address space, as the kernel starts them, and
 * the errno of what each refuses: vm.mmap_min_addr (EPERM below it
 * without CAP_SYS_RAWIO; hints are raised to the LSM floor), 
 * vm.max_map_count (ENOMEM past it; a process reaches max_map_count + 1
 * mappings) and the overcommit policy (mode 0 refuses one request
 * larger than RAM + swap with ENOMEM).  Only read: none of them is
 * namespaced, so a write here would be the whole machine's.  Each
 * refusal is provoked in a child, whose address space goes with it.
 */
#include "mm.h"
#include "lib/child.h"
#include "lib/errname.h"
#include "lib/caps.h"
#include "lib/procfs.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/capability.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/sysinfo.h>
#include <unistd.h>

#ifndef MAP_FIXED_NOREPLACE
#define MAP_FIXED_NOREPLACE 0x100000
#endif

#define VM "/proc/sys/vm/"
#define CHILD_MS 5000
/* Filling the mapping table: 65531 mmaps, a second on a loaded machine
 * and several under QEMU's TCG. */
#define FILL_MS 25000
#define PROBE_TIMEOUT_S 40
/* Beyond this many mappings, filling the table costs more than a probe may. */
#define MAP_COUNT_BOUND 262144
#define MAPS_BUF (64UL << 20)

static const struct aw_item limits_items[] = {
	AW_OBS_ITEM("mmap_min_addr", "vm.mmap_min_addr: the lowest address an unprivileged mmap may use", .unit = "B",
		    .varies_with = "setup", /* a global knob a machine may set */
		    .change = "programs that map low addresses (DOS emulators, WINE) need CAP_SYS_RAWIO from a different address"),
	AW_OBS_ITEM("hint_floor", "where an mmap with the hint 0x1000 lands: the effective floor, LSM's included",
		    .change = "low address hints are raised to a different floor"),
	AW_OBS_ITEM("below_min", "mmap(MAP_FIXED_NOREPLACE) at address 0 without CAP_SYS_RAWIO: the errno, or mapped",
		    .change = "mapping page zero is refused differently (or allowed: NULL dereferences become exploitable)"),
	AW_OBS_ITEM("max_map_count", "vm.max_map_count: the most mappings a process may have", .unit = "mappings",
		    .change = "programs with many mappings (JVMs with ZGC, Elasticsearch, mmap-heavy databases) fail sooner or later"),
	AW_OBS_ITEM("map_count_errno", "the errno of the mmap past vm.max_map_count",
		    .change = "a program running out of mappings sees another errno"),
	AW_OBS_ITEM("map_count_reached", "how many mappings a process had when mmap refused one more", .unit = "mappings",
		    .change = "the limit is counted differently (max_map_count + 1 is reachable in 6.1 to 6.18)"),
	AW_OBS_ITEM("overcommit_memory", "vm.overcommit_memory: 0 heuristic, 1 always, 2 strict",
		    .change = "large sparse reservations (JVM heaps, ASan shadow, mmap'd databases) may start failing with ENOMEM"),
	AW_OBS_ITEM("overcommit_ratio", "vm.overcommit_ratio: the share of RAM mode 2 allows", .unit = "%",
		    .change = "strict overcommit allows a different amount"),
	AW_OBS_ITEM("overcommit_kbytes", "vm.overcommit_kbytes: mode 2's allowance in KiB when not 0", .unit = "KiB",
		    .change = "strict overcommit allows a different amount"),
	AW_OBS_ITEM("overcommit_refusal", "a private writable mapping of RAM + swap + 1 GiB: the errno, or mapped",
		    .change = "a reservation larger than memory is refused (or allowed) where it was not before"),
	AW_ITEMS_END
};

static void observe_knob(struct aw_ctx *ctx, const char *item)
{
	char path[64];
	long long v;
	snprintf(path, sizeof(path), VM "%s", item);
	int rc = aw_read_ll(path, &v);
	if (rc)
		aw_unobserved(ctx, item, "reading %s: %s", path, aw_errname(rc));
	else
		aw_observe(ctx, item, "%lld", v);
}

static void observe_hint_floor(struct aw_ctx *ctx)
{
	void *p = mmap((void *)aw_page_size(), aw_page_size(), PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED) {
		aw_error(ctx, "hint_floor", "mmap: %s", aw_errname(errno));
		return;
	}
	/* Anything at or below 64 KiB was placed by the floor; higher, the
	 * hint was taken elsewhere (the page was in use). */
	if ((uintptr_t)p <= 0x10000)
		aw_observe(ctx, "hint_floor", "%#lx", (unsigned long)(uintptr_t)p);
	else
		aw_unobserved(ctx, "hint_floor", "the hint was not used: placed at %p", p);
	munmap(p, aw_page_size());
}

static struct aw_ctx *limits_ctx;

static int below_min_child(void *arg)
{
	(void)arg;
	int rc = aw_drop_cap(CAP_SYS_RAWIO);
	if (rc) {
		aw_error(limits_ctx, "below_min", "dropping CAP_SYS_RAWIO: %s", aw_errname(rc));
		return 0;
	}
	void *p = mmap(NULL, aw_page_size(), PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
	aw_observe(limits_ctx, "below_min", "%s", p == MAP_FAILED ? aw_errname(errno) : "mapped");
	return 0;
}

/* The process's mappings: the lines of /proc/self/maps but the gate
 * page's ([vsyscall], not a mapping of the process's own), read into
 * buf, which is mapped before the table is full: afterwards nothing can
 * be mapped, not even by stdio. */
static long count_maps(char *buf, size_t size)
{
	static const char gate[] = "[vsyscall]";
	int fd = open("/proc/self/maps", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	long lines = 0;
	ssize_t n;
	while ((n = read(fd, buf, size)) > 0) {
		for (ssize_t i = 0; i < n; i++)
			lines += buf[i] == '\n';
		/* seq_file hands out whole lines */
		if (memmem(buf, (size_t)n, gate, sizeof(gate) - 1))
			lines--;
	}
	int err = n < 0 ? errno : 0;
	close(fd);
	return err ? -err : lines;
}

/* The last mappings made, unmapped once counted: a full table leaves the
 * report no room, and a sanitizer's allocator maps as it goes (under
 * ASan the child died "Failed to mmap" before it had reported). */
#define MAP_COUNT_SPARE 64

/* Alternating protections, so that no two neighbours merge. */
static int map_count_child(void *arg)
{
	(void)arg;
	char *buf = mmap(NULL, MAPS_BUF, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (buf == MAP_FAILED) {
		aw_error(limits_ctx, "map_count_errno", "mmap of a buffer: %s", aw_errname(errno));
		return 0;
	}
	static void *spare[MAP_COUNT_SPARE];
	int err = 0;
	for (long i = 0; i <= 2L * MAP_COUNT_BOUND && !err; i++) {
		void *p = mmap(NULL, aw_page_size(), i % 2 ? PROT_NONE : PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (p == MAP_FAILED)
			err = errno;
		else
			spare[i % MAP_COUNT_SPARE] = p;
	}
	long lines = count_maps(buf, MAPS_BUF);
	for (int i = 0; i < MAP_COUNT_SPARE; i++)
		if (spare[i])
			munmap(spare[i], aw_page_size());
	if (!err)
		aw_error(limits_ctx, "map_count_errno", "no refusal after %ld mappings", 2L * MAP_COUNT_BOUND);
	else
		aw_observe(limits_ctx, "map_count_errno", "%s", aw_errname(err));
	if (lines < 0)
		aw_error(limits_ctx, "map_count_reached", "reading /proc/self/maps: %s", aw_errname((int)lines));
	else
		aw_observe(limits_ctx, "map_count_reached", "%ld", lines);
	return 0;
}

static void observe_map_count(struct aw_ctx *ctx)
{
	long long max;
	int rc = aw_read_ll(VM "max_map_count", &max);
	if (rc) {
		aw_skip(ctx, "map_count_errno", "reading vm.max_map_count: %s", aw_errname(rc));
		aw_skip(ctx, "map_count_reached", "reading vm.max_map_count: %s", aw_errname(rc));
		return;
	}
	if (max > MAP_COUNT_BOUND) {
		aw_skip(ctx, "map_count_errno", "vm.max_map_count %lld: more mappings than a probe makes (%d)",
			max, MAP_COUNT_BOUND);
		aw_skip(ctx, "map_count_reached", "vm.max_map_count %lld: more mappings than a probe makes (%d)",
			max, MAP_COUNT_BOUND);
		return;
	}
	int status = aw_child_run(map_count_child, NULL, FILL_MS);
	if (status != 0 && !aw_reported(ctx, "map_count_reached"))
		aw_error(ctx, "map_count_reached", "the child ended with status %d", status);
	if (status != 0 && !aw_reported(ctx, "map_count_errno"))
		aw_error(ctx, "map_count_errno", "the child ended with status %d", status);
}

static void observe_overcommit_refusal(struct aw_ctx *ctx)
{
	struct sysinfo si;
	if (sysinfo(&si) != 0) {
		aw_error(ctx, "overcommit_refusal", "sysinfo: %s", aw_errname(errno));
		return;
	}
	unsigned long long size = ((unsigned long long)si.totalram + si.totalswap) * si.mem_unit + (1ULL << 30);
	if (size > SIZE_MAX / 2) {
		aw_unobserved(ctx, "overcommit_refusal", "RAM + swap + 1 GiB does not fit this address space");
		return;
	}
	void *p = mmap(NULL, (size_t)size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	aw_note(ctx, "overcommit_refusal: a request of %llu B", size);
	aw_observe(ctx, "overcommit_refusal", "%s", p == MAP_FAILED ? aw_errname(errno) : "mapped");
	if (p != MAP_FAILED)
		munmap(p, (size_t)size);
}

static void limits_run(struct aw_ctx *ctx)
{
	limits_ctx = ctx;
	observe_knob(ctx, "mmap_min_addr");
	observe_hint_floor(ctx);
	int status = aw_child_run(below_min_child, NULL, CHILD_MS);
	if (status != 0 && !aw_reported(ctx, "below_min"))
		aw_error(ctx, "below_min", "the child ended with status %d", status);
	observe_knob(ctx, "max_map_count");
	observe_map_count(ctx);
	observe_knob(ctx, "overcommit_memory");
	observe_knob(ctx, "overcommit_ratio");
	observe_knob(ctx, "overcommit_kbytes");
	observe_overcommit_refusal(ctx);
}

static const char *const limits_tags[] = {
	"man:mmap(2)", "man:proc_sys_vm(5)", "posix:mmap", NULL
};

const struct aw_probe mm_limits_probes[] = {
	{
		.name = "vm",
		.summary = "vm.mmap_min_addr, vm.max_map_count and the overcommit policy, and the errno of what they refuse",
		.run = limits_run,
		.items = limits_items,
		.tags = limits_tags,
		.timeout_s = PROBE_TIMEOUT_S,
	},
	AW_PROBES_END,
};

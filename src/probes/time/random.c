// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Randomness (getrandom(2), random(4), random(7)).  getrandom's flags:
 * GRND_NONBLOCK, GRND_RANDOM (the blocking pool, a no-op since 5.6,
 * 48446f198f9a), GRND_INSECURE (5.6, 75551dbf112c; EINVAL with
 * GRND_RANDOM) and an unknown bit (EINVAL); the knobs of
 * /proc/sys/kernel/random, read only (poolsize became 256 with the
 * BLAKE2s pool in 5.18; entropy_avail is in a bucket, full or not).  Twice
 * boot hung because the pool was not ready: ext4's inode-table plugging
 * (b03755ad6f33) starved early entropy and Arch's systemd-random-seed
 * and GDM blocked in getrandom() until 72dbcf721566 reverted it (5.3);
 * making /dev/urandom block hung machines without a cycle counter until
 * 0313bc278dac reverted it (5.18-rc1).  The boot probe reads what the VM
 * guest's init saw as its very first act (src/vm/init/: getrandom
 * (GRND_NONBLOCK) from PID 1, and when the pool was first seen ready,
 * bucketed), so it runs only in the guest.  The blocking calls are made
 * only once GRND_NONBLOCK has succeeded, so that nothing waits.
 */
#include "time.h"
#include "lib/errname.h"
#include "lib/procfs.h"
#include "lib/uapi.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#define KNOBS "/proc/sys/kernel/random"

/* Names read by core/guest.h's (AW_GUEST_GETRANDOM_ENV ...). */
#define GUEST_GETRANDOM "ABIWATCH_GUEST_GETRANDOM"
#define GUEST_GETRANDOM_READY "ABIWATCH_GUEST_GETRANDOM_READY"

static const char *const flag_absent[] = { "EINVAL", "ENOSYS", NULL };
static const char *const knob_absent[] = { "absent", NULL };

#define FLAG_ITEM(n, what, ...)                                                                  \
	AW_OBS_ITEM("flags." n, "getrandom(16 bytes, " what "): the bytes or the errno",          \
		    .object = "flags", .absent = flag_absent, __VA_ARGS__)
#define KNOB_ITEM(n, what, ...)                                                                  \
	AW_OBS_ITEM("knob." n, "/proc/sys/kernel/random/" n ": " what ", or absent",              \
		    .object = "knob." n, .absent = knob_absent, __VA_ARGS__)

static const struct aw_item random_items[] = {
	FLAG_ITEM("nonblock", "GRND_NONBLOCK", .change = "the pool was not ready when the probe ran"),
	FLAG_ITEM("none", "0, once GRND_NONBLOCK has succeeded"),
	FLAG_ITEM("random", "GRND_RANDOM | GRND_NONBLOCK"),
	FLAG_ITEM("insecure", "GRND_INSECURE",
		  .change = "programs asking for early, unready randomness get it (or EINVAL)"),
	FLAG_ITEM("insecure_nonblock", "GRND_INSECURE | GRND_NONBLOCK"),
	FLAG_ITEM("insecure_random", "GRND_INSECURE | GRND_RANDOM"),
	FLAG_ITEM("unknown_bit", "bit 3 (0x8), unassigned"),
	FLAG_ITEM("high_bit", "bit 31, unassigned"),
	AW_OBS_ITEM("large", "getrandom of 1 MiB with GRND_NONBLOCK: the bytes one call returns",
		    .object = "flags", .unit = "B"),
	AW_OBS_ITEM("urandom_read", "read(/dev/urandom, 16)", .object = "urandom"),
	AW_OBS_ITEM("knobs", "the files of /proc/sys/kernel/random with their modes", .object = "knobs",
		    .change = "tools reading or tuning the pool find other files"),
	KNOB_ITEM("poolsize", "its value", .unit = "bit"),
	KNOB_ITEM("entropy_avail", "\"full\" when it equals poolsize, else \"below poolsize\""),
	KNOB_ITEM("write_wakeup_threshold", "its value"),
	KNOB_ITEM("urandom_min_reseed_secs", "its value", .unit = "s"),
	KNOB_ITEM("read_wakeup_threshold", "its value"),
	AW_CHECK_ITEM("insecure_random_refused", "GRND_INSECURE with GRND_RANDOM fails with EINVAL "
		      "(getrandom(2))", .object = "flags"),
	AW_CHECK_ITEM("unknown_refused", "an unknown flag bit fails with EINVAL (getrandom(2))",
		      .object = "flags"),
	AW_ITEMS_END
};

static long get16(unsigned flags, int *err)
{
	char buf[16];
	long r = syscall(SYS_getrandom, buf, sizeof(buf), flags);
	*err = errno;
	return r;
}

static void flag(struct aw_ctx *ctx, const char *item, unsigned flags, long *r, int *err)
{
	char buf[TIME_RES_LEN];
	*r = get16(flags, err);
	aw_observe(ctx, item, "%s", time_res(buf, *r, *err));
}

static void flags(struct aw_ctx *ctx)
{
	long r;
	int err;
	flag(ctx, "flags.nonblock", GRND_NONBLOCK, &r, &err);
	bool ready = r == 16;
	if (ready)
		flag(ctx, "flags.none", 0, &r, &err);
	else
		aw_unobserved(ctx, "flags.none", "the pool is not ready (GRND_NONBLOCK: %s)",
			      aw_errname(err));
	flag(ctx, "flags.random", GRND_RANDOM | GRND_NONBLOCK, &r, &err);
	flag(ctx, "flags.insecure", GRND_INSECURE, &r, &err);
	flag(ctx, "flags.insecure_nonblock", GRND_INSECURE | GRND_NONBLOCK, &r, &err);
	flag(ctx, "flags.insecure_random", GRND_INSECURE | GRND_RANDOM, &r, &err);
	aw_expect(ctx, "insecure_random_refused", r < 0 && err == EINVAL, "returned %ld (%s)", r,
		  aw_errname(err));
	flag(ctx, "flags.unknown_bit", 0x8, &r, &err);
	bool unknown = r < 0 && err == EINVAL;
	flag(ctx, "flags.high_bit", 0x80000000u | GRND_NONBLOCK, &r, &err);
	aw_expect(ctx, "unknown_refused", unknown && r < 0 && err == EINVAL,
		  "bit 3 and bit 31 were not both refused with EINVAL");

	size_t big = 1u << 20;
	char *buf = malloc(big);
	if (!buf) {
		aw_error(ctx, "large", "malloc");
	} else {
		long n = syscall(SYS_getrandom, buf, big, GRND_NONBLOCK);
		char res[TIME_RES_LEN];
		aw_observe(ctx, "large", "%s", time_res(res, n, errno));
		free(buf);
	}
	int fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		aw_observe(ctx, "urandom_read", "open: %s", aw_errname(errno));
	} else {
		char b[16], res[TIME_RES_LEN];
		ssize_t n = read(fd, b, sizeof(b));
		aw_observe(ctx, "urandom_read", "%s", time_res(res, n, errno));
		close(fd);
	}
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void knobs(struct aw_ctx *ctx)
{
	DIR *d = opendir(KNOBS);
	if (!d) {
		aw_observe(ctx, "knobs", "%s", aw_errname(errno));
	} else {
		char *names[64];
		size_t n = 0;
		struct dirent *de;
		while ((de = readdir(d)) && n < 64) {
			struct stat st;
			if (de->d_name[0] == '.' || fstatat(dirfd(d), de->d_name, &st, 0) != 0)
				continue;
			if (asprintf(&names[n], "%s %03o", de->d_name, (unsigned)(st.st_mode & 0777)) > 0)
				n++;
		}
		closedir(d);
		qsort(names, n, sizeof(names[0]), by_name);
		char list[1024] = "";
		for (size_t i = 0; i < n; i++) {
			snprintf(list + strlen(list), sizeof(list) - strlen(list), "%s%s", i ? "," : "",
				 names[i]);
			free(names[i]);
		}
		aw_observe(ctx, "knobs", "%s", list);
	}
	static const char *const plain[] = { "poolsize", "write_wakeup_threshold",
		"urandom_min_reseed_secs", "read_wakeup_threshold" };
	long long pool = -1;
	for (size_t i = 0; i < sizeof(plain) / sizeof(plain[0]); i++) {
		char path[128], item[64];
		long long v;
		snprintf(path, sizeof(path), KNOBS "/%s", plain[i]);
		snprintf(item, sizeof(item), "knob.%s", plain[i]);
		int rc = aw_read_ll(path, &v);
		if (rc == -ENOENT)
			aw_observe(ctx, item, "absent");
		else if (rc)
			aw_observe(ctx, item, "%s", aw_errname(rc));
		else
			aw_observe_long(ctx, item, v);
		if (!rc && i == 0)
			pool = v;
	}
	long long avail;
	int rc = aw_read_ll(KNOBS "/entropy_avail", &avail);
	if (rc == -ENOENT)
		aw_observe(ctx, "knob.entropy_avail", "absent");
	else if (rc)
		aw_observe(ctx, "knob.entropy_avail", "%s", aw_errname(rc));
	else
		aw_observe(ctx, "knob.entropy_avail", "%s", avail == pool ? "full" : "below poolsize");
}

static void run_random(struct aw_ctx *ctx)
{
	flags(ctx);
	knobs(ctx);
}

/* ---- the pool when the guest's init started ---- */

static const struct aw_item boot_items[] = {
	AW_OBS_ITEM("at_init", "getrandom(16, GRND_NONBLOCK) as the first act of the VM guest's PID 1: "
		    "ok, or EAGAIN when the pool was not ready yet", .object = "pool",
		    .change = "early boot services (systemd-random-seed, sshd) block or get no "
		    "randomness at boot: the regressions 72dbcf721566 and 0313bc278dac reverted",
		    .varies_with = "cpu_features"),
	AW_OBS_ITEM("ready_after", "when the pool was first seen ready, a bucket: \"at once\", "
		    "\"before the run\" (init's second look, just before abiwatch started), \"not by "
		    "the run\"", .object = "pool", .varies_with = "cpu_features"),
	AW_ITEMS_END
};

static void run_boot(struct aw_ctx *ctx)
{
	const char *first = getenv(GUEST_GETRANDOM), *ready = getenv(GUEST_GETRANDOM_READY);
	if (!first || !ready) {
		aw_skip_rest(ctx, "the guest's init passed no %s (an older init?)", GUEST_GETRANDOM);
		return;
	}
	aw_observe(ctx, "at_init", "%s", first);
	aw_observe(ctx, "ready_after", "%s", strcmp(ready, "0") == 0 ? "at once" :
		   strcmp(ready, "no") == 0 ? "not by the run" : "before the run");
}

static const char *const random_tags[] = {
	"man:getrandom(2)", "man:random(4)", "man:random(7)", "linux-git:75551dbf112c",
	"linux-git:48446f198f9a", NULL,
};
static const char *const boot_tags[] = {
	"man:getrandom(2)", "linux-git:72dbcf721566", "linux-git:0313bc278dac", NULL,
};

const struct aw_probe time_random_probes[] = {
	{ .name = "getrandom", .summary = "getrandom's flags, /dev/urandom, the random knobs (read only)",
	  .run = run_random, .items = random_items, .tags = random_tags },
	{ .name = "boot_pool", .summary = "the random pool when the VM guest's init started",
	  .run = run_boot, .items = boot_items, .tags = boot_tags,
	  .needs = { .vm_guest = "it reads what the guest's PID 1 saw first thing at boot" } },
	AW_PROBES_END
};

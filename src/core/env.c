// SPDX-License-Identifier: GPL-2.0-or-later
#include "env.h"
#include "vm_guest.h"
#include "i386.h"
#include "lib/lsm.h"
#include "lib/util.h"
#include "lib/child.h"
#include "lib/errname.h"
#include "lib/caps.h"
#include "lib/procfs.h"

#include <errno.h>
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/perf_event.h>
#include <sys/capability.h>
#include <sys/syscall.h>
#include <sys/timex.h>
#include <sys/utsname.h>
#include <unistd.h>

/* A user namespace is made at once or never. */
#define USERNS_TIMEOUT_MS 10000

void aw_env_set(struct aw_env *env, const char *key, const char *value)
{
	for (size_t i = 0; i < env->n; i++) {
		if (strcmp(env->entries[i].key, key) == 0) {
			free(env->entries[i].value);
			env->entries[i].value = xstrdup(value);
			return;
		}
	}
	env->entries = xgrow(env->entries, env->n, sizeof(*env->entries));
	env->entries[env->n].key = xstrdup(key);
	env->entries[env->n].value = xstrdup(value);
	env->n++;
}

const char *aw_env_get(const struct aw_env *env, const char *key)
{
	for (size_t i = 0; i < env->n; i++)
		if (strcmp(env->entries[i].key, key) == 0)
			return env->entries[i].value;
	return NULL;
}

void aw_env_free(struct aw_env *env)
{
	for (size_t i = 0; i < env->n; i++) {
		free(env->entries[i].key);
		free(env->entries[i].value);
	}
	free(env->entries);
	env->entries = NULL;
	env->n = 0;
}

/* The effective set as a comma-separated list of names, "none" if empty. */
static char *held_caps(void)
{
	size_t len = 0;
	char *list = xstrdup("");
	for (int c = 0; c < (int)cap_max_bits(); c++) {
		if (!aw_cap_effective(c))
			continue;
		const char *n = aw_cap_name(c);
		list = xrealloc(list, len + strlen(n) + 2);
		len += (size_t)sprintf(list + len, "%s%s", len ? "," : "", n);
	}
	if (!len) {
		free(list);
		list = xstrdup("none");
	}
	return list;
}

/* A user namespace made the way the probes make theirs (lib/child.h's
 * aw_enter_userns()), in a child so that this process keeps its own. */
static int try_userns(void *arg)
{
	(void)arg;
	int rc = aw_enter_userns(0);
	return rc ? -rc : 0;
}

/* Why a user namespace cannot be made here (malloc'd), or NULL. */
static char *userns_refusal(void)
{
	int st = aw_child_run(try_userns, NULL, USERNS_TIMEOUT_MS);
	if (st == 0)
		return NULL;
	if (st < 0)
		return xasprintf("the child could not run: %s", aw_errname(st));
	if (st > 0 && st < 128)
		return xasprintf("unshare(CLONE_NEWUSER) or its id maps: %s", aw_errname(-st));
	return xasprintf("the child ended with status %d", st);
}

const char *aw_userns_refused(void)
{
	static bool decided;
	static char *why;
	if (!decided) {
		why = userns_refusal();
		decided = true;
	}
	return why;
}

/* "yes", or "no: why" (malloc'd). */
static char *userns_allowed(void)
{
	const char *why = aw_userns_refused();
	return why ? xasprintf("no: %s", why) : xstrdup("yes");
}

/* MemTotal of /proc/meminfo in bytes, as text; "unknown" without it. */
static char *mem_total(void)
{
	long long kib = aw_mem_total_kib();
	return kib >= 0 ? xasprintf("%lld", kib * 1024) : xstrdup("unknown");
}

/* The clocksource the kernel reads time from, which decides what the
 * vDSO serves without a system call; "unknown" without sysfs.  x86's
 * "tsc-early" is the TSC before its frequency is refined, about a second
 * after boot (arch/x86/kernel/tsc.c: both clocksources read the TSC and
 * have VDSO_CLOCKMODE_TSC): recorded as "tsc", so that a guest's run that
 * starts before the refinement compares with one that starts after. */
static char *clocksource(void)
{
	char *text;
	size_t len;
	if (aw_file_slurp("/sys/devices/system/clocksource/clocksource0/current_clocksource",
			  &text, &len) != 0)
		return xstrdup("unknown");
	text[strcspn(text, "\n")] = '\0';
	if (!*text || strcmp(text, "tsc-early") == 0) {
		char *known = xstrdup(*text ? "tsc" : "unknown");
		free(text);
		return known;
	}
	return text;
}

/* The clock's set-up by whoever runs the machine, which CLOCK_TAI and
 * CLOCK_BOOTTIME follow: whether NTP synchronized it (adjtimex's
 * STA_UNSYNC), the TAI offset it set (ADJ_TAI, 0 until ntpd sets it) and
 * how many suspends the machine went through.  adjtimex() with modes 0
 * only reads (adjtimex(2)). */
static char *clock_setup(void)
{
	long long n;
	char *suspends = aw_read_ll("/sys/power/suspend_stats/success", &n) == 0
				 ? xasprintf("%lld", n) : xstrdup("unknown"), *clock;
	struct timex tx = { .modes = 0 };
	if (adjtimex(&tx) < 0)
		clock = xasprintf("adjtimex: %s, suspends %s", aw_errname(errno), suspends);
	else
		clock = xasprintf("%s, tai %d, suspends %s",
				  tx.status & STA_UNSYNC ? "unsynchronized" : "synchronized", tx.tai,
				  suspends);
	free(suspends);
	return clock;
}

/* Whether an RTC can wake the machine, which the alarm clocks need
 * (CLOCK_REALTIME_ALARM, CLOCK_BOOTTIME_ALARM: kernel/time/alarmtimer.c
 * takes the first RTC with a wake alarm): "yes" or "no: why". */
static char *rtc_wakealarm(void)
{
	glob_t g;
	int rc = glob("/sys/class/rtc/rtc*/wakealarm", 0, NULL, &g);
	bool yes = rc == 0 && g.gl_pathc > 0;
	if (rc == 0)
		globfree(&g);
	return xstrdup(yes ? "yes" : "no: no /sys/class/rtc/rtc*/wakealarm");
}

/* Whether the CPU counts its own cycles for perf events, which the hard
 * lockup detector needs (kernel/watchdog_perf.c, 6.1 watchdog_hld.c:
 * a pinned PERF_COUNT_HW_CPU_CYCLES event; QEMU's TCG offers no PMU):
 * "yes", or "no: why".  Where this process may not open perf events
 * (perf_event_paranoid, no CAP_PERFMON), x86's PMU device is what tells:
 * init_hw_perf_events() registers "cpu" only with a PMU driver. */
static char *pmu(void)
{
	struct perf_event_attr a = {
		.type = PERF_TYPE_HARDWARE, .size = sizeof(a), .config = PERF_COUNT_HW_CPU_CYCLES,
		.disabled = 1, .exclude_kernel = 1, .exclude_hv = 1,
	};
	int fd = (int)syscall(SYS_perf_event_open, &a, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	if (fd >= 0) {
		close(fd);
		return xstrdup("yes");
	}
	int err = errno;
	if (err != EACCES && err != EPERM)
		return xasprintf("no: perf_event_open(PERF_COUNT_HW_CPU_CYCLES): %s", aw_errname(err));
	if (access("/sys/bus/event_source/devices/cpu", F_OK) == 0 ||
	    access("/sys/bus/event_source/devices/cpu_core", F_OK) == 0)
		return xstrdup("yes");
	return xasprintf("no: perf_event_open: %s, and no /sys/bus/event_source/devices/cpu",
			 aw_errname(err));
}

/* The CPU features that probes' values follow, as /proc/cpuinfo's first
 * "flags" line names them: rdrand and rdseed seed the CRNG at boot
 * (drivers/char/random.c random_init(): with them the pool is ready
 * before init runs; QEMU's TCG CPU model has neither), umip and user_shstk
 * decide what sgdt and shadow stacks do.  "none", or "unknown" without
 * the file (not x86: no such flags). */
static char *cpu_features(void)
{
	static const char *const wanted[] = { "rdrand", "rdseed", "umip", "user_shstk" };
	char *text, *list = xstrdup("");
	size_t len;
	if (aw_file_slurp("/proc/cpuinfo", &text, &len) != 0) {
		free(list);
		return xstrdup("unknown");
	}
	char *line = strstr(text, "\nflags\t");
	char *colon = line ? strchr(line, ':') : NULL;
	if (colon)
		colon[strcspn(colon, "\n")] = '\0';
	for (size_t i = 0; colon && i < AW_ARRAY_SIZE(wanted); i++) {
		char *word = xasprintf(" %s", wanted[i]), *at = strstr(colon, word);
		size_t n = strlen(word);
		if (at && (at[n] == ' ' || !at[n])) {
			char *more = xasprintf("%s%s%s", list, *list ? "," : "", wanted[i]);
			free(list);
			list = more;
		}
		free(word);
	}
	if (!*list) {
		free(list);
		list = xstrdup(colon ? "none" : "unknown");
	}
	free(text);
	return list;
}

void aw_env_collect(struct aw_env *env)
{
	struct utsname u;
	char *caps = held_caps();

	if (uname(&u) == 0) {
		aw_env_set(env, "kernel.release", u.release);
		aw_env_set(env, "kernel.version", u.version);
		aw_env_set(env, "arch", u.machine);
	}
	aw_env_set(env, "abiwatch.version", ABIWATCH_VERSION);
	aw_env_set(env, "caps", caps);
	aw_env_set(env, "abi", sizeof(long) == 8 ? "lp64" : "ilp32");
	const char *no_i386 = aw_i386_refused();
	char *i386 = no_i386 ? xasprintf("no: %s", no_i386) : xstrdup("yes");
	aw_env_set(env, "i386", i386);
	free(i386);
	char *userns = userns_allowed(), *memory = mem_total();
	char *cpus = xasprintf("%ld", sysconf(_SC_NPROCESSORS_ONLN));
	aw_env_set(env, "userns", userns);
	aw_env_set(env, "memory", memory);
	aw_env_set(env, "cpus", cpus);
	char *cs = clocksource();
	aw_env_set(env, "clocksource", cs);
	free(cs);
	char *clock = clock_setup();
	aw_env_set(env, "clock", clock);
	free(clock);
	char *rtc = rtc_wakealarm();
	aw_env_set(env, "rtc", rtc);
	free(rtc);
	char *page = xasprintf("%ld", sysconf(_SC_PAGESIZE)), *hw = pmu();
	aw_env_set(env, "page_size", page);
	aw_env_set(env, "pmu", hw);
	free(page);
	free(hw);
	char *features = cpu_features();
	aw_env_set(env, "cpu_features", features);
	free(features);
	/* Which security modules run decides which of their knobs exist and
	 * which restrictions apply (cause lsm:NAME). */
	const char *no_lsm;
	char *lsm = aw_lsm_active(&no_lsm);
	char *lsm_value = lsm ? xstrdup(lsm) : xasprintf("unknown: %s", no_lsm);
	aw_env_set(env, "lsm", lsm_value);
	free(lsm_value);
	/* Lockdown refuses root some of bpf() and other kernel interfaces
	 * (cause lockdown), whatever the kernel has. */
	char *lockdown = aw_lockdown_mode(lsm);
	aw_env_set(env, "lockdown", lockdown);
	free(lockdown);
	free(lsm);
	/* kernel.pid_max as the run's own PID namespace has it: per PID
	 * namespace since 6.14 (7863dcc72d0f), where a new one starts from
	 * PID_MAX_LIMIT, so a probe in its fresh namespace reads that and
	 * not the machine's limit, which still bounds it. */
	long long pid_max;
	int pm = aw_sysctl_read_ll("kernel.pid_max", &pid_max);
	char *pid_max_value = pm == 0 ? xasprintf("%lld", pid_max) : xasprintf("unknown: %s", aw_errname(-pm));
	aw_env_set(env, "sysctl.kernel.pid_max", pid_max_value);
	free(pid_max_value);
	/* A guest of abiwatch vm runs on a fresh boot where nothing was set;
	 * a machine's global values may be its set-up's, not the kernel's
	 * defaults (items that follow them declare .varies_with "setup"). */
	aw_env_set(env, "setup", aw_in_vm_guest() ? "fresh boot" : "this machine's");
	free(userns);
	free(memory);
	free(cpus);
	free(caps);
}

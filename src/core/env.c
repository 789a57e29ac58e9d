// SPDX-License-Identifier: GPL-2.0-or-later
#include "env.h"
#include "i386.h"
#include "lib/util.h"
#include "lib/child.h"
#include "lib/errname.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/capability.h>
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
	env->entries = xrealloc(env->entries, (env->n + 1) * sizeof(*env->entries));
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

bool aw_cap_effective(int cap)
{
	cap_t caps = cap_get_proc();
	cap_flag_value_t v = CAP_CLEAR;

	if (!caps)
		return false;
	if (cap_get_flag(caps, (cap_value_t)cap, CAP_EFFECTIVE, &v) != 0)
		v = CAP_CLEAR;
	cap_free(caps);
	return v == CAP_SET;
}

bool aw_in_initial_userns(void)
{
	unsigned long inner, outer, count;
	FILE *f = fopen("/proc/self/uid_map", "re");
	bool initial = false;

	if (!f)
		return false;
	/* Only the initial namespace maps all 2^32 - 1 ids from 0 to 0. */
	if (fscanf(f, "%lu %lu %lu", &inner, &outer, &count) == 3)
		initial = inner == 0 && outer == 0 && count == 4294967295UL;
	fclose(f);
	return initial;
}

bool aw_has_cap(int cap)
{
	return aw_cap_effective(cap) && aw_in_initial_userns();
}

int aw_drop_cap(int cap)
{
	cap_value_t list[1] = { (cap_value_t)cap };
	cap_t caps = cap_get_proc();
	int rc = 0;

	if (!caps)
		return -errno;
	if (cap_set_flag(caps, CAP_EFFECTIVE, 1, list, CAP_CLEAR) != 0 || cap_set_proc(caps) != 0)
		rc = -errno;
	cap_free(caps);
	return rc;
}

const char *aw_cap_name(int cap)
{
	static char *names[64];
	if (cap < 0 || cap >= 64)
		return "cap_unknown";
	if (!names[cap]) {
		char *n = cap_to_name((cap_value_t)cap);
		names[cap] = xstrdup(n ? n : "cap_unknown");
		cap_free(n);
	}
	return names[cap];
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

/* "yes", or "no: why" (malloc'd). */
static char *userns_allowed(void)
{
	int st = aw_child_run(try_userns, NULL, USERNS_TIMEOUT_MS);
	if (st == 0)
		return xstrdup("yes");
	if (st < 0)
		return xasprintf("no: the child could not run: %s", aw_errname(st));
	if (st > 0 && st < 128)
		return xasprintf("no: unshare(CLONE_NEWUSER) or its id maps: %s", aw_errname(-st));
	return xasprintf("no: the child ended with status %d", st);
}

/* MemTotal of /proc/meminfo in bytes, as text; "unknown" without it. */
static char *mem_total(void)
{
	FILE *f = fopen("/proc/meminfo", "re");
	unsigned long long kib = 0;
	char line[128];
	bool found = false;

	while (f && !found && fgets(line, sizeof(line), f))
		found = sscanf(line, "MemTotal: %llu kB", &kib) == 1;
	if (f)
		fclose(f);
	return found ? xasprintf("%llu", kib * 1024) : xstrdup("unknown");
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
	free(userns);
	free(memory);
	free(cpus);
	free(caps);
}

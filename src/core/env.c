// SPDX-License-Identifier: GPL-2.0-or-later
#include "env.h"
#include "i386.h"
#include "util.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/capability.h>
#include <sys/utsname.h>

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
	free(caps);
}

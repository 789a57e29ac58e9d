// SPDX-License-Identifier: GPL-2.0-or-later
/* Capabilities through libcap: see caps.h. */
#include "caps.h"
#include "util.h"

#include <errno.h>
#include <stdio.h>
#include <sys/capability.h>

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


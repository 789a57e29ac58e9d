/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The environment a run happened in: what a snapshot's header records so
 * that a difference caused by the machine is not taken for a kernel change. */
#ifndef ABIWATCH_ENV_H
#define ABIWATCH_ENV_H

#include "probe.h"

#include <stdbool.h>
#include <stddef.h>

#ifndef ABIWATCH_VERSION
#define ABIWATCH_VERSION "0.1.0"
#endif

struct aw_env_entry {
	char *key;   /* without the "env." prefix: "kernel.release" */
	char *value;
};

struct aw_env {
	struct aw_env_entry *entries;
	size_t n;
};

/* Read this machine's environment. */
void aw_env_collect(struct aw_env *env);
void aw_env_set(struct aw_env *env, const char *key, const char *value);
const char *aw_env_get(const struct aw_env *env, const char *key);
void aw_env_free(struct aw_env *env);

/* NULL when an unprivileged process may make a user namespace here (as
 * lib/child.h's aw_enter_userns() makes the probes'), else why not:
 * decided once per run, in a child, and recorded as env.userns. */
const char *aw_userns_refused(void);

/* Whether this process holds cap in its effective set.  Privilege is
 * always decided this way, never from the uid. */
bool aw_cap_effective(int cap);
/* "cap_sys_resource" for CAP_SYS_RESOURCE; a static or malloc'd-once name. */
const char *aw_cap_name(int cap);

#endif

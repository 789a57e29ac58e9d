// SPDX-License-Identifier: GPL-2.0-or-later
#include "status.h"
#include "lib/util.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

static const char *const names[] = {
	[AW_ST_NONE] = "none", [AW_ST_PASS] = "pass", [AW_ST_SKIP] = "skip",
	[AW_ST_FAIL] = "fail", [AW_ST_ERROR] = "error", [AW_ST_TIMEOUT] = "timeout",
};

const char *aw_status_name(enum aw_status st)
{
	return (unsigned)st < sizeof(names) / sizeof(names[0]) ? names[st] : "none";
}

const char *aw_status_word(enum aw_status st, enum aw_subject subject)
{
	if (st == AW_ST_PASS && subject == AW_OF_PROBE)
		return "ran";
	if (st == AW_ST_PASS && subject == AW_OF_OBSERVATION)
		return "observed";
	return aw_status_name(st);
}

int aw_status_parse(const char *word, size_t len, enum aw_status *st)
{
	for (enum aw_status s = AW_ST_PASS; s <= AW_ST_TIMEOUT; s++) {
		if (strlen(names[s]) == len && strncmp(word, names[s], len) == 0) {
			*st = s;
			return 0;
		}
	}
	return -1;
}

/* Ordered by how much a reader must know about it. */
static int severity(enum aw_status st)
{
	static const int rank[] = {
		[AW_ST_NONE] = 0, [AW_ST_PASS] = 1, [AW_ST_SKIP] = 2,
		[AW_ST_FAIL] = 3, [AW_ST_ERROR] = 4, [AW_ST_TIMEOUT] = 5,
	};
	return rank[st];
}

enum aw_status aw_status_worse(enum aw_status a, enum aw_status b)
{
	return severity(b) > severity(a) ? b : a;
}

bool aw_status_is_outcome(enum aw_status st)
{
	return st == AW_ST_PASS || st == AW_ST_FAIL;
}

/* Whether the status may stand in a value of the subject's.  A pass of
 * a probe is the single word "ran", and an observation made has its
 * value instead, so neither is a "pass". */
static bool fits(enum aw_status st, enum aw_subject subject)
{
	return st != AW_ST_PASS || subject == AW_OF_CHECK;
}

int aw_status_value_parse(const char *value, enum aw_subject subject, enum aw_status *st,
			  const char **reason)
{
	*reason = NULL;
	if (subject == AW_OF_PROBE && strcmp(value, "ran") == 0) {
		*st = AW_ST_PASS;
		return 0;
	}
	const char *colon = strchr(value, ':');
	size_t len = colon ? (size_t)(colon - value) : strlen(value);
	if (aw_status_parse(value, len, st) != 0 || !fits(*st, subject))
		return -1;
	if (!colon)
		return 0;
	if (colon[1] != ' ')
		return -1; /* "fail:why": the format has one space after the colon */
	*reason = colon + 2;
	return 0;
}

char *aw_status_value_format(enum aw_status st, const char *reason, enum aw_subject subject)
{
	if (st == AW_ST_PASS || !reason)
		return xstrdup(aw_status_word(st, subject));
	return xasprintf("%s: %s", aw_status_name(st), reason);
}

const char *aw_status_value_rule(enum aw_subject subject)
{
	switch (subject) {
	case AW_OF_PROBE:
		return "ran, or skip, fail, error or timeout followed by ': reason'";
	case AW_OF_OBSERVATION:
		return "skip, fail, error or timeout, optionally followed by ': reason'";
	case AW_OF_CHECK:
		break;
	}
	return "pass, fail, skip, error or timeout, optionally followed by ': reason'";
}

/* ---- causes ---- */

#define CAUSE_WORD "needs "

/* [a-z0-9_]+, the characters of a capability's or a filesystem's name. */
static bool is_word(const char *s, size_t len)
{
	if (!len)
		return false;
	for (size_t i = 0; i < len; i++)
		if (!((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= '0' && s[i] <= '9') || s[i] == '_'))
			return false;
	return true;
}

static bool starts(const char *s, size_t len, const char *prefix)
{
	size_t n = strlen(prefix);
	return len > n && strncmp(s, prefix, n) == 0;
}

/* Every cause, with the env.* key that records whether the machine had
 * it and the words for what an item of it needs: the one table the
 * runner, diff, check and the report read them from.  A prefix cause
 * ("cap_", "fs:") takes a word after it. */
static const struct aw_cause causes[] = {
	{ "i386", false, "env.i386", "i386 programs", "", false, NULL },
	{ "cap_", true, "env.caps", NULL /* the capability's name, upper case */, NULL, false, NULL },
	{ "userns", false, "env.userns", "user namespaces", "", false, NULL },
	{ "fs:", true, "env.fs", "the ", " filesystem", false, NULL },
	/* A security module the kernel did not start (CONFIG_LSM, lsm=):
	 * its knobs do not exist and its restrictions do not apply. */
	{ "lsm:", true, "env.lsm", "the ", " security module", false, NULL },
	{ "memory", false, "env.memory", "the machine's memory", "", true, NULL },
	{ "cpus", false, "env.cpus", "the machine's CPU count", "", true, NULL },
	{ "clocksource", false, "env.clocksource", "the machine's clocksource", "", true, NULL },
	{ "clock", false, "env.clock", "the machine's clock set-up (NTP, TAI offset, suspends)",
	  "", true, NULL },
	{ "vm", false, "env.vm.accel", "a VM", "", false, NULL },
	{ "kconfig", false, "env.kernel.release", "the kernel's configuration file", "", false, NULL },
	{ "rtc", false, "env.rtc", "an RTC with a wake alarm", "", false, NULL },
	{ "load", false, "env.load", "CPU time that a loaded machine did not give", "", false, NULL },
	{ "setup", false, "env.setup",
	  "the machine's set-up (sysctl.d, the kernel command line, what its init set)", "", true, NULL },
	/* A value the kernel sized at boot from what it had then, which
	 * its item's formula (struct aw_sizing) explains on both sides. */
	{ "sized", false, "env.memory", "what the kernel had at boot", "", true,
	  "the same formula from other inputs" },
	{ "cpu_features", false, "env.cpu_features", "the CPU's features (rdrand, rdseed, umip, user_shstk)",
	  "", true, NULL },
	/* A CPU without a PMU (QEMU's TCG): no hardware perf events, so no
	 * hard lockup detector, whose kernel.nmi_watchdog newer kernels
	 * leave read-only (kernel/watchdog.c watchdog_sysctl_init()). */
	{ "pmu", false, "env.pmu", "a CPU with a PMU (hardware performance counters)", "", false, NULL },
	/* A knob a module registers while it is there (its state is the
	 * sysctl family's module.NAME): =m and not loaded on one side,
	 * loaded or =y on the other. */
	{ "module:", true, "sysctl.knob.module.*", "the ", " module", false, NULL },
	/* A knob the configuration decides, the option on one side only
	 * (sysctl.kconfig.NAME): configured out, not removed. */
	{ "config:", true, "sysctl.kconfig.*", "the kernel option ", "", false, NULL },
	/* A net.* knob one side's kernel shows in a child network namespace
	 * and the other only in the initial one (net.initns). */
	{ "netns", false, "net.initns", "the network namespace they were read in", "", true,
	  "a child one shows them on one side only, the initial one on the other" },
	/* A knob read in the probe's fresh PID namespace, which has a value
	 * of its own on one side only (kernel.pid_max since 6.14). */
	{ "pidns", false, "env.sysctl.kernel.pid_max", "the PID namespace it was read in", "", true,
	  "a fresh one has its own value on one side only; the machine's is alike" },
	/* A default a distribution's patch set on one side only, the
	 * configuration option alike. */
	{ "distro", false, "env.kernel.version", "the distribution's configuration or patches", "", true,
	  "a patch on one side only, its configuration option alike" },
	/* A knob a distribution's patch adds, on the side whose kernel is
	 * that distribution's only. */
	{ "distro-added", false, "env.kernel.version", "a distribution's patch", "", true,
	  "only one side's kernel carries the patch that adds them" },
};

/* The table's entry for the len bytes at cause, or NULL. */
static const struct aw_cause *cause_entry(const char *cause, size_t len)
{
	if (len >= AW_CAUSE_MAX)
		return NULL;
	for (size_t i = 0; i < sizeof(causes) / sizeof(causes[0]); i++) {
		const struct aw_cause *c = &causes[i];
		size_t n = strlen(c->word);
		if (c->prefix ? starts(cause, len, c->word) && is_word(cause + n, len - n)
			      : len == n && strncmp(cause, c->word, n) == 0)
			return c;
	}
	return NULL;
}

bool aw_cause_valid(const char *cause, size_t len)
{
	return cause_entry(cause, len) != NULL;
}

const struct aw_cause *aw_cause_find(const char *cause)
{
	return cause ? cause_entry(cause, strlen(cause)) : NULL;
}

char *aw_cause_needs(const char *cause, bool one)
{
	const struct aw_cause *c = aw_cause_find(cause);
	const char *verb = c && c->sized ? (one ? "follows" : "follow") : (one ? "needs" : "need");
	if (!c)
		return xasprintf("%s %s", verb, cause);
	if (!c->needs) {
		char *up = xasprintf("%s %s", verb, cause);
		for (char *p = up + strlen(verb) + 1; *p; p++)
			*p = (char)toupper((unsigned char)*p);
		return up;
	}
	return xasprintf("%s %s%s%s", verb, c->needs, c->prefix ? cause + strlen(c->word) : "",
			 c->after);
}

char *aw_cause_reason(const char *cause, const char *why)
{
	return why && *why ? xasprintf(CAUSE_WORD "%s: %s", cause, why)
			   : xasprintf(CAUSE_WORD "%s", cause);
}

bool aw_reason_cause(const char *reason, char buf[AW_CAUSE_MAX], const char **why)
{
	buf[0] = '\0';
	*why = reason;
	if (!reason || strncmp(reason, CAUSE_WORD, strlen(CAUSE_WORD)) != 0)
		return false;
	const char *cause = reason + strlen(CAUSE_WORD);
	/* The cause ends at ": " or at the end ("fs:ext4" holds a colon). */
	const char *end = strstr(cause, ": ");
	size_t len = end ? (size_t)(end - cause) : strlen(cause);
	if (!aw_cause_valid(cause, len))
		return false;
	memcpy(buf, cause, len);
	buf[len] = '\0';
	*why = end ? end + 2 : cause + len;
	return true;
}

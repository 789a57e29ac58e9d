/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The one status type of abiwatch and its one codec.  A check, an
 * observation and a probe each end in one of these statuses; the words
 * for them ("pass", "skip", ..., "ran" for a probe that ran to its end)
 * and the snapshot's "STATUS" or "STATUS: reason" values
 * (abiwatch-snapshot(5)) are read and written here and nowhere else.
 */
#ifndef ABIWATCH_STATUS_H
#define ABIWATCH_STATUS_H

#include <stdbool.h>
#include <stddef.h>

/* Exit statuses, as kselftest's runner reads them; 2 is bad usage/input. */
enum {
	AW_EXIT_PASS = 0,
	AW_EXIT_FAIL = 1,
	AW_EXIT_USAGE = 2,
	AW_EXIT_SKIP = 4,
};

enum aw_status {
	AW_ST_NONE,    /* not reported (yet) */
	AW_ST_PASS,    /* a check held; an observation was made; a probe ran */
	AW_ST_SKIP,    /* not decidable here, with a reason */
	AW_ST_FAIL,    /* a contract is broken */
	AW_ST_ERROR,   /* the probe could not decide: its set-up broke */
	AW_ST_TIMEOUT, /* the probe ran out of time */
};

/* What a status is the status of: the word for AW_ST_PASS differs
 * ("pass", "ran", "observed") and not every status fits every subject. */
enum aw_subject {
	AW_OF_CHECK,       /* pass, fail, skip, error, timeout */
	AW_OF_PROBE,       /* ran, or skip, fail, error, timeout */
	AW_OF_OBSERVATION, /* observed, or skip, fail, error, timeout */
};

const char *aw_status_name(enum aw_status st); /* "pass", "skip", ...; "none" */
/* The word for st as the status of subject: "ran" for a probe's PASS,
 * "observed" for an observation's, else aw_status_name(). */
const char *aw_status_word(enum aw_status st, enum aw_subject subject);
/* The status named by the len bytes at word ("pass" ... "timeout"),
 * exactly.  0, or -1 for anything else. */
int aw_status_parse(const char *word, size_t len, enum aw_status *st);
/* The worse of two statuses, for merging repeated reports. */
enum aw_status aw_status_worse(enum aw_status a, enum aw_status b);
/* pass and fail are outcomes; skip, error and timeout say that there is
 * none. */
bool aw_status_is_outcome(enum aw_status st);

/* A snapshot value holding a status: "STATUS" or "STATUS: reason", with
 * STATUS a word of the subject's, and an observation made never written
 * this way (its value is the value).  *reason points into value, after
 * ": ", or is NULL.  0, or -1 when value is anything else. */
int aw_status_value_parse(const char *value, enum aw_subject subject, enum aw_status *st,
			  const char **reason);
/* The snapshot value of st with reason (NULL: none), malloc'd.  A pass
 * is written without its reason. */
char *aw_status_value_format(enum aw_status st, const char *reason, enum aw_subject subject);
/* What aw_status_value_parse() takes, in words, for error messages. */
const char *aw_status_value_rule(enum aw_subject subject);

/*
 * The cause of a skip: what the machine lacked, machine-readable, beside
 * the reason.  A skip the environment caused has the reason
 * "needs CAUSE: why" (or just "needs CAUSE"), CAUSE one of
 *
 *   i386         32-bit (i386) programs run        (env.i386)
 *   cap_NAME     the capability, e.g. cap_sys_resource (env.caps)
 *   userns       user namespaces may be created   (env.userns)
 *   fs:NAME      the filesystem can be made here  (env.fs)
 *   lsm:NAME     the security module is active    (env.lsm)
 *   memory, cpus the machine's size               (env.memory, env.cpus)
 *   vm           a throw-away machine (a VM guest) (env.vm.*)
 *   kconfig      the running kernel's configuration file can be read
 *                (/proc/config.gz, /boot/config-RELEASE; env.kernel.release)
 *   module:NAME  the module that registers a knob is there (loaded or =y)
 *   netns, pidns the namespace a knob was read in showed it, or had a
 *                value of its own, on one side only
 *   distro       a distribution's patch, the configuration alike
 *
 * so that a reader that knows no causes still reads a plain reason.
 */
#define AW_CAUSE_MAX 64 /* bytes of a cause, with its NUL */

/* A cause of the list above, as core/status.c's one table holds it. */
struct aw_cause {
	const char *word;    /* "i386", or a prefix: "cap_", "fs:" */
	bool prefix;         /* word is followed by a name ("fs:xfs") */
	const char *env_key; /* the snapshot's record of it: "env.i386" */
	/* What an item of it needs: "i386 programs"; for a prefix cause the
	 * words before and after its name ("the ", " filesystem"); NULL: the
	 * cause itself, upper case (CAP_SYS_RESOURCE). */
	const char *needs, *after;
	bool sized;          /* the machine's size or set-up: an item follows it */
	/* For a group of diff, what the items had in place of "(it
	 * differs)" or "(not on the new side)": the sizing at boot folds
	 * values whose inputs may be equal in env.  NULL: those words. */
	const char *folded;
};

/* The table's entry for a cause ("fs:xfs"), or NULL. */
const struct aw_cause *aw_cause_find(const char *cause);
/* What items of a cause need, for diff's groups: "need i386 programs",
 * "needs the xfs filesystem", "follow the machine's memory" (one: the
 * singular); malloc'd. */
char *aw_cause_needs(const char *cause, bool one);
/* Whether the len bytes at cause are a cause of the list above. */
bool aw_cause_valid(const char *cause, size_t len);
/* The reason "needs CAUSE: why" (why NULL: "needs CAUSE"), malloc'd.
 * cause must be valid. */
char *aw_cause_reason(const char *cause, const char *why);
/* The cause a reason names, copied to buf (AW_CAUSE_MAX bytes), and
 * where the rest of the reason starts (*why, "" for none): true; or
 * false when the reason names no cause (buf "", *why = reason).  reason
 * may be NULL. */
bool aw_reason_cause(const char *reason, char buf[AW_CAUSE_MAX], const char **why);

#endif

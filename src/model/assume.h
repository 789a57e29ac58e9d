/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Assumptions: what a program declares it relies on, one rule a line,
 * evaluated against a snapshot to held, broken or unknown.  The language is
 * specified in man/abiwatch-assumptions.5; in short
 *
 *   dirent.*.cookie_bits + 6 <= 64 : "DHT packs a 6-bit brick index above d_off"
 *   mqueue.noattr.source in {maxima, default_knobs} : "..."
 *   mqueue.attr.einval_above_msg_max is pass : "..."
 *
 * A key pattern with wildcards is quantified: the rule must hold for every
 * key it matches, and is unknown when it matches none.
 */
#ifndef ABIWATCH_ASSUME_H
#define ABIWATCH_ASSUME_H

#include "snapshot.h"

#include <stdbool.h>
#include <stddef.h>

enum aw_verdict { AW_HELD, AW_BROKEN, AW_UNKNOWN };

const char *aw_verdict_name(enum aw_verdict v); /* "held", ... */

struct aw_assume_node; /* a parsed condition; see assume.c */
struct aw_probe_ref;   /* core/registry.h */

/* A key a rule names: a check (tested with 'is') or an observation. */
struct aw_assume_key {
	const char *pattern;
	bool check;
	bool wild; /* has '*', '?' or '[': quantified over its matches */
};

struct aw_rule {
	unsigned line;
	char *condition; /* as written, for people */
	char *message;
	const struct aw_assume_node *cond;
	struct aw_assume_key *keys;
	size_t nkeys;
	void **blocks; /* everything the rule's tree owns, freed together */
	size_t nblocks;
};

struct aw_assumptions {
	struct aw_rule *rules;
	size_t n;
};

/* Parse text (len bytes).  0, or -1 with *err "NAME:LINE:COLUMN: what was
 * expected" (malloc'd). */
int aw_assume_parse(const char *text, size_t len, const char *name,
		    struct aw_assumptions *a, char **err);
/* The same from a file, after aw_textfile_read()'s size and NUL checks. */
int aw_assume_load(const char *path, struct aw_assumptions *a, char **err);
void aw_assume_free(struct aw_assumptions *a);

/* Does pattern match the dotted name?  Parts are matched one by one as
 * fnmatch(3) globs, so '*' never crosses a dot; a part "**" matches any
 * number of parts, none included. */
bool aw_key_match(const char *pattern, const char *name);
/* Does any rule name the item family.probe.item (a check or not)?  What
 * `abiwatch check` without a snapshot selects probes by. */
bool aw_assume_names(const struct aw_assumptions *a, bool check, const char *name);
/* The probes that report an item some rule names, in declaration order
 * (malloc'd, *n of them): what `abiwatch check` and `bisect` run. */
struct aw_probe_ref *aw_assume_probes(const struct aw_assumptions *a, size_t *n);

struct aw_rule_result {
	enum aw_verdict verdict;
	char **details; /* lines: the values it was decided on, or why unknown */
	size_t ndetails;
	/* For an unknown verdict that the environment caused: the causes
	 * (core/status.h) of the skips it rests on, comma-separated
	 * ("i386,cap_sys_resource"), else NULL.  `check` says "unknown (i386)". */
	char *cause;
};

void aw_rule_eval(const struct aw_rule *r, const struct aw_snapshot *s,
		  struct aw_rule_result *res);
void aw_rule_result_free(struct aw_rule_result *res);

/* The rule in canonical form (minimal parentheses, decimal numbers,
 * single spaces), which parses back to the same rule: malloc'd. */
char *aw_rule_format(const struct aw_rule *r);

#endif

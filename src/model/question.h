/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A question put to every kernel of a bisect: one item of the catalogue
 * ("vfs.anon.pidfd.f_type": its status if a check, its value if an
 * observation) or an assumptions file (held or broken, as `abiwatch check`
 * decides it).  Each kernel's snapshot gives an answer; two answers are
 * the same or not, and an answer may not come at all (the item was
 * skipped, a rule's verdict is unknown): a kernel that cannot tell.
 */
#ifndef ABIWATCH_QUESTION_H
#define ABIWATCH_QUESTION_H

#include "assume.h"
#include "snapshot.h"

#include <stdbool.h>
#include <stddef.h>

struct aw_question {
	char *item;          /* an item's dotted name, or NULL */
	bool check;          /* the item is a check: its status is the answer */
	char *assumptions;   /* the file's path, or NULL */
	struct aw_assumptions rules;
	char **probes;       /* "family.probe": what a run must include */
	size_t nprobes;
};

/* One item of the catalogue, a pattern item's expansion included
 * ("sysctl.knob.kernel.msgmax.value"), by its name or by its key as a
 * snapshot writes it ("obs.sysctl.knob.kernel.msgmax.value": what a user
 * copies from a snapshot or a diff).  0, or -1 with *err naming what is
 * wrong (an unknown item, a family or probe, a glob, a key whose class is
 * not the item's). */
int aw_question_item(const char *key, struct aw_question *q, char **err);
/* An assumptions file (aw_assume_load()'s errors, file:line:column), of
 * which at least one rule names a known item.  0, or -1 with *err. */
int aw_question_assumptions(const char *path, struct aw_question *q, char **err);
void aw_question_free(struct aw_question *q);
/* "the observation vfs.anon.pidfd.f_type", "the assumptions in F" (malloc'd). */
char *aw_question_describe(const struct aw_question *q);

struct aw_answer {
	bool known;   /* false: this snapshot cannot tell */
	char *value;  /* known: what is compared ("0x50494446", "pass",
			 "held", "broken"); else why not ("skip: ...") */
	char *detail; /* for people: the broken rules, or NULL */
};

void aw_question_answer(const struct aw_question *q, const struct aw_snapshot *s,
			struct aw_answer *a);
bool aw_answer_same(const struct aw_answer *a, const struct aw_answer *b);
void aw_answer_free(struct aw_answer *a);

/* Does the snapshot hold a run of every probe the question needs (a
 * snapshot kept from an earlier step can answer it)? */
bool aw_question_covered(const struct aw_question *q, const struct aw_snapshot *s);

#endif

/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What diff.c and causes.c share, inside model/ only: one side's item
 * (its class and record), what the registry knows of it (diff_entry.c),
 * and the cause finder's calls (causes.c), which only diff.c makes. */
#ifndef ABIWATCH_MODEL_DIFF_ENTRY_H
#define ABIWATCH_MODEL_DIFF_ENTRY_H

#include "diff_types.h"
#include "snapshot.h"
#include "core/status.h"

#include <stdbool.h>
#include <stddef.h>

/* The env key listing the probes a run ran, when it did not run all. */
#define PROBES_RUN_KEY "env.probes"

struct entry {
	enum aw_diff_class cls;
	const struct aw_record *rec;
};

/* The registered probe of an entry and its item (*item NULL when this
 * binary does not know it), or NULL. */
const struct aw_probe *aw_diff_known(const struct entry *e, const struct aw_item **item);
/* A value as a list: comma-separated; "none" is the empty list. */
char **aw_diff_list(const char *v, size_t *n);
/* What an entry's change is about (malloc'd): its object. */
char *aw_diff_object_of(const struct entry *e);

/* causes.c: what one diff's questions read (both snapshots, what each
 * side skipped), made with both sides' entries before asking and freed
 * after: the diff's own, passed to every question. */
struct aw_causes;
struct aw_causes *aw_diff_causes_begin(const struct aw_snapshot *old, const struct aw_snapshot *new,
				       const struct entry *eo, size_t no, const struct entry *en,
				       size_t nn);
void aw_diff_causes_end(struct aw_causes *k);
/* The cause a skip names in its reason, into buf: true when it has one. */
bool aw_diff_named_cause(const struct entry *e, char buf[AW_CAUSE_MAX]);
/* causes_witness.c: sets c's cause when what the item's witness
 * recorded on each side (struct aw_item.witness: a module, the namespace
 * a knob was read in, a distribution's patch) made the change. */
bool aw_diff_explain_by_witness(struct aw_diff_change *c, const struct entry *o, const struct entry *n,
				const struct aw_snapshot *old, const struct aw_snapshot *new);
/* causes_witness.c: for a list of names whose elements the item's
 * witness explains (struct aw_witness_rule.find_element: a key printed
 * only under a configuration option), the parts of c each option
 * explains, folded under its cause, in *parts (malloc'd, their count
 * returned); c keeps the rest as the kernel's, its old value the old
 * list with those parts applied, or becomes the first part when nothing
 * is left. */
size_t aw_diff_explain_elements(struct aw_diff_change *c, const struct entry *o, const struct entry *n,
				const struct aw_snapshot *old, const struct aw_snapshot *new,
				struct aw_diff_change **parts);
/* Sets c's cause when the environment, not the kernel, made the change. */
void aw_diff_explain(const struct aw_causes *k, const struct aw_diff *d, struct aw_diff_change *c,
		     const struct entry *o, const struct entry *n);
/* The parts of c that causes explain apart (aw_diff_explain_elements()),
 * asked after aw_diff_explain() left c the kernel's. */
size_t aw_diff_explain_parts(const struct aw_causes *k, struct aw_diff_change *c, const struct entry *o,
			     const struct entry *n, struct aw_diff_change **parts);

#endif

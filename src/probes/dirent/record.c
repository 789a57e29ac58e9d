// SPDX-License-Identifier: GPL-2.0-or-later
#include "record.h"
#include "lib/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int dr_record_init(struct dr_record *r, const uint32_t size[DR_KINDS])
{
	memset(r, 0, sizeof(*r));
	for (int k = 0; k < DR_KINDS; k++) {
		r->size[k] = size[k];
		/* calloc(0) may be NULL: one slot at least keeps NULL for failure */
		r->born[k] = calloc((size_t)size[k] + 1, sizeof(*r->born[k]));
		r->died[k] = calloc((size_t)size[k] + 1, sizeof(*r->died[k]));
		r->seen[k] = calloc((size_t)size[k] + 1, 1);
		if (!r->born[k] || !r->died[k] || !r->seen[k]) {
			dr_record_free(r);
			return -1;
		}
	}
	return 0;
}

void dr_record_free(struct dr_record *r)
{
	for (int k = 0; k < DR_KINDS; k++) {
		free(r->born[k]);
		free(r->died[k]);
		free(r->seen[k]);
	}
	memset(r, 0, sizeof(*r));
}

void dr_record_made(struct dr_record *r, enum dc_kind kind, uint32_t num)
{
	if (num >= r->size[kind])
		return;
	r->born[kind][num] = ++r->now;
	r->died[kind][num] = 0;
}

void dr_record_gone(struct dr_record *r, enum dc_kind kind, uint32_t num)
{
	if (num < r->size[kind] && r->born[kind][num] && !r->died[kind][num])
		r->died[kind][num] = ++r->now;
}

bool dr_record_has(const struct dr_record *r, enum dc_kind kind, uint32_t num)
{
	return num < r->size[kind] && r->born[kind][num] && !r->died[kind][num];
}

bool dr_record_removed(const struct dr_record *r, enum dc_kind kind, uint32_t num)
{
	return num < r->size[kind] && r->died[kind][num];
}

/* One listed name of ours, against the record. */
static void count_ours(struct dr_record *r, uint32_t t, uint32_t opened, struct dr_census *c)
{
	enum dc_kind k = (enum dc_kind)(t >> 20);
	uint32_t i = dc_tag_num(t), born = i < r->size[k] ? r->born[k][i] : 0;
	uint32_t died = born ? r->died[k][i] : 0;
	if (!born) {
		if (c->unknown++ == 0)
			c->first_unknown = t;
		return;
	}
	if (died && died <= opened) {
		if (c->ghosts++ == 0)
			c->first_ghost = t;
		return;
	}
	bool touched = born > opened || died;
	c->changed += touched;
	if (r->seen[k][i] == 1 && c->repeated++ == 0)
		c->first_repeated = t;
	if (r->seen[k][i] == 1 && !touched && c->repeated_untouched++ == 0)
		c->first_repeated_untouched = t;
	if (r->seen[k][i] < 2)
		r->seen[k][i]++; /* counted once however often */
}

void dr_census(struct dr_record *r, const struct ds_scan *s, uint32_t opened,
	       struct dr_census *c)
{
	memset(c, 0, sizeof(*c));
	for (int k = 0; k < DR_KINDS; k++)
		memset(r->seen[k], 0, r->size[k]);
	for (size_t i = 0; i < s->len; i++) {
		uint32_t t = s->tag[i];
		if (t == DC_TAG_DOT)
			c->dots++;
		else if (t == DC_TAG_DOTDOT)
			c->dotdots++;
		else if (t & DC_TAG_STRANGER)
			c->strangers++;
		else
			count_ours(r, t, opened, c);
	}
	/* What had to be there: made before the open and not gone since. */
	for (int k = 0; k < DR_KINDS; k++) {
		const uint32_t *born = r->born[k], *died = r->died[k];
		for (uint32_t i = 0; i < r->size[k]; i++) {
			if (!born[i] || born[i] > opened || died[i] || r->seen[k][i])
				continue;
			if (c->missing < DR_SHOWN)
				c->missing_tag[c->missing] = dc_tag((enum dc_kind)k, i);
			c->missing++;
		}
	}
}

bool dr_census_ok(const struct dr_census *c)
{
	return !c->missing && !c->repeated && !c->ghosts && !c->unknown && !c->strangers &&
	       ds_dots_ok(c->dots, c->dotdots);
}

void dr_census_untouched(struct dr_census *c)
{
	c->repeated = c->repeated_untouched;
	c->first_repeated = c->first_repeated_untouched;
}

/* Append ", "-less part to a "; "-separated list. */
static void add_part(char **s, char *part)
{
	char *t = xasprintf("%s%s%s", *s, **s ? "; " : "", part);
	free(part);
	free(*s);
	*s = t;
}

char *dr_census_describe(const struct dr_census *c)
{
	char *s = xstrdup("");
	char name[16];
	if (c->missing)
		add_part(&s, xasprintf("%zu names missing (first %s)", c->missing,
				       dc_tag_name(c->missing_tag[0], name)));
	if (c->repeated)
		add_part(&s, xasprintf("%zu names returned more than once (first %s)", c->repeated,
				       dc_tag_name(c->first_repeated, name)));
	if (c->ghosts)
		add_part(&s, xasprintf("%zu deleted names returned (first %s)", c->ghosts,
				       dc_tag_name(c->first_ghost, name)));
	if (c->unknown)
		add_part(&s, xasprintf("%zu names returned that abiwatch never made or had "
				       "renamed away (first %s)", c->unknown,
				       dc_tag_name(c->first_unknown, name)));
	if (!ds_dots_ok(c->dots, c->dotdots))
		add_part(&s, xasprintf("\".\" %zu times, \"..\" %zu times (POSIX: each once, or "
				       "neither)", c->dots, c->dotdots));
	if (c->strangers)
		add_part(&s, xasprintf("%zu names abiwatch did not create", c->strangers));
	return s;
}

bool dr_removed_before(const struct dr_record *r, enum dc_kind kind, uint32_t num,
		       uint32_t *before, uint32_t *removed)
{
	bool found = false;
	*removed = 0;
	for (uint32_t i = num < r->size[kind] ? num : r->size[kind]; i-- > 0;) {
		if (!r->died[kind][i])
			continue;
		if (!found) {
			*before = i;
			found = true;
		}
		(*removed)++;
	}
	return found;
}

bool dr_is_missing(const struct dr_record *r, enum dc_kind kind, uint32_t num, uint32_t opened)
{
	if (num >= r->size[kind])
		return false;
	uint32_t born = r->born[kind][num];
	return born && born <= opened && !r->died[kind][num] && !r->seen[kind][num];
}

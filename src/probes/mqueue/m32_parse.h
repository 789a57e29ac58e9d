/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The strict reader of the 32-bit helper's output (format: m32/proto.h).
 * Pure: no kernel, no abiwatch core, so that a fuzzer and the unit tests
 * can drive it. */
#ifndef ABIWATCH_MQ_M32_PARSE_H
#define ABIWATCH_MQ_M32_PARSE_H

#include "m32/proto.h"

#include <stdbool.h>
#include <stddef.h>

/* Whether name is a valid record name. */
bool mqm_valid_name(const char *name, size_t len);

/* One record line, without its '\n' (len bytes, no NUL needed): 0 with
 * *rec filled, or -1 with *why set to a constant message. */
int mqm_parse_line(const char *line, size_t len, struct mqm_record *rec, const char **why);

/* Called for each record in order; a non-zero return stops the parse
 * and becomes its result. */
typedef int (*mqm_record_fn)(const struct mqm_record *rec, void *arg);

struct mqm_error {
	size_t line; /* 1-based; 0 when the whole text is at fault */
	const char *why;
};

/* A whole output: the header line, records, "end N" with N the number
 * of records, each line ended by '\n', nothing after.  Records reach fn
 * as they are read, so a caller must not act on them before the parse
 * succeeded as a whole.  0, -1 with *err set, or fn's non-zero return. */
int mqm_parse(const char *buf, size_t len, mqm_record_fn fn, void *arg, struct mqm_error *err);

#endif

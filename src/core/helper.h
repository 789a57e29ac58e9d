/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The runner's side of a family's 32-bit helper (core/probe.h: struct
 * aw_helper, aw_helper_report()): running the program, and the strict
 * reader of its output, kept apart so that it can be fuzzed.  Finding the
 * program and the wording of its refusals are helper_path.h's.
 */
#ifndef ABIWATCH_LIB_HELPER_H
#define ABIWATCH_LIB_HELPER_H

#include "probe.h"
#include "helper_path.h"
#include "lib/wire.h"

#include <stdbool.h>
#include <stddef.h>

/* The most a helper may write; beyond it, it is stopped. */
#define AW_HELPER_OUTPUT_MAX (1u << 20)

/* ---- the reader behind it: pure, so that it can be fuzzed ---- */

/* A helper's whole output, read. */
struct aw_helper_output {
	struct aw_wire *lines;
	size_t n;
};

/* Where and why an output was refused. */
struct aw_helper_refusal {
	size_t line; /* 1-based */
	const char *why;
};

/* Read out (len bytes) as h's output for probe: every line the
 * protocol's and ended by '\n', each item one probe declares under
 * h->prefix, of its kind, not one of h->own, at most once.  0 with *o
 * filled (aw_helper_output_free()), or -1 with *r set and nothing to
 * free.  The names in *o are the helper's, without the prefix. */
int aw_helper_read(const char *out, size_t len, const struct aw_probe *probe,
		   const struct aw_helper *h, struct aw_helper_output *o,
		   struct aw_helper_refusal *r);
void aw_helper_output_free(struct aw_helper_output *o);

#endif

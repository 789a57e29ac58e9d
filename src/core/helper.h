/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A family's 32-bit helper: a static -m32 program built from
 * src/probes/FAMILY/m32/ into build/m32/abiwatch-FAMILY-m32, so that the
 * kernel's compat entry points and 32-bit layouts are what it meets.  It
 * answers --hello (core/i386.h), and otherwise runs in the probe's
 * namespaces and reports its results as lines of the probe protocol on
 * stdout, with aw_out_pass(), aw_out_observe() ... of lib/wire.h.
 *
 * The probe runs it with one call, aw_helper_report(), which reads the
 * whole output strictly before it reports anything: an item the probe
 * does not declare, one of the wrong kind, one reported twice, a line
 * that is not the protocol's make every item of the helper an error.
 * What the helper left out is an error too; where it cannot run at all
 * (not installed, a kernel without i386, a failed exec) its items are
 * skips giving the reason.
 */
#ifndef ABIWATCH_LIB_HELPER_H
#define ABIWATCH_LIB_HELPER_H

#include "probe.h"
#include "lib/wire.h"

#include <stdbool.h>
#include <stddef.h>

/* The most a helper may write; beyond it, it is stopped. */
#define AW_HELPER_OUTPUT_MAX (1u << 20)

/* The path of a helper program of abiwatch's ("abiwatch-dirent-m32"),
 * malloc'd, or NULL when there is none.  Looked for in
 * $ABIWATCH_HELPER_DIR, in build/m32/ beside the abiwatch binary (or
 * ../m32/ from build/asan/), and in ../libexec/abiwatch/ from it. */
char *aw_helper_path(const char *name);
/* Why a helper's items cannot be had, for a skip, malloc'd: the helper
 * NAME is not where aw_helper_path() looks; or its execve(2) failed with
 * err (ENOEXEC: the kernel runs no i386 programs).  One wording for every
 * family, which diff and the tests recognise. */
char *aw_helper_missing(const char *name);
char *aw_helper_exec_failed(const char *path, int err);

/* A run of a helper whose reports are items of the running probe. */
struct aw_helper {
	const char *name;         /* the program, found with aw_helper_path() */
	const char *const *args;  /* its arguments, NULL-terminated; NULL: none */
	/* Its item NAME is the probe's item PREFIX NAME ("compat32." for
	 * dirent's compat32.cookie_bits; "" for a probe that is all the
	 * helper's).  Every declared item under the prefix is the helper's
	 * to report, but the probe's items named in own (full names,
	 * NULL-terminated; NULL: none), which the probe reports itself from
	 * what the helper did. */
	const char *prefix;
	const char *const *own;
	int timeout_ms;           /* it is killed after this long */
	const int *keep;          /* descriptors it inherits, -1 ends; NULL: none */
	/* Called in the helper's process before exec (lib/proc.h). */
	void (*before_exec)(void *arg);
	void *before_exec_arg;
};

/* Run the helper and report its items, as described above.  True when
 * it ended with status 0 having reported every item it had to: then the
 * probe may check what it left behind and report its own items; else
 * those are the probe's to report (aw_reported() tells which are, since
 * where the helper cannot run they are skipped with the others). */
bool aw_helper_report(struct aw_ctx *ctx, const struct aw_helper *h);

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

/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The lines of the probe protocol (core/protocol.h), written and read in
 * one place.  A probe's reports reach the runner as these lines, and a
 * family's 32-bit helper writes the same lines on its stdout for the
 * probe to read (core/probe.h: aw_helper_report()): one format, one writer, one reader.
 *
 *   C NAME STATUS[ TEXT]   a check: pass, fail, skip or error
 *   O NAME STATUS[ TEXT]   an observation: pass (TEXT is the value), skip or error
 *   N TEXT                 a note
 *
 * TEXT is escaped (aw_escape(): backslash, newline and other control bytes
 * as \\, \n, \xHH) so that a line is a line.  This file and lib/util.c
 * compile into the static -m32 helpers too: no libcap, no json-c.
 */
#ifndef ABIWATCH_LIB_WIRE_H
#define ABIWATCH_LIB_WIRE_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>

/* One report as a line, '\n' included, malloc'd.  kind 'C' or 'O' with
 * name, status and text (NULL: none); 'N' with text only. */
char *aw_wire_line(char kind, const char *name, const char *status, const char *text);

/* A line read back. */
struct aw_wire {
	char kind;          /* 'C', 'O' or 'N' */
	char *name;         /* NULL for a note */
	const char *status; /* "pass", "fail", "skip" or "error"; NULL for a note */
	char *text;         /* unescaped; NULL when the line has none */
};

/* Read one line (len bytes, without its '\n'): exactly what
 * aw_wire_line() writes, so that it writes the same bytes back.  0 with
 * *w filled (aw_wire_free()), or -1 with *why set to a constant. */
int aw_wire_parse(const char *line, size_t len, struct aw_wire *w, const char **why);
void aw_wire_free(struct aw_wire *w);

/* ---- for a family's 32-bit helper: its reports on stdout ---- */

/* What a helper prints, alone on a line, when run with --hello as its
 * only argument: the runner's test of whether this kernel runs i386
 * programs at all (core/i386.c) runs one and reads this back. */
#define AW_HELPER_HELLO "abiwatch-helper 1"

/* The first call of a helper's main(): when argv is just --hello, print
 * AW_HELPER_HELLO and exit (0, or 1 when stdout fails); else return. */
void aw_helper_hello(int argc, char **argv);

/* As aw_pass(), aw_fail() ... of core/probe.h, without a probe: each
 * writes one line on stdout with one write(2). */
void aw_out_pass(const char *check);
void aw_out_fail(const char *check, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Pass when cond holds, otherwise fail with the message; returns cond. */
bool aw_out_expect(const char *check, bool cond, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void aw_out_skip(const char *check, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void aw_out_observe(const char *obs, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void aw_out_unobserved(const char *obs, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void aw_out_note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif

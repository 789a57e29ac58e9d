/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The line protocol from a probe's child to the runner, over a pipe.
 * One line per report, written with one write() so that lines from
 * several processes of one probe never interleave below PIPE_BUF:
 *
 *   C <item> <pass|fail|skip|error> [escaped text]   a check
 *   O <item> <pass|skip|error> [escaped text]        an observation
 *   N <escaped text>                                 a note
 *   X <exit|signal> <number>                         how the probe ended,
 *                                                    kept as numbers (result.h)
 */
#ifndef ABIWATCH_PROTOCOL_H
#define ABIWATCH_PROTOCOL_H

#include "result.h"

/* Apply one line (without its newline) to r.  Returns 0, or -1 with a
 * description of the problem in r's notes and r marked as broken. */
int aw_protocol_apply(struct aw_probe_result *r, const char *line);

#endif

/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Progress lines on standard error, "WHO: TEXT": the one writer of what
 * a long piece of work says as it goes (a VM booting, a bisect's steps,
 * a matrix's jobs).  Each line is written with one write(2), so that
 * lines from parallel work never mix.  Knows nothing of abiwatch.
 */
#ifndef ABIWATCH_LIB_PROGRESS_H
#define ABIWATCH_LIB_PROGRESS_H

#include <stdbool.h>

struct aw_progress {
	const char *who; /* the line's prefix: "abiwatch vm" */
	bool on;         /* false: nothing is written */
};

/* Whether progress shows: when asked for (-v), or when standard error is
 * a terminal and it was not silenced (-q); never into a log unasked. */
bool aw_progress_wanted(bool asked, bool quiet);

/* "WHO: TEXT\n" on standard error when p is on. */
void aw_say(const struct aw_progress *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif

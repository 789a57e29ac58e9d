/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Whether this kernel runs i386 programs, decided once per run (i386.c). */
#ifndef ABIWATCH_I386_H
#define ABIWATCH_I386_H

#include "probe.h"

/* Decide now (the runner does, before it forks the first probe, so that
 * every probe inherits the answer). */
void aw_i386_decide(void);
/* NULL when this kernel runs i386 programs, else why not: asked once per
 * run of one of the families' 32-bit helpers, so that every probe skips
 * with the same reason instead of exec'ing into a refusal of its own
 * (core/helper.h's aw_helper_report() asks). */
const char *aw_i386_refused(void);

#endif

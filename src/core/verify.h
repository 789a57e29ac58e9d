/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The tables' consistency, checked (verify.c). */
#ifndef ABIWATCH_CORE_VERIFY_H
#define ABIWATCH_CORE_VERIFY_H

/* Consistency of the tables themselves, for the unit tests and for
 * "abiwatch list --verify": names, duplicates, summaries.  Prints each
 * problem to stderr and returns how many there were. */
int aw_registry_verify(void);

#endif

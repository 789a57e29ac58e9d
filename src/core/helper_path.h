/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Where a family's 32-bit helper is, and why it cannot run: what both the
 * helper's runner (helper.h) and the run's i386 check (i386.h) need, below
 * them both.
 */
#ifndef ABIWATCH_CORE_HELPER_PATH_H
#define ABIWATCH_CORE_HELPER_PATH_H

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

#endif

/* SPDX-License-Identifier: GPL-2.0-or-later */
/* abiwatch bisect --git: building the commit a step is at. */
#ifndef ABIWATCH_SESSION_BISECT_BUILD_H
#define ABIWATCH_SESSION_BISECT_BUILD_H

#include "bisect_opts.h"

/* Build the commit checked out in the tree (--build, or --config's
 * default build), its output in OUT/commits/COMMIT.build.log: the kernel
 * as a spec (a .deb, a bzImage, BZIMAGE:MODULES), or NULL with *why. */
char *bisect_build(const struct bisect *b, const char *commit, char **why);

#endif

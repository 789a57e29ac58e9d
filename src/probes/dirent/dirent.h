/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What the dirent family's files share. */
#ifndef ABIWATCH_DIRENT_H
#define ABIWATCH_DIRENT_H

#include "backends/target.h"
#include "core/probe.h"

#include <stddef.h>

/* struct aw_probe.data of every dirent probe is its struct aw_fs_target. */
#define DIRENT_HELPER "abiwatch-dirent-m32"

extern const struct aw_item dirent_items[];
void dirent_run(struct aw_ctx *ctx);

#endif

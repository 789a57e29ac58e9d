/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Probes over backends: what a family needs to run one probe per
 * filesystem (its data pointer names the backend) and to make a probe of
 * a user's directory from `--OPTION LABEL=DIR` (the path backend).  The
 * dirent and vfs families declare their probes and options with these,
 * so that a label, a directory and the probe made of them mean the same
 * in every family.
 */
#ifndef ABIWATCH_BACKEND_TARGET_H
#define ABIWATCH_BACKEND_TARGET_H

#include "backend.h"
#include "core/probe.h"

/* struct aw_probe.data of a probe that works on a backend. */
struct aw_fs_target {
	const struct aw_backend *backend;
	const char *label; /* --path LABEL=DIR: LABEL; else the backend's name */
};

/* One of each backend that needs no argument, labelled with its name. */
extern const struct aw_fs_target aw_target_tmpfs, aw_target_ext4, aw_target_xfs,
	aw_target_btrfs, aw_target_overlay, aw_target_overlay_single;

/* A probe made from tmpl for value LABEL=DIR: named LABEL, working in a
 * fresh subdirectory of DIR (host_path, the path backend), its summary
 * "WHAT in a fresh subdirectory of DIR".  NULL with *why (malloc'd) when
 * value is no LABEL=DIR or DIR no directory.  For struct aw_param's
 * instantiate, through a one-line function of the family's. */
struct aw_probe *aw_target_path_probe(const struct aw_probe *tmpl, const char *what,
				      const char *value, char **why);
/* Undoes aw_target_path_probe(): for struct aw_param's release. */
void aw_target_path_release(struct aw_probe *made);

/* aw_fs_prepare() of the probe's target (aw_probe_data(ctx)), in its
 * scratch directory or, for the path backend, its host subdirectory.
 * entries as struct aw_fs_opts has it. */
enum aw_fs_rc aw_target_prepare(struct aw_ctx *ctx, unsigned long entries, struct aw_fs *fs,
				char **why);

#endif

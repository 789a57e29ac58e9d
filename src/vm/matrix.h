/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Several kernels at once: the scheduler behind `abiwatch matrix`.  Each
 * kernel is a forked worker that calls aw_vm_run() and writes its files
 * (LABEL.snapshot, LABEL.ktap, LABEL.console) into a directory; the host
 * is `abiwatch run` of this very binary.  At most max_jobs run at a time.
 * Workers and their QEMUs have PR_SET_PDEATHSIG: killing the caller kills
 * them all.
 */
#ifndef ABIWATCH_VM_MATRIX_H
#define ABIWATCH_VM_MATRIX_H

#include "vm.h"

#include <stdbool.h>
#include <sys/types.h>

/* What a worker tells the parent when it is done (through a pipe, so of
 * fixed size). */
struct aw_matrix_outcome {
	int outcome;      /* enum aw_vm_outcome; AW_VM_OK for the host */
	int run_status;   /* -1: none */
	double t_total, t_prepare, t_kernel, t_boot, t_run;
	char accel[8];
	char why[1024];
};

struct aw_matrix_job {
	char *spec;       /* as given */
	char *kernel, *deb, *modules;
	bool host;        /* this machine's kernel, not a VM */
	char *release;
	char *package, *version; /* a .deb's Package and Version, else NULL */
	char *label;      /* its files' names in the directory */
	/* Its snapshot is already in the directory (the same package and
	 * version, env.vm.package): not run again. */
	bool reused;
	struct aw_matrix_outcome out;
	pid_t pid;        /* the scheduler's own */
	int pipe_fd;
	bool done;
};

struct aw_matrix {
	const char *dir;            /* where the jobs write their files */
	struct aw_vm_opts vm;       /* how each guest boots, what each run runs */
	unsigned max_jobs;          /* 0: as many as there are CPUs */
	struct aw_matrix_job *jobs;
	size_t njobs;
	/* Progress, in the caller's process; NULL: none. */
	void (*started)(const struct aw_matrix_job *j, void *arg);
	void (*finished)(const struct aw_matrix_job *j, size_t done, size_t total, void *arg);
	void *arg;
};

/* A kernel: a linux-image .deb, a bzImage, or BZIMAGE:MODULES_DIR, whose
 * release is read now.  0, or -1 with *err (malloc'd). */
int aw_matrix_add_kernel(struct aw_matrix *m, const char *spec, char **err);
/* This machine's kernel, run here. */
void aw_matrix_add_host(struct aw_matrix *m);
/* Put the jobs in version order (packages by their Debian versions,
 * anything else by strverscmp of the release, the host after a VM of the
 * same release) and give each a unique label. */
void aw_matrix_order(struct aw_matrix *m);
/* Two jobs that are the same kernel: the same file, or packages of the
 * same name and version.  true with *a < *b their indices. */
bool aw_matrix_same_kernel(const struct aw_matrix *m, size_t *a, size_t *b);
/* What env.vm.package says of a job's package ("NAME VERSION"),
 * malloc'd, or NULL for a job that is no package. */
char *aw_matrix_package_id(const struct aw_matrix_job *j);
/* Run every job to its end. */
void aw_matrix_run(struct aw_matrix *m);
/* DIR/LABEL.EXT, malloc'd. */
char *aw_matrix_file(const struct aw_matrix *m, const char *label, const char *ext);
void aw_matrix_free(struct aw_matrix *m);

#endif

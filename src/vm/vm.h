/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * One kernel in QEMU: build the initramfs, boot, run `abiwatch run` as
 * root with every capability, collect what it found.  Used by
 * `abiwatch vm` and, one child per kernel, by `abiwatch matrix`.
 *
 * QEMU runs in a process group of its own with PR_SET_PDEATHSIG, so it
 * dies with abiwatch; every file it gets (kernel, initramfs, the two
 * serial ports) is an anonymous file passed as /proc/self/fd/N, so that
 * nothing is left behind on any path.  A guest that does not finish by
 * the time limit is killed and reported as a timeout; one that panics
 * (panic=-1 with -no-reboot: QEMU exits) as a panic; one that stops
 * without sending its results as "no result".
 */
#ifndef ABIWATCH_VM_VM_H
#define ABIWATCH_VM_VM_H

#include "model/snapshot.h"

#include "lib/progress.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#define AW_VM_DEFAULT_TIMEOUT_S 300.0
#define AW_VM_DEFAULT_MEMORY_MB 1024

struct aw_vm_opts {
	const char *kernel;  /* a bzImage, or NULL with deb */
	const char *deb;     /* a linux-image .deb */
	const char *modules; /* lib/modules/RELEASE for kernel; NULL: that of
				an installed kernel of the same release, if any */
	double timeout_s;    /* the whole VM: boot, run, collect */
	/* timeout_s is the default, made for an idle guest: it stretches by
	 * the slowness the guest measures of itself at boot (core/guest.h),
	 * on both sides.  A --timeout of the user's is a hard bound. */
	bool timeout_stretches;
	const char *accel;   /* "auto", "kvm" or "tcg" */
	unsigned memory_mb;
	unsigned cpus;       /* the guest's vCPUs; 0: aw_vm_auto_cpus(1) */
	const char *qemu;    /* the QEMU binary */
	char *const *run_args; /* for `abiwatch run` in the guest */
	size_t nrun_args;
	char *const *extra_modules; /* --module NAME */
	size_t nextra_modules;
	char *const *files;  /* --file HOST[=GUEST] */
	size_t nfiles;
	char *const *setups; /* --setup 'PROGRAM ARG...': run in the guest first */
	size_t nsetups;
	const char *save_initramfs; /* write the initramfs there too */
	const char *append;  /* more kernel parameters, or NULL */
	bool verbose;        /* every note on stderr */
	/* Progress on stderr ("abiwatch vm"): the steps, the guest booting,
	 * each family as the guest's run ends it.  Off when zeroed. */
	struct aw_progress progress;
};

/* The vCPUs a guest gets when none are asked for, guests_at_once guests
 * sharing this machine: its usable CPUs split among them, at least 1, at
 * most AW_VM_AUTO_CPUS_MAX.  Under TCG each vCPU is a thread of QEMU
 * (multi-threaded TCG), so more vCPUs than CPUs would only contend; the
 * guest's run gives each a probe (run --jobs). */
#define AW_VM_AUTO_CPUS_MAX 4
unsigned aw_vm_auto_cpus(unsigned guests_at_once);

enum aw_vm_outcome {
	AW_VM_OK,        /* the run ended and its results came back */
	AW_VM_TIMEOUT,   /* killed at the time limit */
	AW_VM_PANIC,     /* the kernel panicked */
	AW_VM_NO_RESULT, /* the guest stopped without sending its results */
	AW_VM_SETUP,     /* nothing was booted: bad input, no QEMU, ... */
};

struct aw_vm_result {
	enum aw_vm_outcome outcome;
	char *why;           /* for all but AW_VM_OK */
	char *release;       /* of the kernel booted */
	char *accel;         /* "kvm" or "tcg" */
	char *accel_why;     /* why not KVM, when auto chose TCG */
	int run_status;      /* the guest run's exit status, -1 when none */
	char *run_end;       /* "0", "signal 9", "timeout" as the guest said */
	char *stdout_data;   /* what the run printed (KTAP) */
	size_t stdout_len;
	bool has_snapshot;
	struct aw_snapshot snapshot; /* the guest's, with env.vm.* added */
	char *console;       /* the guest's console */
	size_t console_len;
	char **notes;        /* modules, programs left out or failing */
	size_t nnotes;
	unsigned long long initramfs_bytes;
	size_t nmodules;
	/* Host seconds (the guest's clock runs slow under TCG on a busy host). */
	double t_prepare;    /* reading the kernel, building the initramfs */
	double t_kernel;     /* from QEMU's start to init's first line */
	double t_boot;       /* from QEMU's start to the run's start (boot
				modules loaded) */
	double t_run;        /* the run, and sending its results */
	double t_qemu;       /* QEMU's whole life */
	double t_total;      /* from the start to the results */
	/* The same as the guest saw them, for comparison. */
	double guest_init_uptime, guest_run_uptime;
};

/* Run one kernel.  Returns the outcome (also in r->outcome). */
enum aw_vm_outcome aw_vm_run(const struct aw_vm_opts *o, struct aw_vm_result *r);
void aw_vm_result_free(struct aw_vm_result *r);
const char *aw_vm_outcome_name(enum aw_vm_outcome o); /* "ok", "timeout", ... */

/* A file abiwatch ships beside itself: $ABIWATCH_HELPER_DIR/NAME,
 * <exe dir>/build/SUB/NAME, <exe dir>/../SUB/NAME (from build/asan/),
 * <exe dir>/../libexec/abiwatch/NAME.  malloc'd, or NULL. */
char *aw_vm_find(const char *sub, const char *name);

/* Write data to path (a guest's console, what its run printed).  0, or
 * -1 with *err (malloc'd). */
int aw_vm_write_text(const char *path, const char *data, size_t len, char **err);

/* One line for people: "6.1.0-57-cloud-amd64 (tcg): ok in 7.9 s (...)". */
char *aw_vm_summary(const struct aw_vm_result *r);

#endif

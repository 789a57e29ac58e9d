/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What the sysctl probes share: which knobs must not be read as values
 * or written back, the text a value is recorded as, and the kernel
 * configuration's lines.  The pure parts are unit-tested (tests/unit/test_sysctl.c) and fuzzed
 * (tests/fuzz/fuzz_sysctl.c) without a kernel. */
#ifndef ABIWATCH_SYSCTL_H
#define ABIWATCH_SYSCTL_H

#include "core/probe.h"
#include "lib/kconfig.h"

#include <stdbool.h>
#include <stddef.h>

/* Why a knob's value is not recorded (it changes at every read or boot,
 * it is a secret, it is the host's configuration), or NULL. */
const char *sc_value_skip(const char *name);
/* Why writing a knob's value back is not tried even where its namespace
 * is the probe's own (it would not be a no-op, or it logs), or NULL. */
const char *sc_writeback_skip(const char *name);

/* Values longer than this are cut, and say how long they were. */
#define SC_VALUE_MAX 256

/* The text a value of len bytes is recorded as: the trailing newline
 * dropped, tabs as spaces, cut at SC_VALUE_MAX bytes with " ... (N
 * bytes)" added.  NULL when it holds a NUL or another control byte but
 * newline and tab: a binary value.  malloc'd. */
char *sc_value_text(const char *buf, size_t len);

/* Knobs documented one by one (items of their own before the pattern):
 * the CONFIG option without which the kernel has no such knob, if one,
 * and the security module that registers it, if one: a module built but
 * not started (CONFIG_LSM, lsm=) has no knob, and its absence is the
 * machine's set-up, not a removal. */
struct sc_known {
	const char *knob;
	const char *config; /* "IO_URING", or NULL */
	const char *lsm;    /* "yama", or NULL */
};
extern const struct sc_known sc_known_knobs[];
extern const size_t sc_nknown_knobs;

/* Why a knob is on one run and not another, or reads another value,
 * for a reason the snapshot records (witness.c): a module, the
 * namespace it is read in, a distribution's patch. */
extern const struct aw_witness_rule sc_witness;
/* module.NAME for every module that registers knobs: its state now,
 * before the walk (cfg: the loaded configuration, text NULL if none). */
void sc_report_modules(struct aw_ctx *ctx, const struct aw_kconfig *cfg);

/* The formulas of the knobs sized at boot (sized.c). */
extern const struct aw_sizing sc_file_max, sc_user_reserve, sc_admin_reserve, sc_threads_max,
	sc_half_threads_max, sc_min_free, sc_epoll_watches;

extern const struct aw_probe sc_knob_probes[], sc_config_probes[], sc_machine_probes[],
	sc_scopes_probes[];

#endif

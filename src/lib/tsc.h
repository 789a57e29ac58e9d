/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The frequency of this machine's time stamp counter, measured: QEMU's
 * TCG gives a guest the host's TSC, and a guest that calibrates it on a
 * loaded host can be off by a factor of ten or more (6.12: "PIT
 * calibration deviates from HPET: 278044 2594698 ... Using PIT
 * calibration value"), after which its every clock runs that much fast.
 * Knows nothing of abiwatch. */
#ifndef ABIWATCH_TSC_H
#define ABIWATCH_TSC_H

/* kHz, from the counter's ticks over a stretch of CLOCK_MONOTONIC_RAW
 * (the median of three); 0 where there is no TSC to read (not x86). */
unsigned long aw_tsc_khz(void);

#endif

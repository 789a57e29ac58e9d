#!/usr/bin/env bash
# time_values: the time family here, ten runs in a row.
#   - every run exits 0, and no time item fails or breaks (how long a
#     run takes is tests/bench.d/family_runs.sh's figure);
#   - the ten snapshots are identical (env.* included: no item may be
#     decided by a race or follow the moment of the run; what depends on
#     timing is a bound or a bucket);
#   - every value tests/lib/time-values.sh lists as the same on all
#     kernels is that value;
#   - the 32-bit helper's items where i386 programs run, a skip naming
#     the cause elsewhere; the guest-only probes are skips naming "vm";
#   - the host's clock was not set: /proc/stat's btime (CLOCK_REALTIME
#     minus CLOCK_BOOTTIME, whole seconds) moves by at most 2 s.
set -u
cd "$(dirname "$0")/../.." || exit 1
. tests/lib/dirent-common.sh
. tests/lib/time-values.sh

tmp=$(mktemp -d "${TMPDIR:-/tmp}/abiwatch-time.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
btime() { sed -n 's/^btime //p' /proc/stat; }
before=$(btime)
expect_same_runs 10 "$tmp" "$abiwatch" run time
after=$(btime)
d=$((after - before))
((d >= -2 && d <= 2)) && report ok "the host's clock was not set (btime moved ${d} s)" ||
	report bad "btime moved $d s: was the host's clock set?"

items=$(grep -cE '^(check|obs|unobserved)\.time\.' "$tmp/1")
((items > 150)) && report ok "run 1 reports $items time items" || report bad "run 1 reports $items time items"

load_snapshot "$tmp/1"
time_expect_no_failures "$tmp/1"
time_expect_same
expect_match obs.time.clocks.tai_offset '^-?[0-9]+$'
expect_match obs.time.timers.restore_ids '^(0|EINVAL)$'
expect_match check.time.settime.cancel_on_set '^skip: needs vm'
expect_match unobserved.time.boot_pool.at_init '^skip: needs vm'
expect_i386 time.compat32.clock_gettime ok
expect_i386 time.compat32.clock_gettime64 ok
expect_i386 time.compat32.sigevent_delivered pass
expect_i386 time.compat32.time64_agrees pass
expect_i386 time.compat32.vdso.image 'ELF32 machine 3 type 3'
expect_i386 time.compat32.vdso.sym.__kernel_vsyscall LINUX_2.5
finish

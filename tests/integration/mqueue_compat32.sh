#!/usr/bin/env bash
# tests/run: sealed
# mqueue_compat32: the compat32 probe (the 32-bit helper through the
# compat entry points) against the kernel, beside the native probes it
# mirrors.  Every check must pass; the observations must equal the
# native ones where they are the same fact (the attr-NULL shape, the
# RLIMIT_MSGQUEUE charge of a 1x128 queue, which the kernel computes from
# its own structures whatever the caller's width), and be what i386 has
# where they are not: ilp32, a 32-byte struct mq_attr (8 x 4-byte longs),
# and the time64 entry points ignoring the padding beside a 32-bit
# tv_nsec (get_timespec64() truncates it for compat tasks).
# Where this machine runs no i386 programs (tests/lib/machine), every
# item must be a skip saying so, and the test is a skip (exit 4): the
# guests of vm_compat32.sh prove the values then.
# Exit 0 pass, 1 fail, 4 skip.
source "$(dirname "$0")/../lib/mqueue-snapshot.sh"
source "$(dirname "$0")/../lib/machine"
source "$(dirname "$0")/../lib/compat32-contract.sh"

# aw_helper_path() looks beside the binary; the ASan build lives in
# build/asan/, so point it at the helpers.
export ABIWATCH_HELPER_DIR=${ABIWATCH_HELPER_DIR:-$mq_root/build/m32}

mq_run mqueue.compat32 mqueue.noattr mqueue.rlimit
expect_no_failures
if ! machine_i386; then
	for k in "${!snap[@]}"; do
		[[ $k == *.mqueue.compat32.* ]] || continue
		[[ ${snap[$k]} =~ $MACHINE_NO_I386_REASON ]] ||
			report bad "$k = ${snap[$k]} (this machine runs no i386 programs: a skip saying so was expected)"
	done
	((failures)) && mq_finish
	echo "skip: this machine runs no i386 programs, and every compat32 item says so"
	exit 4
fi
expect_status 0
expect_mqueue_compat32
mq_finish

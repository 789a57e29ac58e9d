#!/usr/bin/env bash
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
for c in attr.getattr_shape attr.curmsgs_tracks attr.setattr_only_nonblock attr.foreign_shape \
	 attr.created_shape sendrecv.priority_order sendrecv.fifo_within_priority \
	 sendrecv.einval_prio_at_max sendrecv.emsgsize_send sendrecv.emsgsize_receive_short_buffer \
	 sendrecv.zero_length_message sendrecv.eagain_receive_empty sendrecv.eagain_send_full \
	 sendrecv.ebadf_wrong_mode timed.legacy.etimedout_past timed.legacy.etimedout_near \
	 timed.legacy.einval_nsec timed.time64.etimedout_past timed.time64.etimedout_near \
	 timed.time64.einval_nsec timed.time64.beyond_2038 notify.signal \
	 limits.einval_above_msg_max limits.emfile_beyond_rlimit; do
	expect "check.mqueue.compat32.$c" pass
done
expect obs.mqueue.compat32.abi ilp32
expect obs.mqueue.compat32.sizeof_mq_attr 32
expect obs.mqueue.compat32.timed.time64.nsec_padding_ignored yes
expect_same obs.mqueue.compat32.limits.noattr.maxmsg obs.mqueue.noattr.maxmsg
expect_same obs.mqueue.compat32.limits.noattr.msgsize obs.mqueue.noattr.msgsize
expect_same obs.mqueue.compat32.limits.charge.1x128 obs.mqueue.rlimit.charge.1x128
mq_finish

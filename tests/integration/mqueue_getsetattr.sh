#!/usr/bin/env bash
# tests/run: sealed
# mqueue_getsetattr: the getsetattr probe against the kernel.  The checks
# are POSIX mq_getattr()/mq_setattr() and must pass.  Observations: the
# kernel zeroes the reserved words of struct mq_attr on output
# (include/uapi/linux/mqueue.h: "ignored for input, zeroed for output");
# a queue descriptor is a file descriptor, so dup() shares the open file
# description and its O_NONBLOCK; mq_setattr refuses any flag but
# O_NONBLOCK with EINVAL.  Exit 0 pass, 1 fail.
source "$(dirname "$0")/../lib/mqueue-snapshot.sh"

mq_run mqueue.getsetattr
expect_status 0
expect_no_failures
for c in getattr_reports_shape getattr_flags_nonblock curmsgs_tracks setattr_only_nonblock \
	 setattr_returns_old nonblock_takes_effect nonblock_per_description ebadf \
	 setattr_failure_changes_nothing; do
	expect "check.mqueue.getsetattr.$c" pass
done
expect obs.mqueue.getsetattr.reserved_zeroed yes
expect obs.mqueue.getsetattr.dup_shares_nonblock yes
expect obs.mqueue.getsetattr.setattr_other_flags EINVAL
mq_finish

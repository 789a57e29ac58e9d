#!/usr/bin/env bash
# tests/run: sealed
# mqueue_timed: the timed probe against the kernel.  The checks are POSIX
# mq_timedsend()/mq_timedreceive() and signal(7) (mq_* are restarted with
# SA_RESTART) and must pass.  Observations: Linux validates the timeout
# before it looks at the queue (prepare_timeout() in the system call), so
# tv_nsec 1000000000 is EINVAL even when a message is waiting or there is
# room (POSIX lets it go unchecked), and tv_sec -1 is EINVAL (timespec64_valid()), not an
# immediate ETIMEDOUT.  Exit 0 pass, 1 fail.
source "$(dirname "$0")/../lib/mqueue-snapshot.sh"

mq_run mqueue.timed
expect_status 0
expect_no_failures
for c in etimedout_past_receive etimedout_past_send etimedout_near_receive \
	 etimedout_near_send einval_nsec_range eintr_receive eintr_send \
	 restart_with_sa_restart far_future_deadline; do
	expect "check.mqueue.timed.$c" pass
done
expect obs.mqueue.timed.invalid_timeout_when_not_blocking EINVAL
expect obs.mqueue.timed.invalid_timeout_when_room EINVAL
expect obs.mqueue.timed.negative_tv_sec EINVAL
mq_finish

#!/usr/bin/env bash
# tests/run: sealed
# mqueue_sendrecv: the sendrecv probe against the kernel.  Every check is
# a contract of POSIX mq_send()/mq_receive() and mq_send(3)/mq_receive(3)
# and must pass.  Observations: MQ_PRIO_MAX is 32768 on Linux
# (MQ_PRIO_MAX in include/uapi/linux/mqueue.h, as sysconf reports it); an mq_receive
# that fails with EFAULT has already taken the message off the queue
# (ipc/mqueue.c copies it out after dequeuing), so the message is lost;
# blocked receivers wait in task priority order (wq_add() in ipc/mqueue.c),
# so a message goes to the higher-priority (lower nice) one, not to the
# one that waited longest.
# Exit 0 pass, 1 fail.
source "$(dirname "$0")/../lib/mqueue-snapshot.sh"

mq_run mqueue.sendrecv
expect_status 0
expect_no_failures
for c in priority_order fifo_within_priority receive_reports_priority \
	 highest_priority_accepted einval_prio_at_max emsgsize_send \
	 emsgsize_receive_short_buffer emsgsize_receive_keeps_message eagain_send_full \
	 eagain_receive_empty ebadf_wrong_mode ebadf_not_a_queue zero_length_message efault \
	 receive_blocks_until_send send_blocks_until_receive; do
	expect "check.mqueue.sendrecv.$c" pass
done
expect obs.mqueue.sendrecv.prio_max 32768
expect obs.mqueue.sendrecv.efault_receive_consumes yes
expect obs.mqueue.sendrecv.receiver_wakeup_order higher_priority
mq_finish

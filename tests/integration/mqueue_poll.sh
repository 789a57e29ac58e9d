#!/usr/bin/env bash
# tests/run: sealed
# mqueue_poll: the poll probe against the kernel.  The checks follow
# mq_overview(7) (a queue descriptor can be monitored with select, poll
# and epoll) and must pass.  Observations: mqueue_poll_file() reports
# EPOLLIN|EPOLLRDNORM while messages are queued and EPOLLOUT|EPOLLWRNORM
# while there is room, whatever the descriptor's access mode (so an
# O_WRONLY descriptor shows POLLIN too).  Exit 0 pass, 1 fail.
source "$(dirname "$0")/../lib/mqueue-snapshot.sh"

mq_run mqueue.poll
expect_status 0
expect_no_failures
for c in poll_readable poll_writable select_matches epoll_matches epoll_wakes_on_send \
	 poll_wakes_on_receive; do
	expect "check.mqueue.poll.$c" pass
done
expect obs.mqueue.poll.events.empty 'POLLOUT|POLLWRNORM'
expect obs.mqueue.poll.events.partial 'POLLIN|POLLOUT|POLLRDNORM|POLLWRNORM'
expect obs.mqueue.poll.events.full 'POLLIN|POLLRDNORM'
expect obs.mqueue.poll.wronly_pollin yes
mq_finish

#!/usr/bin/env bash
# tests/run: sealed
# mqueue_ipcns: the ipcns probe against the kernel.  The checks are
# ipc_namespaces(7) (queues and /proc/sys/fs/mqueue are per namespace)
# and must pass.  Observations: a new IPC namespace starts from the
# compiled-in defaults (mq_init_ns(): queues_max 256, msg_max and
# msg_default 10, msgsize_max and msgsize_default 8192), not from its
# creator's tuned values; an mqueue mount belongs to the namespace of the
# process that mounted it, so an old mount keeps showing the creator's
# queues after unshare and a new one shows the new namespace's.
# Exit 0 pass, 1 fail.
source "$(dirname "$0")/../lib/mqueue-snapshot.sh"

mq_run mqueue.ipcns
expect_status 0
expect_no_failures
for c in queue_invisible_in_new_ns queue_invisible_from_parent same_name_independent \
	 sysctls_isolated; do
	expect "check.mqueue.ipcns.$c" pass
done
expect obs.mqueue.ipcns.fresh.queues_max 256
expect obs.mqueue.ipcns.fresh.msg_max 10
expect obs.mqueue.ipcns.fresh.msgsize_max 8192
expect obs.mqueue.ipcns.fresh.msg_default 10
expect obs.mqueue.ipcns.fresh.msgsize_default 8192
expect obs.mqueue.ipcns.fresh_follows compiled_in
expect obs.mqueue.ipcns.old_mount_after_unshare parent
expect obs.mqueue.ipcns.new_mount_after_unshare child
mq_finish

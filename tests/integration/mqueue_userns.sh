#!/usr/bin/env bash
# tests/run: sealed
# mqueue_userns: the userns probe against the kernel.  Checks
# (getrlimit(2): RLIMIT_MSGQUEUE counts per real uid) must pass.
# Observations and the kernels they are expected from:
#   - root of a user namespace that owns the IPC namespace may write
#     fs.mqueue.* and owns the files there: since the mq_sysctl
#     permissions rework (the history notes guess "~6.4-6.6, unverified";
#     Debian's 6.1.192 already does it), so required from 6.1 on and
#     either answer before;
#   - root of a user namespace that does not own it, and uid 65534, get
#     EACCES (files 0644, owned by the namespace's root);
#   - since 5.14 (6e52a9f0532f, ucounts) a new user namespace counts its
#     uid's queues from 0, and since 5.16 the creator's limit at unshare
#     time still bounds the total; before 5.14 the count was per uid only.
# Without uids to switch to (no CAP_SYS_ADMIN) everything is a skip that
# says so.  Exit 0 pass, 1 fail.
source "$(dirname "$0")/../lib/mqueue-snapshot.sh"

mq_run mqueue.userns
expect_status 0
expect_no_failures
if ! have_uids; then
	for i in owner_root_writes_sysctl sysctl_owner_seen nonowner_root_writes_sysctl \
		 unprivileged_writes_sysctl rlimit_per_uid rlimit_charged_to_real_uid \
		 fresh_userns_counts_from_zero creator_limit_binds; do
		expect_skip_naming "mqueue.userns.$i" "not mapped"
	done
	mq_finish
fi
expect check.mqueue.userns.rlimit_per_uid pass
expect check.mqueue.userns.rlimit_charged_to_real_uid pass
expect obs.mqueue.userns.nonowner_root_writes_sysctl EACCES
expect obs.mqueue.userns.unprivileged_writes_sysctl EACCES
if kver_ge 6 1; then
	expect obs.mqueue.userns.owner_root_writes_sysctl yes
	expect obs.mqueue.userns.sysctl_owner_seen 0
else
	expect_one_of obs.mqueue.userns.owner_root_writes_sysctl yes EACCES EPERM
	expect_one_of obs.mqueue.userns.sysctl_owner_seen 0 65534
fi
if kver_ge 5 16; then
	expect obs.mqueue.userns.fresh_userns_counts_from_zero yes
	expect obs.mqueue.userns.creator_limit_binds yes
elif ! kver_ge 5 14; then
	expect obs.mqueue.userns.fresh_userns_counts_from_zero no
	expect obs.mqueue.userns.creator_limit_binds no
fi
mq_finish

#!/usr/bin/env bash
# tests/run: sealed
# mqueue_names: the names probe against the kernel.  Expected answers:
# POSIX mq_open()/mq_unlink() and mq_open(3)/mq_unlink(3) for the checks;
# for the observations, what glibc (>= 2.3, the slash rule is its own) and
# Linux give: glibc refuses a name without the leading slash (EINVAL) and
# hands the kernel the name after it, which the kernel takes as it is
# (a queue named "aw_noslash"); "/" alone reaches the kernel as "" and
# getname() refuses an empty path (ENOENT); O_WRONLY | O_RDWR is EINVAL;
# mq_open allocates the descriptor before the queue, so EMFILE leaves none.
# Exit 0 pass, 1 fail.
source "$(dirname "$0")/../lib/mqueue-snapshot.sh"

mq_run mqueue.names
expect_status 0
expect_no_failures
for c in eacces_second_slash einval_empty name_max_accepted enametoolong \
	 enoent_without_creat eexist_with_excl emfile_rlimit_nofile excl_exactly_one close_ebadf closed_on_exec \
	 persists_after_close \
	 unlink_while_open unlink_name_gone unlink_enoent unlink_enametoolong; do
	expect "check.mqueue.names.$c" pass
done
expect_unpriv check.mqueue.names.eacces_mode_bits pass
expect_unpriv check.mqueue.names.unlink_eacces pass
expect obs.mqueue.names.no_leading_slash.libc EINVAL
expect obs.mqueue.names.no_leading_slash.syscall success
expect obs.mqueue.names.slash_alone ENOENT
expect obs.mqueue.names.access_mode_3 EINVAL
expect obs.mqueue.names.emfile_leaves_queue no
mq_finish

#!/usr/bin/env bash
# tests/run: sealed
# mqueue_mqueuefs: the mqueuefs probe against the kernel.  The checks are
# mq_overview(7) and POSIX mq_open() (mode and owner of a new queue) and
# must pass.  Observations, from ipc/mqueue.c: a queue's file is
# FILENT_SIZE (80) bytes long and its line "QSIZE:%-10lu NOTIFY:%-5d
# SIGNO:%-5d NOTIFY_PID:%-6d\n" is 60 bytes; the root is 1777 (sticky);
# since 4.2 (de54b9ac2537) QSIZE counts user bytes only: 12 for messages
# of 5 and 7 bytes (3.5 to 4.1 added the kernel's overhead); NOTIFY is
# the sigev_notify value (SIGEV_THREAD 2, SIGNO 0); chmod(2) of the file
# governs mq_open; open(O_CREAT) in the filesystem makes a queue with the
# default attributes (10x8192 in a fresh namespace).  Exit 0 pass, 1 fail.
source "$(dirname "$0")/../lib/mqueue-snapshot.sh"

mq_run mqueue.mqueuefs
expect_status 0
expect_no_failures
for c in mountable queue_is_file mode_from_open contents_format notify_fields unlink_through_fs; do
	expect "check.mqueue.mqueuefs.$c" pass
done
expect_unpriv check.mqueue.mqueuefs.owner_creator pass
expect_unpriv obs.mqueue.mqueuefs.chmod_applies yes
expect obs.mqueue.mqueuefs.file_size 80
expect obs.mqueue.mqueuefs.dir_mode 1777
expect obs.mqueue.mqueuefs.contents_length 60
expect obs.mqueue.mqueuefs.contents.idle 'QSIZE:12 NOTIFY:0 SIGNO:0 NOTIFY_PID:0'
expect_match obs.mqueue.mqueuefs.contents.signal '^QSIZE:0 NOTIFY:0 SIGNO:10 NOTIFY_PID:[1-9][0-9]*$'
expect_match obs.mqueue.mqueuefs.contents.thread '^QSIZE:0 NOTIFY:2 SIGNO:0 NOTIFY_PID:[1-9][0-9]*$'
if kver_ge 4 2; then
	expect obs.mqueue.mqueuefs.qsize 12
	expect obs.mqueue.mqueuefs.qsize_counts user_bytes
else
	expect_match obs.mqueue.mqueuefs.qsize_counts '^user_bytes\+[0-9]+$'
fi
expect obs.mqueue.mqueuefs.create_through_fs 'queue 10x8192'
mq_finish

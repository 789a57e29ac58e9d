#!/usr/bin/env bash
# tests/run: sealed
# mqueue_notify: the notify and notifyreg probes against the kernel.  The
# checks are POSIX mq_notify() and mq_notify(3) and must pass (si_uid
# needs a second uid to send from; without one it is a skip saying so).
# Observations, from ipc/mqueue.c: a second registration, even by the
# owner itself, is EBUSY; mq_notify(NULL) from another process is ignored
# (only the owner's removes it); a message arriving removes a SIGEV_NONE
# registration as it does any other; sigev_signo 0 is accepted (and since
# 5.7 nothing is sent for it); closing any descriptor of the queue removes
# the closing process's registration (mqueue_flush_file() looks at the
# process, not at the descriptor registered through).  Exit 0 pass, 1 fail.
source "$(dirname "$0")/../lib/mqueue-snapshot.sh"

mq_run mqueue.notify mqueue.notifyreg
expect_status 0
expect_no_failures
for c in signal_delivered si_code_mesgq si_value si_pid_sender only_empty_to_nonempty \
	 not_sent_to_blocked_receiver registration_survives_blocked_receiver one_shot; do
	expect "check.mqueue.notify.$c" pass
done
expect_unpriv check.mqueue.notify.si_uid_sender_real pass
for c in ebusy_other_process owner_exit_unregisters close_unregisters unregister_null sigev_none_no_signal \
	 einval_bad_sigevent ebadf sigev_thread; do
	expect "check.mqueue.notifyreg.$c" pass
done
expect obs.mqueue.notifyreg.ebusy_same_process EBUSY
expect obs.mqueue.notifyreg.unregister_by_other ignored
expect obs.mqueue.notifyreg.sigev_none_consumed yes
expect obs.mqueue.notifyreg.close_other_fd_unregisters yes
expect obs.mqueue.notifyreg.signo_zero accepted
mq_finish

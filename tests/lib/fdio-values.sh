# shellcheck shell=bash
# The fdio family's values on the kernels it was run on (6.18 here, the
# Debian cloud kernels 6.1.192 and 6.12.118 in QEMU), for
# tests/integration/fdio_values.sh and vm_fdio.sh.  Source it after
# dirent-common.sh (snap[], expect, report).
#
#   FDIO_SAME       KEY VALUE pairs every kernel gives
#   FDIO_CHANGED    KEY OLD NEW triples: OLD on 6.1, NEW on 6.12 and later
#   fdio_expect_same                  expect every FDIO_SAME pair
#   fdio_expect_changed old|new       expect the OLD or NEW of each triple
#   fdio_expect_no_failures           no fdio check or observation failed
#                                     or broke (fail, error, timeout)
FDIO_SAME=(
	check.fdio.pipe_epollet.second_write_wakes pass
	obs.fdio.pipe_epollet.pipe_sequence 0,1,0,1,0,1
	obs.fdio.pipe_epollet.socket_sequence 0,1,0,1,0,1
	obs.fdio.pipe_epollet.writer_sequence 1,0,0,0
	obs.fdio.pipe_soft_limit.size 8192
	check.fdio.pipe_soft_limit.min_two_pages pass
	obs.fdio.pipe_soft_limit.write_after_partial_read 1
	check.fdio.pipe_soft_limit.partial_read_frees_room pass
	obs.fdio.pipe_soft_limit.grow EPERM
	obs.fdio.pipe_soft_limit.size_after_release 65536
	obs.fdio.pipe_setsz.rounding '0:4096 1:4096 4095:4096 4096:4096 4097:8192 12288:16384 65536:65536'
	obs.fdio.pipe_setsz.at_max pipe-max-size
	obs.fdio.pipe_setsz.above_max EPERM
	obs.fdio.pipe_setsz.at_2g EPERM
	obs.fdio.pipe_setsz.above_2g EINVAL
	obs.fdio.pipe_setsz.busy EBUSY
	obs.fdio.pipe_setsz.merged 4096
	obs.fdio.pipe_setsz.not_pipe EBADF
	check.fdio.pipe_setsz.getsz_follows pass
	check.fdio.pipe_setsz.eperm_above_max pass
	check.fdio.pipe_setsz.ebusy_below_content pass
	check.fdio.splice.tty_splice_read pass
	check.fdio.splice.tty_splice_write pass
	check.fdio.splice.tty_sendfile pass
	obs.fdio.splice.pty_master_to_pipe 6
	obs.fdio.splice.pty_slave_to_pipe 6
	obs.fdio.splice.pty_empty_to_pipe EAGAIN
	obs.fdio.splice.pipe_to_pty_slave 4
	obs.fdio.splice.pipe_to_pty_master 4
	obs.fdio.splice.pty_offset EINVAL
	obs.fdio.splice.file_to_pty EINVAL
	obs.fdio.splice.pipe_to_pipe 4
	obs.fdio.splice.pipe_to_same_pipe EINVAL
	obs.fdio.splice.unix_to_pipe 4
	obs.fdio.splice.pipe_to_unix 4
	obs.fdio.splice.eventfd_to_pipe EINVAL
	obs.fdio.splice.proc_status_to_pipe EINVAL
	obs.fdio.splice.proc_ostype_to_pipe whole
	obs.fdio.splice.proc_version_to_pipe whole
	obs.fdio.splice.sys_online_to_pipe whole
	obs.fdio.splice.sendfile.file_to_pty 9
	obs.fdio.splice.sendfile.pty_to_pipe 2
	obs.fdio.splice.sendfile.pty_to_file EINVAL
	obs.fdio.splice.sendfile.pty_offset ESPIPE
	obs.fdio.splice.sendfile.file_to_pipe 9
	obs.fdio.splice.sendfile.file_to_unix 9
	obs.fdio.splice.sendfile.file_to_null 9
	obs.fdio.splice.sendfile.pipe_to_file EINVAL
	obs.fdio.splice.sendfile.unix_to_file EINVAL
	obs.fdio.splice.sendfile.proc_status_to_file EINVAL
	obs.fdio.splice.sendfile.proc_ostype_to_file whole
	obs.fdio.splice.sendfile.sys_online_to_file whole
	check.fdio.epoll.wakeup_dropped pass
	obs.fdio.epoll.wakeup.add 19
	obs.fdio.epoll.wakeup.mod 80000019
	check.fdio.epoll.exclusive_einval pass
	obs.fdio.epoll.exclusive.in 10000019
	obs.fdio.epoll.exclusive.alone 10000018
	obs.fdio.epoll.exclusive.all_ok 9000001d
	obs.fdio.epoll.exclusive.oneshot EINVAL
	obs.fdio.epoll.exclusive.rdhup EINVAL
	obs.fdio.epoll.exclusive.pri EINVAL
	obs.fdio.epoll.exclusive.epoll_target EINVAL
	obs.fdio.epoll.exclusive.mod_to EINVAL
	obs.fdio.epoll.exclusive.mod_from EINVAL
	obs.fdio.epoll.exclusive.del 0
	check.fdio.epoll.ctl_errnos pass
	obs.fdio.epoll.ctl.regular_file EPERM
	obs.fdio.epoll.ctl.not_epoll EINVAL
	obs.fdio.epoll.ctl.self EINVAL
	obs.fdio.epoll.ctl.loop ELOOP
	obs.fdio.epoll.ctl.bad_op EINVAL
	obs.fdio.epoll.ctl.mod_missing ENOENT
	obs.fdio.epoll.ctl.add_twice EEXIST
	obs.fdio.epoll.pwait2 0
	obs.fdio.epoll.pwait2.bad_nsec EINVAL
	obs.fdio.epoll.pwait2.maxevents_0 EINVAL
	check.fdio.eventfd.sizes_documented pass
	check.fdio.eventfd.limits_documented pass
	check.fdio.eventfd.semaphore pass
	obs.fdio.eventfd.read_4 EINVAL
	obs.fdio.eventfd.read_empty EAGAIN
	obs.fdio.eventfd.read_16 8
	obs.fdio.eventfd.readv_4_4 8
	obs.fdio.eventfd.write_4 EINVAL
	obs.fdio.eventfd.writev_4_4 EINVAL
	obs.fdio.eventfd.write_max EINVAL
	obs.fdio.eventfd.counter_max fffffffffffffffe
	obs.fdio.eventfd.write_over_max EAGAIN
	obs.fdio.eventfd.bad_flag EINVAL
	check.fdio.timerfd.sizes_documented pass
	obs.fdio.timerfd.read_4 EINVAL
	obs.fdio.timerfd.read_unarmed EAGAIN
	obs.fdio.timerfd.write EINVAL
	obs.fdio.timerfd.expirations 1
	obs.fdio.timerfd.read_consumed EAGAIN
	obs.fdio.timerfd.bad_flags EINVAL
	obs.fdio.timerfd.bad_clock EINVAL
	check.fdio.signalfd.sizes_documented pass
	obs.fdio.signalfd.record_size 128
	obs.fdio.signalfd.read_127 EINVAL
	obs.fdio.signalfd.read_empty EAGAIN
	obs.fdio.signalfd.read_200 128
	obs.fdio.signalfd.read_256 128
	obs.fdio.signalfd.write EINVAL
	obs.fdio.signalfd.bad_flags EINVAL
	check.fdio.copy_file_range.same_fs_copies pass
	check.fdio.copy_file_range.cross_fs_exdev pass
	check.fdio.copy_file_range.pseudo_exdev pass
)

FDIO_CHANGED=(
	obs.fdio.eventfd.write_16 8 EINVAL
	obs.fdio.eventfd.fdinfo_keys eventfd-count,eventfd-id eventfd-count,eventfd-id,eventfd-semaphore
	obs.fdio.timerfd.readv_4_4 EINVAL 8
	obs.fdio.signalfd.readv_64_64 EINVAL 128
	obs.fdio.pipe_setsz.high_bits EINVAL 4096
	obs.fdio.epoll.ioctl_getparams ENOTTY 0
	obs.fdio.splice.zero_to_pipe EINVAL 100
	obs.fdio.splice.sendfile.zero_to_pipe EINVAL 100
)

fdio_expect_same() { expect_pairs FDIO_SAME; }
fdio_expect_changed() { expect_triples FDIO_CHANGED "$1"; } # old|new

# The copy pairs: each filesystem to itself copies 10000 bytes, every
# other pair and every pseudo file is EXDEV.  A filesystem this machine
# lacks (tests/lib/machine) must be unobserved instead.
fdio_expect_copies() {
	local fs=(tmpfs tmpfs2 ext4 xfs btrfs overlay) src dst want key
	for src in "${fs[@]}" proc_status proc_version proc_ostype sys_online; do
		for dst in "${fs[@]}"; do
			key=fdio.copy_file_range.${src}_to_$dst
			if ! machine_fs "${dst%2}" || { [[ $src != *_* ]] && ! machine_fs "${src%2}"; }; then
				expect_match "unobserved.$key" '^skip: '
				continue
			fi
			want=EXDEV
			[[ $src == "$dst" ]] && want=10000
			expect "obs.$key" "$want"
		done
	done
}

fdio_expect_no_failures() { expect_no_failures fdio "$1"; } # snapshot

# shellcheck shell=bash
# The time family's values on the kernels it was run on (6.18 here, the
# Debian cloud kernels 6.1.192 and 6.12.118 in QEMU), for
# tests/integration/time_values.sh and vm_time.sh.  Source it after
# dirent-common.sh (snap[], expect, report).
#
#   TIME_SAME       KEY VALUE pairs every kernel gives (6.1 and later, any
#                   machine: nothing here follows an RTC, HZ or the
#                   clocksource)
#   TIME_CHANGED    KEY OLD NEW WHY quadruples: OLD on 6.1, NEW on 6.12
#                   and later, and why ("<absent>": no such key)
#   time_expect_same                  expect every TIME_SAME pair
#   time_expect_changed old|new       expect the OLD or NEW of each
#   time_expect_no_failures SNAPSHOT  no time item failed or broke
TIME_SAME=(
	check.time.clocks.monotonic_forward pass
	check.time.clocks.monotonic_raw_forward pass
	check.time.clocks.monotonic_coarse_forward pass
	check.time.clocks.boottime_not_behind pass
	obs.time.clocks.boottime_minus_monotonic 'under 1 s'
	obs.time.clocks.clock.realtime.gettime ok
	obs.time.clocks.clock.realtime.getres 1
	obs.time.clocks.clock.realtime.timerfd ok
	obs.time.clocks.clock.realtime.nanosleep_abs ok
	obs.time.clocks.clock.monotonic.gettime ok
	obs.time.clocks.clock.monotonic.getres 1
	obs.time.clocks.clock.monotonic.timerfd ok
	obs.time.clocks.clock.monotonic.nanosleep_abs ok
	obs.time.clocks.clock.process_cputime.gettime ok
	obs.time.clocks.clock.process_cputime.timerfd EINVAL
	obs.time.clocks.clock.process_cputime.nanosleep_abs ok
	obs.time.clocks.clock.thread_cputime.gettime ok
	obs.time.clocks.clock.thread_cputime.timerfd EINVAL
	obs.time.clocks.clock.thread_cputime.nanosleep_abs EINVAL
	obs.time.clocks.clock.monotonic_raw.gettime ok
	obs.time.clocks.clock.monotonic_raw.timerfd EINVAL
	obs.time.clocks.clock.monotonic_raw.nanosleep_abs EOPNOTSUPP
	obs.time.clocks.clock.realtime_coarse.nanosleep_abs EOPNOTSUPP
	obs.time.clocks.clock.monotonic_coarse.timerfd EINVAL
	obs.time.clocks.clock.boottime.gettime ok
	obs.time.clocks.clock.boottime.timerfd ok
	obs.time.clocks.clock.tai.gettime ok
	obs.time.clocks.clock.tai.timerfd EINVAL
	obs.time.clocks.clock.sgi_cycle.gettime EINVAL
	obs.time.clocks.clock.12.gettime EINVAL
	obs.time.clocks.clock.15.getres EINVAL
	obs.time.clocks.cpuclock.self_process ok
	obs.time.clocks.cpuclock.self_thread ok
	obs.time.clocks.cpuclock.other_thread ok
	obs.time.clocks.cpuclock.child_process ok
	obs.time.clocks.cpuclock.child_thread EINVAL
	obs.time.clocks.cpuclock.reaped EINVAL
	obs.time.timers.ids.first 0,1,2
	obs.time.timers.ids.after_delete 3
	obs.time.timers.ids.child 0
	obs.time.timers.ids.after_exec 3
	obs.time.timers.limit 16
	obs.time.timers.limit.errno EAGAIN
	obs.time.timers.thread_id.self ok
	obs.time.timers.thread_id.other_process EINVAL
	check.time.timers.overrun_counted pass
	check.time.timers.thread_id_delivered pass
	check.time.timers.thread_id_other_refused pass
	obs.time.vdso.image 'ELF64 machine 62 type 3'
	obs.time.vdso.versions LINUX_2.6
	obs.time.vdso.sym.__vdso_clock_gettime LINUX_2.6
	obs.time.vdso.sym.__vdso_gettimeofday LINUX_2.6
	obs.time.vdso.sym.__vdso_time LINUX_2.6
	obs.time.vdso.sym.__vdso_getcpu LINUX_2.6
	obs.time.vdso.sym.__vdso_clock_getres LINUX_2.6
	obs.time.vdso.served.clock_gettime.realtime_coarse vdso
	obs.time.vdso.served.clock_gettime.monotonic_coarse vdso
	obs.time.vdso.served.clock_gettime.process_cputime syscall
	obs.time.vdso.served.clock_gettime.thread_cputime syscall
	obs.time.vdso.served.clock_gettime.15 syscall
	obs.time.vdso.served.clock_getres.process_cputime syscall
	obs.time.vdso.served.time vdso
	check.time.vdso.clock_gettime_agrees pass
	obs.time.timens.unshare ok
	obs.time.timens.offsets.initial 'monotonic           0         0;boottime            0         0'
	obs.time.timens.offsets.written 'monotonic         100         0;boottime          200         0'
	obs.time.timens.cannot_offset 0:EINVAL,2:EINVAL,3:EINVAL,4:EINVAL,5:EINVAL,6:EINVAL,8:EINVAL,9:EINVAL,10:EINVAL,11:EINVAL
	obs.time.timens.child.monotonic 100
	obs.time.timens.child.boottime 200
	obs.time.timens.child.realtime 0
	obs.time.timens.after_enter_write EACCES
	check.time.timens.only_monotonic_boottime pass
	check.time.timens.vdso_agrees pass
	check.time.timens.fixed_after_enter pass
	obs.time.getrandom.flags.nonblock 16
	obs.time.getrandom.flags.none 16
	obs.time.getrandom.flags.random 16
	obs.time.getrandom.flags.insecure 16
	obs.time.getrandom.flags.insecure_nonblock 16
	obs.time.getrandom.flags.insecure_random EINVAL
	obs.time.getrandom.flags.unknown_bit EINVAL
	obs.time.getrandom.flags.high_bit EINVAL
	obs.time.getrandom.large 1048576
	obs.time.getrandom.urandom_read 16
	obs.time.getrandom.knob.poolsize 256
	obs.time.getrandom.knob.entropy_avail full
	obs.time.getrandom.knob.read_wakeup_threshold absent
	check.time.getrandom.insecure_random_refused pass
	check.time.getrandom.unknown_refused pass
	obs.time.adjtimex.ss_read ok
	obs.time.adjtimex.tick 10000
	obs.time.adjtimex.clock_adjtime.realtime ok
	obs.time.adjtimex.clock_adjtime.monotonic EOPNOTSUPP
	obs.time.adjtimex.clock_adjtime.boottime EOPNOTSUPP
	obs.time.adjtimex.clock_adjtime.process_cputime EOPNOTSUPP
	obs.time.adjtimex.clock_adjtime.bad_id EINVAL
)

# Each difference 6.1 -> 6.12 the VM test finds, with its explanation.
TIME_CHANGED=(
	obs.time.vdso.sym.__vdso_getrandom absent LINUX_2.6
	'getrandom() in the vDSO: 4ad10a5f5f78 (generic) and 33385150ac45 (x86), 6.11'
	obs.time.vdso.sym.getrandom '<absent>' LINUX_2.6
	'its unprefixed alias, which the pattern item sym.* reports (added, not changed)'
	obs.time.vdso.getrandom.params 'no symbol' 'state 144 B, prot 0x3, flags 0x28'
	'vgetrandom state: 144 bytes mapped MAP_DROPPABLE (9651fcedf7b9, 6.11) | MAP_ANONYMOUS'
	obs.time.vdso.served.getrandom 'no symbol' vdso
	'the second getrandom of a state answers without a system call'
	obs.time.compat32.vdso.sym.__vdso_getcpu absent LINUX_2.6
	'the 32-bit vDSO got getcpu in 6.3 (92d33063c081)'
)

time_expect_same() {
	local i
	for ((i = 0; i < ${#TIME_SAME[@]}; i += 2)); do
		expect "${TIME_SAME[i]}" "${TIME_SAME[i + 1]}"
	done
}

time_expect_changed() { # old|new
	local i off=1
	[[ $1 == new ]] && off=2
	for ((i = 0; i < ${#TIME_CHANGED[@]}; i += 4)); do
		expect "${TIME_CHANGED[i]}" "${TIME_CHANGED[i + off]}"
	done
}

time_expect_no_failures() { # snapshot
	local bad
	bad=$(grep -E '^(check|obs|unobserved|probe)\.time\..* = (fail|error|timeout)' "$1")
	[[ -z $bad ]] && report ok "no time item failed, broke or timed out" ||
		report bad "time items failed or broke:"$'\n'"$bad"
}

#!/usr/bin/env bash
# tests/run: sealed
# vm_time: the time family (only it) on Debian's 6.1 and 6.12 cloud
# kernels in QEMU, one abiwatch matrix, as full root with every capability
# and i386 execution.  In each guest:
#   - no time item fails or breaks, and env.i386 = yes;
#   - every value tests/lib/time-values.sh lists as the same on all
#     kernels is that value;
#   - the items that changed after 6.1 have their old value on 6.1 and
#     their new one on 6.12: the vDSO's getrandom (6.11) with its state
#     parameters, and the 32-bit vDSO's getcpu (6.3);
#   - PR_TIMER_CREATE_RESTORE_IDS is EINVAL on both (it came in 6.15);
#   - the guest-only probes ran: settimeofday one day ahead moved
#     CLOCK_REALTIME by 86400 s, not MONOTONIC, and cancelled a
#     TFD_TIMER_CANCEL_ON_SET timerfd; init's first getrandom is recorded;
#   - the 32-bit helper: time64 calls, the compat sigevent, the 32-bit
#     vDSO, timer ids after an exec.
# And the diff matrix wrote between them names exactly the changed items,
# each explained in tests/lib/time-values.sh (printed here), as four
# objects whose interfaces appeared.
set -u
cd "$(dirname "$0")/../.." || exit 1
. tests/lib/dirent-common.sh
. tests/lib/time-values.sh

. tests/lib/vm-kernels.sh
[[ -x build/m32/abiwatch-time-m32 ]] || skip "no build/m32/abiwatch-time-m32 (make m32)"
vm_kernels 6.1 6.12
tmp=$(mktemp -d "${TMPDIR:-/tmp}/abiwatch-vmtime.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT

start=$(date +%s)
"$abiwatch" matrix -q -o "$tmp/m" "${debs[@]}" -- time >"$tmp/out" 2>&1
rc=$?
echo "# matrix of 2 kernels took $(($(date +%s) - start)) s"
# Exit 1 is matrix's "the kernels differ", which they do here.
[[ $rc == 0 || $rc == 1 ]] && report ok "matrix exits $rc" || { report bad "matrix exits $rc"; cat "$tmp/out"; }

guests=0
for s in "$tmp"/m/*.snapshot; do
	[[ -f $s ]] || continue
	guests=$((guests + 1))
	load_snapshot "$s"
	release=${snap[env.kernel.release]-?}
	echo "# $release (clocksource ${snap[env.clocksource]-?})"
	expect env.i386 yes
	time_expect_no_failures "$s"
	time_expect_same
	case $release in
	6.1.*) time_expect_changed old ;;
	6.12.*) time_expect_changed new ;;
	*) report bad "unexpected guest kernel $release" ;;
	esac
	expect obs.time.timers.restore_ids EINVAL
	expect obs.time.timers.restore_ids.create_42 EINVAL
	expect obs.time.settime.realtime_jump 86400
	expect check.time.settime.monotonic_unaffected pass
	expect check.time.settime.cancel_on_set pass
	expect_match obs.time.boot_pool.at_init '^(ok|EAGAIN)$'
	expect_match obs.time.boot_pool.ready_after '^(at once|before the run|not by the run)$'
	expect obs.time.compat32.clock_gettime ok
	expect obs.time.compat32.clock_gettime64 ok
	expect obs.time.compat32.clock_getres_time64 1
	expect check.time.compat32.time64_agrees pass
	expect obs.time.compat32.timer_create.thread_id ok
	expect check.time.compat32.sigevent_delivered pass
	expect obs.time.compat32.after_exec_first_id 3
	expect obs.time.compat32.vdso.image 'ELF32 machine 3 type 3'
	expect obs.time.compat32.vdso.sym.__vdso_clock_gettime64 LINUX_2.6
	expect obs.time.compat32.vdso.sym.__kernel_vsyscall LINUX_2.5
	expect obs.time.compat32.vdso.sym.__vdso_getrandom absent
done
((guests == 2)) && report ok "a snapshot of each guest" || report bad "$guests guest snapshots, expected 2"

# The diff between the two guests: the changed items and nothing else.
diffs=("$tmp"/m/*.diff)
if [[ -f ${diffs[0]} ]]; then
	# Each difference is an interface that appeared (.absent), grouped by
	# object: 4 objects, nothing that worked breaks.
	summary=$(head -n 1 "${diffs[0]}")
	[[ $summary == "4 kernel changes, 0 new failures (time 4 appeared); "* ]] &&
		report ok "the diff's summary: $summary" || report bad "the diff's summary: $summary"
	diffs[0]=$(verbose_diff "${diffs[0]}") # an item's line, also in an object of several
	got=$(sed -n 's/^ *\(changed\|added\) *\(obs\.[^: ]*\)[: ].*/\2/p' "${diffs[0]}" | sort)
	want=$(for ((i = 0; i < ${#TIME_CHANGED[@]}; i += 4)); do echo "${TIME_CHANGED[i]}"; done | sort)
	[[ $got == "$want" ]] && report ok "the 6.1 -> 6.12 diff names exactly the $((${#TIME_CHANGED[@]} / 4)) changed items" ||
		report bad "the 6.1 -> 6.12 diff names:"$'\n'"$got"$'\n'"expected:"$'\n'"$want"
	for ((i = 0; i < ${#TIME_CHANGED[@]}; i += 4)); do
		echo "#   ${TIME_CHANGED[i]}: ${TIME_CHANGED[i + 1]} -> ${TIME_CHANGED[i + 2]}: ${TIME_CHANGED[i + 3]}"
	done
	others=$(grep -cE '^ *(removed|regressed|recovered|skipped|unskipped) ' "${diffs[0]}")
	((others == 0)) && report ok "no other kind of difference" || { report bad "$others other differences"; cat "${diffs[0]}"; }
else
	report bad "matrix wrote no diff"
fi
finish

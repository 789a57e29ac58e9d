#!/usr/bin/env bash
# kill_phases: stop abiwatch at the moments where most could be left
# behind, and prove the host unchanged each time (tests/lib/host-state):
#
#   mkfs   a dirent probe's mkfs.ext4 is running (on the probe's image)
#   loop   a dirent probe is inside ioctl(LOOP_CTL_GET_FREE/LOOP_CONFIGURE)
#   fuse   a probe has cookiefs mounted (the selftest probe fuse_hang,
#          blocked on a FUSE mount of its own that never answers)
#   vm     QEMU is booting a Debian cloud kernel (abiwatch vm)
#
# each with SIGKILL and SIGTERM to abiwatch, SIGINT to its process group
# (a terminal's ^C), and a timeout: the runner's deadline (--timeout, or
# fuse_hang's own 5 s) or the VM's (--timeout of abiwatch vm).  The mkfs
# and loop moments are held open with strace, which delays the second
# ioctl(2) of each process of the run by KILL_PHASE_HOLD_S (default 1.5;
# twice that in the timeout round): mkfs's early BLKGETSIZE64 and the
# probe's LOOP_CONFIGURE (the probe's first is LOOP_CTL_GET_FREE), so a
# kill lands inside them for certain.  A deadline is placed from when the
# phase came last; where a busy machine's pace changed so that it misses
# the phase, the round is tried again (3 tries), timed anew.
# A phase this machine cannot reach (no strace, no mkfs.ext4, no cookiefs,
# no QEMU or kernel package) is skipped with the reason; the others run.
# KILL_PHASES (default "mkfs loop fuse vm") picks some.  After each kill,
# the kernel's asynchronous teardown is given up to KILL_PHASE_SETTLE
# (default 20) fingerprints until one matches the first.  The waits for a
# phase to come are for the event (the phase, or the run's end), with no
# time limit: tests/run's guard of the script turns a hang into a failure.
# Exit status: 0 pass, 1 fail, 4 all skipped.
set -u
export LC_ALL=C
cd "$(dirname "$0")/../.." || exit 1
root=$PWD
host_state=$root/tests/lib/host-state
abiwatch=${ABIWATCH:-./abiwatch}
selftest=${ABIWATCH_SELFTEST:-build/abiwatch-selftest}
cookiefs=$root/tools/cookiefs/cookiefs
phases=${KILL_PHASES:-mkfs loop fuse vm}
hold_s=${KILL_PHASE_HOLD_S:-1.5}
settle=${KILL_PHASE_SETTLE:-20}
export ABIWATCH_HELPER_DIR=${ABIWATCH_HELPER_DIR:-$root/build/m32}

skip() { echo "SKIP: $*"; exit 4; }
die() { echo "FAIL: $*"; exit 1; }
[[ -x $abiwatch ]] || die "no $abiwatch (make)"
[[ $settle =~ ^[1-9][0-9]*$ ]] || die "KILL_PHASE_SETTLE takes a number > 0"
why=$("$host_state" --missing) || skip "$why"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/awphase.XXXXXX") || die "mktemp"
pid=
cleanup() {
	[[ -n $pid ]] && { kill -KILL -- "-$pid" 2>/dev/null; wait "$pid" 2>/dev/null; }
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 1' INT TERM HUP
mkdir "$tmp/out" "$tmp/tmpdir"
tag=AW_PHASE_TAG=$$.$RANDOM
export TMPDIR=$tmp/tmpdir
export HOST_STATE_TAG=$tag HOST_STATE_PID=$$ HOST_STATE_TMPDIRS="$tmp/tmpdir $tmp/out"
set -m   # each run a process group of its own, SIGINT not ignored

# Milliseconds: only to place the deadline of the timeout rounds.
now_ms() { local t=${EPOCHREALTIME/./}; echo $((10#$t / 1000)); }
"$host_state" >"$tmp/before" 2>&1
declare -A done_by
kills=0 skipped_phases=() failures=0 settled_max=0

# Up to $settle fingerprints (each one real work, a short pause between)
# until one matches the first; how many were needed goes to $settled.
check_host() { # what
	for ((settled = 1; settled <= settle; settled++)); do
		"$host_state" >"$tmp/after" 2>&1
		if cmp -s "$tmp/before" "$tmp/after"; then
			((settled > settled_max)) && settled_max=$settled
			return 0
		fi
		sleep 0.05
	done
	echo "FAIL $1: the host changed (exit $status; $settle fingerprints):"
	diff -u "$tmp/before" "$tmp/after" | sed 's/^/    /'
	echo "    (output: $(tr '\n' ' ' <"$tmp/run.out" | cut -c1-400))"
	failures=$((failures + 1))
	return 1
}

# Tagged processes: "PID COMM" lines.
tagged() {
	grep -s -l -z -x -F -- "$tag" /proc/[0-9]*/environ | while read -r f; do
		f=${f%/environ}
		echo "${f#/proc/} $(cat "$f/comm" 2>/dev/null)"
	done
}

# Whether the phase is under way now.
in_phase() { # phase
	local p comm s a b rest
	while read -r p comm; do
		case $1 in
		mkfs) [[ $comm == mkfs.* ]] && return 0 ;;
		loop) read -r s a b rest 2>/dev/null <"/proc/$p/syscall" || continue
		      [[ $s == 16 && ( $b == 0x4c0a || $b == 0x4c82 ) ]] && return 0 ;;
		fuse) [[ $comm == cookiefs ]] && grep -q ' - fuse' "/proc/$p/mountinfo" 2>/dev/null &&
		      return 0 ;;
		vm) [[ $comm == qemu-system* ]] && return 0 ;;
		esac
	done < <(tagged)
	return 1
}

# The abiwatch of the run: the job itself, or strace's child.
target() {
	if [[ $(cat "/proc/$pid/comm" 2>/dev/null) == strace ]]; then
		local kids
		read -r kids _ <"/proc/$pid/task/$pid/children" 2>/dev/null
		echo "${kids:-$pid}"
	else
		echo "$pid"
	fi
}

start() { # phase [timeout-seconds [hold-seconds]]
	local t=${2:-} hold=${3:-$hold_s}
	case $1 in
	mkfs|loop)
		# LeakSanitizer cannot work under ptrace (an ASan build).
		env "$tag" ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" strace -f -qq -o /dev/null -e trace=ioctl \
			-e inject=ioctl:delay_enter=$(awk -v s="$hold" 'BEGIN { print int(s * 1000000) }'):when=2 \
			"$abiwatch" run dirent --fs ext4 --entries 2000 ${t:+--timeout "$t"} \
			-o "$tmp/out/snap" >"$tmp/run.out" 2>&1 & ;;
	fuse)
		env "$tag" ABIWATCH_COOKIEFS="$cookiefs" "$selftest" run selftest.fuse_hang \
			--force -o "$tmp/out/snap" >"$tmp/run.out" 2>&1 & ;;
	vm)
		env "$tag" "$abiwatch" vm --deb "$deb" --timeout "${t:-120}" -o "$tmp/out/snap" \
			-- mqueue >"$tmp/run.out" 2>&1 & ;;
	esac
	pid=$!
	t_start=$(now_ms)
}

# Wait for the phase: true when it came, false when the run ended first.
wait_phase() { # phase
	while kill -0 "$pid" 2>/dev/null; do
		in_phase "$1" && return 0
		sleep 0.02
	done
	in_phase "$1"
}

reap() { wait "$pid" 2>/dev/null; status=$?; pid=; }

phase_unavailable() { # phase: the reason, or nothing
	case $1 in
	mkfs|loop)
		command -v strace >/dev/null || { echo "no strace"; return; }
		strace -o /dev/null true 2>/dev/null || { echo "strace cannot trace here"; return; }
		[[ -n $(command -v mkfs.ext4 || ls /sbin/mkfs.ext4 /usr/sbin/mkfs.ext4 2>/dev/null) ]] ||
			echo "no mkfs.ext4" ;;
	fuse)
		[[ -x $selftest ]] || { echo "no $selftest (make selftest)"; return; }
		[[ -x $cookiefs ]] || { echo "no $cookiefs (make tools)"; return; }
		[[ -e /dev/fuse ]] || echo "no /dev/fuse" ;;
	vm)
		command -v qemu-system-x86_64 >/dev/null || { echo "no qemu-system-x86_64"; return; }
		[[ -x build/static/abiwatch && -x build/vm/abiwatch-init ]] ||
			{ echo "no build/static/abiwatch or build/vm/abiwatch-init (make vm)"; return; }
		deb=$(tests/lib/debian-kernel "${VM_TEST_SERIES:-6.12}") || echo "no kernel: $deb" ;;
	esac
}

# A SIGINT ignored here (a background job of a shell without job control)
# is ignored by abiwatch too, as it should be: no ^C round then.
hows="KILL TERM INT timeout"
if (( (16#$(awk '/^SigIgn:/ { print $2 }' /proc/$$/status) >> 1) & 1 )); then
	echo "# SIGINT is ignored in this process, so in abiwatch too: no SIGINT rounds"
	hows="KILL TERM timeout"
fi

# The deadline of a timeout round of mkfs or loop: half-way into the held
# ioctl, from when the phase was last reached (the KILL round's, or the
# previous try's), the ioctl held for twice KILL_PHASE_HOLD_S.  For loop,
# mkfs's hold comes first and is that much longer too.
timeout_hold() { awk -v h="$hold_s" 'BEGIN { print 2 * h }'; }
timeout_deadline() { # phase
	awk -v r="$reached_ms" -v h="$hold_s" -v H="$(timeout_hold)" -v loop=$([[ $1 == loop ]] && echo 1 || echo 0) \
		'BEGIN { printf "%.3f", r / 1000 + (loop ? H - h : 0) + H / 2 }'
}

# One round: start a run, wait for the phase, stop it the way named, and
# check the host.  False only for a timeout round whose deadline missed
# the phase on a try that is not the last (the machine's pace changed
# since the phase was last timed): the caller tries again, timed anew.
deadline_round() { # phase how try tries
	local phase=$1 how=$2 try=$3 tries=$4 t= hold= landed=no
	if [[ $how == timeout ]]; then
		case $phase in
		mkfs|loop) t=$(timeout_deadline "$phase") hold=$(timeout_hold) ;;
		fuse) t= ;;          # fuse_hang's own timeout, 5 s
		vm) t=2 ;;           # from QEMU's start: mid-boot under TCG
		esac
	fi
	start "$phase" "$t" "$hold"
	if ! wait_phase "$phase"; then
		reap
		check_host "$phase/$how (try $try)" || return 0
		((try < tries)) && { echo "# $phase/$how: the deadline $t s came before the phase; again"; return 1; }
		echo "FAIL $phase/$how: the run never reached the phase (exit $status):" \
		     "$(tail -n 5 "$tmp/run.out" | tr '\n' ' ' | cut -c1-300)"
		failures=$((failures + 1))
		return 0
	fi
	[[ $how == KILL || $how == timeout ]] && reached_ms=$(( $(now_ms) - t_start ))
	# QEMU: somewhere in the boot, not only at its very start.
	[[ $phase == vm && $how != timeout ]] && sleep "0.$((RANDOM % 10))"
	case $how in
	KILL) kill -KILL "$(target)" ;;
	TERM) kill -TERM "$(target)" ;;
	INT) kill -INT -- "-$pid" ;;
	timeout) ;;
	esac
	if [[ $how == timeout ]]; then
		# The phase must still be under way when the deadline comes.
		while kill -0 "$pid" 2>/dev/null && in_phase "$phase"; do sleep 0.02; done
		reap
		grep -qE 'no result within|timed out|TIMEOUT|timeout' "$tmp/run.out" "$tmp/out/snap" \
			2>/dev/null && landed=yes
	else
		reap
		case $status in 137|143|130) landed=yes ;; esac
	fi
	check_host "$phase/$how${t:+ (try $try)}" || return 0
	if [[ $landed != yes ]]; then
		((try < tries)) && { echo "# $phase/$how: the phase ended before the deadline $t s; again"; return 1; }
		echo "FAIL $phase/$how: did not end by the $how (exit $status):" \
		     "$(tail -n 3 "$tmp/run.out" | tr '\n' ' ' | cut -c1-300)"
		failures=$((failures + 1))
		return 0
	fi
	kills=$((kills + 1))
	echo "ok   $phase: ${how/timeout/the deadline${t:+ (--timeout $t)}} while in it (exit $status)," \
	     "host unchanged (fingerprint $settled)"
}

for phase in $phases; do
	why=$(phase_unavailable "$phase")
	if [[ -n $why ]]; then
		echo "# $phase: not tried: $why"
		skipped_phases+=("$phase")
		continue
	fi
	[[ $phase == vm ]] && deb=$(tests/lib/debian-kernel "${VM_TEST_SERIES:-6.12}")
	reached_ms=
	for how in $hows; do
		tries=1 t= hold=
		[[ $how == timeout && ( $phase == mkfs || $phase == loop ) ]] && tries=3
		for ((try = 1; try <= tries; try++)); do
			deadline_round "$phase" "$how" "$try" "$tries" && break
		done
	done
done

echo "kill_phases: $kills kills, $failures failures; the host settled within $settled_max of" \
     "$settle fingerprints${skipped_phases[*]:+; not tried: ${skipped_phases[*]}}"
((failures == 0)) || exit 1
((kills > 0)) || skip "no phase could be tried here"
exit 0

#!/usr/bin/env bash
# Kill abiwatch at random moments and check that the host is unchanged.
#
#   ABIWATCH=./abiwatch KILL_ROUNDS=60 KILL_SWEEP=200 tests/integration/kill.sh
#
# The defaults (26 kills, about 80 s on an idle 2-core machine) are make
# check's share: each run draws new moments, so coverage grows run by run;
# make check-long raises them to 100, and KILL_SEED replays a failure.
#
# A run here is a full one: every family and every backend, the --path
# one included (a directory of this test's, watched for a scratch
# subdirectory left behind), with --entries KILL_ENTRIES (default 2000)
# so that a run is short and many kills fit.  What bounds the test is the
# number of kills below, never a time budget.
#
# abiwatch promises that nothing a probe does outlives it, by construction
# (each probe is PID 1 of new PID, IPC and mount namespaces with a private
# /tmp and PR_SET_PDEATHSIG), not by cleaning up; so killing it at any
# moment must leave the host as it was.  This takes a fingerprint of the
# host (tests/lib/host-state), then:
#
#   1. KILL_ROUNDS times (default 10): starts `abiwatch run` of every
#      probe, waits a random delay in [0, 1.2 x one full run], sends
#      SIGKILL, SIGTERM, SIGINT (to the process group, as a terminal
#      would), or SIGKILL to a run with a tiny --timeout, and compares the
#      fingerprint with the first one.  The run must end by the signal
#      (status 128+N) or by itself, and a snapshot it left must be whole
#      (abiwatch diff reads it).
#   2. KILL_MIDFLIGHT_ROUNDS times (default 4): waits until the k-th probe
#      (k at random) has its namespace and the probe's process exists in
#      it (init's child; the next probe's if that one ended unseen), stops
#      that process (SIGSTOP, until /proc says T: it cannot end), and sends
#      SIGKILL, so that the kill lands while a probe is in flight by
#      evidence, not by a sleep.  The test fails when no kill landed in
#      flight.  With no probes there is nothing to land in, and this part
#      says so.
#   3. With strace: a SIGKILL as abiwatch enters a system call, for
#      KILL_SWEEP (default 12; 0 for none; a few more where the spacing
#      rounds) calls of a run spread evenly, or every call if a run makes
#      fewer; the calls made at most twice in a run (the steps, such as
#      the snapshot's rename) come first.
#
# The timings taken here (of whole runs, and of each probe's namespace)
# only choose the moments of the kills.  What the kernel tears down
# asynchronously after a kill (a namespace, a loop device) is given up to
# KILL_SETTLE (default 20) fingerprints, a short pause between them,
# until one matches the first.
#
# A difference fails with the round, the signal, the delay and the diff.
# KILL_SEED makes the delays reproducible (the seed is always printed).
# Exit status: 0 pass, 1 fail, 4 skip.  Builds nothing: $ABIWATCH must
# exist (default ./abiwatch).
set -u
export LC_ALL=C

root=$(cd "$(dirname "$0")/../.." && pwd)
host_state=$root/tests/lib/host-state
ABIWATCH=${ABIWATCH:-./abiwatch}
rounds=${KILL_ROUNDS:-10}
midflight_rounds=${KILL_MIDFLIGHT_ROUNDS:-4}
sweep_kills=${KILL_SWEEP:-12}
settle=${KILL_SETTLE:-20}
entries=${KILL_ENTRIES:-2000}
seed=${KILL_SEED:-$RANDOM}
RANDOM=$seed
TINY=0.001    # the --timeout of the timeout rounds, seconds

skip() { echo "SKIP: $*"; exit 4; }
die() { echo "FAIL: $*"; exit 1; }

for n in "$rounds" "$midflight_rounds" "$sweep_kills" "$settle" "$entries" "$seed"; do
	[[ $n =~ ^[0-9]+$ ]] || die "KILL_ROUNDS, KILL_MIDFLIGHT_ROUNDS, KILL_SWEEP, KILL_SETTLE, KILL_ENTRIES and KILL_SEED take a number"
done
((settle > 0)) || die "KILL_SETTLE takes a number > 0"
[[ -x $ABIWATCH && -f $ABIWATCH ]] || die "no executable $ABIWATCH (run make first)"

why=$("$host_state" --missing) || skip "$why"
[[ -r /proc/$$/task/$$/children ]] || skip "no /proc/PID/task/TID/children (CONFIG_PROC_CHILDREN)"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/awkill.XXXXXX") || die "mktemp failed"
pid=
cleanup() {
	if [[ -n $pid ]]; then
		# The whole job: strace and the abiwatch it traces, if it is one.
		kill -KILL -- "-$pid" 2>/dev/null
		wait "$pid" 2>/dev/null
	fi
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 1' INT TERM HUP

# A copy, so that a rebuild while this runs cannot swap the program under
# test; it keeps the name abiwatch, which host-state looks for.
mkdir "$tmp/bin" "$tmp/out" "$tmp/tmpdir" "$tmp/pathdir"
cp "$ABIWATCH" "$tmp/bin/abiwatch" || die "cannot copy $ABIWATCH"
bin=$tmp/bin/abiwatch
snap=$tmp/out/snap

# Every process a run starts carries this in its environment, so the
# fingerprint sees our leftovers and not the abiwatch runs of others on
# the same machine.  Likewise abiwatch gets a TMPDIR of its own, and the
# fingerprint looks there and where the snapshot goes, not in the /tmp
# everybody shares (probes cannot reach it: theirs is a private tmpfs;
# tests/run checks /tmp around the whole suite).
tag=AW_KILL_TAG=$$.$seed.$RANDOM
export TMPDIR=$tmp/tmpdir
export HOST_STATE_TAG=$tag HOST_STATE_PID=$$ HOST_STATE_TMPDIRS="$tmp/tmpdir $tmp/out $tmp/pathdir"
# Every family, every backend (the --path one too).
full=(--entries "$entries" --path "scratch=$tmp/pathdir")
fingerprint() { "$host_state" 2>&1; }

# Sleep without forking: a read that times out on a pipe nobody writes.
exec {nap_fd}<> <(:)
nap() { read -r -t "$1" -u "$nap_fd" _; }

# Microseconds, only to choose the moments of the kills.
now_us() { local t=${EPOCHREALTIME/./}; echo $((10#$t)); }
fmt_s() { printf '%d.%06d' $(($1 / 1000000)) $(($1 % 1000000)); }
# A uniform random number of microseconds in [0, $1].
rand_us() { echo $(( ((RANDOM << 15 | RANDOM) * ($1 + 1)) >> 30 )); }

# Job control: a background job gets its own process group and keeps
# SIGINT (without it, bash starts background jobs with SIGINT ignored).
set -m

# start [RUN-OPTION...]: start a run of every probe in the background.
start() {
	env "$tag" "$bin" run -o "$snap" "${full[@]}" "$@" >"$tmp/run.out" 2>&1 &
	pid=$!
}

# Wait for the run; its status goes to $status.
reap() {
	wait "$pid" 2>/dev/null
	status=$?
	pid=
}

# The probe inits abiwatch has started so far this run: $seen of them,
# the k-th one's pid in order[k]; those there now in inits.  A probe's
# init is a child in a PID namespace other than abiwatch's (not the
# janitor, nor a program abiwatch runs itself).  True when one is there.
declare -A known
declare -a order inits
seen=0
note_children() {
	local kids='' k
	inits=()
	# No newline ends the list, so read reports EOF even when it got one.
	read -r kids 2>/dev/null <"/proc/$pid/task/$pid/children"
	[[ -n $kids ]] || return 1
	for k in $kids; do
		[[ -e /proc/$k/ns/pid && ! /proc/$k/ns/pid -ef /proc/$pid/ns/pid ]] || continue
		inits+=("$k")
		if [[ -z ${known[$k]:-} ]]; then
			known[$k]=1
			seen=$((seen + 1))
			order[seen]=$k
		fi
	done
	((${#inits[@]}))
}
forget_children() { known=() order=() inits=() seen=0; }

# A process's state letter (R, S, D, T, Z ...) in $state; false when gone.
proc_state() { # pid
	local st
	state=
	read -r st 2>/dev/null <"/proc/$1/stat" || return 1
	st=${st##*) }
	state=${st:0:1}
}

# Stop the process of a probe in flight, one of those whose init is in
# $inits: its pid in $probe once /proc says it is stopped (bounded by a
# count of looks, not a time); false when none is there or it ended first.
stop_a_probe() {
	local init kid n
	for init in "${inits[@]}"; do
		kid=
		read -r kid _ 2>/dev/null <"/proc/$init/task/$init/children"
		[[ -n $kid ]] || continue
		kill -STOP "$kid" 2>/dev/null || continue
		for ((n = 0; n < 5000; n++)); do
			proc_state "$kid" || break
			[[ $state == [Tt] ]] && { probe=$kid; return 0; }
			nap 0.0001
		done
	done
	return 1
}

# Whether the run has ended (it stays a zombie until reaped).
ended() {
	local st
	read -r st 2>/dev/null <"/proc/$pid/stat" || return 0
	st=${st##*) }
	[[ ${st:0:1} == [ZX] ]]
}

# Compare with the first fingerprint: up to $settle of them (each one real
# work, a short pause between) until one matches, for what the kernel
# tears down asynchronously.  The most any check needed: $settled_max.
settled_max=0
check_host() { # round description
	local n
	for ((n = 1; n <= settle; n++)); do
		fingerprint >"$tmp/after"
		if cmp -s "$tmp/before" "$tmp/after"; then
			((n > settled_max)) && settled_max=$n
			return 0
		fi
		nap 0.05
	done
	echo "FAIL: round $1 ($2): the host changed ($settle fingerprints):"
	diff -u "$tmp/before" "$tmp/after" | sed 's/^/    /'
	echo "    (run output: $(tr '\n' ' ' <"$tmp/run.out" | cut -c1-300))"
	echo "    reproduce with KILL_SEED=$seed"
	exit 1
}

# The run ended by the signal or by itself, and what it left as snapshot
# (nothing, or the snapshot of an earlier round) is whole.
check_ending() { # round description
	local want
	case $how in INT) want=130 ;; TERM) want=143 ;; *) want=137 ;; esac
	case $status in
	0|1|4|"$want") ;;
	*) echo "FAIL: round $1 ($2): exit status $status, expected $want or a run's own"
	   echo "    (run output: $(tail -c 300 "$tmp/run.out" | tr '\n' ' '))"
	   exit 1 ;;
	esac
	if [[ -e $snap ]] && ! "$bin" diff "$snap" "$snap" >/dev/null 2>"$tmp/diff.err"; then
		echo "FAIL: round $1 ($2): the snapshot is not whole: $(head -c 300 "$tmp/diff.err")"
		exit 1
	fi
	rm -f "$snap"
}

# ---- the reference fingerprint, and whether it is stable ----
fingerprint >"$tmp/before"
fingerprint >"$tmp/again"
if ! cmp -s "$tmp/before" "$tmp/again"; then
	echo "FAIL: two fingerprints in a row differ with nothing running:"
	diff -u "$tmp/before" "$tmp/again" | sed 's/^/    /'
	exit 1
fi

# ---- how long a whole run takes, with and without the tiny timeout ----
# (for the range of the random kill moments, nothing else)
time_run() { # into $run_us, the median of three runs that end by themselves
	local t0 i us=()
	for i in 1 2 3; do
		t0=$(now_us)
		start "$@"
		reap
		us+=($(( $(now_us) - t0 )))
		case $status in
		0|1|4) ;;
		*) die "a full run${*:+ $*} ended with status $status: $(head -c 300 "$tmp/run.out")" ;;
		esac
		check_host 0 "a full run${*:+ $*}, not killed"
	done
	run_us=$(printf '%s\n' "${us[@]}" | sort -n | sed -n 2p)
}
time_run
full_us=$run_us
# The snapshot of that run has a "probe.NAME = ..." line for each probe.
nprobes=$(grep -c '^probe\.' "$snap")
time_run --timeout "$TINY"
tiny_us=$run_us
echo "# seed $seed; $nprobes probes; a full run takes $(fmt_s $full_us) s," \
     "$(fmt_s $tiny_us) s with --timeout $TINY"

declare -A kills=([KILL]=0 [TERM]=0 [INT]=0 [timeout]=0)
landed=0 inflight=0

# ---- 1: kills at random moments of a run ----
for ((r = 1; r <= rounds; r++)); do
	case $((RANDOM % 20)) in
	[0-9]|10|11) how=KILL ;;    # 60 %
	12|13|14) how=TERM ;;       # 15 %
	15|16|17) how=INT ;;        # 15 %
	*) how=timeout ;;           # 10 %
	esac
	if [[ $how == timeout ]]; then
		delay=$(rand_us $(( tiny_us * 12 / 10 )))
		start --timeout "$TINY"
	else
		delay=$(rand_us $(( full_us * 12 / 10 )))
		start
	fi
	nap "$(fmt_s "$delay")"
	case $how in
	INT) kill -INT -- "-$pid" 2>/dev/null ;;   # the whole job, like ^C
	TERM) kill -TERM "$pid" 2>/dev/null ;;
	*) kill -KILL "$pid" 2>/dev/null ;;
	esac
	reap
	kills[$how]=$((kills[$how] + 1))
	(( status > 128 )) && landed=$((landed + 1))
	what="SIG${how/timeout/KILL of a --timeout $TINY run} after $(fmt_s "$delay") s"
	check_host "$r" "$what"
	check_ending "$r" "$what"
done
rounds_done=$((r - 1))

# ---- 2: kills while a probe is in flight ----
mid_done=0
if (( nprobes == 0 )); then
	echo "# no probes are registered: no kill can land inside one"
else
	# A census: how many probes get a namespace (one whose needs are not
	# met is skipped without).
	forget_children
	start
	until ended; do
		note_children
		nap 0.0001
	done
	reap
	check_host m0 "a full run, watched, not killed"
	spawned=$seen
	echo "# $spawned probes got a namespace in a watched run"
	for ((m = 1; spawned > 0 && m <= midflight_rounds; m++)); do
		k=$(( RANDOM % spawned + 1 ))
		forget_children
		start
		# The k-th probe's namespace, then a probe's process in one
		# (the next probe's if that one ended unseen), stopped.
		probe= in_flight=0
		until ended; do
			note_children && (( seen >= k )) && stop_a_probe && break
			nap 0.0001
		done
		# Stopped, it cannot have ended by the time abiwatch dies.
		[[ -n $probe ]] && proc_state "$probe" && [[ $state == [Tt] ]] && in_flight=1
		kill -KILL "$pid" 2>/dev/null
		reap
		(( status == 128 + 9 )) || in_flight=0
		kills[KILL]=$((kills[KILL] + 1))
		(( status > 128 )) && landed=$((landed + 1))
		inflight=$((inflight + in_flight))
		mid_done=$((mid_done + 1))
		((in_flight)) || echo "# round m$m: no probe in flight at the kill (probe $k of $spawned; run status $status)"
		check_host "m$m" "SIGKILL with a probe's process stopped, $seen namespaces in (probe $k of $spawned wanted; in flight: $in_flight)"
	done
fi

# ---- 3: a kill at the entry of each system call abiwatch makes ----
# strace -e inject=NAME:signal=SIGKILL:when=N kills abiwatch as it enters
# its N-th NAME call, before the call runs.  Only abiwatch is traced; its
# probes run untouched.  The points come from the trace of one run: each
# call made at most twice in a run (a step such as the snapshot's rename)
# first, the others evenly spaced, KILL_SWEEP points in all.  Counts of
# poll, read and wait4 vary with timing, so a point past the end of a run
# just lets that run finish.
sweep_done=0 sweep_landed=0 sweep_points=0
if (( sweep_kills == 0 )); then
	echo "# KILL_SWEEP=0: no kill at a system call"
elif ! command -v strace >/dev/null; then
	echo "# no strace: no kill at each system call"
elif ! strace -o /dev/null true 2>/dev/null; then
	echo "# strace cannot trace here: no kill at each system call"
else
	strace -o "$tmp/trace" -E "$tag" "$bin" run -o "$snap" "${full[@]}" >"$tmp/run.out" 2>&1 &
	pid=$!
	reap
	check_host s0 "a full run under strace, not killed"
	# "brk(NULL) = 0x..." -> "brk 1 TIMES-IN-THE-RUN"; signals, exits and
	# the execve of the program itself are not points.
	mapfile -t points < <(awk -F '(' '$1 ~ /^[a-z0-9_]+$/ && $1 != "execve" {
		name[++i] = $1; nth[i] = ++n[$1] }
		END { for (j = 1; j <= i; j++) print name[j], nth[j], n[name[j]] }' "$tmp/trace")
	sweep_points=${#points[@]}
	rare=0
	for p in "${points[@]}"; do
		(( ${p##* } <= 2 )) && rare=$((rare + 1))
	done
	want=$sweep_kills
	(( want > sweep_points )) && want=$sweep_points
	# The rare calls first (every rare_step-th if they are too many),
	# then every step-th of the frequent ones for what is left.
	frequent=$(( sweep_points - rare ))
	rare_step=$(( rare > want && want > 0 ? (rare + want - 1) / want : 1 ))
	rare_want=$(( (rare + rare_step - 1) / rare_step ))
	# (rounded down, so that at least what is wanted comes)
	step=$(( want > rare_want && frequent > 0 ? frequent / (want - rare_want) : 0 ))
	(( want > rare_want && frequent > 0 && step == 0 )) && step=1
	offset=$(( step > 0 ? RANDOM % step : 0 )) f=0 g=0
	for ((i = 0; i < sweep_points; i++)); do
		read -r call nth times <<<"${points[i]}"
		if (( times > 2 )); then
			(( step > 0 && f++ % step == offset )) || continue
		else
			(( g++ % rare_step == 0 )) || continue
		fi
		strace -o /dev/null -E "$tag" -e trace="$call" \
			-e inject="$call:signal=SIGKILL:when=$nth" \
			"$bin" run -o "$snap" "${full[@]}" >"$tmp/run.out" 2>&1 &
		pid=$!
		reap
		sweep_done=$((sweep_done + 1))
		(( status == 128 + 9 )) && sweep_landed=$((sweep_landed + 1))
		check_host "s$sweep_done" "SIGKILL on entering $call call $nth (point $((i + 1)) of $sweep_points)"
	done
fi

echo "kill: host unchanged after $((rounds_done + mid_done + sweep_done)) kills" \
     "(SIGKILL ${kills[KILL]}, SIGTERM ${kills[TERM]}, SIGINT ${kills[INT]}," \
     "SIGKILL with --timeout $TINY ${kills[timeout]}; $landed of these landed before the run ended;" \
     "$inflight of $mid_done mid-flight kills with a probe running;" \
     "$sweep_landed of $sweep_done kills at a system call, of $sweep_points in a run;" \
     "the host settled within $settled_max of $settle fingerprints); seed $seed"
if (( mid_done > 0 && inflight == 0 )); then
	echo "FAIL: none of the $mid_done mid-flight kills landed while a probe ran:" \
	     "the host was checked after kills between probes only; reproduce with KILL_SEED=$seed"
	exit 1
fi
exit 0

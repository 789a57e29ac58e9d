#!/usr/bin/env bash
# tests/run: sealed
# abiwatch vm when things go wrong: bad usage (nothing booted), a guest
# that outlives --timeout, a kernel that panics, and abiwatch itself
# killed with SIGKILL or SIGTERM while QEMU runs.  Each must give a clear
# result, never a hang, and leave no QEMU and no file behind.  The waits
# here are for events (QEMU started, QEMU gone) with no time limit of their
# own: a hang is turned into a failure by tests/run's guard of every script.
set -u
abiwatch=${ABIWATCH:-./abiwatch}
skip() { echo "SKIP: $*"; exit 4; }
status=0
ok() { echo "ok   $*"; }
bad() { echo "FAIL $*"; status=1; }
work=$(mktemp -d "${TMPDIR:-/tmp}/abiwatch-vmfail.XXXXXX")
pid= qemu=
# A QEMU still awaited when tests/run's guard ends this script goes too.
trap '[[ -n $qemu ]] && kill -KILL "$qemu" 2>/dev/null; [[ -n $pid ]] && kill -KILL "$pid" 2>/dev/null; rm -rf "$work"' EXIT

one_line_error() { # description command...
	local what=$1
	shift
	"$@" >"$work/out" 2>"$work/err"
	local got=$?
	if [[ $got == 2 && $(wc -l <"$work/err") == 1 && ! -s $work/out ]]; then ok "$what: $(cat "$work/err")"
	else bad "$what: exit $got, stderr:"; cat "$work/err"; fi
}

# ---- usage: nothing is booted ----
"$abiwatch" vm --help >"$work/out" && grep -q -- '--deb' "$work/out" && ok "vm --help" || bad "vm --help"
"$abiwatch" help vm >/dev/null && ok "help vm" || bad "help vm"
one_line_error "neither --kernel nor --deb" "$abiwatch" vm
one_line_error "both --kernel and --deb" "$abiwatch" vm --kernel /x --deb /y
one_line_error "bad --timeout" "$abiwatch" vm --kernel /x --timeout 0
one_line_error "bad --accel" "$abiwatch" vm --kernel /x --accel fast
one_line_error "bad --memory" "$abiwatch" vm --kernel /x --memory 12
one_line_error "RUN-ARGS setting -o" "$abiwatch" vm --kernel /x -- mqueue -o y
one_line_error "a stray argument" "$abiwatch" vm --kernel /x mqueue
one_line_error "missing kernel" "$abiwatch" vm --kernel "$work/none"
one_line_error "not a bzImage" "$abiwatch" vm --kernel /etc/passwd
one_line_error "not a package" "$abiwatch" vm --deb /etc/passwd
one_line_error "--modules with --deb" "$abiwatch" vm --deb /etc/passwd --modules /tmp

# ---- what the guest could not see or run: refused, nothing booted ----
# A GUEST path under a directory the guest's init mounts over without
# keeping its contents, one that is not a plain absolute path, one of
# init's own; a --setup program there.  The message names the option and
# the path (/tmp and /run are kept: vm_from_tmp).
refused() { # command words: the option and path the message must name
	local words=$1
	shift
	one_line_error "refused: $words" "$@"
	for w in $words; do
		grep -qF -- "$w" "$work/err" || bad "the refusal does not name '$w'"
	done
}
refused "--file /proc/x" "$abiwatch" vm --kernel /x --file /etc/hostname=/proc/x
refused "--file /sys/kernel/x" "$abiwatch" vm --kernel /x --file /etc/hostname=/sys/kernel/x
refused "--file /dev/shm/x under /dev" "$abiwatch" vm --kernel /x --file /etc/hostname=/dev/shm/x
refused "--file 'etc/x' absolute" "$abiwatch" vm --kernel /x --file /etc/hostname=etc/x
refused "--file '/tmp/../proc/x'" "$abiwatch" vm --kernel /x --file /etc/hostname=/tmp/../proc/x
refused "--file /vm/setup reserved" "$abiwatch" vm --kernel /x --file /etc/hostname=/vm/setup
refused "--file /init reserved" "$abiwatch" vm --kernel /x --file /etc/hostname=/init
refused "--setup /dev/null under /dev" "$abiwatch" vm --kernel /x --setup "/dev/null /mnt"
refused "--file /proc/x" "$abiwatch" matrix -o "$work/m" --file /etc/hostname=/proc/x /x
[[ ! -e $work/m ]] && ok "matrix refused before making its output directory" || bad "matrix made $work/m"

. tests/lib/vm-kernels.sh
vm_kernels "${VM_TEST_SERIES:-6.12}"
deb=${debs[0]}
one_line_error "unwritable output" "$abiwatch" vm --deb "$deb" -o /nonexistent/dir/x.snapshot

# The QEMU children of a pid, while it runs.
qemu_of() { pgrep -P "$1" -f qemu-system 2>/dev/null; }
# Whether a process exists and is not a zombie (an orphaned QEMU's zombie
# waits for the host's init, which may reap lazily).
alive() { # pid
	local st
	read -r st 2>/dev/null <"/proc/$1/stat" || return 1
	st=${st##*) }
	[[ ${st:0:1} != [ZX] ]]
}

# ---- a guest that does not finish in time ----
"$abiwatch" vm --deb "$deb" --timeout 2 -o "$work/t.snapshot" -- mqueue >"$work/out" 2>"$work/err"
rc=$?
cat "$work/err"
[[ $rc == 1 ]] && grep -q ': timeout after ' "$work/err" && ok "--timeout 2: exit 1, a timeout" ||
	bad "--timeout 2: exit $rc"
[[ ! -e $work/t.snapshot ]] && ok "no snapshot written on timeout" || bad "a snapshot was written on timeout"

# ---- a guest whose --setup never ends: the guest's init stops it at the
# deadline the host gave (--timeout less a margin, in the guest's uptime)
# and says so, before the host's own timeout ----
sleep_bin=$(command -v sleep)
"$abiwatch" vm --deb "$deb" --timeout 25 --setup "$sleep_bin 1000" -o "$work/s.snapshot" -- mqueue \
	>"$work/out" 2>"$work/err"
rc=$?
[[ $rc == 1 ]] && grep -q "setup timeout $sleep_bin 1000" "$work/err" && ! grep -q ': timeout after ' "$work/err" &&
	ok "a --setup that never ends: the guest's init stops it at its deadline" ||
	{ bad "endless --setup: exit $rc"; cat "$work/err"; }
[[ ! -e $work/s.snapshot ]] && ok "no snapshot written after the setup failed" || bad "a snapshot was written"

# ---- a kernel that panics (no init: VFS cannot mount root) ----
"$abiwatch" vm --deb "$deb" --append rdinit=/nonexistent --timeout 60 -o "$work/p.snapshot" -- mqueue \
	>"$work/out" 2>"$work/err"
rc=$?
head -n 1 "$work/err"
[[ $rc == 1 ]] && grep -q ': panic after .*Kernel panic - not syncing' "$work/err" &&
	ok "a panicking kernel: exit 1, reported as a panic" || { bad "panic: exit $rc"; cat "$work/err"; }

# ---- abiwatch killed while QEMU runs: QEMU dies with it ----
for sig in KILL TERM; do
	"$abiwatch" vm --deb "$deb" --timeout 100 -o "$work/k.snapshot" -- mqueue >"$work/out" 2>"$work/err" &
	pid=$!
	# Until QEMU is there, or abiwatch ended without one.
	echo "# SIG$sig: waiting for abiwatch $pid to start QEMU"
	qemu=
	while alive "$pid"; do
		qemu=$(qemu_of "$pid")
		[[ -n $qemu ]] && break
		sleep 0.05
	done
	if [[ -z $qemu ]]; then
		wait "$pid" 2>/dev/null
		bad "SIG$sig: QEMU never started (abiwatch exit $?): $(tail -n 3 "$work/err" | tr '\n' ' ')"
		pid=
		continue
	fi
	# In a process group of its own: a terminal's ^C reaches abiwatch only.
	[[ $(ps -o pgid= -p "$qemu" | tr -d ' ') == "$qemu" ]] && ok "SIG$sig: QEMU in its own process group" ||
		bad "SIG$sig: QEMU shares a process group"
	sleep 0.5
	kill -"$sig" "$pid"
	wait "$pid" 2>/dev/null
	# Until QEMU is gone: if it never goes, tests/run's guard fails the test.
	echo "# SIG$sig: waiting for QEMU $qemu to go"
	while alive "$qemu"; do sleep 0.05; done
	ok "SIG$sig of abiwatch: QEMU $qemu gone"
	pid= qemu=
	[[ ! -e $work/k.snapshot ]] && ok "SIG$sig: no snapshot left" || bad "SIG$sig: a snapshot was left"
	leftovers=$(ls -A "$work" | grep -v -E '^(out|err)$')
	[[ -z $leftovers ]] && ok "SIG$sig: no file left in the output directory" || bad "SIG$sig: left $leftovers"
done
exit $status

#!/usr/bin/env bash
# tests/run: sealed
# The runner's main paths under valgrind's memcheck: no error, no definite
# leak, in abiwatch or in any probe child it forks (a child's error makes
# it exit 9, which the runner reports as a broken probe).
set -u
abiwatch=${ABIWATCH:-./abiwatch}
command -v valgrind >/dev/null || { echo "valgrind not installed"; exit 4; }
case $abiwatch in *asan*) echo "valgrind does not run ASan builds"; exit 4 ;; esac
work=$(mktemp -d "${TMPDIR:-/tmp}/abiwatch-vg.XXXXXX")
trap 'rm -rf "$work"' EXIT
vg=(valgrind -q --error-exitcode=9 --leak-check=full --errors-for-leak-kinds=definite
    --show-leak-kinds=definite --suppressions="$(dirname "$0")/../valgrind/glibc.supp")
status=0
# valgrind cannot go on after a failed execve(2), and says so: where this
# kernel runs no i386 programs (tests/lib/machine), the child in which
# abiwatch asks whether it does dies of it, by design (src/core/i386.c),
# and the probes skip without exec'ing.  Those three lines are no error.
. "$(dirname "$0")/../lib/machine"
exec_death='^$'
machine_i386 || exec_death='^==[0-9]+== (execve\(.*abiwatch-[a-z]+-m32\), .*\) failed, errno 8$|EXEC FAILED: I can.t recover from execve\(\) failing, so I.m dying\.$|Add more stringent tests in PRE\(sys_execve\), or work out how to recover\.$)'
check() { # expected-status description args...
	local want=$1 what=$2
	shift 2
	"${vg[@]}" "$abiwatch" "$@" >"$work/out" 2>"$work/err"
	local got=$?
	if [[ $got != "$want" ]] || grep -v -E "$exec_death" "$work/err" | grep -q '^==[0-9]*=='; then
		echo "FAIL $what: exit $got (want $want)"
		grep -E '^ *(not ok|FAIL|ERROR|TIMEOUT|BROKEN)|# (FAIL|ERROR|TIMEOUT)' "$work/out" | head -n 10
		# valgrind's own notes (--PID--, such as its unhandled
		# pidfd_open) are not errors: the errors (==PID==) and what
		# abiwatch said come first.
		grep -v -E "$exec_death" "$work/err" | grep -v -E '^--[0-9]+--' | head -n 30
		status=1
	else
		echo "ok   $what"
	fi
}
# Memcheck runs a program some 20-50 times slower, and more on a busy
# machine: each probe gets 20 times its usual limit, so that only an error
# can fail these runs, never the clock.
check 0 "run mqueue (ktap)" run mqueue --timeout 200 -o "$work/a.snap"
check 0 "run mqueue (json)" run mqueue --timeout 200 -f json -o "$work/b.snap"
check 0 "run mqueue (text)" run mqueue --timeout 200 -f text -o "$work/c.snap"
check 0 "list -v" list -v
check 2 "bad option" run --no-such-option
check 2 "bad glob" run no_such_family
check 2 "bad timeout" run --timeout -1
check 1 "every probe times out" run mqueue --timeout 0.001 -o "$work/d.snap"
# A --path probe: the runner's scratch subdirectory and its janitor, in a
# run that ends and in one its deadline cuts.
mkdir "$work/dir"
check 0 "run dirent --path" run dirent --fs tmpfs --entries 200 --path "p=$work/dir" -o "$work/g.snap"
check 1 "run dirent --path, timed out" run dirent --fs tmpfs --entries 200000 --path "p=$work/dir" \
	--timeout 0.3 -o "$work/h.snap"
if [[ -n $(ls -A "$work/dir") ]]; then
	echo "FAIL --path: left in the directory: $(ls -A "$work/dir")"
	status=1
fi

# diff: the same, edited (every output), broken input.
sed -e '/^obs\./{s/ = [0-9][0-9]*$/ = 12345/;}' -e '0,/ = pass$/s/ = pass$/ = fail: edited/' \
	"$work/a.snap" >"$work/e.snap"
check 0 "diff the same" diff "$work/a.snap" "$work/b.snap"
check 1 "diff edited (text)" diff "$work/a.snap" "$work/e.snap"
check 1 "diff edited (ktap)" diff -f ktap "$work/a.snap" "$work/e.snap"
check 1 "diff edited (json, --ignore)" diff -f json --ignore 'mqueue.rlimit' -I 'env.*' "$work/a.snap" "$work/e.snap"
check 2 "diff a binary file" diff "$work/a.snap" /bin/true
check 2 "diff a truncated file" diff "$work/a.snap" <(head -c 100 "$work/a.snap")
check 2 "diff usage" diff "$work/a.snap"
# check: against a snapshot (broken, unknown), running probes, bad rules.
ex=examples/assumptions
check 1 "check against a snapshot (text)" check "$ex/mqueue-sized-by-msg_max.assume" "$work/a.snap"
check 1 "check against a snapshot (ktap)" check -f ktap "$ex/mqueue-sized-by-msg_max.assume" "$work/a.snap"
check 4 "check a missing family (json)" check -f json "$ex/glusterfs-3.3-dht.assume" "$work/a.snap"
check 4 "check running the probes it needs" check "$ex/mqueue-over-1024-queues-as-root.assume" -o "$work/f.snap"
printf 'mqueue.noattr.maxmsg >= 1 : "ok"\nmqueue.*.x = 1 : "bad"\n' >"$work/bad.assume"
check 2 "check a bad rule" check "$work/bad.assume" "$work/a.snap"
check 2 "check usage" check
# kcidb: a run's document, a converted snapshot with edits, bad input.
check 0 "run mqueue (kcidb)" run mqueue --timeout 200 -f kcidb -o "$work/k.snap"
check 0 "kcidb of edited snapshots" kcidb --origin t "$work/a.snap" "$work/e.snap" "$work/g.snap"
check 0 "kcidb --build-id" kcidb --origin t --build-id t:1 "$work/h.snap"
check 2 "kcidb a truncated file" kcidb <(head -c 100 "$work/a.snap")
# bisect: a search over five kernels whose snapshots are kept (no boot):
# bzImage headers naming releases, the answers planted in their snapshots.
mkdir "$work/bisect"
for i in 1 2 3 4 5; do
	python3 -c 'import sys
hdr = bytearray(0x400)
hdr[0x202:0x206] = b"HdrS"; hdr[0x206:0x208] = (0x20f).to_bytes(2, "little")
hdr[0x20e:0x210] = (0x100).to_bytes(2, "little")
hdr[0x300:0x300 + len(sys.argv[1])] = sys.argv[1].encode()
open(sys.argv[2], "wb").write(hdr)' "6.$i.0-test" "$work/k$i"
	cp "$work/$( ((i < 3)) && echo a || echo e).snap" "$work/bisect/k$i.snapshot"
done
check 0 "bisect over kept snapshots" bisect --qemu /bin/false --item mqueue.noattr.maxmsg \
	-o "$work/bisect" "$work"/k[5341]* "$work/k2"
grep -q '^the observation mqueue.noattr.maxmsg changed first in kernel 3 of 5' "$work/out" ||
	{ echo "FAIL bisect: $(head -n 3 "$work/out")"; status=1; }
check 2 "bisect a file that is not a kernel" bisect --item mqueue.noattr.maxmsg "$work/a.snap" "$work/k1"
exit $status

#!/usr/bin/env bash
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
    --show-leak-kinds=definite)
status=0
check() { # expected-status description args...
	local want=$1 what=$2
	shift 2
	"${vg[@]}" "$abiwatch" "$@" >"$work/out" 2>"$work/err"
	local got=$?
	if [[ $got != "$want" ]] || grep -q '^==[0-9]*==' "$work/err"; then
		echo "FAIL $what: exit $got (want $want)"
		head -n 40 "$work/err"
		status=1
	else
		echo "ok   $what"
	fi
}
check 0 "run mqueue (ktap)" run mqueue -o "$work/a.snap"
check 0 "run mqueue (json)" run mqueue -f json -o "$work/b.snap"
check 0 "run mqueue (text)" run mqueue -f text -o "$work/c.snap"
check 0 "list -v" list -v
check 2 "bad option" run --no-such-option
check 2 "bad glob" run no_such_family
check 2 "bad timeout" run --timeout -1
check 1 "every probe times out" run mqueue --timeout 0.001 -o "$work/d.snap"
exit $status

#!/usr/bin/env bash
# abiwatch matrix: a Debian cloud kernel in QEMU and the host, in
# parallel, from one command: a snapshot each, the diff between them (in
# version order), matrix.txt; and a report of the directory.
set -u
abiwatch=${ABIWATCH:-./abiwatch}
skip() { echo "SKIP: $*"; exit 4; }
status=0
ok() { echo "ok   $*"; }
bad() { echo "FAIL $*"; status=1; }
work=$(mktemp -d "${TMPDIR:-/tmp}/abiwatch-matrix.XXXXXX")
trap 'rm -rf "$work"' EXIT

one_line_error() { # description command...
	local what=$1
	shift
	"$@" >"$work/out" 2>"$work/err"
	local got=$?
	if [[ $got == 2 && $(wc -l <"$work/err") == 1 && ! -s $work/out ]]; then ok "$what: $(cat "$work/err")"
	else bad "$what: exit $got, stderr:"; cat "$work/err"; fi
}
"$abiwatch" matrix --help >"$work/out" && grep -q -- '--host' "$work/out" && ok "matrix --help" || bad "matrix --help"
one_line_error "no -o" "$abiwatch" matrix --host
one_line_error "no kernel" "$abiwatch" matrix -o "$work/m0"
one_line_error "bad --jobs" "$abiwatch" matrix -o "$work/m0" --host -j 0
one_line_error "not a kernel" "$abiwatch" matrix -o "$work/m0" /etc/passwd
one_line_error "RUN-ARGS setting -o" "$abiwatch" matrix -o "$work/m0" --host -- -o x

command -v qemu-system-x86_64 >/dev/null || skip "qemu-system-x86_64 not installed (scripts/install-deps)"
[[ -x build/static/abiwatch && -x build/vm/abiwatch-init ]] ||
	skip "build/static/abiwatch or build/vm/abiwatch-init missing (make vm)"
deb=$(tests/lib/debian-kernel "${VM_TEST_SERIES:-6.12}")
case $? in 0) ;; 4) skip "$deb" ;; *) echo "FAIL: tests/lib/debian-kernel: $deb"; exit 1 ;; esac

out=$work/m
start=$(date +%s.%N)
"$abiwatch" matrix -o "$out" --host "$deb" -- mqueue >"$work/out" 2>"$work/err"
rc=$?
elapsed=$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')
cat "$work/err"
echo "matrix: exit $rc in ${elapsed}s"
[[ $rc == 0 ]] && ok "matrix exits 0" || bad "matrix exits $rc"
cat "$out/matrix.txt"

guest=$(sed -n 's/^\([^# ][^ ]*\) \(tcg\|kvm\) ok 0 .*/\1/p' "$out/matrix.txt")
host=host-$(uname -r)
[[ -n $guest ]] && ok "matrix.txt: the guest ran ($guest)" || bad "matrix.txt has no guest run"
grep -q "^$host host ok 0 " "$out/matrix.txt" && ok "matrix.txt: the host ran" || bad "matrix.txt: no host run"
for f in "$guest.snapshot" "$guest.ktap" "$guest.console" "$host.snapshot" "$host.ktap"; do
	[[ -s $out/$f ]] && ok "$f written" || bad "$f missing"
done
grep -qx "env.kernel.release = $guest" "$out/$guest.snapshot" && ok "the guest's snapshot is of $guest" ||
	bad "the guest's snapshot is of another kernel"

# Neighbours in version order: the Debian kernel, then the host's newer one.
first=$(printf '%s\n' "$guest" "$(uname -r)" | sort -V | head -n 1)
if [[ $first == "$guest" ]]; then diff=$out/$guest--$host.diff; else diff=$out/$host--$guest.diff; fi
[[ -f $diff ]] && ok "neighbour diff ${diff##*/}" || { bad "no ${diff##*/}"; ls "$out"; }
# The host's root lacks CAP_SYS_RESOURCE: the diff explains the skips by it.
if ! grep -q 'cap_sys_resource' "$out/$host.snapshot"; then
	grep -q 'explained by the environment' "$diff" && grep -q 'lacks cap_sys_resource' "$diff" &&
		ok "the diff explains the host's privileged skips by env.caps" || bad "the diff does not explain the skips"
fi

# matrix SIGKILLed while its VM boots: the worker and its QEMU die too.
"$abiwatch" matrix -q -o "$work/mk" "$deb" -- mqueue >/dev/null 2>&1 &
pid=$!
qemu=
for ((i = 0; i < 300; i++)); do
	for w in $(pgrep -P "$pid" 2>/dev/null); do
		qemu=$(pgrep -P "$w" -f qemu-system 2>/dev/null)
		[[ -n $qemu ]] && break
	done
	[[ -n $qemu ]] && break
	sleep 0.05
done
if [[ -z $qemu ]]; then
	bad "matrix SIGKILL: no QEMU seen"
	kill -KILL "$pid" 2>/dev/null
else
	kill -KILL "$pid"
	wait "$pid" 2>/dev/null
	for ((i = 0; i < 30; i++)); do kill -0 "$qemu" 2>/dev/null || break; sleep 0.1; done
	kill -0 "$qemu" 2>/dev/null && { bad "matrix SIGKILL: QEMU $qemu still runs"; kill -KILL "$qemu"; } ||
		ok "matrix SIGKILLed: its worker's QEMU $qemu went with it"
fi
wait "$pid" 2>/dev/null

# The report of the whole directory.
"$abiwatch" report -o "$work/r.html" "$out" && ok "report of the matrix directory" || bad "report failed"
n=$(grep -o '<th class="kernel"' "$work/r.html" | wc -l)
[[ $n == 2 ]] && ok "report: 2 kernel columns" || bad "report: $n kernel columns"
exit $status

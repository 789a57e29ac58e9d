#!/usr/bin/env bash
# tests/run: sealed
# kselftest: `make kselftest-install` lays out a collection that a
# kselftest runner runs like any other: the layout (kselftest-list.txt,
# settings, config from the probes' needs), and through the installed
# run_kselftest.sh a pass ("ok N selftests: abiwatch: mqueue"), a skip
# (exit 4 -> "# SKIP", here by taking CAP_SYS_RESOURCE away) and a failure
# (a test program that is missing), with abiwatch's KTAP as "# " lines.
# Exit 0 pass, 1 fail.
cd "$(dirname "$0")/../.." || exit 1
. tests/lib/dirent-common.sh

tmp=$(mktemp -d "${TMPDIR:-/tmp}/abiwatch-kselftest.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
ks=$tmp/ks
make -s kselftest-install INSTALL_PATH="$ks" >"$tmp/install.log" 2>&1 ||
	{ cat "$tmp/install.log"; exit 1; }

grep -qx 'abiwatch:mqueue' "$ks/kselftest-list.txt" && grep -qx 'abiwatch:dirent' "$ks/kselftest-list.txt" &&
	report ok "kselftest-list.txt names every family" || report bad "list: $(cat "$ks/kselftest-list.txt")"
grep -qx 'timeout=[0-9]*' "$ks/abiwatch/settings" && report ok "settings: $(cat "$ks/abiwatch/settings")" ||
	report bad "settings: $(cat "$ks/abiwatch/settings")"
for opt in CONFIG_POSIX_MQUEUE CONFIG_IPC_NS; do
	grep -qx "$opt=y" "$ks/abiwatch/config" && report ok "config has $opt=y" || report bad "config lacks $opt"
done
[[ -x $ks/abiwatch/m32/abiwatch-mqueue-m32 ]] && report ok "32-bit helper installed" ||
	report bad "no 32-bit helper in $ks/abiwatch/m32"

# A pass, and the installed copy is self-contained: run from elsewhere.
(cd / && ABIWATCH_ARGS="mqueue.noattr mqueue.compat32" "$ks/run_kselftest.sh" -t abiwatch:mqueue) >"$tmp/pass" 2>&1
rc=$?
head -n 2 "$tmp/pass" | tr '\n' ' ' | grep -q '^TAP version 13 1\.\.1 $' && report ok "TAP header and plan" ||
	report bad "header: $(head -n 2 "$tmp/pass")"
[[ $rc == 0 ]] && grep -qx 'ok 1 selftests: abiwatch: mqueue' "$tmp/pass" &&
	report ok "mqueue passes through the runner" || report bad "pass run (exit $rc): $(tail -n 3 "$tmp/pass")"
# The helper is found in the collection: it runs, or its exec is refused.
# An observation is a diagnostic line of the nested KTAP, with its value.
nested='^# +# mqueue\.compat32\.abi = ilp32$'
machine_i386 || nested='^# +# mqueue\.compat32\.abi unobserved: needs i386: this kernel runs no i386 programs: exec of [^ ]*/abiwatch/m32/abiwatch-[a-z]+-m32 failed with ENOEXEC'
grep -qE "$nested" "$tmp/pass" && report ok "abiwatch's KTAP nested as comments" ||
	report bad "no nested KTAP line /$nested/: $(grep -m3 compat32 "$tmp/pass")"

# Exit 4 is a skip: the privileged checks without CAP_SYS_RESOURCE.
ABIWATCH_ARGS=mqueue.privileged setpriv --inh-caps=-sys_resource --bounding-set=-sys_resource \
	"$ks/run_kselftest.sh" -t abiwatch:mqueue >"$tmp/skip" 2>&1
grep -qx 'ok 1 selftests: abiwatch: mqueue # SKIP' "$tmp/skip" && report ok "exit 4 reported as SKIP" ||
	report bad "skip run: $(tail -n 3 "$tmp/skip")"

# A failure is "not ok" with the exit status, and the runner's own status says so.
rm "$ks/abiwatch/dirent"
"$ks/run_kselftest.sh" -t abiwatch:dirent >"$tmp/fail" 2>&1
rc=$?
[[ $rc != 0 ]] && grep -q '^not ok 1 selftests: abiwatch: dirent # exit=' "$tmp/fail" &&
	report ok "a failure is not ok" || report bad "fail run (exit $rc): $(tail -n 3 "$tmp/fail")"
finish

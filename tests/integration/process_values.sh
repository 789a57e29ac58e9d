#!/usr/bin/env bash
# process_values: the process family on this kernel.
#   - `abiwatch run process` exits 0 (how long it takes is
#     tests/bench.d/family_runs.sh's figure), the KTAP parses, no item
#     fails or errs;
#   - the values every kernel since 5.16 gives (tests/lib/process-values.sh:
#     the ELF loader's answers, the argument limits, signal numbers and
#     si_codes, the forced signals a tracer sees, waitid and ptrace
#     requests, /proc/self/stat's 52 fields, the setproctitle() cmdline,
#     user namespace map rules, clone3's flags, subreapers), and those of later kernels by version
#     (AT_RSEQ_* from 6.3, PIDFD_THREAD from 6.9); the /proc/self/status
#     keys as this shell's own status lists them; Yama as /proc shows it;
#   - the example assumption (a debugger's) holds;
#   - 10 runs give identical process.* lines;
#   - the host's fingerprint (tests/lib/host-state) is the same after,
#     and no process of the runs is left: each run is a session of its
#     own (setsid), and no process of that session survives it (the ELF
#     programs the probes exec get an empty environment, so the session,
#     not host-state's tag, is what finds them).
set -u
cd "$(dirname "$0")/../.." || exit 1
. tests/lib/dirent-common.sh
. tests/lib/process-values.sh

"$abiwatch" list process >/dev/null 2>&1 || skip "this abiwatch has no process family"
[[ $(uname -m) == x86_64 ]] || skip "the expected values are x86_64's (ELF files, int3, auxv), this is $(uname -m)"
release=$(uname -r)
IFS=. read -r major minor _ <<<"$release"
minor=${minor%%[!0-9]*}
at_least() { ((major > $1 || (major == $1 && minor >= $2))); }
at_least 5 16 || skip "kernel $release predates the SA_IMMUTABLE fixes (5.16); the expectations (tests/lib/process-values.sh) are for 5.16 and later"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/abiwatch-process.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
# the fingerprint looks at our own scratch directory and at processes
# carrying our tag, not at what others on the machine do meanwhile
# (and not at mounts, loop devices and FUSE connections: this family makes
# none, and on a shared machine other tests' come and go meanwhile)
tag=ABIWATCH_PROCESS_TEST=$$
export HOST_STATE_TAG=$tag HOST_STATE_TMPDIRS=$tmp HOST_STATE_SKIP="mount loop fuse"
tests/lib/host-state >"$tmp/before" 2>/dev/null

# One run in a session of its own: its snapshot, then whether any process
# of the session is left.
run_once() { # snapshot ktap
	setsid bash -c 'echo $$ >"$1/sid"; exec env "$5" "$2" run -o "$3" process >"$4" 2>>"$1/err"' _ "$tmp" "$abiwatch" "$1" "$2" "$tag"
	local rc=$? sid
	sid=$(cat "$tmp/sid")
	local left
	left=$(ps -eo sid=,pid=,comm= | awk -v s="$sid" '$1 == s')
	[[ -z $left ]] || { echo "left behind by session $sid:"; echo "$left"; return 99; }
	return $rc
}

run_once "$tmp/snap" "$tmp/ktap"
rc=$?
[[ $rc == 0 ]] && report ok "abiwatch run process exits 0" || { report bad "abiwatch run process exits $rc"; cat "$tmp/err"; }
[[ -s $tmp/snap ]] || { echo "FAIL: no snapshot"; exit 1; }
tests/lib/ktap-check "$tmp/ktap" >/dev/null && report ok "the KTAP output parses" || report bad "the KTAP output does not parse"
load_snapshot "$tmp/snap"
bad_items=$(grep -E '^(check|unobserved)\.process\..* = (error|fail|timeout)' "$tmp/snap")
[[ -z $bad_items ]] && report ok "no process item failed or erred" || report bad "failed or erred: $bad_items"

process_expect_same
min_addr=$(cat /proc/sys/vm/mmap_min_addr)
((min_addr >= 4096)) && expect obs.process.exec.elf.below_min "killed by SIGSEGV"
if at_least 6 3; then
	expect obs.process.exec.auxv.rseq_feature_size 28
	expect obs.process.exec.auxv.rseq_align 32
fi
if [[ -r /proc/sys/kernel/yama/ptrace_scope ]]; then
	expect obs.process.ptrace.yama.ptrace_scope "$(cat /proc/sys/kernel/yama/ptrace_scope)"
elif [[ ${snap[env.lsm]-unknown} != unknown* && ,${snap[env.lsm]}, != *,yama,* ]]; then
	# Yama built but not started, or not built: no knob, no restriction, the set-up's doing
	expect_match unobserved.process.ptrace.yama.ptrace_scope '^skip: needs lsm:yama: '
else
	expect obs.process.ptrace.yama.ptrace_scope absent
fi
# /proc
keys=$(cut -d: -f1 /proc/self/status | grep -cE '^[A-Za-z0-9_]+$')
expect obs.process.procfs.status.keys "$keys"
for k in $(cut -d: -f1 /proc/self/status); do expect "obs.process.procfs.status.key.$k" present; done
expect_match obs.process.procfs.maps.special '^\[.*\[stack\]'
expect_match obs.process.procfs.maps.special '\[vdso\]'
at_least 6 9 && expect obs.process.pidfd.thread ok
# the 32-bit caller, where i386 programs run
expect_i386 process.compat32.uname_machine x86_64
expect_i386 process.compat32.linux32_machine i686
expect_i386 process.compat32.ptrace_syscall_info "arch i386, nr 20"

# the example assumption: a debugger's, which holds on every kernel since 5.16-rc2
example=examples/assumptions/debugger-forced-signals.assume
"$abiwatch" check "$example" "$tmp/snap" >"$tmp/check" 2>&1 && report ok "$example holds" ||
	{ report bad "$example does not hold"; cat "$tmp/check"; }

# 10 runs, the same process.* lines
grep '^[a-z]*\.process\.' "$tmp/snap" >"$tmp/lines.0"
same=1
for i in 2 3 4 5 6 7 8 9 10; do
	run_once "$tmp/snap.$i" "$tmp/ktap.$i" || { report bad "run $i exits $?"; same=0; continue; }
	grep '^[a-z]*\.process\.' "$tmp/snap.$i" >"$tmp/lines.$i"
	diff "$tmp/lines.0" "$tmp/lines.$i" >"$tmp/d" || { report bad "run $i differs:"; cat "$tmp/d"; same=0; }
done
((same)) && report ok "10 runs give identical process.* lines, and leave no process behind"

tests/lib/host-state >"$tmp/after" 2>/dev/null
diff "$tmp/before" "$tmp/after" >"$tmp/state.diff" && report ok "the host is unchanged" ||
	{ report bad "the host changed:"; cat "$tmp/state.diff"; }
finish

#!/usr/bin/env bash
# tests/run: sealed
# vm_process: the process family on Debian's 6.1 and 6.12 cloud kernels in
# QEMU (one `abiwatch matrix`, only this family in the guests), as full
# root with i386 programs.  In each guest:
#   - no process item fails, errs or is skipped, env.i386 = yes;
#   - the values both kernels share: the ELF loader's answers (overlapping
#     PT_LOADs run since b212921b13bd, a PT_LOAD below vm.mmap_min_addr
#     dies by SIGSEGV, no PT_GNU_STACK means a non-executable stack since
#     9fccc5c0c99f), the argument limits, the forced signals a tracer
#     sees (the SA_IMMUTABLE fixes e349d945fac7/fcb116bc43c8 are in both),
#     waitid and ptrace, /proc/self/stat's 52 fields and the setproctitle
#     cmdline, user namespace map rules, pidfds and clone3 flags, Yama 0,
#     and the 32-bit caller (uname, sigaltstack, si_codes, a 64-bit
#     tracer's PTRACE_GET_SYSCALL_INFO: arch i386, nr 20);
#   - the values that differ, each for a named reason:
#       auxv.rseq_feature_size, auxv.rseq_align, auxv.types: AT_RSEQ_*
#         (27, 28) from 317c8194e6ae (6.3);
#       pidfd.thread: PIDFD_THREAD from 64bef697d33b (6.9), EINVAL before;
#       procfs.maps.special: the vDSO moved below the stack with
#         3c6539b4c177 (6.9), so "[stack] [vvar] [vdso]" became
#         "[vvar] [vdso] [stack]";
#       procfs.status.key.untag_mask (f7d304343b9d, 6.4),
#         x86_Thread_features and x86_Thread_features_locked
#         (d21da223567e, 6.6), Kthread (6.10) appeared, and status.keys
#         grew by these four;
#   - the diff matrix wrote names exactly those items, and nothing else.
set -u
cd "$(dirname "$0")/../.." || exit 1
. tests/lib/dirent-common.sh
. tests/lib/process-values.sh

. tests/lib/vm-kernels.sh
[[ -x build/m32/abiwatch-process-m32 ]] || skip "no build/m32/abiwatch-process-m32 (make m32)"
vm_kernels 6.1 6.12
tmp=$(mktemp -d "${TMPDIR:-/tmp}/abiwatch-vmprocess.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT

"$abiwatch" matrix -q -o "$tmp/m" "${debs[@]}" -- process >"$tmp/out" 2>&1
rc=$?
# Exit 1 is matrix's "the kernels differ", which they do here.
[[ $rc == 0 || $rc == 1 ]] && report ok "matrix exits $rc" || { report bad "matrix exits $rc"; cat "$tmp/out"; }
cat "$tmp/m/matrix.txt" 2>/dev/null

old=$(ls "$tmp"/m/6.1.*.snapshot 2>/dev/null) new=$(ls "$tmp"/m/6.12.*.snapshot 2>/dev/null)
[[ -f $old && -f $new ]] || { echo "FAIL: no snapshot of each guest"; ls "$tmp/m"; exit 1; }

both() { # snapshot
	expect env.i386 yes
	local bad
	bad=$(grep -E '^(check|unobserved)\.process\..* = (error|fail|timeout|skip)' "$1")
	[[ -z $bad ]] && report ok "no process item failed, erred or was skipped" || report bad "$bad"
	process_expect_same
	expect obs.process.exec.elf.below_min "killed by SIGSEGV"
	expect obs.process.exec.elf.dyn_load 0x7ffff7ffe000
	expect obs.process.ptrace.yama.ptrace_scope 0
	expect obs.process.procfs.maps.anon_name EINVAL # Debian: no CONFIG_ANON_VMA_NAME
	expect obs.process.compat32.uname_machine x86_64
	expect obs.process.compat32.linux32_machine i686
	expect obs.process.compat32.altstack_min 2048
	expect check.process.compat32.altstack_at_minsigstksz pass
	expect obs.process.compat32.setsig_rt 1
	expect obs.process.compat32.setsig_rt_fields 'band 0x41 fd pipe'
	expect obs.process.compat32.setsig_sigchld -5
	expect obs.process.compat32.ptrace_syscall_info "arch i386, nr 20"
}

load_snapshot "$old"
echo "# ${snap[env.kernel.release]-?}"
both "$old"
expect obs.process.exec.auxv.rseq_feature_size absent
expect obs.process.exec.auxv.rseq_align absent
expect obs.process.pidfd.thread EINVAL
expect obs.process.procfs.maps.special "[stack] [vvar] [vdso]"
old_keys=${snap[obs.process.procfs.status.keys]-0}
for k in untag_mask x86_Thread_features x86_Thread_features_locked Kthread; do
	[[ -z ${snap[obs.process.procfs.status.key.$k]-} ]] && report ok "6.1 has no status key $k" || report bad "6.1 has status key $k"
done

load_snapshot "$new"
echo "# ${snap[env.kernel.release]-?}"
both "$new"
expect obs.process.exec.auxv.rseq_feature_size 28
expect obs.process.exec.auxv.rseq_align 32
expect obs.process.pidfd.thread ok
expect obs.process.procfs.maps.special "[vvar] [vdso] [stack]"
for k in untag_mask x86_Thread_features x86_Thread_features_locked Kthread; do
	expect "obs.process.procfs.status.key.$k" present
done
expect obs.process.procfs.status.keys $((old_keys + 4))

# The diff from 6.1 to 6.12: exactly these items, each with its meaning.
diff=$(ls "$tmp"/m/6.1.*--6.12.*.diff 2>/dev/null)
[[ -f $diff ]] || { echo "FAIL: no 6.1 to 6.12 diff"; ls "$tmp/m"; exit 1; }
diff=$(verbose_diff "$diff") # an item's line, also in an object of several
grep -oE '(obs|check)\.process\.[A-Za-z0-9_.-]*[A-Za-z0-9_]' "$diff" | sort -u >"$tmp/named"
printf '%s\n' obs.process.exec.auxv.rseq_align obs.process.exec.auxv.rseq_feature_size obs.process.exec.auxv.types \
	obs.process.pidfd.thread obs.process.procfs.maps.special obs.process.procfs.status.key.Kthread \
	obs.process.procfs.status.key.untag_mask obs.process.procfs.status.key.x86_Thread_features \
	obs.process.procfs.status.key.x86_Thread_features_locked obs.process.procfs.status.keys | sort >"$tmp/want"
diff "$tmp/want" "$tmp/named" >"$tmp/dd" && report ok "the diff names exactly the 10 changed items" ||
	{ report bad "the diff names other items (< expected, > named):"; cat "$tmp/dd"; }
grep -qE '^  changed +obs\.process\.pidfd\.thread: EINVAL -> ok -- EINVAL: no thread pidfds' "$diff" &&
	report ok "diff: PIDFD_THREAD appeared, with its meaning" || report bad "diff: no line for PIDFD_THREAD"
grep -qE 'obs\.process\.exec\.auxv\.rseq_feature_size\b.*absent -> 28' "$diff" &&
	report ok "diff: AT_RSEQ_FEATURE_SIZE appeared" || report bad "diff: no line for AT_RSEQ_FEATURE_SIZE"
grep -qE 'obs\.process\.procfs\.status\.key\.Kthread\b.*present' "$diff" &&
	report ok "diff: the Kthread status key was added" || report bad "diff: no line for the Kthread key"
finish

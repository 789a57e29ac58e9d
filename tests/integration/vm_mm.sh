#!/usr/bin/env bash
# tests/run: sealed
# vm_mm: the mm family on Debian's 6.1 and 6.12 cloud kernels in QEMU and
# on this machine, in ONE `abiwatch matrix --host`, with the values the
# kernels' sources and history give (Debian builds them with THP always,
# CONFIG_LEGACY_VSYSCALL_NONE and mmap_min_addr 65536):
#   - 2 MiB-multiple anonymous mappings unaligned on 6.1 and aligned on
#     6.12 (efa7df3e3bb5), other sizes unaligned on both (d4148aeab412),
#     and the diff between them says so with its meaning;
#   - MAP_STACK marked nh on 6.12 only (c4608d1bf7c6), in the diff too;
#   - memfd: MFD_EXEC, MFD_NOEXEC_SEAL and F_SEAL_EXEC refused with EINVAL
#     on 6.1, which has no vm.memfd_noexec; on 6.12 sealed fds, and each
#     vm.memfd_noexec value's answers (6.6's hierarchy);
#   - 32-bit callers: i386 programs run, their 2 MiB mappings are not
#     aligned on either kernel (4ef9ad19e176), their guard gap 1 MiB;
#   - a fresh init's rlimits: MEMLOCK 8 MiB (9dcc38e2813e), the
#     INIT_RLIMITS constants, NPROC = SIGPENDING = threads-max / 2;
#   - vsyscall none, the vm.* defaults and the errno of their refusals.
set -u
cd "$(dirname "$0")/../.." || exit 1
. tests/lib/dirent-common.sh

. tests/lib/vm-kernels.sh
[[ -x build/m32/abiwatch-mm-m32 ]] || skip "no build/m32/abiwatch-mm-m32 (make m32)"
vm_kernels 6.1 6.12
tmp=$(mktemp -d "${TMPDIR:-/tmp}/abiwatch-vmmm.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT

"$abiwatch" matrix -q --host -o "$tmp/m" "${debs[@]}" -- mm >"$tmp/out" 2>&1
rc=$?
[[ $rc == 0 ]] && report ok "matrix exits 0" || { report bad "matrix exits $rc"; cat "$tmp/out"; }
cat "$tmp/m/matrix.txt" 2>/dev/null

old=$(ls "$tmp"/m/6.1.*.snapshot 2>/dev/null) new=$(ls "$tmp"/m/6.12.*.snapshot 2>/dev/null)
[[ -f $old && -f $new ]] || { echo "FAIL: no snapshot of each guest"; ls "$tmp/m"; exit 1; }

exec_fd='fd 0777 seals 0x1' sealed_fd='fd 0666 seals 0x20'
both() { # the values both guests share
	expect env.i386 yes
	skipped=$(grep -cE '^(check|unobserved)\.mm\..* = skip' "$1")
	expected_skips=$2
	((skipped == expected_skips)) && report ok "$skipped mm items skipped" ||
		{ report bad "$skipped mm items skipped, expected $expected_skips:"; grep -E '^(check|unobserved)\.mm\..* = skip' "$1"; }
	bad_items=$(grep -E '^(check|unobserved)\.mm\..* = (error|fail|timeout)' "$1")
	[[ -z $bad_items ]] && report ok "no mm item failed or erred" || report bad "failed or erred: $bad_items"
	expect obs.mm.thp.mode always
	expect obs.mm.thp.anon64.non_multiple unaligned
	expect obs.mm.thp.compat32.pmd_multiple unaligned
	expect obs.mm.thp.compat32.non_multiple unaligned
	expect check.mm.thp.compat32.not_forced pass
	expect obs.mm.map_stack.plain_nohuge no
	expect obs.mm.memfd.plain "$exec_fd"
	local g
	for g in stack_guard_gap.gap stack_guard_gap.compat32.gap; do expect "obs.mm.$g" 1048576; done
	for g in stack_guard_gap.gap_prot_none stack_guard_gap.compat32.gap_prot_none; do expect "obs.mm.$g" 0; done
	expect obs.mm.init_rlimits.memlock 8388608/8388608
	expect obs.mm.init_rlimits.nofile 1024/4096
	expect obs.mm.init_rlimits.stack 8388608/unlimited
	expect obs.mm.init_rlimits.core 0/unlimited
	expect obs.mm.init_rlimits.msgqueue 819200/819200
	expect_match obs.mm.init_rlimits.nproc '^[0-9]+/[0-9]+$'
	expect obs.mm.init_rlimits.sigpending "${snap[obs.mm.init_rlimits.nproc]-?}"
	expect obs.mm.init_rlimits.nproc_is_half_threads_max yes
	expect obs.mm.vsyscall.maps absent
	expect obs.mm.vsyscall.read SIGSEGV
	expect obs.mm.vsyscall.call SIGSEGV
	expect obs.mm.vsyscall.mode none
	expect obs.mm.vm.mmap_min_addr 65536
	expect obs.mm.vm.hint_floor 0x10000
	expect obs.mm.vm.below_min EPERM
	expect obs.mm.vm.max_map_count 65530
	expect obs.mm.vm.map_count_errno ENOMEM
	expect obs.mm.vm.map_count_reached 65531
	expect obs.mm.vm.overcommit_memory 0
	expect obs.mm.vm.overcommit_ratio 50
	expect obs.mm.vm.overcommit_kbytes 0
	expect obs.mm.vm.overcommit_refusal ENOMEM
}

load_snapshot "$old"
echo "# ${snap[env.kernel.release]-?}"
both "$old" 10 # the nine scope items and fchmod_sealed: no exec control
expect obs.mm.thp.anon64.pmd_multiple unaligned
expect obs.mm.map_stack.nohuge no
expect obs.mm.memfd.sysctl absent
for k in exec noexec_seal add_seal_exec; do expect "obs.mm.memfd.$k" EINVAL; done
expect_match unobserved.mm.memfd.fchmod_sealed '^skip: memfd_create\(MFD_NOEXEC_SEAL\): EINVAL$'
for v in 0 1 2; do
	for k in plain exec noexec_seal; do
		expect_match "unobserved.mm.memfd.scope$v.$k" '^skip: no /proc/sys/vm/memfd_noexec \(ENOENT\)'
	done
done

load_snapshot "$new"
echo "# ${snap[env.kernel.release]-?}"
both "$new" 0
expect obs.mm.thp.anon64.pmd_multiple aligned
expect obs.mm.map_stack.nohuge yes
expect obs.mm.memfd.sysctl 0
expect obs.mm.memfd.exec "$exec_fd"
expect obs.mm.memfd.noexec_seal "$sealed_fd"
expect obs.mm.memfd.add_seal_exec 'seals 0x3e'
expect obs.mm.memfd.fchmod_sealed EPERM
want_plain=("$exec_fd" "$sealed_fd" "$sealed_fd") want_exec=("$exec_fd" "$exec_fd" EACCES)
for v in 0 1 2; do
	expect "obs.mm.memfd.scope$v.plain" "${want_plain[v]}"
	expect "obs.mm.memfd.scope$v.exec" "${want_exec[v]}"
	expect "obs.mm.memfd.scope$v.noexec_seal" "$sealed_fd"
done

# The diff from 6.1 to 6.12 names each change with its meaning, and
# nothing of the 32-bit callers' alignment changed.
diff=$(ls "$tmp"/m/6.1.*--6.12.*.diff 2>/dev/null)
[[ -f $diff ]] || { echo "FAIL: no 6.1 to 6.12 diff"; ls "$tmp/m"; exit 1; }
diff=$(verbose_diff "$diff") # each item's line, below its object's when it has several
diff_has() { # what line-regex
	grep -qE "$2" "$diff" && report ok "diff: $1" || report bad "diff: no line for $1 (/$2/)"
}
diff_has "THP alignment" '^ +changed +obs\.mm\.thp\.anon64\.pmd_multiple: unaligned -> aligned -- aligned: 2 MiB-multiple mappings land on huge-page boundaries \(efa7df3e3bb5\)'
diff_has "MAP_STACK" '^ +changed +obs\.mm\.map_stack\.nohuge: no -> yes -- yes: MAP_STACK mappings are never backed by huge pages \(c4608d1bf7c6\)'
diff_has "MFD_NOEXEC_SEAL" "^ +changed +obs\.mm\.memfd\.noexec_seal: EINVAL -> $sealed_fd -- EINVAL: MFD_NOEXEC_SEAL is unknown \(before 6\.3\)"
diff_has "MFD_EXEC" "^ +changed +obs\.mm\.memfd\.exec: EINVAL -> $exec_fd -- EINVAL: MFD_EXEC is unknown"
diff_has "vm.memfd_noexec" '^ +changed +obs\.mm\.memfd\.sysctl: absent -> 0 -- absent: the kernel predates memfd exec control'
diff_has "the scopes" '^ +unskipped +obs\.mm\.memfd\.scope2\.exec: skip: .* -> EACCES -- '
grep -q 'mm\.thp\.compat32\.' "$diff" && report bad "diff: the 32-bit alignment changed" ||
	report ok "diff: nothing of the 32-bit alignment changed"

host=$(ls "$tmp"/m/host-*.snapshot 2>/dev/null)
load_snapshot "${host:-/dev/null}"
expect env.kernel.release "$(uname -r)"
expect obs.mm.memfd.noexec_seal "$sealed_fd"
ls "$tmp"/m/6.12.*--host-*.diff >/dev/null 2>&1 && report ok "a diff from 6.12 to this machine" ||
	report bad "no diff from 6.12 to this machine"
finish

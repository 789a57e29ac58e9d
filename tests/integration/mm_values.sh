#!/usr/bin/env bash
# mm_values: the mm family on this kernel, each value compared with what
# the machine says by other means or what the kernel's history implies:
#   - the THP mode as sysfs shows it; 2 MiB-multiple anonymous mappings
#     aligned from 6.8 (efa7df3e3bb5), other sizes only from 6.8 to 6.11
#     (d4148aeab412); MAP_STACK marked nh from 6.8 (c4608d1bf7c6);
#   - memfd exec control from 6.3, per vm.memfd_noexec as the kernel's
#     documentation tabulates it, with the host's value inherited;
#   - the stack guard gap of the command line, else 256 pages;
#   - the vsyscall mode of this shell's own maps line;
#   - the vm.* values as /proc/sys/vm shows them, and the errno of what
#     they refuse (EPERM, ENOMEM; max_map_count + 1 mappings reached);
#   - init_rlimits skipped outside a guest, saying why; 32-bit items as
#     the machine runs i386 programs or not (tests/lib/machine);
#   - the example assumption gets the verdict these values imply;
#   - the vm.* sysctls and the THP mode are the same afterwards.
set -u
cd "$(dirname "$0")/../.." || exit 1
. tests/lib/dirent-common.sh

"$abiwatch" list mm >/dev/null 2>&1 || skip "this abiwatch has no mm family"
[[ $(uname -m) == x86_64 ]] || skip "the expected values are x86_64's (vsyscall, PMD size), this is $(uname -m)"
release=$(uname -r)
IFS=. read -r major minor _ <<<"$release"
minor=${minor%%[!0-9]*}
at_least() { ((major > $1 || (major == $1 && minor >= $2))); }
at_least 6 3 || skip "kernel $release predates memfd exec control (6.3); the expectations are for 6.3 and later"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/abiwatch-mm.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
knobs=(/proc/sys/vm/memfd_noexec /proc/sys/vm/mmap_min_addr /proc/sys/vm/max_map_count
	/proc/sys/vm/overcommit_memory /proc/sys/vm/overcommit_ratio /proc/sys/vm/overcommit_kbytes
	/sys/kernel/mm/transparent_hugepage/enabled)
settings() { for k in "${knobs[@]}"; do echo "$k: $(cat "$k" 2>&1)"; done; }
settings >"$tmp/before"

"$abiwatch" run -o "$tmp/snap" mm >"$tmp/ktap" 2>"$tmp/err"
rc=$?
[[ $rc == 0 ]] && report ok "abiwatch run mm exits 0" || { report bad "abiwatch run mm exits $rc"; cat "$tmp/err"; }
[[ -s $tmp/snap ]] || { echo "FAIL: no snapshot"; exit 1; }
tests/lib/ktap-check "$tmp/ktap" >/dev/null && report ok "the KTAP output parses" || report bad "the KTAP output does not parse"
load_snapshot "$tmp/snap"
bad_items=$(grep -E '^(check|unobserved)\.mm\..* = (error|fail|timeout)' "$tmp/snap")
[[ -z $bad_items ]] && report ok "no mm item failed or erred" || report bad "failed or erred: $bad_items"

# THP
thp=/sys/kernel/mm/transparent_hugepage
if [[ -r $thp/enabled ]]; then
	expect obs.mm.thp.mode "$(sed -n 's/.*\[\(.*\)\].*/\1/p' $thp/enabled)"
	if at_least 6 12; then
		expect obs.mm.thp.anon64.pmd_multiple aligned
		expect obs.mm.thp.anon64.non_multiple unaligned
	elif at_least 6 8; then
		expect obs.mm.thp.anon64.pmd_multiple aligned
		expect obs.mm.thp.anon64.non_multiple aligned
	fi
	at_least 6 8 && expect obs.mm.map_stack.nohuge yes
else
	expect_match unobserved.mm.thp.mode '^skip: no /sys/kernel/mm/transparent_hugepage/enabled'
	expect obs.mm.thp.anon64.pmd_multiple unaligned
fi
expect obs.mm.map_stack.plain_nohuge no
expect_i386 mm.thp.compat32.pmd_multiple unaligned
expect_i386 mm.thp.compat32.non_multiple unaligned
expect_i386 mm.thp.compat32.not_forced pass

# memfd, with the host's vm.memfd_noexec inherited
host_noexec=$(cat /proc/sys/vm/memfd_noexec)
expect obs.mm.memfd.sysctl "$host_noexec"
exec_fd='fd 0777 seals 0x1' sealed_fd='fd 0666 seals 0x20'
expect obs.mm.memfd.noexec_seal "$sealed_fd"
expect obs.mm.memfd.fchmod_sealed EPERM
expect obs.mm.memfd.add_seal_exec 'seals 0x3e'
case $host_noexec in
0) expect obs.mm.memfd.plain "$exec_fd"; expect obs.mm.memfd.exec "$exec_fd" ;;
1) expect obs.mm.memfd.plain "$sealed_fd"; expect obs.mm.memfd.exec "$exec_fd" ;;
2) expect obs.mm.memfd.plain "$sealed_fd"; expect obs.mm.memfd.exec EACCES ;;
esac
# Documentation/userspace-api/mfd_noexec.rst, value by value (6.6 on)
if at_least 6 6; then
	want_plain=("$exec_fd" "$sealed_fd" "$sealed_fd") want_exec=("$exec_fd" "$exec_fd" EACCES)
	for v in 0 1 2; do
		if ((v < host_noexec)); then
			expect_match "unobserved.mm.memfd.scope$v.plain" '^skip: writing .* EINVAL \(below the parent'
			continue
		fi
		expect "obs.mm.memfd.scope$v.plain" "${want_plain[v]}"
		expect "obs.mm.memfd.scope$v.exec" "${want_exec[v]}"
		expect "obs.mm.memfd.scope$v.noexec_seal" "$sealed_fd"
	done
fi

# the stack guard gap: stack_guard_gap= pages, else 256
pages=$(tr ' ' '\n' </proc/cmdline | sed -n 's/^stack_guard_gap=//p' | tail -n 1)
expect obs.mm.stack_guard_gap.boot_param "${pages:-none}"
expect obs.mm.stack_guard_gap.gap $((${pages:-256} * 4096))
expect obs.mm.stack_guard_gap.gap_prot_none 0
expect_i386 mm.stack_guard_gap.compat32.gap $((${pages:-256} * 4096))
expect_i386 mm.stack_guard_gap.compat32.gap_prot_none 0

# a fresh init's limits: only in a guest
for r in memlock nofile stack core nproc sigpending msgqueue nproc_is_half_threads_max; do
	expect_match "unobserved.mm.init_rlimits.$r" "^skip: needs vm: not the guest's run of abiwatch vm"
done

# vsyscall, from this shell's own maps line
perms=$(awk '$6 == "[vsyscall]" { print $2 }' /proc/self/maps)
case $perms in
r-xp) mode=emulate read=ok call=ok ;;
--xp) mode=xonly read=SIGSEGV call=ok ;;
'') mode=none read=SIGSEGV call=SIGSEGV perms=absent ;;
*) mode=unknown ;;
esac
expect obs.mm.vsyscall.maps "$perms"
expect obs.mm.vsyscall.mode "$mode"
expect obs.mm.vsyscall.read "$read"
expect obs.mm.vsyscall.call "$call"
vs=$(tr ' ' '\n' </proc/cmdline | sed -n 's/^vsyscall=//p' | tail -n 1)
expect obs.mm.vsyscall.boot_param "${vs:-none}"

# vm.*: as read, and what they refuse
for k in mmap_min_addr max_map_count overcommit_memory overcommit_ratio overcommit_kbytes; do
	expect "obs.mm.vm.$k" "$(cat /proc/sys/vm/$k)"
done
(($(cat /proc/sys/vm/mmap_min_addr) > 0)) && expect obs.mm.vm.below_min EPERM
expect_match obs.mm.vm.hint_floor '^0x[0-9a-f]+$'
floor=${snap[obs.mm.vm.hint_floor]-0}
(($floor >= $(cat /proc/sys/vm/mmap_min_addr))) && report ok "hint_floor $floor is at or above vm.mmap_min_addr" ||
	report bad "hint_floor $floor is below vm.mmap_min_addr"
max=$(cat /proc/sys/vm/max_map_count)
if ((max <= 262144)); then
	expect obs.mm.vm.map_count_errno ENOMEM
	expect obs.mm.vm.map_count_reached $((max + 1))
fi
case $(cat /proc/sys/vm/overcommit_memory) in
1) expect obs.mm.vm.overcommit_refusal mapped ;;
*) expect obs.mm.vm.overcommit_refusal ENOMEM ;;
esac

# the example assumption: held exactly where both sizes stay unaligned
example=examples/assumptions/jvm-unaligned-anonymous-mappings.assume
"$abiwatch" check "$example" "$tmp/snap" >"$tmp/check" 2>&1
crc=$?
if [[ ${snap[obs.mm.thp.anon64.pmd_multiple]} == unaligned && ${snap[obs.mm.thp.anon64.non_multiple]} == unaligned ]]; then
	want=0 verdict=held
else
	want=1 verdict=broken
fi
[[ $crc == "$want" ]] && report ok "$example: $verdict (exit $crc)" || { report bad "$example: exit $crc, want $want"; cat "$tmp/check"; }

settings >"$tmp/after"
diff -u "$tmp/before" "$tmp/after" >"$tmp/settings.diff" && report ok "vm.* and the THP mode unchanged" ||
	{ report bad "settings changed:"; cat "$tmp/settings.diff"; }
finish

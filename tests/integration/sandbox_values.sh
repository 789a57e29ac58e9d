#!/usr/bin/env bash
# sandbox_values: the sandbox family on this machine.
#   - `abiwatch run sandbox` ten times in a row: each exits 0 and the ten
#     snapshots are identical (every set is measured one member at a
#     time, nothing depends on timing);
#   - every check passes, and the values every kernel since 5.19 gives
#     are those (tests/lib/sandbox-values.sh); the Landlock rights are
#     those of the ABI version reported; the answers the test can get
#     another way agree: cap_last_cap, unprivileged_bpf_disabled and
#     seccomp's actions_avail as the shell reads them, the security
#     modules as a securityfs of the test's own lists them;
#   - nothing outlives the probes: the BPF objects the machine's
#     processes hold (their /proc/PID/fd links to anon_inode:bpf-*), the
#     pinned ones (a mounted bpffs), and host-state's knobs are unchanged;
#   - without CAP_BPF, CAP_SYS_ADMIN and CAP_SETPCAP (capsh; abiwatch then
#     runs its probes in a user namespace): the root BPF sweep and the
#     securityfs of the probe's own are skipped with those capabilities as
#     the cause, everything else the same, the unprivileged BPF answers
#     too (made there by a plain child, which is unprivileged already);
#   - the diff of the fixture snapshots (tests/fixtures/sandbox/: this
#     family in Debian's 6.1 and 6.12 guests) names what came by name:
#     Landlock ABI 2 -> 6 with its six rights, the BPF types.
# In the guests: tests/integration/vm_sandbox.sh.
set -u
cd "$(dirname "$0")/../.." || exit 1
. tests/lib/dirent-common.sh
. tests/lib/sandbox-values.sh

tmp=$(mktemp -d "${TMPDIR:-/tmp}/abiwatch-sandboxval.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT

# Every BPF object some process holds a descriptor of, and every pinned one.
bpf_objects() {
	local fd
	for fd in /proc/[0-9]*/fd/*; do
		readlink "$fd" 2>/dev/null
	done | grep -cE '^anon_inode:(bpf-|btf$)'
	awk '$3 == "bpf" { print $2 }' /proc/self/mounts | while read -r dir; do find "$dir" 2>/dev/null; done
}
check_host=0
host_state() { tests/lib/host-state | grep -E '^knobs '; }
[[ -z $(tests/lib/host-state --missing) ]] && { check_host=1; host_state >"$tmp/before"; }
bpf_objects >"$tmp/bpf.before"

expect_same_runs 10 "$tmp" "$abiwatch" run sandbox

load_snapshot "$tmp/1"
bad=$(grep -E '^(check|obs|unobserved)\.sandbox\..* = (fail|error)' "$tmp/1")
[[ -z $bad ]] && report ok "no sandbox item fails or errs" || report bad "failed items:"$'\n'"$bad"
sandbox_expect_same
abi=${snap[obs.sandbox.landlock.abi]-}
case $abi in
2 | 6 | 7) sandbox_expect_landlock "$abi" ;;
*) report bad "Landlock ABI '$abi' is none the test knows the rights of (2, 6, 7)" ;;
esac
expect obs.sandbox.creds.caps.last_cap "$(cat /proc/sys/kernel/cap_last_cap)"
sandbox_expect_unpriv "$(cat /proc/sys/kernel/unprivileged_bpf_disabled)"
expect obs.sandbox.seccomp.actions "$(tr 'a-z ' 'A-Z,' </proc/sys/kernel/seccomp/actions_avail | tr -d '\n')"
# The modules, as a securityfs of the test's own mount namespace lists them.
if lsm=$(unshare -m sh -c 'd=$(mktemp -d) && mount -t securityfs none "$d" && cat "$d/lsm"; umount "$d" 2>/dev/null; rmdir "$d"' 2>/dev/null); then
	expect obs.sandbox.creds.lsm.securityfs "${lsm%,}"
else
	echo "# no securityfs of the test's own here: lsm.securityfs is not compared"
fi
for k in bpf.knob0.prog_types bpf.knob0.map_types; do
	expect_match "unobserved.sandbox.$k" '^skip: needs vm: it sets kernel.unprivileged_bpf_disabled'
done
# The root sweep found the types every kernel since 6.4 has.
for t in SOCKET_FILTER XDP CGROUP_SKB SYSCALL NETFILTER; do
	[[ ,${snap[obs.sandbox.bpf.prog_types]-}, == *,$t,* ]] && report ok "program type $t is there" ||
		report bad "program type $t is missing: ${snap[obs.sandbox.bpf.prog_types]-}"
done
for t in HASH ARRAY RINGBUF SK_STORAGE CGRP_STORAGE STRUCT_OPS; do
	[[ ,${snap[obs.sandbox.bpf.map_types]-}, == *,$t,* ]] && report ok "map type $t is there" ||
		report bad "map type $t is missing: ${snap[obs.sandbox.bpf.map_types]-}"
done

# Without the capabilities the root answers need.
drop=cap_bpf,cap_sys_admin,cap_setpcap
if command -v capsh >/dev/null && machine_userns && machine_cap cap_bpf && machine_cap cap_sys_admin; then
	capsh --drop=$drop -- -c '"$0" run sandbox -o "$1"' "$abiwatch" "$tmp/u" >"$tmp/ktap" 2>&1 ||
		report bad "run without $drop exits $?"
	got=$(diff <(grep -v '^env\.' "$tmp/1") <(grep -v '^env\.' "$tmp/u") | grep '^>' | sed 's/ = .*//' | sort | tr '\n' ' ')
	# The probes run in a user namespace there, where CAP_SETPCAP still
	# sets the process's own securebits; a securityfs of the probe's own
	# needs CAP_SYS_ADMIN of the initial namespace, and lsm.agree then has
	# one list.
	want=(unobserved.sandbox.bpf.map_types unobserved.sandbox.bpf.map_types.refused
		unobserved.sandbox.bpf.prog_types unobserved.sandbox.bpf.prog_types.refused)
	[[ -e /sys/kernel/security/lsm ]] || want+=(check.sandbox.creds.lsm.agree unobserved.sandbox.creds.lsm.securityfs)
	want=$(printf '> %s\n' "${want[@]}" | sort | tr '\n' ' ')
	[[ $got == "$want" ]] && report ok "without $drop: the same snapshot but the root BPF sweep, securebits and securityfs" ||
		report bad "without $drop the snapshot differs in:"$'\n'"$got"$'\n'"expected:"$'\n'"$want"
	for k in bpf.prog_types bpf.map_types; do
		[[ $(grep "^unobserved.sandbox.$k = " "$tmp/u") == *"skip: needs cap_bpf"* ]] && report ok "$k: skipped, needs cap_bpf" ||
			report bad "$k without CAP_BPF: $(grep "^unobserved.sandbox.$k = " "$tmp/u")"
	done
	expect_unpriv_same() { # key
		[[ $(grep "^$1 = " "$tmp/u") == "$(grep "^$1 = " "$tmp/1")" ]] && report ok "$1: the same as root's run" ||
			report bad "$1 differs: $(grep "^$1 = " "$tmp/u")"
	}
	expect_unpriv_same obs.sandbox.bpf.unpriv.prog_types
	expect_unpriv_same obs.sandbox.bpf.unpriv.map_types
else
	echo "# no capsh, user namespaces, CAP_BPF or CAP_SYS_ADMIN here: the run without them is not made"
fi

# The fixtures' diff names what came, by name.
"$abiwatch" diff tests/fixtures/sandbox/6.1.snapshot tests/fixtures/sandbox/6.12.snapshot >"$tmp/diff"
rc=$?
[[ $rc == 1 ]] && report ok "diff 6.1 -> 6.12 exits 1 (the kernels differ)" || report bad "diff 6.1 -> 6.12 exits $rc"
landlock=$(grep '^  changed   sandbox.landlock:' "$tmp/diff")
for w in 'abi: 2 -> 6' 'rights: 14 -> 20:' +LANDLOCK_ACCESS_FS_TRUNCATE +LANDLOCK_ACCESS_FS_IOCTL_DEV \
	+LANDLOCK_ACCESS_NET_BIND_TCP +LANDLOCK_ACCESS_NET_CONNECT_TCP +LANDLOCK_SCOPE_ABSTRACT_UNIX_SOCKET +LANDLOCK_SCOPE_SIGNAL; do
	[[ $landlock == *"$w"* ]] && report ok "the Landlock line names '$w'" || report bad "the Landlock line lacks '$w': $landlock"
done
bpf=$(grep '^  changed   sandbox.bpf:' "$tmp/diff")
for w in 'map_types: 31 -> 33: +CGRP_STORAGE +ARENA' 'prog_types: 30 -> 31: +NETFILTER'; do
	[[ $bpf == *"$w"* ]] && report ok "the BPF line names '$w'" || report bad "the BPF line lacks '$w': $bpf"
done

bpf_objects | diff "$tmp/bpf.before" - >"$tmp/bpfdiff" && report ok "the BPF objects held and pinned on the machine are unchanged" ||
	{ report bad "the machine's BPF objects changed:"; cat "$tmp/bpfdiff"; }
if ((check_host)); then
	host_state | diff "$tmp/before" - >"$tmp/hostdiff" && report ok "the host's knobs are unchanged" ||
		{ report bad "the host changed:"; cat "$tmp/hostdiff"; }
else
	echo "# host-state cannot look here: $(tests/lib/host-state --missing)"
fi
finish

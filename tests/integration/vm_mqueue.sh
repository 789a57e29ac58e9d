#!/usr/bin/env bash
# tests/run: sealed
# A real VM: the mqueue family on a Debian cloud kernel in QEMU, as root
# with every capability, so that the privileged paths the host's root
# (without CAP_SYS_RESOURCE) cannot test pass there.  How long boot, run
# and collect take is measured by `make bench` (tests/bench.d/vm_mqueue.sh).
# Downloads the kernel into build/kernels/ the first time
# (tests/lib/debian-kernel).
set -u
abiwatch=${ABIWATCH:-./abiwatch}
skip() { echo "SKIP: $*"; exit 4; }
status=0
ok() { echo "ok   $*"; }
bad() { echo "FAIL $*"; status=1; }

. tests/lib/vm-kernels.sh
vm_kernels "${VM_TEST_SERIES:-6.12}"
deb=${debs[0]}
echo "kernel: $deb"

work=$(mktemp -d "${TMPDIR:-/tmp}/abiwatch-vm.XXXXXX")
trap 'rm -rf "$work"' EXIT

"$abiwatch" vm --deb "$deb" --timeout 120 -o "$work/vm.snapshot" -- mqueue >"$work/vm.ktap" 2>"$work/vm.err"
rc=$?
cat "$work/vm.err"
echo "abiwatch vm: exit $rc"
[[ $rc == 0 ]] && ok "vm run exits 0" || bad "vm run exits $rc"
[[ -s $work/vm.snapshot ]] || { echo "FAIL: no snapshot"; exit 1; }

tests/lib/ktap-check "$work/vm.ktap" && ok "the guest's KTAP parses" || bad "the guest's KTAP does not parse"
grep -q '^ok 1 mqueue$' "$work/vm.ktap" && ok "KTAP: mqueue passed" || bad "KTAP: mqueue did not pass"

# Every privileged check ran and passed: no skip for want of a capability.
priv=$(grep '^check\.mqueue\.privileged\.' "$work/vm.snapshot")
echo "$priv"
[[ $(wc -l <<<"$priv") -ge 2 ]] && ok "privileged checks present" || bad "privileged checks missing"
notpass=$(grep -v ' = pass$' <<<"$priv")
[[ -z $notpass ]] && ok "every check.mqueue.privileged.* = pass" || bad "privileged checks not passing: $notpass"
grep -qx 'obs.mqueue.privileged.hard_msgmax = 65536' "$work/vm.snapshot" &&
	ok "obs.mqueue.privileged.hard_msgmax = 65536" || bad "hard_msgmax: $(grep hard_msgmax "$work/vm.snapshot")"
skips=$(grep -E '^(check|probe)\.mqueue\..* = skip' "$work/vm.snapshot")
[[ -z $skips ]] && ok "nothing of mqueue skipped in the VM" || bad "skipped in the VM: $skips"
grep -q '^env\.caps = .*cap_sys_resource' "$work/vm.snapshot" && ok "the guest run held CAP_SYS_RESOURCE" ||
	bad "env.caps lacks cap_sys_resource"
grep -qE '^env\.vm\.accel = (tcg|kvm)$' "$work/vm.snapshot" && ok "env.vm.accel recorded" || bad "no env.vm.accel"
release=$(sed -n 's/^env\.kernel\.release = //p' "$work/vm.snapshot")
[[ $release == "$(uname -r)" ]] && bad "the snapshot is of the host's kernel" || ok "the guest's kernel: $release"

# The snapshot is a valid one: the strict reader takes it.
"$abiwatch" diff "$work/vm.snapshot" "$work/vm.snapshot" >/dev/null && ok "the snapshot reads back" ||
	bad "the snapshot does not read back"
exit $status

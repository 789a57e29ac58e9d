#!/usr/bin/env bash
# tests/run: sealed
# vm_sysctl: one `abiwatch matrix --host` over Debian's 6.1 and 6.12
# cloud kernels (QEMU, 1024 MiB each) and this machine, families sysctl
# and cgroup, each guest given its kernel's /boot/config-RELEASE from the
# .deb by abiwatch itself (no --file), as a distribution installs it.
# Asserted on the snapshots and on the 6.1 -> 6.12 diff the matrix writes
# (and its --verbose twin, which lists each item of an object):
#   - knobs that appeared (kernel.io_uring_disabled, 6.6; dev.tty.
#     legacy_tiocsti, 6.2) and vanished (kernel.sched_child_runs_first,
#     6.7; fs.quota.warnings, configured out: PRINT_QUOTA_WARNING), each
#     with its meaning; sched_autogroup_enabled 0 -> 1 folded under the
#     distribution (Debian dropped its own patch), not a default that moved;
#   - nothing merely sized from memory is taken for a kernel default:
#     knobs sized from memory or CPUs are declared `varies with` (abiwatch
#     list -v), and diff folds them under the causes memory and cpus
#     (6.1 -> 6.12: the guests' memory differs by the kernels' own size;
#     6.12 -> host: memory and CPUs); every numeric value left among the
#     kernel changes is a documented default move.
#   - cgroup: v1 memory and cpuset mount on 6.1 and not on 6.12
#     (CONFIG_MEMCG_V1 unset), memory.kmem.limit_in_bytes on 6.1 accepts
#     -1; in the guests global knobs are written back, on the host never;
#   - the example assumptions: the kmem rule holds on 6.1, breaks on 6.12.
set -u
cd "$(dirname "$0")/../.." || exit 1
. tests/lib/dirent-common.sh

command -v jq >/dev/null || skip "jq not installed (scripts/install-deps)"
. tests/lib/vm-kernels.sh
vm_kernels 6.1 6.12
tmp=$(mktemp -d "${TMPDIR:-/tmp}/abiwatch-vmsysctl.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT

"$abiwatch" matrix -q --host --memory 1024 -o "$tmp/m" "${debs[@]}" -- sysctl cgroup \
	>"$tmp/out" 2>&1
rc=$?
[[ $rc == 0 ]] && report ok "matrix exits 0" || { report bad "matrix exits $rc"; cat "$tmp/out"; }
cat "$tmp/m/matrix.txt" 2>/dev/null
s61=$(ls "$tmp"/m/6.1.*.snapshot 2>/dev/null) s612=$(ls "$tmp"/m/6.12.*.snapshot 2>/dev/null)
host=$(ls "$tmp"/m/host-*.snapshot 2>/dev/null)
[[ -f $s61 && -f $s612 && -f $host ]] && report ok "a snapshot of each kernel and of the host" ||
	{ report bad "snapshots missing"; finish; }
diff61=$(ls "$tmp"/m/6.1.*--6.12.*.diff)
verbose61=$tmp/verbose61.diff
"$abiwatch" diff --verbose "$s61" "$s612" >"$verbose61"

# ---- each guest ----
for s in "$s61" "$s612"; do
	load_snapshot "$s"
	rel=${snap[env.kernel.release]}
	echo "# $rel"
	expect obs.sysctl.kconfig.source "/boot/config-RELEASE"
	expect obs.sysctl.knob.vm.swappiness.writeback accepted
	expect obs.sysctl.knob.net.ipv4.tcp_tw_recycle.value "absent (CONFIG_INET=y)"
	expect obs.cgroup.v2.controllers "cpuset cpu io memory hugetlb pids rdma misc"
	expect obs.cgroup.v2.child.memory.max.value max
	expect obs.cgroup.v2.child.pids.max.value max
	expect obs.cgroup.v1.pids.mount ok
	# abiwatch's list of namespaced knobs holds against this kernel's.
	for scope in ipc net user uts; do expect "check.sysctl.scopes.$scope" pass; done
done
load_snapshot "$s61"
expect obs.cgroup.v1.memory.mount ok
expect obs.cgroup.v1.cpuset.mount ok
expect_match obs.cgroup.v1.kmem_limit.write '^(ok|errno 524)$'
expect obs.sysctl.knob.kernel.sched_child_runs_first.value 0
load_snapshot "$s612"
expect obs.sysctl.kconfig.memcg_v1 n
expect obs.cgroup.v1.memory.mount EINVAL
expect obs.cgroup.v1.cpuset.mount EINVAL
expect obs.cgroup.v1.kmem_limit.write "no v1 memory controller (mount: EINVAL)"
expect obs.sysctl.knob.kernel.io_uring_disabled.value 0

# ---- the diff 6.1 -> 6.12: appeared, vanished, moved, each with a meaning ----
# Each item's line, below its object's with --verbose.
has_line() { # what regex [file]
	grep -qE "$2" "${3-$verbose61}" && report ok "diff: $1" ||
		report bad "diff: $1: no line matching '$2' in ${3-$verbose61}"
}
k='obs\.sysctl\.knob'
has_line "io_uring_disabled appeared" "^    added +$k\.kernel\.io_uring_disabled\.mode = 0644 -- .*one that appeared is a new interface"
has_line "io_uring_disabled's value, with its meaning" \
	"^    changed +$k\.kernel\.io_uring_disabled\.value: absent \(CONFIG_IO_URING=y\) -> 0 -- io_uring_setup\(\) may now fail with EPERM"
has_line "legacy_tiocsti appeared" "^    added +$k\.dev\.tty\.legacy_tiocsti\.mode = 0644 -- "
has_line "legacy_tiocsti's value, with its meaning" \
	"^    changed +$k\.dev\.tty\.legacy_tiocsti\.value: absent -> 0 -- 0: ioctl\(TIOCSTI\) fails with EIO for programs without CAP_SYS_ADMIN"
has_line "memfd_noexec appeared" "^    changed +$k\.vm\.memfd_noexec\.value: absent \(CONFIG_MEMFD_CREATE=y\) -> 0 -- "
has_line "sched_child_runs_first vanished" \
	"^    removed +$k\.kernel\.sched_child_runs_first\.mode \(was 0644\) -- a knob that vanished fails every sysctl.conf line"
has_line "sched_child_runs_first's value, with its meaning" \
	"^    changed +$k\.kernel\.sched_child_runs_first\.value: 0 -> absent -- sysctl.conf lines setting it fail with ENOENT"
has_line "fs.quota.warnings vanished" "^    removed +$k\.fs\.quota\.warnings\.mode "
has_line "... because of the configuration" \
	"^    changed +obs\.sysctl\.kconfig\.print_quota_warning: y -> absent -- the kernel was configured differently"
# Debian's own patch turned autogroup off by default until 6.9.7-1
# (#1070083): the distribution's doing, not the kernel's default moving.
grep -qE '^  distro: 1 follows the distribution.s configuration or patches .*: obs\.sysctl\.knob\.kernel\.sched_autogroup_enabled\.value$' "$diff61" &&
	report ok "6.1 -> 6.12: sched_autogroup_enabled folded under the distribution's patch" ||
	report bad "6.1 -> 6.12: no 'distro:' cause line naming sched_autogroup_enabled"
has_line "v1 memory hierarchy gone, with its meaning" \
	"^  changed +obs\.cgroup\.v1\.memory\.mount: ok -> EINVAL -- runtimes and tools that still use cgroup v1"
meaningless=$(grep -E '^ +(added|removed|changed|skipped|unskipped) +obs\.(sysctl|cgroup)\.' "$verbose61" | grep -v ' -- ' | head -3)
[[ -z $meaningless ]] && report ok "every sysctl and cgroup change has a meaning" ||
	report bad "changes without a meaning: $meaningless"
# Without --verbose: one line per knob, what appeared as names.
has_line "a knob that vanished is one line, mode, value and write-back" \
	"^  vanished  sysctl\.knob\.kernel\.sched_child_runs_first: mode \(was 0644\); value: 0 -> absent; writeback \(was accepted\) -- sysctl.conf lines" "$diff61"
sed -n '/^interfaces that appeared/,/^[^ ]/{ /^  /p }' "$diff61" >"$tmp/appeared61"
has_line "knobs that appeared: every name, wrapped" \
	"^  sysctl\.knob [0-9]+: dev\.tty\.legacy_tiocsti, " "$tmp/appeared61"
has_line "... kernel.io_uring_disabled among them" "[ ,]kernel\.io_uring_disabled," "$tmp/appeared61"
[[ $(grep -c '^  sysctl\.knob ' "$tmp/appeared61") == 1 && $(grep -c '^  [a-z]' "$tmp/appeared61") -le 2 ]] &&
	report ok "diff: what appeared, a head per family, the names wrapped below it" || report bad "diff: what appeared: $(cat "$tmp/appeared61")"
has_line "the kernel configurations compared, read from each package" \
	"^  changed   sysctl\.kconfig: .*print_quota_warning: y -> absent" "$diff61"
grep -q 'no kernel configuration' "$diff61" && report bad "a kconfig skip in the 6.1 -> 6.12 diff" ||
	report ok "no kconfig skip in the 6.1 -> 6.12 diff"
grep -qE '^  (added|removed) +obs\.sysctl\.knob\.[^ ]*\.(mode|writeback)' "$diff61" &&
	report bad "a knob's mode or write-back on a line of its own" || report ok "no knob split into mode/value/writeback lines"

# ---- nothing merely sized from memory taken for a kernel change ----
"$abiwatch" list -v sysctl.knob | awk '$1 == "obs" { item = $2 } /varies with:/ { print item }' >"$tmp/varies"
for item in kernel.threads-max fs.file-max fs.epoll.max_user_watches fs.inotify.max_user_watches \
	user.max_user_namespaces vm.min_free_kbytes vm.user_reserve_kbytes net.ipv4.tcp_max_tw_buckets kernel.pid_max; do
	grep -qx "sysctl.knob.$item.value" "$tmp/varies" || report bad "$item is not declared as varying with the machine"
done
report ok "$(wc -l <"$tmp/varies") knobs declared as varying with memory or cpus"
# The guests' memory differs by the kernels' own size, so diff folds the
# values sized from it under the cause "memory", never among the kernel
# changes; every numeric value left there is a documented default move.
documented_moves=" kernel.sched_autogroup_enabled "
kernel_section() { sed -n '/^kernel changes:/,/^[^ ]/p' "$1" | grep '^  ' | sed 's/^    /  /'; }
undeclared=() declared=()
while IFS= read -r line; do
	[[ $line =~ ^\ \ changed\ +obs\.sysctl\.knob\.(.+)\.value:\ ([-0-9\ ]+)\ -\>\ ([-0-9\ ]+)\ --\  ]] || continue
	knob=${BASH_REMATCH[1]}
	if grep -qx "sysctl.knob.$knob.value" "$tmp/varies"; then declared+=("$knob")
	elif [[ $documented_moves != *" $knob "* ]]; then undeclared+=("$knob ${BASH_REMATCH[2]} -> ${BASH_REMATCH[3]}")
	fi
done < <(kernel_section "$verbose61")
((${#declared[@]} == 0)) && report ok "no value sized from memory is listed as a kernel change" ||
	report bad "machine-sized values listed as kernel changes: ${declared[*]}"
((${#undeclared[@]} == 0)) && report ok "every numeric default that moved is a documented one" ||
	report bad "numeric values moved, neither documented nor declared: ${undeclared[*]}"
grep -qE '^  memory: [0-9]+ follow the machine.s memory \(it differs\): .*obs\.sysctl\.knob\.' "$diff61" &&
	report ok "6.1 -> 6.12: the memory-sized knobs are folded under the cause memory" ||
	report bad "6.1 -> 6.12: no 'memory:' cause line naming sysctl knobs"
head -n 1 "$diff61" | grep -qE '^[0-9]+ kernel changes, 0 new failures \(sysctl [0-9]+ \+ [0-9]+ appeared \+ [0-9]+ vanished, cgroup [^)]*\); [0-9]+ items not comparable: ([^;]*, )?[0-9]+ follow (the machine.s memory|what the kernel had at boot)' &&
	report ok "6.1 -> 6.12: the summary line counts them as not comparable" ||
	report bad "6.1 -> 6.12 summary: $(head -n 1 "$diff61")"
diffhost=$(ls "$tmp"/m/6.12.*--host-*.diff)
# Since 6.14 (7863dcc72d0f) pid_max is per PID namespace, and the probe
# reads it in a fresh one: the host's 4194304 is that namespace's, not
# the machine's limit.
grep -qE '^  pidns: 1 follows the PID namespace it was read in .*kernel\.pid_max' "$diffhost" &&
	report ok "6.12 -> host: kernel.pid_max folded under the PID namespace it was read in" ||
	report bad "6.12 -> host: no 'pidns:' cause line naming kernel.pid_max"
grep -qE '^  vm: [0-9]+ need a VM \(not on the new side\): .*obs\.cgroup\.v1\.' "$diffhost" &&
	report ok "6.12 -> host: cgroup v1 items folded under the cause vm" ||
	report bad "6.12 -> host: no 'vm:' cause line naming cgroup.v1 items"

# A fresh boot against a running machine: no knob value is a kernel
# change (the host's may be its set-up's: sysctl.d, its command line,
# its init), they fold under the cause setup; a knob that came or went
# still counts.
grep -qx 'env.setup = fresh boot' "$s612" && grep -qx "env.setup = this machine's" "$host" &&
	report ok "env.setup: a fresh boot in the guest, this machine's on the host" ||
	report bad "env.setup: $(grep '^env.setup' "$s612" "$host")"
# (dev.tty.legacy_tiocsti has an entry of its own: its default is
# CONFIG_LEGACY_TIOCSTI's, which Debian's 6.12 and this host set apart.)
values=$(grep -E '^ +changed +obs\.sysctl\.knob\.[^ ]*\.value: ' <(kernel_section "$diffhost") |
	grep -v 'obs\.sysctl\.knob\.dev\.tty\.legacy_tiocsti\.value')
[[ -z $values ]] && report ok "6.12 -> host: no knob value among the kernel changes but those the catalogue names" ||
	report bad "6.12 -> host: knob values among the kernel changes: $values"
grep -qE "^  setup: [0-9]+ follow the machine.s set-up .*: .*obs\.sysctl\.knob\." "$diffhost" &&
	report ok "6.12 -> host: knob values folded under the cause setup" ||
	report bad "6.12 -> host: no 'setup:' cause line naming knob values"

# No write-back the host leaves undone by design is a kernel change.
grep -qE '^ +[a-z]+ +(obs\.)?sysctl\.knob\.[^ ]*writeback' <(kernel_section "$diffhost") &&
	report bad "6.12 -> host: a write-back among the kernel changes" ||
	report ok "6.12 -> host: no write-back among the kernel changes"
"$abiwatch" diff -f json "$s612" "$host" |
	jq -e '[.changes[] | select(.cause == "vm" and (.name | endswith(".writeback")))] | length > 100' >/dev/null &&
	report ok "6.12 -> host: the guest's global write-backs folded under the cause vm" ||
	report bad "6.12 -> host: no write-back under the cause vm"

# ---- the host: global knobs never written, each recorded as a skip ----
load_snapshot "$host"
global=$(printf '%s\n' "${!snap[@]}" | sed -nE 's/^obs\.sysctl\.knob\.(.+)\.writeback$/\1/p' |
	grep -vE '^(net\.|fs\.mqueue\.|user\.|kernel\.(hostname|domainname|shm(max|all|mni|_rmid_forced)|msg(max|mnb|mni)|auto_msgmni|sem|(msg|sem|shm)_next_id)$)' | head -5)
[[ -z $global ]] && report ok "host: only namespaced knobs written back" || report bad "host: global knobs written back: $global"
expect_match unobserved.sysctl.knob.vm.swappiness.writeback '^skip: needs vm: '
expect_match unobserved.cgroup.v1.memory.mount '^skip: needs vm: only in an abiwatch vm guest'

# ---- the example assumptions against the guests ----
ex=examples/assumptions/sysctl-conf-2016.assume
"$abiwatch" check "$ex" "$s61" >"$tmp/c61" 2>&1
grep -q '^held .*cgroup.v1.kmem_limit.write == ok' "$tmp/c61" && grep -q '^held .*sched_child_runs_first' "$tmp/c61" &&
	report ok "6.1: the runtime's kmem write and sched_child_runs_first hold" || { report bad "6.1 check"; cat "$tmp/c61"; }
"$abiwatch" check "$ex" "$s612" >"$tmp/c612" 2>&1
grep -q '^broken .*cgroup.v1.kmem_limit.write == ok' "$tmp/c612" && grep -q '^broken .*sched_child_runs_first' "$tmp/c612" &&
	report ok "6.12: both break" || { report bad "6.12 check"; cat "$tmp/c612"; }
finish

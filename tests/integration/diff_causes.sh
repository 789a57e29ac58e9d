#!/usr/bin/env bash
# tests/run: sealed
# diff, check, KCIDB and report on hand-edited snapshots (tests/fixtures/
# causes/) of machines this one cannot be: one lacking user namespaces and
# xfs, with less memory and fewer CPUs.  Skips that name a cause are never
# kernel changes, in either direction; they fold by cause; the exit status
# says whether the kernel changed; check says "unknown (CAUSE)"; KCIDB
# marks them SKIP with the cause and stays schema-valid.  And this machine's
# own env.userns, env.i386, env.cpus, env.memory and env.fs agree with
# tests/lib/machine.
set -u
export LC_ALL=C
abiwatch=${ABIWATCH:-./abiwatch}
fx=tests/fixtures/causes
work=$(mktemp -d "${TMPDIR:-/tmp}/abiwatch-causes.XXXXXX")
trap 'rm -rf "$work"' EXIT
status=0
ok() { echo "ok   $*"; }
bad() { echo "FAIL $*"; status=1; }

expect_diff() { # what exit first-line old new [options]
	local what=$1 want_rc=$2 want=$3 old=$4 new=$5
	shift 5
	"$abiwatch" diff "$@" "$old" "$new" >"$work/out" 2>"$work/err"
	local rc=$?
	[[ $rc == "$want_rc" && $(head -n 1 "$work/out") == "$want" ]] && ok "$what: exit $rc, $want" ||
		{ bad "$what: exit $rc (want $want_rc)"; head -n 3 "$work/out" "$work/err"; }
}

expect_diff "only the machine differs" 0 \
	"0 kernel changes, 0 new failures; 10 items not comparable: 5 need the xfs filesystem (not on the new side), 5 need user namespaces (not on the new side)" \
	$fx/full.snapshot $fx/lacking.snapshot
expect_diff "the other way round" 0 \
	"0 kernel changes, 0 new failures; 10 items not comparable: 5 need the xfs filesystem (not on the old side), 5 need user namespaces (not on the old side)" \
	$fx/lacking.snapshot $fx/full.snapshot
expect_diff "one kernel change beside them" 1 \
	"1 kernel change, 0 new failures (mqueue 1); 10 items not comparable: 5 need the xfs filesystem (not on the new side), 5 need user namespaces (not on the new side)" \
	$fx/full.snapshot $fx/lacking-changed.snapshot
# A change of an item that does not follow the machine stays the kernel's,
# however the memory differs.
sed -n '/^kernel changes:$/,/^[^ ]/p' "$work/out" | grep -q '^  changed   obs.mqueue.noattr.maxmsg: 10 -> 8' &&
	ok "maxmsg 10 -> 8 is a kernel change although env.memory differs" || bad "maxmsg not a kernel change"
grep -q '^  env.memory: 4294967296 -> 1073741824$' "$work/out" && grep -q '^  env.userns: yes -> no: ' "$work/out" &&
	grep -q '^  env.fs: lost xfs$' "$work/out" && ok "the environment: memory, userns, fs" || bad "environment lines"
grep -qE '^  (fs:xfs|userns): 5 need ' "$work/out" && ok "one line per cause" || bad "cause lines"

# A security module built but not started (env.lsm) and a capability the
# run lacks (env.caps): the items they decide fold under their causes,
# both ways, and are never kernel changes.
expect_diff "a security module not started, a capability lacking" 0 \
	"0 kernel changes, 0 new failures; 5 items not comparable: 4 need the yama security module (not on the new side), 1 needs CAP_SYS_RESOURCE (not on the new side)" \
	$fx/setup-a.snapshot $fx/setup-b.snapshot
expect_diff "a security module started, a capability held" 0 \
	"0 kernel changes, 0 new failures; 5 items not comparable: 4 need the yama security module (not on the old side), 1 needs CAP_SYS_RESOURCE (not on the old side)" \
	$fx/setup-b.snapshot $fx/setup-a.snapshot
# A probe the loaded machine starved (runner: a second try alone ran out
# of time too while the machine was loaded) is not comparable, either way,
# and check cannot decide on its items.
expect_diff "a starved probe" 0 \
	"0 kernel changes, 0 new failures; 5 items not comparable: 5 need CPU time that a loaded machine did not give (not on the new side)" \
	$fx/full.snapshot $fx/starved.snapshot
grep -q '^  env.load: (absent) -> starved 1 of 3 probes: dirent.xfs$' "$work/out" &&
	ok "env.load names the starved probe" || bad "env.load line"
expect_diff "a starved probe, the other way round" 0 \
	"0 kernel changes, 0 new failures; 5 items not comparable: 5 need CPU time that a loaded machine did not give (not on the old side)" \
	$fx/starved.snapshot $fx/full.snapshot
printf '%s\n' 'dirent.xfs.cookie_bits <= 32 : "32-bit cookies on xfs"' >"$work/starved.assume"
"$abiwatch" check "$work/starved.assume" $fx/starved.snapshot >"$work/check"; rc=$?
[[ $rc == 4 ]] && grep -q '^unknown (load) .*starved.assume:1:' "$work/check" &&
	ok "check on a starved probe: unknown (load), exit 4" || { bad "check starved (exit $rc)"; cat "$work/check"; }

# Debian's 6.1.192 booted twice (boot-a, boot-b, cut from real guests'
# snapshots): fs.file-max moved with the pages free at boot, which the
# formula explains; kernel.nmi_watchdog's mode on a CPU without a PMU is
# the machine's.  A value the formula cannot give is the kernel's.
expect_diff "one kernel booted twice" 0 \
	"0 kernel changes, 0 new failures; 2 items not comparable: 1 needs a CPU with a PMU (hardware performance counters) (not on the new side), 1 follows what the kernel had at boot (the same formula from other inputs)" \
	$fx/boot-a.snapshot $fx/boot-b.snapshot
grep -q '^  sized: 1 follows what the kernel had at boot (the same formula from other inputs): obs.sysctl.knob.fs.file-max.value$' "$work/out" &&
	ok "file-max folded under sized" || bad "file-max not under sized"
"$abiwatch" diff -v $fx/boot-a.snapshot $fx/boot-b.snapshot | grep -q '\[sized at boot by the same formula from other inputs: max((pages - min(3/2 x (pages - free pages), pages - 1)) x page KiB / 10, 8192) (fs/file_table.c files_maxfiles_init()); the free pages at that moment of boot, not recorded: taken from half of MemTotal.s pages to all of them; both values fit (248874 -> 248874 pages of 4096 B)\]$' &&
	ok "the fold's words name the formula and the range taken" || bad "the fold's words"
expect_diff "a value outside the formula" 1 \
	"1 kernel change, 0 new failures (sysctl 1); 1 item not comparable: 1 needs a CPU with a PMU (hardware performance counters) (not on the new side)" \
	$fx/boot-a.snapshot $fx/boot-formula.snapshot

# fs.epoll.max_user_watches, sized at fs_initcall from the pages before
# the initramfs is freed: two boots of 6.12.118, two initramfs sizes.
expect_diff "epoll watches: one kernel booted twice" 0 \
	"0 kernel changes, 0 new failures; 1 item not comparable: 1 follows what the kernel had at boot (the same formula from other inputs)" \
	$fx/epoll-a.snapshot $fx/epoll-b.snapshot
"$abiwatch" diff -v $fx/epoll-a.snapshot $fx/epoll-b.snapshot | grep -q '\[sized at boot by the same formula from other inputs: (pages / 25) x PAGE_SIZE / 184, .*eventpoll_init().*; both values fit (247551 -> 247551 pages of 4096 B)\]$' &&
	ok "epoll watches: the fold names eventpoll_init()'s formula" || bad "epoll watches: the fold's words"
expect_diff "epoll watches: a value outside the formula" 1 \
	"1 kernel change, 0 new failures (sysctl 1); 0 items not comparable" \
	$fx/epoll-a.snapshot $fx/epoll-formula.snapshot
# Calls and the elements of key lists that a configuration option
# decides (optlist-61, -612, -host: cut from the matrix's snapshots of
# Debian's 6.1 and 6.12 and this host, with surface.kconfig's options for
# the keys set as the keys present imply): each element on one side only
# whose option is off there and on on the other folds under config:NAME,
# one part of the line per option; what no option explains stays the
# kernel's (Balloon, 6.15; Kthread, untag_mask).
elements() { # old new: the verbose diff in $work/out, its kernel changes in $work/kernel
	"$abiwatch" diff -v "$1" "$2" >"$work/out" 2>"$work/err"
	echo "exit $?" >>"$work/out"
	sed -n '/^kernel changes:$/,/^[^ ]/p' "$work/out" >"$work/kernel"
}
elements $fx/optlist-612.snapshot $fx/optlist-host.snapshot
head -n 1 "$work/out" | grep -qF "2 kernel changes, 0 new failures (surface 2); 18 items not comparable: 8 need the kernel option x86_iopl_ioperm (not on the new side), 5 need the kernel option x86_user_shadow_stack (not on the new side)" &&
	ok "6.12 -> host: ioperm, iopl, map_shadow_stack, the x86_Thread_features keys folded by option" || { bad "6.12 -> host summary"; head -n 1 "$work/out"; }
grep -qF 'changed   obs.surface.syscalls.ioperm.present: yes -> no -- ' "$work/out" &&
	grep -qF '[configured out on the new side: surface.kconfig.x86_iopl_ioperm = n there, y on the old (arch/x86/Kconfig X86_IOPL_IOPERM' "$work/out" &&
	ok "ioperm: configured out (X86_IOPL_IOPERM), with the Kconfig's words" || bad "ioperm words"
grep -qF '[HardwareCorrupted: on the new side, CONFIG_MEMORY_FAILURE is not an option of this kernel (surface.kconfig.memory_failure = absent: its configuration does not name it; no such option, or its dependencies unmet), y on the old (fs/proc/meminfo.c meminfo_proc_show(), under CONFIG_MEMORY_FAILURE)]' "$work/out" &&
	grep -qF '[Zswap, Zswapped: configured out on the old side: surface.kconfig.zswap = n there, y on the new (fs/proc/meminfo.c' "$work/out" &&
	grep -qF '[cpu_resctrl_groups: on the new side, CONFIG_PROC_CPU_RESCTRL is not an option of this kernel' "$work/out" &&
	grep -qF '[patch_state: on the new side, CONFIG_LIVEPATCH is not an option of this kernel' "$work/out" &&
	ok "meminfo and /proc/self: each element under its option, with the file that prints it" || bad "element words"
"$abiwatch" diff $fx/optlist-612.snapshot $fx/optlist-host.snapshot | grep -qx '  changed   obs.surface.text.meminfo.keys: 53 -> 54: +Balloon -- .*' &&
	[[ $(grep -c '^  \(added\|removed\|changed\|appeared\|vanished\)' "$work/kernel") == 2 ]] &&
	ok "meminfo: Balloon, which no option decides, the line's only kernel change" || { bad "Balloon"; cat "$work/kernel"; }
! grep -q 'proc_self\|proc_status\|x86_Thread\|syscalls' "$work/kernel" && ok "no configured-out call or key among the kernel changes" ||
	bad "a configured-out element is a kernel change"
# (b) The option alike on both sides: the element is the kernel's.
sed 's/^obs.surface.kconfig.zswap = n$/obs.surface.kconfig.zswap = y/' $fx/optlist-612.snapshot >"$work/zswap.snapshot"
elements "$work/zswap.snapshot" $fx/optlist-host.snapshot
"$abiwatch" diff "$work/zswap.snapshot" $fx/optlist-host.snapshot | grep -qx '  changed   obs.surface.text.meminfo.keys: 51 -> 54: +Zswap +Zswapped +Balloon -- .*' &&
	! grep -q '^  config:zswap' "$work/out" && ok "Zswap with CONFIG_ZSWAP=y on both sides: a kernel change" || { bad "zswap alike"; cat "$work/kernel"; }
sed 's/^obs.surface.kconfig.x86_iopl_ioperm = n$/obs.surface.kconfig.x86_iopl_ioperm = y/' $fx/optlist-host.snapshot >"$work/iopl.snapshot"
elements $fx/optlist-612.snapshot "$work/iopl.snapshot"
grep -q '^  vanished  surface.syscalls.iopl: present: yes -> no' "$work/kernel" && grep -q '^  vanished  surface.syscalls32.iopl: ' "$work/kernel" && ok "iopl gone with X86_IOPL_IOPERM=y on both sides: vanished" ||
	{ bad "iopl alike"; cat "$work/kernel"; }
# (c) An option the older kernel does not have (6.1: no X86_USER_SHADOW_STACK,
# no UNACCEPTED_MEMORY): "not an option of this kernel", never n.
elements $fx/optlist-61.snapshot $fx/optlist-612.snapshot
head -n 1 "$work/out" | grep -qF "2 kernel changes, 0 new failures (surface 2); 7 items not comparable: 5 need the kernel option x86_user_shadow_stack (not on the old side), 1 needs the kernel option memory_failure (not on the old side), 1 needs the kernel option unaccepted_memory (not on the old side)" &&
	ok "6.1 -> 6.12: map_shadow_stack and the shadow-stack keys folded under config:x86_user_shadow_stack" || { bad "6.1 -> 6.12 summary"; head -n 1 "$work/out"; }
grep -qF '[on the old side, CONFIG_X86_USER_SHADOW_STACK is not an option of this kernel (surface.kconfig.x86_user_shadow_stack = absent: its configuration does not name it; no such option, or its dependencies unmet), y on the new (arch/x86/kernel/shstk.c' "$work/out" &&
	grep -qF '[Unaccepted: on the old side, CONFIG_UNACCEPTED_MEMORY is not an option of this kernel' "$work/out" &&
	! grep -q 'x86_user_shadow_stack = n\|unaccepted_memory = n' "$work/out" && grep -q '^  changed   surface.kconfig: .*unaccepted_memory, x86_user_shadow_stack: absent -> y' "$work/out" &&
	ok "an option 6.1 does not have reads 'not an option of this kernel', not n" || bad "absent words"
"$abiwatch" diff $fx/optlist-61.snapshot $fx/optlist-612.snapshot | grep -q '^  changed   obs.surface.text.proc_status.keys: 59 -> 61: +Kthread +untag_mask -- ' &&
	ok "status keys: Kthread and untag_mask the kernel's, the shadow-stack keys apart" || { bad "status keys"; cat "$work/kernel"; }
# A snapshot that does not record the option: the element is the kernel's.
grep -v '^obs.surface.kconfig.memory_failure ' $fx/optlist-61.snapshot >"$work/unrecorded.snapshot"
"$abiwatch" diff "$work/unrecorded.snapshot" $fx/optlist-612.snapshot | grep -qx '  changed   obs.surface.text.meminfo.keys: 52 -> 53: +HardwareCorrupted -- .*' &&
	ok "memory_failure not recorded on one side: HardwareCorrupted stays a kernel change" || bad "unrecorded option"

# The same snapshot on both sides: silence, exit 0 (as diff(1)).
"$abiwatch" diff $fx/lacking.snapshot $fx/lacking.snapshot >"$work/out"; rc=$?
[[ $rc == 0 && ! -s $work/out ]] && ok "identical: silent, exit 0" || bad "identical: exit $rc, $(head -c 200 "$work/out")"

# JSON: a cause per change, the counts.
"$abiwatch" diff -f json $fx/full.snapshot $fx/lacking-changed.snapshot >"$work/json"
command -v jq >/dev/null || { echo "SKIP: jq not installed for the JSON, check and KCIDB parts"; exit $status; }
[[ $(jq -c '[.summary.kernel_changes, .summary.new_failures, .summary.not_comparable]' "$work/json") == "[1,0,10]" ]] &&
	ok "JSON counts 1, 0, 10" || bad "JSON counts $(jq -c .summary "$work/json")"
[[ $(jq -r '[.changes[] | select(.cause == "userns") | .cause_side] | unique | join(",")' "$work/json") == new ]] &&
	ok "JSON: userns causes on the new side" || bad "JSON userns"
[[ $(jq -r '.summary.causes | map("\(.cause)=\(.count)") | join(" ")' "$work/json") == "fs:xfs=5 userns=5" ]] &&
	ok "JSON: causes fs:xfs=5 userns=5" || bad "JSON causes: $(jq -c .summary.causes "$work/json")"

# check: an assumption the machine left undecidable is unknown (cause).
printf '%s\n' 'mqueue.userns.rlimit_per_uid is pass : "per-uid limits"' \
	'dirent.xfs.cookie_bits <= 32 : "32-bit cookies on xfs"' \
	'mqueue.noattr.maxmsg >= 10 : "ten messages"' >"$work/a.assume"
"$abiwatch" check "$work/a.assume" $fx/lacking-changed.snapshot >"$work/check"; rc=$?
grep -q '^unknown (userns) .*a.assume:1:' "$work/check" && grep -q '^unknown (fs:xfs) .*a.assume:2:' "$work/check" &&
	grep -q '^broken .*a.assume:3:' "$work/check" && ok "check: unknown (userns), unknown (fs:xfs), broken" ||
	{ bad "check verdicts (exit $rc)"; cat "$work/check"; }
"$abiwatch" check "$work/a.assume" $fx/full.snapshot >"$work/check"
[[ $(grep -c '^held ' "$work/check") == 3 ]] && ok "check on the full machine: all held" || { bad "check full"; cat "$work/check"; }
"$abiwatch" check -f ktap "$work/a.assume" $fx/lacking.snapshot | grep -q '^ok 1 a.assume:1 # SKIP unknown (userns): ' &&
	ok "check KTAP: SKIP unknown (userns)" || bad "check KTAP"
"$abiwatch" check -f json "$work/a.assume" $fx/lacking.snapshot >"$work/check.json"
[[ $(jq -r '[.. | objects | select(has("verdict")) | .cause // "-"] | join(" ")' "$work/check.json") == "userns fs:xfs -" ]] &&
	ok "check JSON: causes userns, fs:xfs, none" || bad "check JSON: $(head -c 300 "$work/check.json")"

# KCIDB: SKIP with the cause, valid against the schema.
"$abiwatch" kcidb $fx/lacking.snapshot >"$work/k.json"
[[ $(jq -r '.tests[] | select(.path == "abiwatch.mqueue.userns.rlimit_per_uid") | "\(.status) \(.misc.skip_cause)"' "$work/k.json") == "SKIP userns" &&
   $(jq -r '.tests[] | select(.path == "abiwatch.dirent.xfs") | "\(.status) \(.misc.skip_cause)"' "$work/k.json") == "SKIP fs:xfs" ]] &&
	ok "KCIDB: SKIP with skip_cause userns, fs:xfs" || bad "KCIDB skips"
if python3 -c 'import jsonschema' 2>/dev/null; then
	scripts/kcidb-validate tests/data/kcidb/kcidb-io.schema.v5.3.json "$work/k.json" >"$work/why" 2>&1 &&
		ok "KCIDB document valid" || { bad "KCIDB invalid"; cat "$work/why"; }
else
	echo "# python3-jsonschema not installed: the schema is not checked here (kcidb.sh does where it is)"
fi

# This machine's own abilities, recorded as tests/lib/machine finds them.
. tests/lib/machine
"$abiwatch" run -o "$work/here.snapshot" mqueue.noattr >/dev/null 2>&1
env_of() { sed -n "s/^env\.$1 = //p" "$work/here.snapshot"; }
if machine_userns; then [[ $(env_of userns) == yes ]]; else [[ $(env_of userns) == no:* ]]; fi &&
	ok "env.userns = $(env_of userns)" || bad "env.userns = $(env_of userns)"
if machine_i386; then [[ $(env_of i386) == yes ]]; else [[ $(env_of i386) == no:* ]]; fi &&
	ok "env.i386 = $(env_of i386 | cut -c1-40)" || bad "env.i386 = $(env_of i386)"
[[ $(env_of cpus) == "$(getconf _NPROCESSORS_ONLN)" ]] && ok "env.cpus = $(env_of cpus)" || bad "env.cpus = $(env_of cpus)"
[[ $(env_of memory) == $(($(awk '/^MemTotal:/ { print $2 }' /proc/meminfo) * 1024)) ]] &&
	ok "env.memory = $(env_of memory), MemTotal" || bad "env.memory = $(env_of memory)"
fs_ok=1
for f in tmpfs ext4 xfs btrfs; do
	in_list=0; [[ ,$(env_of fs), == *",$f,"* ]] && in_list=1
	machine_fs "$f" && has=1 || has=0
	((in_list == has)) || { fs_ok=0; echo "# $f: env.fs says $in_list, tests/lib/machine $has"; }
done
((fs_ok)) && ok "env.fs = $(env_of fs), as tests/lib/machine finds them" || bad "env.fs = $(env_of fs)"
exit $status

#!/usr/bin/env bash
# tests/run: sealed
# The causes a snapshot records beside the knob (struct aw_item.witness),
# on hand-edited snapshots (tests/fixtures/causes/module-*, ns-*) cut to
# what Debian's 6.1 and 6.12 guests and this host recorded:
# - a module that registers knobs, there on one side only (nf_conntrack
#   =m not loaded against =y; br_netfilter not loaded against loaded),
#   and 6.1's nf_hooks_lwtunnel, nf_conntrack's there and the netfilter
#   core's in 6.12: module:NAME, never "appeared"; a knob of a module
#   loaded on both sides (fuse) stays a kernel change;
# - kernel.pid_max read in the probe's fresh PID namespace, the machine's
#   (env.sysctl.kernel.pid_max) alike: pidns, not "16-bit pids break";
# - net.core.* that a child network namespace shows on one side only
#   (net.initns on the other): netns, with optmem_max's default that
#   moved kept as a kernel change and said with where each side read it;
# - kernel.sched_autogroup_enabled 0 -> 1 with CONFIG_SCHED_AUTOGROUP
#   alike on a Debian kernel before 6.9.7-1: distro.
# Each cause is taken away again (the witness edited out) to show that
# the change is then the kernel's.  And this machine's run records the
# witnesses: module.* with their options, env.sysctl.kernel.pid_max.
set -u
export LC_ALL=C
abiwatch=${ABIWATCH:-./abiwatch}
fx=tests/fixtures/causes
work=$(mktemp -d "${TMPDIR:-/tmp}/abiwatch-witness.XXXXXX")
trap 'rm -rf "$work"' EXIT
status=0
ok() { echo "ok   $*"; }
bad() { echo "FAIL $*"; status=1; }

first_line() { # old new: the summary, and the whole verbose diff in $work/out
	"$abiwatch" diff -v "$1" "$2" >"$work/out" 2>"$work/err"
	echo "$?:$(head -n 1 "$work/out")"
}
has() { grep -qF -- "$1" "$work/out"; }

# ---- modules ----
got=$(first_line $fx/module-a.snapshot $fx/module-b.snapshot)
want='1:2 kernel changes, 0 new failures (sysctl 1 + 1 appeared); 15 items not comparable: 7 need the nf_conntrack module (not on the old side), 4 need the br_netfilter module (not on the old side), 3 need the kernel option modules (not on the new side), 1 follows the PID namespace it was read in (a fresh one has its own value on one side only; the machine'"'"'s is alike)'
[[ $got == "$want" ]] && ok "modules, an option and pid_max: the option's own line and fuse's knob the kernel's, fifteen folded" || { bad "modules: $got"; }
has 'added     obs.sysctl.knob.net.netfilter.nf_conntrack_max.mode = 0644 -- ' &&
	has '[module:nf_conntrack (=m on one side, =y on the other), which registers it (net/netfilter/nf_conntrack_standalone.c' &&
	ok "nf_conntrack =m against =y, with the file that registers the knobs" || bad "nf_conntrack words"
has '[module:br_netfilter (loaded on one side only), which registers it (net/bridge/br_netfilter_hooks.c' &&
	ok "br_netfilter loaded on one side only" || bad "br_netfilter words"
sed -n '/^interfaces that appeared/,/^[^ ]/p' "$work/out" | grep -q 'appeared  sysctl.knob.fs.fuse.default_request_timeout' &&
	ok "fuse's knob, the module loaded on both sides, stays a kernel change" || bad "fuse knob not a kernel change"
has "the machine's (env.sysctl.kernel.pid_max, read in the run's namespace) is 32768 on both sides" &&
	! sed -n '/^kernel changes:$/,/^[^ ]/p' "$work/out" | grep -q pid_max && ok "pid_max: the namespace it was read in, not 16-bit pids" ||
	bad "pid_max words"
has '[configured out on the new side: sysctl.kconfig.modules = n there, y on the old' &&
	ok "kernel.modprobe: configured out (CONFIG_MODULES), not vanished" || bad "config words"
# Without the module's record on the old side, the knobs are the kernel's.
grep -v '^obs.sysctl.knob.module.nf_conntrack ' $fx/module-a.snapshot >"$work/a-unknown.snapshot"
got=$(first_line "$work/a-unknown.snapshot" $fx/module-b.snapshot)
[[ $got == "1:4 kernel changes, 0 new failures (sysctl 1 + 3 appeared); "* ]] &&
	ok "no record of nf_conntrack on one side: its knobs appeared (kernel changes)" || bad "unrecorded module: $got"
# The module there on both sides: its knobs are the kernel's.
sed 's/^obs.sysctl.knob.module.nf_conntrack = .*/obs.sysctl.knob.module.nf_conntrack = loaded (CONFIG_NF_CONNTRACK=m)/' \
	$fx/module-a.snapshot >"$work/a-loaded.snapshot"
got=$(first_line "$work/a-loaded.snapshot" $fx/module-b.snapshot)
[[ $got == "1:4 kernel changes, 0 new failures (sysctl 1 + 3 appeared); "* ]] &&
	ok "nf_conntrack loaded on both sides: its knobs appeared" || bad "module on both sides: $got"
# The machine's pid_max moved too: a kernel change.
sed 's/^env.sysctl.kernel.pid_max = .*/env.sysctl.kernel.pid_max = 4194304/' $fx/module-b.snapshot >"$work/b-pidmax.snapshot"
"$abiwatch" diff $fx/module-a.snapshot "$work/b-pidmax.snapshot" >"$work/out"
sed -n '/^kernel changes:$/,/^[^ ]/p' "$work/out" | grep -q 'obs.sysctl.knob.kernel.pid_max.value: 32768 -> 4194304' &&
	ok "the machine's pid_max moved as well: a kernel change" || bad "pid_max with the machine's moved"

# ---- network namespaces, a distribution's patch ----
got=$(first_line $fx/ns-a.snapshot $fx/ns-b.snapshot)
want="1:2 kernel changes, 0 new failures (net 1, sysctl 1); 15 items not comparable: 11 follow the network namespace they were read in (a child one shows them on one side only, the initial one on the other), 3 need the nf_conntrack module (not on the old side), 1 follows the distribution's configuration or patches (a patch on one side only, its configuration option alike)"
[[ $got == "$want" ]] && ok "6.1 -> 6.12: two kernel changes, fifteen folded" || bad "ns: $got"
sed -n '/^kernel changes:$/,/^[^ ]/p' "$work/out" >"$work/kernel"
grep -q '^  changed   obs.sysctl.knob.net.core.optmem_max.value: 20480 -> 131072 -- a default that moved: .*the old side.s value is the initial network namespace.s (net.initns.net.core.optmem_max.value).*(4944566706b2)$' "$work/kernel" &&
	ok "optmem_max: the default that moved, where each side read it" || bad "optmem_max default"
has 'added     obs.sysctl.knob.net.core.rmem_max.mode = 0444' &&
	has '[now visible in a child network namespace (read-only): the old side records it as net.initns.net.core.rmem_max.value = 212992 (shown read-only in a child network namespace since 6.11 (19249c0724f2))]' &&
	ok "rmem_max: now visible in a child network namespace (read-only), not appeared" || bad "rmem_max words"
has '[module:nf_conntrack registers it on the old side (net/netfilter/nf_conntrack_standalone.c before 6.10' &&
	ok "nf_hooks_lwtunnel: nf_conntrack's on 6.1, the core's on 6.12" || bad "nf_hooks_lwtunnel words"
has '[the old side'"'"'s kernel carries a distribution'"'"'s patch: Debian'"'"'s patch "sched: Do not enable autogrouping by default"' &&
	has '(Closes: #1070083, its changelog); the option is alike on both sides (sysctl.kconfig.sched_autogroup = y)]' &&
	ok "sched_autogroup_enabled: Debian's patch, CONFIG_SCHED_AUTOGROUP alike" || bad "autogroup words"
# Not a Debian kernel, or the option differs: the default moved in the kernel.
sed 's/ Debian 6.1.192-3 / 6.1.192 /' $fx/ns-a.snapshot >"$work/a-upstream.snapshot"
"$abiwatch" diff "$work/a-upstream.snapshot" $fx/ns-b.snapshot >"$work/out"
sed -n '/^kernel changes:$/,/^[^ ]/p' "$work/out" | grep -q 'sched_autogroup_enabled.value: 0 -> 1' &&
	ok "a kernel without the patch: autogroup's 0 -> 1 is a kernel change" || bad "upstream autogroup"
sed 's/^obs.sysctl.kconfig.sched_autogroup = y/obs.sysctl.kconfig.sched_autogroup = n/' $fx/ns-a.snapshot >"$work/a-option.snapshot"
"$abiwatch" diff "$work/a-option.snapshot" $fx/ns-b.snapshot >"$work/out"
sed -n '/^kernel changes:$/,/^[^ ]/p' "$work/out" | grep -q 'sched_autogroup_enabled.value: 0 -> 1' &&
	ok "CONFIG_SCHED_AUTOGROUP differs: not the patch's doing" || bad "option differs"
# Without net.initns's record, the knobs appeared.
grep -v '^obs.net.initns.net.core' $fx/ns-a.snapshot >"$work/a-noinit.snapshot"
"$abiwatch" diff "$work/a-noinit.snapshot" $fx/ns-b.snapshot >"$work/out"
grep -q 'net.core.rmem_max' "$work/out" && sed -n '/^interfaces that appeared/,/^[^ ]/p' "$work/out" | grep -q 'net.core.rmem_max' &&
	ok "no record of the initial namespace: net.core.rmem_max appeared" || bad "no initns record"

# ---- knobs a configuration option decides, a distribution's patch adds ----
# config-a: Debian's 6.12 guest, config-b: this host (6.18, not Debian's),
# cut to the knobs of witness.c's config_knobs and patch_added_knobs; the
# host has some options as n, others absent (OPTPROBES without KPROBES).
for dir in "a b old new" "b a new old"; do
	set -- $dir
	"$abiwatch" diff -v $fx/config-$1.snapshot $fx/config-$2.snapshot >"$work/out"
	sed -n '/^kernel changes:$/,/^[^ ]/p' "$work/out" >"$work/kernel"
	n=$(grep -c '^  \(added\|removed\|changed\|appeared\|vanished\)' "$work/kernel")
	[[ $n == 1 ]] && grep -q '^  changed   sysctl.kconfig: ' "$work/kernel" &&
		ok "config $1 -> $2: the options' own line the only kernel change" || { bad "config $1 -> $2: $n kernel changes"; cat "$work/kernel"; }
	for w in "config:optprobes: 3 need the kernel option optprobes (not on the $4 side)" \
		 "config:hpet: 3 need the kernel option hpet (not on the $4 side)" \
		 "config:crypto_fips: 8 need" "config:security_apparmor: 9 need" "config:ipv6_mroute: 6 need" \
		 "config:ipv6_seg6_hmac: 6 need" "config:acpi_sleep: 3" "config:fs_verity_builtin_signatures: 3" \
		 "config:schedstats: 3" "config:stack_tracer: 3" "config:energy_model: 2" \
		 "distro-added: 3 follow a distribution's patch"; do
		has "$w" || bad "config $1 -> $2: no '$w'"
	done
	has "on the $4 side, CONFIG_OPTPROBES is not an option of this kernel (sysctl.kconfig.optprobes = absent: its configuration does not name it; no such option, or its dependencies unmet), y on the $3 (kernel/kprobes.c" &&
		has "configured out on the $4 side: sysctl.kconfig.hpet = n there, y on the $3 (drivers/char/hpet.c" &&
		ok "config $1 -> $2: absent (not an option of this kernel, never n) and n both fold, with the file that registers the knob" || bad "config $1 -> $2 words"
	has "only the $3 side's kernel carries a distribution's patch that adds it: Debian's patch debian/patches/debian/add-sysctl-to-disallow-unprivileged-CLONE_NEWUSER-by-default.patch" &&
		ok "config $1 -> $2: unprivileged_userns_clone, Debian's patch, not a removal" || bad "config $1 -> $2 userns words"
done
# The option alike on both sides: the knob's going is the kernel's.
sed 's/^obs.sysctl.kconfig.hpet = n/obs.sysctl.kconfig.hpet = y/' $fx/config-b.snapshot >"$work/b-hpet.snapshot"
"$abiwatch" diff $fx/config-a.snapshot "$work/b-hpet.snapshot" >"$work/out"
sed -n '/^kernel changes:$/,/^[^ ]/p;/^interfaces that vanished/,/^[^ ]/p' "$work/out" | grep -q 'dev.hpet.max-user-freq' &&
	ok "CONFIG_HPET y on both sides: max-user-freq vanished, a kernel change" || bad "hpet alike"
# Both kernels Debian's: the patched knob's going is the kernel's.
sed 's/^env.kernel.version = .*/env.kernel.version = #1 SMP PREEMPT_DYNAMIC Debian 6.18.44-1 (2026-12-01)/' \
	$fx/config-b.snapshot >"$work/b-debian.snapshot"
"$abiwatch" diff $fx/config-a.snapshot "$work/b-debian.snapshot" >"$work/out"
sed -n '/^kernel changes:$/,/^[^ ]/p' "$work/out" | grep -q 'unprivileged_userns_clone' &&
	ok "both kernels Debian's: unprivileged_userns_clone's going is a kernel change" || bad "both Debian"

# ---- this machine records the witnesses ----
"$abiwatch" run -o "$work/here.snapshot" sysctl.knob >/dev/null 2>&1
pm=$(sed -n 's/^env\.sysctl\.kernel\.pid_max = //p' "$work/here.snapshot")
[[ $pm == "$(cat /proc/sys/kernel/pid_max)" ]] && ok "env.sysctl.kernel.pid_max = $pm, the run's namespace's" ||
	bad "env.sysctl.kernel.pid_max = $pm"
want_state() { # module option: what /proc/modules and the configuration say
	if grep -q "^$1 " /proc/modules 2>/dev/null; then echo "loaded"
	elif [[ -r /proc/config.gz ]]; then
		case $(zcat /proc/config.gz | sed -n "s/^CONFIG_$2=//p") in
		m) echo "not loaded" ;; y) echo "built in" ;; *) echo "not built" ;;
		esac
	else echo ""; fi
}
for m in nf_conntrack:NF_CONNTRACK br_netfilter:BRIDGE_NETFILTER xfs:XFS_FS fuse:FUSE_FS; do
	got=$(sed -n "s/^obs\.sysctl\.knob\.module\.${m%%:*} = //p" "$work/here.snapshot")
	want=$(want_state "${m%%:*}" "${m#*:}")
	if [[ -z $want ]]; then
		[[ -n $got ]] && ok "module.${m%%:*} = $got (no /proc/config.gz to compare)" || bad "module.${m%%:*} missing"
	else
		[[ $got == "$want ("* ]] && ok "module.${m%%:*} = $got" || bad "module.${m%%:*} = $got, want $want"
	fi
done
exit $status

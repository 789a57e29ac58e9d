#!/usr/bin/env bash
# sysctl_walk: `abiwatch run sysctl cgroup` on this machine, checked
# against /proc/sys read here independently, in namespaces made the way
# the runner makes the probe's (unshare: new network, IPC, UTS, PID and
# mount namespaces):
#   - the knobs it reports (.mode keys) are exactly the files there, with
#     their modes, and every value it observed is the file's content
#     (without the last newline, tabs as spaces);
#   - write-back keys only for knobs a namespace owns (net.*, IPC, UTS,
#     user.*), and the host's /proc/sys values are the same afterwards
#     (tests/lib/host-state, knobs and sysctl sections);
#   - documented knobs that are missing read "absent", with the CONFIG
#     option when the configuration is known (net.ipv4.tcp_tw_recycle:
#     removed in 4.12, so absent here);
#   - sysctl.kconfig matches the configuration read here; cgroup.v1 is
#     left to VM guests, cgroup.v2 reads the host's cgroup2 root only;
#   - examples/assumptions/sysctl-conf-2016.assume is broken here by
#     tcp_tw_recycle, the same against the snapshot.
# How long the walk takes goes to `make bench` (tests/bench.d/sysctl.sh).
source "$(dirname "$0")/../lib/mqueue-snapshot.sh"
source "$mq_root/tests/lib/machine"

host_state() { "$mq_root/tests/lib/host-state" | grep -E '^(knobs|sysctl) '; }
host_state >"$mq_tmp/before"

mq_run sysctl cgroup
expect_status 0
expect_no_failures

# Every declared item but the patterns has a result, every skip a reason.
missing=0 n=0
while read -r name; do
	[[ $name == *'*'* ]] && continue
	n=$((n + 1))
	v=${snap[obs.$name]-${snap[unobserved.$name]-}}
	[[ -n $v ]] || { report bad "$name: no observation"; missing=1; continue; }
	[[ $v == skip* && ! $v =~ ^skip:\ .+ ]] && { report bad "$name: a skip without a reason"; missing=1; }
done < <("$abiwatch" list sysctl cgroup | awk '$1 == "obs" { print $2 }')
((missing)) || report ok "all $n specific items observed, every skip with a reason"

# The same walk here, in namespaces like the probe's.
if machine_cap cap_sys_admin && unshare --net --ipc --uts --pid --fork --mount --mount-proc true 2>/dev/null; then
	unshare --net --ipc --uts --pid --fork --mount --mount-proc bash -c '
		cd /proc/sys && find . -xdev -type f -printf "%P\t%m\n" | while IFS=$'"'\t'"' read -r f m; do
			v=; IFS= read -r -d "" v <"$f" 2>/dev/null
			printf "%s\t%04o\t%s\0" "${f//\//.}" "0$m" "$v"
		done' >"$mq_tmp/here"
	declare -A here_mode here_value
	while IFS=$'\t' read -r -d '' k m v; do
		here_mode[$k]=$m
		v=${v%$'\n'}
		v=${v//$'\t'/ }
		v=${v//\\/\\\\}
		here_value[$k]=${v//$'\n'/\\n} # as the snapshot escapes them
	done <"$mq_tmp/here"
	declare -A seen
	wrong_mode=() missing_here=() wrong_value=() values=0
	for key in "${!snap[@]}"; do
		[[ $key =~ ^obs\.sysctl\.knob\.(.+)\.mode$ ]] || continue
		k=${BASH_REMATCH[1]}
		seen[$k]=1
		[[ -n ${here_mode[$k]+x} ]] || { missing_here+=("$k"); continue; }
		[[ ${snap[$key]} == "${here_mode[$k]}" ]] || wrong_mode+=("$k ${snap[$key]} here ${here_mode[$k]}")
		v=${snap[obs.sysctl.knob.$k.value]-}
		[[ -n ${snap[obs.sysctl.knob.$k.value]+x} && ${#v} -le 256 ]] || continue
		values=$((values + 1))
		[[ $v == "${here_value[$k]}" ]] || wrong_value+=("$k = '$v', here '${here_value[$k]}'")
	done
	not_reported=()
	for k in "${!here_mode[@]}"; do [[ -n ${seen[$k]-} ]] || not_reported+=("$k"); done
	((${#missing_here[@]} == 0 && ${#not_reported[@]} == 0)) &&
		report ok "the ${#seen[@]} knobs reported are the ${#here_mode[@]} files of /proc/sys in fresh namespaces" ||
		report bad "knobs differ: reported only: ${missing_here[*]:0:5}; here only: ${not_reported[*]:0:5}"
	((${#wrong_mode[@]} == 0)) && report ok "every mode as stat(2) gives it" ||
		report bad "modes: ${wrong_mode[*]:0:5}"
	# A value the kernel itself may change between the two reads would
	# show here; none of the recorded ones should.
	((${#wrong_value[@]} == 0 && values > 300)) && report ok "all $values observed values as read here" ||
		report bad "$values values, ${#wrong_value[@]} differ: ${wrong_value[*]:0:5}"
else
	echo "note: no CAP_SYS_ADMIN or no unshare here: the walk is not compared with one of the test's own"
fi

# Written back only where a namespace of the probe's own holds the value.
scope_ok() {
	case $1 in
	net.*|fs.mqueue.*|user.*|kernel.hostname|kernel.domainname) return 0 ;;
	kernel.shmmax|kernel.shmall|kernel.shmmni|kernel.shm_rmid_forced|kernel.msgmax|kernel.msgmnb) return 0 ;;
	kernel.msgmni|kernel.auto_msgmni|kernel.sem|kernel.msg_next_id|kernel.sem_next_id|kernel.shm_next_id) return 0 ;;
	esac
	return 1
}
# Global knobs are never written on a host: each is a skip of cause vm
# (or not tried at all), recorded rather than left out, so that diff
# folds it under the environment against a guest's write-back.
global=() written=0 host_skips=0
for key in "${!snap[@]}"; do
	[[ $key =~ ^(obs|unobserved)\.sysctl\.knob\.(.+)\.writeback$ ]] || continue
	knob=${BASH_REMATCH[2]}
	if scope_ok "$knob"; then
		written=$((written + 1))
	elif [[ $key == unobserved.* && ${snap[$key]} == "skip: needs vm: "* ]]; then
		host_skips=$((host_skips + 1))
	elif [[ $key == unobserved.* && ${snap[$key]} == "skip: needs lsm:"* ]]; then
		: # the knob of a security module this kernel did not start: nothing to write
	elif [[ $key != unobserved.* || ${snap[$key]} != "skip: not tried: "* ]]; then
		global+=("$knob")
	fi
done
# Yama's knob where Yama is built but not started: a skip of cause
# lsm:yama for its value, mode and write-back (env.lsm says which run).
if [[ ! -e /proc/sys/kernel/yama && ${snap[env.lsm]-unknown} != unknown* && ,${snap[env.lsm]}, != *,yama,* ]]; then
	for part in value mode writeback; do
		expect_match unobserved.sysctl.knob.kernel.yama.ptrace_scope.$part '^skip: needs lsm:yama: yama is not among the security modules this kernel started'
	done
fi
((${#global[@]} == 0 && written > 100)) && report ok "$written write-backs, all of namespaced knobs" ||
	report bad "$written write-backs; of global knobs: ${global[*]:0:5}"
((host_skips > 100)) && report ok "$host_skips global knobs recorded as skips of cause vm" ||
	report bad "only $host_skips global knobs recorded as 'skip: needs vm'"
expect obs.sysctl.knob.net.core.somaxconn.writeback accepted
expect obs.sysctl.knob.fs.mqueue.msg_max.writeback accepted
expect obs.sysctl.knob.kernel.hostname.writeback accepted
expect obs.sysctl.knob.kernel.sem.value "$(tr '\t' ' ' <<<"$(unshare --ipc cat /proc/sys/kernel/sem 2>/dev/null || echo '?')")"
if machine_userns; then
	expect obs.sysctl.knob.user.max_user_namespaces.writeback accepted
fi
# Never read: write-only files, values of every read.
expect_match unobserved.sysctl.knob.vm.drop_caches.value '^skip: write-only \(mode 0200\)'
expect_match unobserved.sysctl.knob.kernel.random.uuid.value '^skip: not recorded: a new random UUID'

# Documented knobs, present or "absent" with the configuration.
config=
if [[ -r /proc/config.gz ]]; then config=$(zcat /proc/config.gz)
elif [[ -r /boot/config-$(uname -r) ]]; then config=$(cat "/boot/config-$(uname -r)")
fi
inet=$(sed -n 's/^CONFIG_INET=//p' <<<"$config")
expect obs.sysctl.knob.net.ipv4.tcp_tw_recycle.value "absent${inet:+ (CONFIG_INET=$inet)}"
# The list of namespaced knobs agrees with this kernel; UTS only by writing, in a guest.
expect check.sysctl.scopes.ipc pass
expect check.sysctl.scopes.net pass
expect check.sysctl.scopes.user pass
expect_match check.sysctl.scopes.uts '^skip: needs vm: '
for k in kernel.io_uring_disabled dev.tty.legacy_tiocsti kernel.threads-max; do
	f=/proc/sys/${k//.//}
	if [[ -e $f ]]; then expect "obs.sysctl.knob.$k.value" "$(cat "$f")"
	else expect_match "obs.sysctl.knob.$k.value" '^absent'; fi
done
if [[ -n $config ]]; then
	expect obs.sysctl.kconfig.io_uring "$(sed -n 's/^CONFIG_IO_URING=//p' <<<"$config")"
	expect obs.sysctl.kconfig.hz "$(sed -n 's/^CONFIG_HZ=//p' <<<"$config")"
else
	expect_match unobserved.sysctl.kconfig.io_uring '^skip: no kernel configuration: none found'
fi

# cgroup: v1 only in a VM guest; v2 reads an existing cgroup2 root.
expect_match unobserved.cgroup.v1.memory.mount '^skip: needs vm: only in an abiwatch vm guest'
expect_match unobserved.cgroup.v2.child_files '^skip: needs vm: only in an abiwatch vm guest|^skip: no cgroup2 mount'
root2=$(awk '$4 == "/" && $0 ~ / - cgroup2 / { print $5; exit }' /proc/self/mountinfo)
if [[ -n $root2 ]]; then
	c=$(cat "$root2/cgroup.controllers")
	expect obs.cgroup.v2.controllers "${c:-(none)}"
else
	expect_match unobserved.cgroup.v2.controllers '^skip: no cgroup2 mount here'
fi

# The host is as it was.
host_state >"$mq_tmp/after"
diff -u "$mq_tmp/before" "$mq_tmp/after" >"$mq_tmp/changed" &&
	report ok "host /proc/sys values unchanged ($(wc -l <"$mq_tmp/before") knobs)" ||
	report bad "host /proc/sys changed: $(grep '^[-+][a-z]' "$mq_tmp/changed" | head -5)"

# The example assumptions: broken by tcp_tw_recycle, here and against the snapshot.
ex=$mq_root/examples/assumptions/sysctl-conf-2016.assume
"$abiwatch" check "$ex" >"$mq_tmp/check" 2>&1
rc=$?
"$abiwatch" check "$ex" "$mq_tmp/snap" >"$mq_tmp/check2" 2>&1
rc2=$?
[[ $rc == 1 && $rc2 == 1 ]] && grep -q '^broken .*tcp_tw_recycle' "$mq_tmp/check" &&
	grep -q 'tcp_tw_recycle.value = absent' "$mq_tmp/check2" &&
	report ok "sysctl-conf-2016.assume: broken by tcp_tw_recycle, also against the snapshot" ||
	{ report bad "sysctl-conf-2016.assume: exit $rc / $rc2"; cat "$mq_tmp/check"; }
mq_finish

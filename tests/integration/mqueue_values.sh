#!/usr/bin/env bash
# tests/run: sealed
# mqueue_values: run the mqueue family and compare its snapshot with what
# the documented behaviour gives on an x86_64 kernel >= 3.14:
#   - attr NULL: msg_default/msgsize_default clamped to the maxima, 10 x 8192
#     in a fresh namespace (mq_overview(7); cef0184c115e);
#   - the RLIMIT_MSGQUEUE charge of getrlimit(2) for >= 3.5,
#       maxmsg * sizeof(struct msg_msg)
#     + min(maxmsg, MQ_PRIO_MAX) * sizeof(struct posix_msg_tree_node)
#     + maxmsg * msgsize,
#     with both structs 48 bytes on x86_64 (include/linux/msg.h: list_head
#     16 + long 8 + size_t 8 + two pointers 16; ipc/mqueue.c: rb_node 24 +
#     list_head 16 + int 4, padded to 48);
#   - the sysctl ranges of ipc/mq_sysctl.c and queues_max as plain int (3.14);
#   - without CAP_SYS_RESOURCE, every item of mqueue.privileged is a skip
#     naming it; with it, the hard limits of 3.5 and no queue ceiling.
# Exit 0 pass, 1 fail, 4 skip (another architecture or an older kernel).
set -u
export LC_ALL=C
abiwatch=${ABIWATCH:-./abiwatch}

arch=$(uname -m)
if [[ $arch != x86_64 ]]; then
	echo "skip: the expected charges are for x86_64, this is $arch"
	exit 4
fi
release=$(uname -r)
IFS=. read -r major minor _ <<<"$release"
if ((major < 3 || (major == 3 && minor < 14))); then
	echo "skip: kernel $release is older than 3.14 (queues_max range, charge formula)"
	exit 4
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/abiwatch-mqueue.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

"$abiwatch" run -o "$tmp/snap" mqueue >"$tmp/ktap" 2>"$tmp/err"
rc=$?
if [[ ! -s $tmp/snap ]]; then
	echo "FAIL: no snapshot written (exit $rc)"
	cat "$tmp/err"
	exit 1
fi

declare -A snap
first=1 header_ok=0
while IFS= read -r line; do
	if ((first)); then
		first=0
		[[ $line =~ ^abiwatch-snapshot\ 1(\.[0-9]+)?$ ]] && header_ok=1
		continue
	fi
	[[ $line == *" = "* ]] || continue
	snap[${line%% = *}]=${line#* = }
done <"$tmp/snap"

failures=0
compared=0
report() { # ok what
	compared=$((compared + 1))
	if [[ $1 == ok ]]; then
		echo "ok   $2"
	else
		echo "FAIL $2"
		failures=$((failures + 1))
	fi
}

expect() { # key expected
	local got=${snap[$1]-<absent>}
	if [[ $got == "$2" ]]; then report ok "$1 = $got"
	else report bad "$1: expected '$2', got '$got'"; fi
}

# A skipped item names the capability: "check.X = skip: ..." for a check,
# "unobserved.X = ..." for an observation.
expect_skip_naming() { # item word
	local check=${snap[check.$1]-} unobs=${snap[unobserved.$1]-}
	if [[ -n $check && $check == skip* && $check == *"$2"* ]]; then
		report ok "check.$1 = $check"
	elif [[ -z $check && $unobs == *"$2"* ]]; then
		report ok "unobserved.$1 = $unobs"
	else
		report bad "$1: expected a skip naming $2, got '${check:-${unobs:-<absent>}}'"
	fi
}

((header_ok)) && report ok "header: $(head -n 1 "$tmp/snap")" ||
	report bad "header: expected 'abiwatch-snapshot 1', got '$(head -n 1 "$tmp/snap")'"
[[ $rc == 0 ]] && report ok "abiwatch exit status 0" || report bad "abiwatch exit status $rc, expected 0"

# attr NULL in a fresh namespace.
expect obs.mqueue.noattr.maxmsg 10
expect obs.mqueue.noattr.msgsize 8192
expect obs.mqueue.noattr.source default_knobs
# The eras name the documented behaviour of this (>= 4.2) kernel.
expect obs.mqueue.noattr.era "default_knobs (3.5 and later, cef0184c115e)"
expect obs.mqueue.rlimit.era "msg_msg_and_tree_node (3.5 and later, ce2d52cc1364)"
expect obs.mqueue.mqueuefs.qsize_era "user_bytes (before 3.5, and 4.2 and later, de54b9ac2537)"
expect check.mqueue.noattr.clamp pass
expect check.mqueue.noattr.rlimit_exceeded pass

# The unprivileged attr checks; 2^16 x 2^24 fits a 64-bit size_t, so
# the charge, not an overflow, refuses it.
for c in einval_above_msg_max einval_above_msgsize_max accepted_at_max \
	 einval_nonpositive emfile_beyond_rlimit; do
	expect "check.mqueue.attr.$c" pass
done
expect obs.mqueue.attr.total_overflow_errno EMFILE

# The charge formula with 48-byte msg_msg and 48-byte tree nodes.
charge() { # maxmsg msgsize
	local m=$1 s=$2 nodes=$1
	((nodes > 32768)) && nodes=32768
	echo $((m * 48 + nodes * 48 + m * s))
}
expect obs.mqueue.rlimit.charge.1x128 "$(charge 1 128)"
expect obs.mqueue.rlimit.charge.10x128 "$(charge 10 128)"
expect obs.mqueue.rlimit.charge.10x8192 "$(charge 10 8192)"
expect obs.mqueue.rlimit.per_msg_overhead 96
expect check.mqueue.rlimit.formula_linear pass

# Sysctl ranges: [MIN, HARD] for the four minmax knobs, any int for queues_max.
for k in msg_max:1:65536:10 msg_default:1:65536:10 \
	 msgsize_max:128:16777216:8192 msgsize_default:128:16777216:8192 \
	 queues_max:-2147483648:2147483647:256; do
	IFS=: read -r name lo hi init <<<"$k"
	expect "obs.mqueue.sysctl.$name.min" "$lo"
	expect "obs.mqueue.sysctl.$name.max" "$hi"
	expect "obs.mqueue.sysctl.$name.initial" "$init"
done

expect check.mqueue.queues_max.enospc_unprivileged pass

# The privileged probe: skipped here, measured where the capability is held.
caps=${snap[env.caps]-}
if [[ ",$caps," == *",cap_sys_resource,"* ]]; then
	expect check.mqueue.privileged.accepted_above_max pass
	expect check.mqueue.privileged.einval_above_hard pass
	expect obs.mqueue.privileged.hard_msgmax 65536
	expect obs.mqueue.privileged.hard_msgsize_max 16777216
	expect obs.mqueue.privileged.queues_max_bypass yes
	expect obs.mqueue.privileged.queues_ceiling none
else
	for i in accepted_above_max einval_above_hard hard_msgmax hard_msgsize_max \
		 queues_max_bypass queues_ceiling; do
		expect_skip_naming "mqueue.privileged.$i" CAP_SYS_RESOURCE
	done
fi

echo "$compared compared, $failures failed"
((failures == 0)) || { echo "--- KTAP"; cat "$tmp/ktap"; exit 1; }
exit 0

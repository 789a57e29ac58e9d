# shellcheck shell=bash
# The 32-bit contract: what a kernel that runs i386 programs must show to
# abiwatch's 32-bit helpers.  Asserted wherever i386 programs run: on this
# machine when it does (mqueue_compat32.sh) and, whatever this machine is,
# in the Debian guests (vm_compat32.sh).  Uses snap[] and report() of the
# sourcing library; $abiwatch names the binary whose declarations count.
#
#   expect_mqueue_compat32    every declared check passes; the ILP32 facts;
#                             the limits and charges equal the native
#                             probes' (run mqueue.noattr and mqueue.rlimit too)
#   expect_dirent_compat32 FS BITS EOF
#                             a 32-bit caller sees BITS-bit cookies ending
#                             at EOF, no duplicate, and a non-LFS readdir(3)
#                             that completes

compat32_same() { # key1 key2: equal, both present
	local a=${snap[$1]-<absent>} b=${snap[$2]-<absent>}
	if [[ $a == "$b" && $a != '<absent>' ]]; then report ok "$1 = $2 = $a"
	else report bad "$1 ('$a') differs from $2 ('$b')"; fi
}

compat32_is() { # key value
	local got=${snap[$1]-<absent>}
	if [[ $got == "$2" ]]; then report ok "$1 = $got"
	else report bad "$1: expected '$2', got '$got'"; fi
}

expect_mqueue_compat32() {
	local c n=0
	while read -r c; do
		n=$((n + 1))
		compat32_is "check.$c" pass
	done < <("$abiwatch" list mqueue.compat32 | awk '$1 == "check" { print $2 }')
	((n >= 20)) || report bad "only $n checks declared by mqueue.compat32"
	# What i386 has: 4-byte longs, a 32-byte struct mq_attr, and the
	# time64 entry points ignoring the padding beside a 32-bit tv_nsec
	# (get_timespec64() truncates it for compat tasks).
	compat32_is obs.mqueue.compat32.abi ilp32
	compat32_is obs.mqueue.compat32.sizeof_mq_attr 32
	compat32_is obs.mqueue.compat32.timed.time64.nsec_padding_ignored yes
	# The same facts whatever the caller's width.
	compat32_same obs.mqueue.compat32.limits.noattr.maxmsg obs.mqueue.noattr.maxmsg
	compat32_same obs.mqueue.compat32.limits.noattr.msgsize obs.mqueue.noattr.msgsize
	compat32_same obs.mqueue.compat32.limits.charge.1x128 obs.mqueue.rlimit.charge.1x128
}

expect_dirent_compat32() { # label bits eof
	compat32_is "obs.dirent.$1.compat32.cookie_bits" "$2"
	compat32_is "obs.dirent.$1.compat32.eof_cookie" "$3"
	compat32_is "obs.dirent.$1.compat32.duplicates" 0
	compat32_is "obs.dirent.$1.compat32.nonlfs_readdir" complete
}

# shellcheck shell=bash
# The sandbox family's values, for tests/integration/sandbox_values.sh
# (this machine, 6.18) and vm_sandbox.sh (Debian's 6.1.192 and 6.12.118
# in QEMU as full root).  Source it after dirent-common.sh (snap[],
# expect, report).
#
#   SANDBOX_SAME            KEY VALUE pairs every such kernel gives
#   sandbox_expect_same     expect every SANDBOX_SAME pair
#   sandbox_expect_landlock ABI  the Landlock items of that ABI version
#   SANDBOX_LANDLOCK_2, _6, _7   the rights each ABI takes
#   SANDBOX_CHECKS          the checks that pass wherever they are made
#   sandbox_expect_unpriv KNOB   the unprivileged BPF items with
#                           kernel.unprivileged_bpf_disabled at KNOB
SANDBOX_LANDLOCK_2=LANDLOCK_ACCESS_FS_EXECUTE,LANDLOCK_ACCESS_FS_WRITE_FILE,LANDLOCK_ACCESS_FS_READ_FILE,LANDLOCK_ACCESS_FS_READ_DIR,LANDLOCK_ACCESS_FS_REMOVE_DIR,LANDLOCK_ACCESS_FS_REMOVE_FILE,LANDLOCK_ACCESS_FS_MAKE_CHAR,LANDLOCK_ACCESS_FS_MAKE_DIR,LANDLOCK_ACCESS_FS_MAKE_REG,LANDLOCK_ACCESS_FS_MAKE_SOCK,LANDLOCK_ACCESS_FS_MAKE_FIFO,LANDLOCK_ACCESS_FS_MAKE_BLOCK,LANDLOCK_ACCESS_FS_MAKE_SYM,LANDLOCK_ACCESS_FS_REFER
SANDBOX_LANDLOCK_6=$SANDBOX_LANDLOCK_2,LANDLOCK_ACCESS_FS_TRUNCATE,LANDLOCK_ACCESS_FS_IOCTL_DEV,LANDLOCK_ACCESS_NET_BIND_TCP,LANDLOCK_ACCESS_NET_CONNECT_TCP,LANDLOCK_SCOPE_ABSTRACT_UNIX_SOCKET,LANDLOCK_SCOPE_SIGNAL
SANDBOX_LANDLOCK_7=$SANDBOX_LANDLOCK_6
SANDBOX_SECUREBITS_OLD=NOROOT,NOROOT_LOCKED,NO_SETUID_FIXUP,NO_SETUID_FIXUP_LOCKED,KEEP_CAPS,KEEP_CAPS_LOCKED,NO_CAP_AMBIENT_RAISE,NO_CAP_AMBIENT_RAISE_LOCKED
SANDBOX_SAME=(
	obs.sandbox.landlock.state enabled
	obs.sandbox.seccomp.actions KILL_PROCESS,KILL_THREAD,TRAP,ERRNO,USER_NOTIF,TRACE,LOG,ALLOW
	obs.sandbox.seccomp.filter_flags TSYNC,LOG,SPEC_ALLOW,NEW_LISTENER,TSYNC_ESRCH,WAIT_KILLABLE_RECV
	obs.sandbox.seccomp.notif_sizes 'notif 80, resp 24, data 64'
	obs.sandbox.creds.caps.last_cap 40
	obs.sandbox.creds.caps.ambient.raise ok
)
SANDBOX_CHECKS=(landlock.rights_match_abi seccomp.actions_avail_agrees creds.caps.ambient.follows_inheritable
	creds.nnp.sticky creds.nnp.inherited creds.nnp.status bpf.nothing_left)

sandbox_expect_same() {
	local i
	for ((i = 0; i < ${#SANDBOX_SAME[@]}; i += 2)); do
		expect "${SANDBOX_SAME[i]}" "${SANDBOX_SAME[i + 1]}"
	done
	for i in "${SANDBOX_CHECKS[@]}"; do
		expect "check.sandbox.$i" pass
	done
}

sandbox_expect_landlock() { # abi
	local rights=SANDBOX_LANDLOCK_$1
	expect obs.sandbox.landlock.abi "$1"
	expect obs.sandbox.landlock.rights "${!rights}"
}

# With the knob at 1 or 2 every type is EPERM (kernel/bpf/syscall.c); at
# 0 the unprivileged sets depend on the kernel, which the caller expects.
sandbox_expect_unpriv() { # knob
	expect obs.sandbox.bpf.unprivileged_bpf_disabled "$1"
	if [[ $1 != 0 ]]; then
		expect obs.sandbox.bpf.unpriv.prog_types EPERM
		expect obs.sandbox.bpf.unpriv.map_types EPERM
	fi
}

#!/usr/bin/env bash
# tty_values: the tty family on this machine.
#   - `abiwatch run tty` ten times in a row: each exits 0 (how long it
#     takes is tests/bench.d/family_runs.sh's figure), and the ten
#     snapshots are identical (no item depends on timing: n_tty's
#     flush work, the capacity's flip buffers, the job-control children);
#   - every check passes, and the values any kernel since 5.11 gives are
#     those (the canonical line limit, EIO on the master after hangup, a
#     fresh instance numbering from 0, packet mode's first byte, the
#     job-control signals, tty splice);
#   - the host's terminals, /dev/pts and knobs are unchanged
#     (tests/lib/host-state's tty and knobs sections: the others see
#     what other programs on a shared machine do meanwhile);
#   - without CAP_SYS_ADMIN (abiwatch then runs its probes in a user
#     namespace, where devpts can still be mounted) the same snapshot but
#     the privileged TIOCSTI, skipped with its cause.
# The console and the knob at 0 and 1 are VM-only: tests/integration/vm_tty.sh.
set -u
cd "$(dirname "$0")/../.." || exit 1
. tests/lib/dirent-common.sh

tmp=$(mktemp -d "${TMPDIR:-/tmp}/abiwatch-ttyval.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
check_host=0
host_state() { tests/lib/host-state | grep -E '^(knobs|tty) '; }
[[ -z $(tests/lib/host-state --missing) ]] && { check_host=1; host_state >"$tmp/before"; }

expect_same_runs 10 "$tmp" "$abiwatch" run tty

load_snapshot "$tmp/1"
items=$(grep -cE '^(check|obs|unobserved)\.tty\.' "$tmp/1")
((items >= 90)) && report ok "run 1 reports $items tty items" || report bad "run 1 reports $items tty items"
bad=$(grep -E '^(check|obs|unobserved)\.tty\..* = (fail|error)' "$tmp/1")
[[ -z $bad ]] && report ok "no tty item fails or errs" || report bad "failed items:"$'\n'"$bad"
for c in hangup.master_eio ldisc.canon_limit splice.read splice.write splice.sendfile \
	 termios.master_is_slave tiocsti.knob_decides; do
	expect check.tty.$c pass
done
expect obs.tty.ldisc.canon.line "4096 newline"
expect obs.tty.ldisc.canon.rest EAGAIN
expect obs.tty.ldisc.vmin0_vtime0 0
expect obs.tty.ldisc.vmin1_vtime0 2
expect obs.tty.hangup.master.read_pending 2
expect obs.tty.hangup.master.read_after EIO
expect obs.tty.hangup.slave.read 0
expect obs.tty.packet.data "0x00, 2 bytes"
expect obs.tty.packet.stop "0x04, 1 bytes"
expect obs.tty.packet.start "0x08, 1 bytes"
expect obs.tty.ptmx.ptn.first 0
expect obs.tty.ptmx.ptn.second 1
expect obs.tty.ptmx.ptn.reuse 0
expect obs.tty.ptmx.lock.initial 1
expect obs.tty.ptmx.lock.open_locked EIO
expect obs.tty.ptmx.instance_max ENOSPC
expect obs.tty.ptmx.ptpeer "the slave"
expect obs.tty.ptmx.pty_nr_delta 2
expect obs.tty.jobctl.sctty 0
expect obs.tty.jobctl.sctty.other_session EPERM
expect obs.tty.jobctl.notty.fg_signals SIGHUP,SIGCONT
expect obs.tty.jobctl.exit.fg_signals SIGHUP
expect obs.tty.jobctl.bg.tcsetpgrp "stopped by TTOU"
expect obs.tty.jobctl.bg.tcsetpgrp_ignored 0
expect obs.tty.jobctl.bg.tcsetpgrp_orphaned ENOTTY
expect obs.tty.jobctl.bg.read "stopped by TTIN"
expect obs.tty.jobctl.bg.write_tostop "stopped by TTOU"
expect obs.tty.splice.master_to_pipe 6
expect obs.tty.splice.pipe_to_slave 4
expect obs.tty.splice.sendfile.file_to_slave 9
expect obs.tty.termios.slave.lflag 0105073
expect obs.tty.termios.slave.cc.vintr 0x03
expect obs.tty.termios.slave.winsize "0 0 0 0"
expect_match probe.tty.console '^skip: needs vm'
expect_match probe.tty.tiocsti_knob '^skip: needs vm'

if command -v capsh >/dev/null && machine_userns && machine_cap cap_sys_admin; then
	capsh --drop=cap_sys_admin -- -c '"$0" run tty -o "$1"' "$abiwatch" "$tmp/u" >"$tmp/ktap" 2>&1 ||
		report bad "run without CAP_SYS_ADMIN exits $?"
	got=$(diff <(grep -v '^env\.' "$tmp/1") <(grep -v '^env\.' "$tmp/u") | grep '^[<>]' | sort)
	want=$(printf '%s\n' "< obs.tty.tiocsti.cap = ${snap[obs.tty.tiocsti.cap]-?}" \
		"> unobserved.tty.tiocsti.cap = skip: needs cap_sys_admin: TIOCSTI with CAP_SYS_ADMIN in the initial user namespace" | sort)
	[[ $got == "$want" ]] && report ok "without CAP_SYS_ADMIN: the same snapshot but the privileged TIOCSTI" ||
		report bad "without CAP_SYS_ADMIN the snapshot differs:"$'\n'"$got"
else
	echo "# no capsh, user namespaces or CAP_SYS_ADMIN here: the unprivileged run is not made"
fi

if ((check_host)); then
	host_state | diff "$tmp/before" - >"$tmp/hostdiff" &&
		report ok "the host's terminals, /dev/pts and knobs are unchanged" ||
		{ report bad "the host changed:"; cat "$tmp/hostdiff"; }
else
	echo "# host-state cannot look here: $(tests/lib/host-state --missing)"
fi
finish

#!/usr/bin/env bash
# tests/run: sealed
# vm_tty: the tty family in Debian's 6.1 and 6.12 cloud kernels, both in
# QEMU at once (one abiwatch matrix, only the tty family in the guests),
# as full root with every capability, i386 execution and a virtual
# console (CONFIG_VT=y; QEMU's -nographic leaves tty1 to the dummy
# console).  In each guest:
#   - no tty item fails or errs, and the values every kernel since 5.11
#     gives are those (tests/integration/tty_values.sh checks the same on
#     the host);
#   - the 32-bit helper's TCGETS, TCSETS, TIOCSWINSZ/TIOCGWINSZ round
#     trips pass through the compat ioctl path, and TCGETS2 gives the
#     termios2 speeds;
#   - KDGKBTYPE says KB_101, and with CAP_SYS_ADMIN every TIOCLINUX
#     selection mode is allowed;
#   - the knob at 0 refuses unprivileged TIOCSTI with EIO and at 1 allows
#     it, CAP_SYS_ADMIN always, and the knob is put back.
# And the diff matrix wrote between them names exactly the items that
# changed, each explained below (CHANGED: item, 6.1 value, 6.12 value,
# why).
set -u
cd "$(dirname "$0")/../.." || exit 1
. tests/lib/dirent-common.sh

CHANGED=(
	obs.tty.tiocsti.config absent n
	"CONFIG_LEGACY_TIOCSTI came with the knob in 6.2 (83efeeeb3d04); Debian's 6.12 leaves it off (read from each package's /boot/config, which vm --deb gives the guest)"
	obs.tty.tiocsti.knob absent 0
	"dev.tty.legacy_tiocsti came in 6.2 (83efeeeb3d04); Debian's 6.12 is built without CONFIG_LEGACY_TIOCSTI, so it starts at 0"
	obs.tty.tiocsti.no_cap 0 EIO
	"with the knob at 0 TIOCSTI without CAP_SYS_ADMIN gives EIO even on one's own controlling terminal (83efeeeb3d04)"
	obs.tty.tiocsti.no_cap.not_ctty EPERM EIO
	"on another terminal the knob's EIO now comes before the older EPERM for a terminal not the caller's"
	obs.tty.tiocsti_knob.knob0.no_cap absent EIO
	"the knob set to 0 in the guest: unprivileged TIOCSTI refused"
	obs.tty.tiocsti_knob.knob0.cap absent 0
	"the knob at 0 spares CAP_SYS_ADMIN (690c8b804ad2, for BRLTTY)"
	obs.tty.tiocsti_knob.knob1.no_cap absent 0
	"the knob set to 1: TIOCSTI as before 6.2"
	obs.tty.tiocsti_knob.knob1.cap absent 0
	"the knob at 1, privileged: as before"
	obs.tty.console.no_cap.setsel_char 0 EPERM
	"TIOCL_SETSEL in character mode needs CAP_SYS_ADMIN since 6.7 (8d1b43f6a6df): a console mouse program without it can no longer select; SELCLEAR and SELPOINTER stay allowed in 6.12.118 (2f83e38a095f, backported)"
	obs.tty.console.no_cap.selmousereport EINVAL EPERM
	"TIOCL_SELMOUSEREPORT needs CAP_SYS_ADMIN again (8d1b43f6a6df; 2f83e38a095f let it through inconsistently, 'tty: Require CAP_SYS_ADMIN for all usages of TIOCL_SELMOUSEREPORT' took it back); 6.1: allowed, EINVAL only because no mouse reporting is on"
)
UNSKIPPED=(check.tty.tiocsti_knob.restored)

. tests/lib/vm-kernels.sh
vm_kernels 6.1 6.12
tmp=$(mktemp -d "${TMPDIR:-/tmp}/abiwatch-vmtty.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT

start=$SECONDS
"$abiwatch" matrix -q -o "$tmp/m" "${debs[@]}" -- tty >"$tmp/out" 2>&1
rc=$?
echo "# matrix of two guests: $((SECONDS - start)) s"
# Exit 1 is matrix's "the kernels differ", which they do here.
[[ $rc == 0 || $rc == 1 ]] && report ok "matrix exits $rc" || { report bad "matrix exits $rc"; cat "$tmp/out"; }

guests=0
for s in "$tmp"/m/*.snapshot; do
	[[ -f $s ]] || continue
	guests=$((guests + 1))
	load_snapshot "$s"
	release=${snap[env.kernel.release]-?}
	echo "# $release"
	bad=$(grep -E '^(check|obs|unobserved|probe)\.tty\..* = (fail|error)' "$s")
	[[ -z $bad ]] && report ok "no tty item fails or errs" || report bad "failed items:"$'\n'"$bad"
	expect env.i386 yes
	for c in hangup.master_eio ldisc.canon_limit splice.read splice.write splice.sendfile \
		 termios.master_is_slave tiocsti.knob_decides termios.compat32.tcgets \
		 termios.compat32.tcsets termios.compat32.winsize termios.compat32.winsize_native; do
		expect check.tty.$c pass
	done
	expect obs.tty.termios.compat32.tcgets2 "38400 38400"
	expect obs.tty.ldisc.canon.line "4096 newline"
	expect obs.tty.hangup.master.read_after EIO
	expect obs.tty.packet.data "0x00, 2 bytes"
	expect obs.tty.ptmx.ptn.first 0
	expect obs.tty.ptmx.pty_nr_delta 2
	expect obs.tty.jobctl.notty.fg_signals SIGHUP,SIGCONT
	expect obs.tty.jobctl.exit.fg_signals SIGHUP
	expect obs.tty.jobctl.bg.tcsetpgrp_orphaned ENOTTY
	expect obs.tty.console.kdgkbtype 2
	for mode in setsel_char selclear selpointer; do
		expect obs.tty.console.cap.$mode 0
	done
	expect obs.tty.console.cap.selmousereport EINVAL
	expect obs.tty.console.no_cap.selclear 0
	expect obs.tty.console.no_cap.selpointer 0
	expect obs.tty.tiocsti.cap 0
	case $release in
	6.1.*) col=1 ;;
	6.12.*) col=2; expect check.tty.tiocsti_knob.restored pass ;;
	*) report bad "unexpected guest kernel $release"; continue ;;
	esac
	for ((i = 0; i < ${#CHANGED[@]}; i += 4)); do
		expect "${CHANGED[i]}" "${CHANGED[i + col]}"
	done
done
((guests == 2)) && report ok "a snapshot of each guest" ||
	{ report bad "$guests guest snapshots, expected 2"; tail -n 30 "$tmp/out"; cat "$tmp"/m/*.console 2>/dev/null | tail -n 30; }

# The diff between the two guests: the changed items and nothing else.
diffs=("$tmp"/m/*.diff)
if [[ -f ${diffs[0]} ]]; then
	diffs[0]=$(verbose_diff "${diffs[0]}") # an item's line, also in an object of several
	got=$(sed -n 's/^ *changed *\(obs\.[^:]*\):.*/\1/p' "${diffs[0]}" | sort)
	want=$(for ((i = 0; i < ${#CHANGED[@]}; i += 4)); do echo "${CHANGED[i]}"; done | sort)
	[[ $got == "$want" ]] && report ok "the 6.1 -> 6.12 diff names exactly the $((${#CHANGED[@]} / 4)) changed items" ||
		report bad "the 6.1 -> 6.12 diff names:"$'\n'"$got"$'\n'"expected:"$'\n'"$want"
	got=$(sed -n 's/^ *unskipped *\([^:]*\):.*/\1/p' "${diffs[0]}" | sort)
	[[ $got == "${UNSKIPPED[*]}" ]] && report ok "unskipped: ${UNSKIPPED[*]} (no knob on 6.1)" ||
		report bad "unskipped: $got"
	others=$(grep -cE '^ *(added|removed|regressed|recovered|skipped) ' "${diffs[0]}")
	((others == 0)) && report ok "no other kind of difference" || { report bad "$others other differences"; cat "${diffs[0]}"; }
	echo "# why each item changed:"
	for ((i = 0; i < ${#CHANGED[@]}; i += 4)); do
		echo "#   ${CHANGED[i]}: ${CHANGED[i + 1]} -> ${CHANGED[i + 2]}: ${CHANGED[i + 3]}"
	done
else
	report bad "matrix wrote no diff"
fi
finish

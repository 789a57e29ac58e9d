#!/usr/bin/env bash
# tests/run: sealed
# diff_meanings: the words diff gives an item fit the change it shows
# (issue 46's audit), on items cut from real snapshots of Debian's
# 6.1.192 and 6.12.118 in QEMU and of the 6.18 host (tests/fixtures/
# meanings/README).  One assertion per class of wrong meaning:
# - both directions: a value that came back (TIOCSTI EIO -> 0) is not
#   read as the failure it left;
# - the meaning of another part: O_DIRECT accepted on tmpfs is the
#   filesystem's support, not a flag that appeared; a mask of supported
#   attributes is not the file's attributes; permission bits are not the
#   type bits lsof decides on;
# - a bit that is the kernel's own: openat2's other_bits moving between
#   0x4000000, 0x2000000 and 0 is __FMODE_NONOTIFY renumbered or dropped;
# - a knob that reads empty on this machine is not a default that moved.
set -u
export LC_ALL=C
abiwatch=${ABIWATCH:-./abiwatch}
fx=tests/fixtures/meanings
work=$(mktemp -d "${TMPDIR:-/tmp}/abiwatch-meanings.XXXXXX")
trap 'rm -rf "$work"' EXIT
status=0
ok() { echo "ok   $*"; }
bad() { echo "FAIL $*"; status=1; }

"$abiwatch" diff $fx/m61.snapshot $fx/m612.snapshot >"$work/a" 2>&1
"$abiwatch" diff $fx/m612.snapshot $fx/host.snapshot >"$work/b" 2>&1
"$abiwatch" diff --verbose $fx/m61.snapshot $fx/m612.snapshot >"$work/av" 2>&1

# line OUT ITEM-PATTERN: the one diff line of that item
line() { grep -E "^ +[a-z]+ +$2" "$work/$1" | head -n 1; }
has() { # what file item-pattern words...
	local what=$1 f=$2 item=$3 l
	shift 3
	l=$(line "$f" "$item")
	[[ -n $l ]] || { bad "$what: no line for $item"; return; }
	for w in "$@"; do
		[[ $l == *"$w"* ]] || { bad "$what: '$w' missing from: $l"; return; }
	done
	ok "$what"
}
hasnt() { # what file item-pattern words...
	local what=$1 f=$2 item=$3 l
	shift 3
	l=$(line "$f" "$item")
	[[ -n $l ]] || { bad "$what: no line for $item"; return; }
	for w in "$@"; do
		[[ $l != *"$w"* ]] || { bad "$what: '$w' in: $l"; return; }
	done
	ok "$what"
}

has "TIOCSTI EIO -> 0 says it works again" b 'tty\.tiocsti:' 'no_cap: EIO -> 0' '0: TIOCSTI works for them again'
has "the knob 0 -> 1 says 1 lets everyone" b 'tty\.tiocsti:' 'knob: 0 -> 1' '1: it works for everyone'
has "not_ctty's EPERM <-> EIO is only the errno" b 'obs\.tty\.tiocsti\.no_cap\.not_ctty' 'EIO -> EPERM' 'only the errno'
has "knob1's TIOCSTI working is read as working" av 'obs\.tty\.tiocsti_knob\.knob1\.no_cap' 'absent -> 0' '0: TIOCSTI works for them again'
has "O_DIRECT on tmpfs is tmpfs's support" a 'surface\.flags\.openat2:' 'o_direct: EINVAL -> accepted' 'tmpfs takes O_DIRECT'
hasnt "O_DIRECT did not appear" a 'surface\.flags\.openat2:' 'O_DIRECT appeared'
has "openat2's other bit is __FMODE_NONOTIFY, 6.1 -> 6.12" a 'surface\.flags\.openat2:' '0x4000000 -> 0x2000000' '__FMODE_NONOTIFY'
has "openat2's other bit is __FMODE_NONOTIFY, 6.12 -> 6.18" b 'obs\.surface\.flags\.openat2\.other_bits' '0x2000000 -> 0' '__FMODE_NONOTIFY'
has "the attributes mask is the VFS's, not tmpfs's attributes" a 'obs\.surface\.flags\.statx\.attributes_mask\.tmpfs' 'a mask, not the file' 'STATX_ATTR_VERITY'
has "VERITY in the mask is a 6.12.117 backport (bisected), not 6.12's" a 'obs\.surface\.flags\.statx\.attributes_mask\.tmpfs' '0x203070 -> 0x303070' 'from Debian 6.12.117 on, not 6.12.115'
hasnt "no claim that 6.12 as a whole adds VERITY" a 'obs\.surface\.flags\.statx\.attributes_mask\.tmpfs' 'mask in 6.12 ('
has "pidfd 0600 -> 0700 is permission bits" a 'obs\.vfs\.anon\.pidfd\.mode' '0600 -> 0700' 'the permission bits only describe it'
has "sched_energy_aware read empty is the machine, not a default" a 'sysctl\.knob\.kernel\.sched_energy_aware' 'value: 1 -> ;' 'cannot do energy-aware scheduling'
hasnt "sched_energy_aware: no 'a default that moved:' meaning" a 'sysctl\.knob\.kernel\.sched_energy_aware' 'a default that moved:'
exit $status

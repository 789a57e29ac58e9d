#!/usr/bin/env bash
# dirent_skips: what a machine lacks is a skip with the reason, never a
# failure.  In a private mount namespace (unshare -m), /dev/null is bound
# over mkfs.btrfs, so that it cannot be run, and over the 32-bit helper:
#   - every item of dirent.btrfs is a skip of cause fs:btrfs saying
#     "mkfs.btrfs not found";
#   - every compat32.* observation is unobserved with the helper's reason,
#     while the other items of the probe are made as usual;
# and an unknown --fs name or a bad --entries is a usage error (exit 2)
# whose message names the option, the value and what was expected.
# Exit 0 pass, 1 fail, 4 skip (no unshare, or not root).
cd "$(dirname "$0")/../.." || exit 1
. tests/lib/dirent-common.sh

command -v unshare >/dev/null || skip "no unshare(1)"
[[ $(id -u) == 0 ]] || skip "binding over mkfs.btrfs needs root"
mkfs=$(command -v mkfs.btrfs || ls /usr/sbin/mkfs.btrfs /sbin/mkfs.btrfs 2>/dev/null | head -n 1)
[[ -n $mkfs ]] || skip "no mkfs.btrfs here to hide (the skip is then real: see dirent_values)"
helper=$ABIWATCH_HELPER_DIR/abiwatch-dirent-m32
[[ -x $helper ]] || skip "no 32-bit helper at $helper (make m32)"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/abiwatch-dirent.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT

unshare -m --propagation private sh -c '
	mount --bind /dev/null "$1" && mount --bind /dev/null "$2" &&
	exec "$3" run dirent --fs btrfs,tmpfs --entries 100 -o "$4"' sh \
	"$mkfs" "$helper" "$abiwatch" "$tmp/snap" >"$tmp/ktap" 2>&1
rc=$?
[[ -s $tmp/snap ]] || { echo "FAIL: no snapshot (exit $rc)"; cat "$tmp/ktap"; exit 1; }
load_snapshot "$tmp/snap"

[[ $rc == 0 ]] && report ok "exit status 0 (passes and skips)" || report bad "exit status $rc"
for c in $DIRENT_CHECKS; do
	expect "check.dirent.btrfs.$c" "skip: needs fs:btrfs: mkfs.btrfs not found"
done
for o in cookie_bits eof_cookie duplicates order compat32.cookie_bits; do
	expect "unobserved.dirent.btrfs.$o" "skip: needs fs:btrfs: mkfs.btrfs not found"
done
expect_pass tmpfs
expect obs.dirent.tmpfs.eof_cookie 0x7fffffff
for o in cookie_bits eof_cookie duplicates nonlfs_readdir; do
	# /dev/null is no program: not executable, so not the helper.
	expect_match "unobserved.dirent.tmpfs.compat32.$o" "^skip: needs i386: the helper abiwatch-dirent-m32 is not installed \\(or not executable\\): "
done

# Usage errors, before anything runs, each naming the option, the value
# and what was expected.
while IFS='|' read -r bad says; do
	# shellcheck disable=SC2086
	"$abiwatch" run dirent $bad -o "$tmp/bad.snap" >"$tmp/bad.out" 2>&1
	rc=$?
	msg=$(head -n 1 "$tmp/bad.out")
	[[ $rc == 2 ]] && report ok "run dirent $bad: exit 2: $msg" ||
		report bad "run dirent $bad: exit $rc, expected 2"
	# The option named is the last one given.
	[[ $msg == "abiwatch run: --${bad##*--}: "*"$says"* ]] &&
		report ok "run dirent $bad: the message names it and says '$says'" ||
		report bad "run dirent $bad: '$msg' does not name it or say '$says'"
done <<'EOF'
--fs ext5|the dirent family has no probe 'ext5'
--entries 0|expected a whole number from 1 to 1000000
--entries 1000001|expected a whole number from 1 to 1000000
--entries 12x|expected a whole number from 1 to 1000000
--dirent-timing maybe|expected yes or no
--path nolabel|expected LABEL=DIR
--path =/tmp|expected LABEL=DIR
--path ext4=/tmp|dirent.ext4 exists already
--path x=/nonexistent/dir|No such file or directory
--path bad/label=/tmp|the label may hold letters, digits, '_' and '-' only
--path f=/etc/passwd|is not a directory
--path a=/tmp --path a=/tmp|dirent.a exists already
EOF
finish

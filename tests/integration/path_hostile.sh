#!/usr/bin/env bash
# path_hostile: --path LABEL=DIR given directories that work against the
# probe.  Each is a clear result (a skip or an error saying why, or a
# pass), never a crash, a hang or a failed check, and the probe's scratch
# subdirectory (.abiwatch-*) never stays behind:
#
#   ro        a read-only filesystem             skip: Read-only file system
#   noinode   a filesystem with no inode left    skip: No space left on device
#   full      room for the subdirectory only     error: ENOSPC, no check fails
#   gone      removed while the probe works      error: removed by someone else
#   vanished  removed before the probe starts    skip: No such file or directory
#   loop      a symlink loop                     exit 2 naming the option
#   odd       a name with spaces and a newline   pass; KTAP, text, snapshot intact
#   timeout   killed at the probe's deadline     timeout, nothing left
#
# The filesystems are tmpfs mounts in a mount namespace of this script's
# own (unshare -m), so nothing is mounted on the host.  Exit 0 pass,
# 1 fail, 4 skip.
cd "$(dirname "$0")/../.." || exit 1
if [[ -z ${AW_HOSTILE_NS:-} ]] && unshare -m --propagation private true 2>/dev/null; then
	exec unshare -m --propagation private env AW_HOSTILE_NS=1 bash "$0" "$@"
fi
. tests/lib/dirent-common.sh
[[ -x $abiwatch ]] || { echo "FAIL: no $abiwatch"; exit 1; }

tmp=$(mktemp -d "${TMPDIR:-/tmp}/awhostile.XXXXXX") || exit 1
pid=
cleanup() {
	[[ -n $pid ]] && { kill -KILL "$pid" 2>/dev/null; wait "$pid" 2>/dev/null; }
	[[ -n ${AW_HOSTILE_NS:-} ]] && umount -R -l "$tmp"/m/* 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT
mkdir -p "$tmp/m"

# run LABEL DIR [OPTION...]: one --path probe (tmpfs narrowed away is not
# possible, so a tiny tmpfs one runs too) into $tmp/LABEL.{ktap,text,snap}
run() {
	local label=$1 dir=$2
	shift 2
	"$abiwatch" run dirent --fs tmpfs --entries 50 --path "$label=$dir" "$@" \
		-o "$tmp/$label.snap" >"$tmp/$label.ktap" 2>"$tmp/$label.err"
	rc=$?
	load_snapshot "$tmp/$label.snap" 2>/dev/null || snap=()
}

# The probe's items all have this status, and none failed.
expect_all() { # label status reason-regex
	local k n=0 bad=0
	for k in "${!snap[@]}"; do
		[[ $k == check.dirent.$1.* ]] || continue
		n=$((n + 1))
		[[ ${snap[$k]} == "$2"* && ${snap[$k]} =~ $3 ]] || bad=$((bad + 1))
	done
	if ((n > 0 && bad == 0)); then
		report ok "$1: all $n checks $2 ($(echo "${snap[check.dirent.$1.unique]}" | cut -c1-110))"
	else
		report bad "$1: $bad of $n checks not '$2' matching /$3/: ${snap[check.dirent.$1.unique]-<absent>}"
	fi
}

# Nothing of abiwatch's is left in DIR.
expect_clean() { # label dir
	local left
	left=$(find "$2" -maxdepth 1 -name '.abiwatch-*' 2>/dev/null)
	if [[ -z $left ]]; then report ok "$1: no scratch subdirectory left"
	else report bad "$1: left behind: $left"; fi
}

expect_rc() { # label rc...
	local label=$1 want
	shift
	for want in "$@"; do
		[[ $rc == "$want" ]] && { report ok "$label: exit status $rc"; return; }
	done
	report bad "$label: exit status $rc, expected $*: $(tail -q -n 3 "$tmp/$label.ktap" "$tmp/$label.err")"
}

if [[ -n ${AW_HOSTILE_NS:-} ]]; then
	# ---- ro ----
	mkdir "$tmp/m/ro"
	mount -t tmpfs -o ro,size=1m none "$tmp/m/ro"
	run ro "$tmp/m/ro"
	expect_rc ro 0
	expect_all ro skip "Read-only file system"

	# ---- noinode: not even the subdirectory fits ----
	mkdir "$tmp/m/noinode"
	mount -t tmpfs -o size=1m,nr_inodes=8 none "$tmp/m/noinode"
	for i in $(seq 20); do : >"$tmp/m/noinode/f$i"; done 2>/dev/null
	run noinode "$tmp/m/noinode"
	expect_rc noinode 0
	expect_all noinode skip "No space left on device"
	expect_clean noinode "$tmp/m/noinode"

	# ---- full: the subdirectory fits, its files do not ----
	mkdir "$tmp/m/full"
	mount -t tmpfs -o size=64k,nr_inodes=32 none "$tmp/m/full"
	for i in $(seq 20); do : >"$tmp/m/full/f$i"; done
	dd if=/dev/zero of="$tmp/m/full/big" bs=4k 2>/dev/null
	run full "$tmp/m/full"
	expect_rc full 1
	expect_all full error "ENOSPC"
	expect_clean full "$tmp/m/full"
else
	report ok "ro, noinode, full: not tried (no mount namespace of our own here)"
fi

# ---- gone: removed, again and again, while the probe works in it ----
mkdir "$tmp/gone"
"$abiwatch" run dirent --fs tmpfs --entries 30000 --path "gone=$tmp/gone" \
	-o "$tmp/gone.snap" >"$tmp/gone.ktap" 2>&1 &
pid=$!
# Until the probe has its scratch subdirectory (or the run ended), then a
# moment more so that it is at work in it.
until compgen -G "$tmp/gone/.abiwatch-*" >/dev/null; do
	kill -0 "$pid" 2>/dev/null || break
	sleep 0.01
done
sleep 0.2
while [[ -e $tmp/gone ]] && kill -0 "$pid" 2>/dev/null; do rm -rf "$tmp/gone" 2>/dev/null; done
wait "$pid"
rc=$? pid=
load_snapshot "$tmp/gone.snap"
if [[ -e $tmp/gone ]]; then
	report bad "gone: the run ended before the directory could be removed"
else
	expect_rc gone 1
	expect_all gone error "removed by someone else during the run|ENOENT"
fi

# ---- vanished: there when the options were read, gone when the probe starts ----
mkdir "$tmp/vanished"
"$abiwatch" run dirent --fs tmpfs --entries 20000 --path "vanished=$tmp/vanished" \
	-o "$tmp/vanished.snap" >"$tmp/vanished.ktap" 2>&1 &
pid=$!
# The tmpfs probe runs first: once its namespace (abiwatch's child) exists,
# the options have been read and the --path probe has not started.
until [[ -n $(cat "/proc/$pid/task/$pid/children" 2>/dev/null) ]]; do
	kill -0 "$pid" 2>/dev/null || break
	sleep 0.005
done
rmdir "$tmp/vanished"
wait "$pid"
rc=$? pid=
load_snapshot "$tmp/vanished.snap"
expect_rc vanished 0
expect_all vanished skip "No such file or directory"

# ---- loop: a symlink loop is bad input ----
ln -s loop "$tmp/loop"
"$abiwatch" run dirent --fs tmpfs --path "loop=$tmp/loop" >"$tmp/loop.ktap" 2>&1
rc=$?
expect_rc loop 2
if grep -q -- "--path loop=.*Too many levels of symbolic links" "$tmp/loop.ktap"; then
	report ok "loop: $(head -n 1 "$tmp/loop.ktap" | cut -c1-120)"
else
	report bad "loop: no clear message: $(head -n 3 "$tmp/loop.ktap")"
fi

# ---- odd: spaces and a newline in the name ----
odd="$tmp/with  spaces"$'\n'"and a newline"
mkdir "$odd"
run odd "$odd"
expect_rc odd 0
expect_all odd pass ""
expect_clean odd "$odd"
# Every KTAP line is KTAP: the newline did not break one.
if bad=$(grep -v -E '^ *(KTAP version 1|TAP version 13|1\.\.[0-9]+|(not )?ok [0-9]+ |#)' "$tmp/odd.ktap"); then
	report bad "odd: lines that are not KTAP: $(head -n 3 <<<"$bad")"
else
	report ok "odd: every KTAP line is KTAP"
fi
"$abiwatch" run dirent --fs tmpfs --entries 50 --path "odd=$odd" --format text \
	>"$tmp/odd.text" 2>&1
if grep -qF 'spaces\nand a newline' "$tmp/odd.text" && ! grep -q '^and a newline' "$tmp/odd.text"; then
	report ok "odd: the text report shows the newline as \\n"
else
	report bad "odd: the text report broke a line: $(grep -n 'newline' "$tmp/odd.text" | head -n 2)"
fi
"$abiwatch" diff "$tmp/odd.snap" "$tmp/odd.snap" >/dev/null 2>&1
rc=$?
expect_rc odd 0

# ---- timeout: the namespace is killed at the deadline ----
mkdir "$tmp/slow"
"$abiwatch" run dirent --fs tmpfs --entries 200000 --path "slow=$tmp/slow" \
	--timeout 0.4 -o "$tmp/slow.snap" >"$tmp/slow.ktap" 2>&1
rc=$?
load_snapshot "$tmp/slow.snap"
expect_rc slow 1
expect_all slow timeout "no result within|timed out"
expect_clean timeout "$tmp/slow"

finish

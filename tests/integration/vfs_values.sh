#!/usr/bin/env bash
# vfs_values: `abiwatch run vfs` on this kernel, every filesystem this
# machine has (tests/lib/machine; one it lacks must be a skip naming it),
# against what the kernel's version implies (docs/catalogue.md, vfs):
#   - pidfds: pidfs since 6.9 (cb12fd8e0dab: f_type 0x50494446, an inode
#     per process, mode 0700), the anonymous inode before (0x09041934,
#     0600, shared); "anon_inode:[pidfd]" and no type bits either way
#     from 6.10 (db3d841ac9ed);
#   - open(O_CREAT|O_DIRECTORY): EINVAL, nothing left (43b450632676, 6.4);
#   - per filesystem: O_TMPFILE everywhere (overlay since 6.10,
#     9a87907de359), unprivileged flink ok since 6.10 (42bd2af59504),
#     mtimes per change ("ns") since 6.13's multigrain timestamps, one a
#     tick before; RENAME_NOREPLACE's EEXIST and EXCHANGE everywhere,
#     WHITEOUT refused by overlay; a directory's st_nlink 2 + subdirectories
#     but on btrfs (1);
#   - inotify: a pipe gives events, an eventfd or memfd none since 6.14
#     (54dbee0b21e1);
#   - "#!" lines: 255 bytes at most (BINPRM_BUF_SIZE 256 since 5.1), a cut
#     path ENOEXEC, a cut argument runs;
#   - --vfs-path: a probe of a host directory, left as it was; bad values
#     of the options are usage errors (exit 2) naming what was expected;
#   - nothing left mounted or attached.
cd "$(dirname "$0")/../.." || exit 1
. tests/lib/dirent-common.sh

release=$(uname -r)
at_least() { # major minor: this kernel is that version or later
	local r=$release major minor
	major=${r%%.*} r=${r#*.} minor=${r%%[!0-9]*}
	((major > $1 || (major == $1 && minor >= $2)))
}
at_least 6 10 || skip "the expected values need 6.10 or later (pidfs's lsof fix), this is $release"
pick() { # major minor new old: new from that version on, else old
	at_least "$1" "$2" && echo "$3" || echo "$4"
}

tmp=$(mktemp -d "${TMPDIR:-/tmp}/abiwatch-vfs.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
loops_before=$(losetup -a 2>&1 | sort)
mounts_before=$(cut -d' ' -f5 /proc/self/mountinfo | sort)
mkdir "$tmp/host"

"$abiwatch" run vfs --vfs-path here="$tmp/host" -o "$tmp/snap" >"$tmp/ktap" 2>"$tmp/err"
rc=$?
[[ -s $tmp/snap ]] || { echo "FAIL: no snapshot (exit $rc)"; cat "$tmp/err"; exit 1; }
load_snapshot "$tmp/snap"
machine_summary

((header_ok)) && report ok "header $(head -n 1 "$tmp/snap")" || report bad "header: $(head -n 1 "$tmp/snap")"
[[ $rc == 0 ]] && report ok "exit status 0" || { report bad "exit status $rc, expected 0"; cat "$tmp/err"; }
tests/lib/ktap-check "$tmp/ktap" && report ok "the KTAP output parses" || report bad "the KTAP output does not parse"

expect check.vfs.anon.anon_inode_link pass
expect obs.vfs.anon.pidfd.f_type 0x50494446
expect obs.vfs.anon.pidfd.mode 0700
expect obs.vfs.anon.pidfd.ino_per_process yes
expect obs.vfs.anon.pidfd.ino_shared no
expect obs.vfs.anon.pidfd.link 'anon_inode:[pidfd]'
for k in eventfd timerfd signalfd epoll; do
	expect obs.vfs.anon.$k.f_type 0x09041934
	expect obs.vfs.anon.$k.mode 0600
	expect obs.vfs.anon.$k.ino_shared yes
done
expect obs.vfs.anon.eventfd.link 'anon_inode:[eventfd]'
expect obs.vfs.anon.timerfd.link 'anon_inode:[timerfd]'
expect obs.vfs.anon.signalfd.link 'anon_inode:[signalfd]'
expect obs.vfs.anon.epoll.link 'anon_inode:[eventpoll]'

expect obs.vfs.open.creat_directory EINVAL
expect obs.vfs.open.creat_directory_left nothing
expect obs.vfs.open.creat_directory_existing EINVAL

pseudo=$(pick 6 14 none events)
expect obs.vfs.inotify.eventfd "$pseudo"
expect obs.vfs.inotify.memfd "$pseudo"
expect obs.vfs.inotify.pipe events

expect obs.vfs.shebang.max_line 255
expect obs.vfs.shebang.long_path ENOEXEC
expect obs.vfs.shebang.long_argument runs

grain=$(pick 6 13 ns jiffy)
expect_fs() { # fs nlink whiteout [grain]
	local fs=$1 c
	for c in flink_procfd tmpfile_excl_unlinkable mtime_order rename_same rename_hardlink link_directory; do
		expect check.vfs.$fs.$c pass
	done
	expect obs.vfs.$fs.tmpfile ok
	expect obs.vfs.$fs.flink_unprivileged ok
	expect obs.vfs.$fs.mtime_granularity "${4:-$grain}"
	expect obs.vfs.$fs.rename_noreplace EEXIST
	expect obs.vfs.$fs.rename_exchange ok
	expect obs.vfs.$fs.rename_whiteout "$3"
	expect obs.vfs.$fs.dir_nlink "$2"
}
expect_fs tmpfs 5 ok
for fs in ext4 xfs btrfs overlay; do
	if ! machine_fs "$fs"; then
		expect_match check.vfs.$fs.mtime_order "^skip: .*$fs"
		continue
	fi
	case $fs in
	btrfs) expect_fs btrfs 1 ok ;;
	overlay) expect_fs overlay 5 EINVAL ;;
	*) expect_fs "$fs" 5 ok ;;
	esac
done

# The host directory: probed, and left empty.  Its filesystem is /tmp's,
# so only what holds on every filesystem is asserted.
expect obs.vfs.here.tmpfile ok
expect check.vfs.here.rename_same pass
expect check.vfs.here.mtime_order pass
expect_match obs.vfs.here.mtime_granularity '^(ns|jiffy|second)$'
left=$(ls -A "$tmp/host")
[[ -z $left ]] && report ok "the --vfs-path directory is left empty" || report bad "left in it: $left"

# Options: bad values are usage errors naming what was expected.
usage() { # expected-message args...
	local want=$1 out
	shift
	out=$("$abiwatch" run "$@" 2>&1 >/dev/null)
	local st=$?
	[[ $st == 2 && $out == *"$want"* ]] && report ok "run $*: exit 2, '$want'" ||
		report bad "run $*: exit $st, '$out'"
}
usage "expected LABEL=DIR" vfs --vfs-path nolabel
usage "$tmp/none: No such file or directory" vfs --vfs-path x="$tmp/none"
usage "the vfs family has no probe 'zfs'" vfs --vfs-fs zfs
usage "vfs.tmpfs exists already" vfs --vfs-path tmpfs="$tmp/host"

# Nothing left behind.
[[ $(losetup -a 2>&1 | sort) == "$loops_before" ]] && report ok "no loop device left" ||
	report bad "loop devices changed: $(losetup -a)"
[[ $(cut -d' ' -f5 /proc/self/mountinfo | sort) == "$mounts_before" ]] && report ok "no mount left" ||
	report bad "mounts changed"
finish

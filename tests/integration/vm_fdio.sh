#!/usr/bin/env bash
# tests/run: sealed
# vm_fdio: the fdio family in Debian's 6.1 and 6.12 cloud kernels, both
# in QEMU at once (one abiwatch matrix), as full root with every
# capability and i386 execution.  In each guest:
#   - no fdio item fails or breaks, and env.i386 = yes;
#   - every value tests/lib/fdio-values.sh lists as the same on all
#     kernels is that value (the guards: EPOLLET pipe wake-ups, 2-page
#     pipes over the soft limit, tty splice, copy_file_range EXDEV);
#   - the items that changed after 6.1 have their old value on 6.1 and
#     their new one on 6.12 (eventfd's 16-byte write, timerfd and
#     signalfd readv, F_SETPIPE_SZ's argument width, EPIOCGPARAMS,
#     eventfd's fdinfo keys, /dev/zero splice);
#   - EPOLLWAKEUP with CAP_BLOCK_SUSPEND is kept (CONFIG_PM_SLEEP=y);
#   - the 32-bit helper sees a 12-byte struct epoll_event, events at
#     offsets 0 and 12 with their 64-bit data intact, and epoll_pwait2
#     with a 16-byte timespec.
# And the diff matrix wrote between them names exactly the changed items.
set -u
cd "$(dirname "$0")/../.." || exit 1
. tests/lib/dirent-common.sh
. tests/lib/fdio-values.sh

. tests/lib/vm-kernels.sh
vm_kernels 6.1 6.12
tmp=$(mktemp -d "${TMPDIR:-/tmp}/abiwatch-vmfdio.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT

"$abiwatch" matrix -q -o "$tmp/m" "${debs[@]}" -- fdio >"$tmp/out" 2>&1
rc=$?
# Exit 1 is matrix's "the kernels differ", which they do here.
[[ $rc == 0 || $rc == 1 ]] && report ok "matrix exits $rc" || { report bad "matrix exits $rc"; cat "$tmp/out"; }
cat "$tmp/m/matrix.txt" 2>/dev/null

guests=0
for s in "$tmp"/m/*.snapshot; do
	[[ -f $s ]] || continue
	guests=$((guests + 1))
	load_snapshot "$s"
	release=${snap[env.kernel.release]-?}
	echo "# $release"
	expect env.i386 yes
	fdio_expect_no_failures "$s"
	fdio_expect_same
	fdio_expect_copies
	case $release in
	6.1.*) fdio_expect_changed old ;;
	6.12.*) fdio_expect_changed new ;;
	*) report bad "unexpected guest kernel $release" ;;
	esac
	expect obs.fdio.epoll.wakeup.capable 20000019
	expect obs.fdio.epoll.compat32.sizeof_epoll_event 12
	expect check.fdio.epoll.compat32.stride pass
	expect check.fdio.epoll.compat32.data_roundtrip pass
	expect obs.fdio.epoll.compat32.pwait2 2
	expect obs.fdio.epoll.compat32.pwait2.bad_nsec EINVAL
done
((guests == 2)) && report ok "a snapshot of each guest" || report bad "$guests guest snapshots, expected 2"

# The diff between the two guests: the changed items and nothing else.
diffs=("$tmp"/m/*.diff)
if [[ -f ${diffs[0]} ]]; then
	diffs[0]=$(verbose_diff "${diffs[0]}") # an item's line, also in an object of several
	got=$(sed -n 's/^ *changed *\(obs\.[^:]*\):.*/\1/p' "${diffs[0]}" | sort)
	want=$(for ((i = 0; i < ${#FDIO_CHANGED[@]}; i += 3)); do echo "${FDIO_CHANGED[i]}"; done | sort)
	[[ $got == "$want" ]] && report ok "the 6.1 -> 6.12 diff names exactly the $((${#FDIO_CHANGED[@]} / 3)) changed items" ||
		report bad "the 6.1 -> 6.12 diff names:"$'\n'"$got"$'\n'"expected:"$'\n'"$want"
	others=$(grep -cE '^ *(added|removed|regressed|recovered|skipped|unskipped) ' "${diffs[0]}")
	((others == 0)) && report ok "no other kind of difference" || { report bad "$others other differences"; cat "${diffs[0]}"; }
else
	report bad "matrix wrote no diff"
fi
finish

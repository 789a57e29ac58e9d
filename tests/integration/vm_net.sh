#!/usr/bin/env bash
# tests/run: sealed
# vm_net: the net family in Debian's 6.1 and 6.12 cloud kernels, both in
# QEMU at once (one abiwatch matrix), only the net family in the guest.
# In each guest:
#   - no net item fails or breaks;
#   - every value tests/lib/net-values.sh lists as the same on all
#     kernels is that value (the documented bind() cells, backlogs,
#     SCM_MAX_FD, unix names, splice and sendfile over TCP ...);
#   - the items that changed after 6.1 have their old value on 6.1 and
#     their new one on 6.12: the 21 cells of the bind() matrix where a
#     v4-mapped wildcard, then a v4-mapped loopback address on its port,
#     conflict on 6.12 and not on 6.1 (every other cell of the 2048, the
#     whole matrix, the same on both: the diff below names no other), the size of
#     struct tcp_info, SO_PEERPIDFD and SO_PASSPIDFD, and the net.core
#     knobs that moved from the initial namespace into every one;
#   - the 32-bit helper's control messages (12-byte cmsghdr, two
#     descriptors through SCM_RIGHTS) and socket timeouts (old and new
#     timevals) are right;
#   - the initial namespace's knobs were read (net.initns: the guest is
#     the one place it runs), tcp_mem among them, labelled as memory-sized.
# (net.listen declares the inet_diag and tcp_diag modules its netlink
# calls load, .needs.modules, so that every guest carries them: no
# --module here.)
# And the diff matrix wrote between them names exactly the changed items,
# with the memory-sized ones put under the environment.
set -u
cd "$(dirname "$0")/../.." || exit 1
. tests/lib/dirent-common.sh
. tests/lib/net-values.sh

. tests/lib/vm-kernels.sh
vm_kernels 6.1 6.12
tmp=$(mktemp -d "${TMPDIR:-/tmp}/abiwatch-vmnet.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT

"$abiwatch" matrix -q -o "$tmp/m" "${debs[@]}" -- net >"$tmp/out" 2>&1
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
	net_expect_no_failures "$s"
	net_expect_same
	expect_match obs.net.initns.net.ipv4.tcp_mem.value '^[0-9]+ [0-9]+ [0-9]+$'
	expect obs.net.initns.net.core.netdev_max_backlog.value 1000
	# The 32-bit caller (i386 runs in both guests).
	expect check.net.compat32.scm_rights.roundtrip pass
	expect obs.net.compat32.sizeof_cmsghdr 12
	expect obs.net.compat32.scm_rights.cmsg_len 20
	expect obs.net.compat32.scm_credentials.cmsg_len 24
	expect obs.net.compat32.rcvtimeo.old '8 bytes: 2.500000'
	expect obs.net.compat32.rcvtimeo.new 'set; read back old: 8 bytes: 3.500000'
	expect obs.net.compat32.sndtimeo.old '8 bytes: 1.000000'
	expect obs.net.compat32.sndtimeo.new 'set; read back old: 8 bytes: 4.500000'
	case $release in
	6.1.*)
		net_expect_changed old
		for k in "${NET_REMOVED[@]}"; do expect_match "$k" '^[0-9]+$'; done ;;
	6.12.*)
		net_expect_changed new
		for k in "${NET_REMOVED[@]}"; do expect "$k" '<absent>'; done ;;
	*) report bad "unexpected guest kernel $release" ;;
	esac
done
((guests == 2)) && report ok "a snapshot of each guest" || report bad "$guests guest snapshots, expected 2"

# The diff between the two guests: the changed items and nothing else.
diffs=("$tmp"/m/*.diff)
if [[ -f ${diffs[0]} ]]; then
	# tcp_init_mem()'s formula, checked against each side's memory
	grep -q 'sized: .*net.initns.net.ipv4.tcp_mem.value' "${diffs[0]}" &&
		report ok "tcp_mem is put under what the kernel had at boot (its formula fits)" ||
		report bad "tcp_mem is not put under sized"
	diffs[0]=$(verbose_diff "${diffs[0]}") # an item's line, also in an object of several
	# The items above "not comparable", where the machine's own are listed.
	got=$(sed -n '/^not comparable/q; s/^ *\(changed\|removed\) *\(obs\.[^: ]*\).*/\2/p' "${diffs[0]}" | sort)
	want=$({ for ((i = 0; i < ${#NET_CHANGED[@]}; i += 3)); do echo "${NET_CHANGED[i]}"; done
		printf '%s\n' "${NET_REMOVED[@]}"; } | sort)
	[[ $got == "$want" ]] && report ok "the 6.1 -> 6.12 diff names exactly the $(wc -l <<<"$want") changed items" ||
		report bad "the 6.1 -> 6.12 diff names:"$'\n'"$got"$'\n'"expected:"$'\n'"$want"
	others=$(grep -cE '^ *(added|regressed|recovered|skipped|unskipped) ' "${diffs[0]}")
	((others == 0)) && report ok "no other kind of difference" || { report bad "$others other differences"; cat "${diffs[0]}"; }
else
	report bad "matrix wrote no diff"
fi
finish

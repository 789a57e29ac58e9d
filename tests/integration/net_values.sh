#!/usr/bin/env bash
# net_values: the net family here.  Ten runs of `abiwatch run net`, each
# exiting 0 within 3 s, give identical snapshots (no item depends on
# timing); the documented contracts pass and the values every kernel
# since 5.4 gives are those of tests/lib/net-values.sh; the probes'
# namespaces are their own: the host's links, addresses, routes and
# listening sockets (the net section of tests/lib/host-state), and the
# rest of its fingerprint, are the same before and after.
set -u
cd "$(dirname "$0")/../.." || exit 1
. tests/lib/dirent-common.sh
. tests/lib/net-values.sh

host_state=tests/lib/host-state
why=$("$host_state" --missing) || skip "$why"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/abiwatch-netval.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/out" "$tmp/tmpdir"
tag=AW_NET_TAG=$$.$RANDOM
export HOST_STATE_TAG=$tag HOST_STATE_PID=$$ HOST_STATE_TMPDIRS="$tmp/tmpdir $tmp/out"
"$host_state" >"$tmp/before" 2>&1

runs=10
for ((i = 1; i <= runs; i++)); do
	start=$(date +%s%N)
	env "$tag" TMPDIR="$tmp/tmpdir" "$abiwatch" run net -o "$tmp/out/$i" >"$tmp/ktap" 2>&1
	rc=$?
	ms=$((($(date +%s%N) - start) / 1000000))
	[[ $rc == 0 ]] && report ok "run $i exits 0" || { report bad "run $i exits $rc"; grep 'not ok' "$tmp/ktap"; }
	((ms < 3000)) && report ok "run $i took $ms ms (< 3000)" || report bad "run $i took $ms ms"
done
items=$(grep -cE '^(check|obs|unobserved)\.net\.' "$tmp/out/1")
((items > 350)) && report ok "run 1 reports $items net items" || report bad "run 1 reports $items net items"
for ((i = 2; i <= runs; i++)); do
	if cmp -s "$tmp/out/1" "$tmp/out/$i"; then
		report ok "snapshot $i is identical to snapshot 1"
	else
		report bad "snapshot $i differs from snapshot 1:"
		diff "$tmp/out/1" "$tmp/out/$i" | head -20
	fi
done

load_snapshot "$tmp/out/1"
net_expect_no_failures "$tmp/out/1"
net_expect_same
# The initial namespace is read only in a VM guest.
expect_match unobserved.net.initns.count '^skip: needs vm: '

if "$host_state" >"$tmp/after" 2>&1 && diff -u "$tmp/before" "$tmp/after" >"$tmp/diff"; then
	report ok "the host is unchanged (links, addresses, routes, listening sockets and the rest)"
else
	report bad "the host changed:"$'\n'"$(head -30 "$tmp/diff")"
fi
finish

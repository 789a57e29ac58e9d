#!/usr/bin/env bash
# net_values: the net family here.  Ten runs of `abiwatch run net`, each
# exiting 0, give identical snapshots (no item depends on
# timing); the documented contracts pass and the values every kernel
# since 5.4 gives are those of tests/lib/net-values.sh; the probes'
# namespaces are their own: the host's links, addresses, routes and
# listening sockets (the net section of tests/lib/host-state), its knobs,
# host name and limits are the same before and after, and no process or
# file of the runs stays.
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

# How long a run takes is tests/bench.d/family_runs.sh's figure: a loaded
# machine must not fail this test.
expect_same_runs 10 "$tmp/out" env "$tag" TMPDIR="$tmp/tmpdir" "$abiwatch" run net
items=$(grep -cE '^(check|obs|unobserved)\.net\.' "$tmp/out/1")
# 2048 of them the cells of the bind matrix.
((items > 2100)) && report ok "run 1 reports $items net items" || report bad "run 1 reports $items net items"

load_snapshot "$tmp/out/1"
net_expect_no_failures "$tmp/out/1"
net_expect_same
# The initial namespace is read only in a VM guest.
expect_match unobserved.net.initns.count '^skip: needs vm: '

# What the net family could reach: the host's network (links, addresses,
# routes, listening sockets), its knobs, host name and limits, and what
# our runs leave (tagged processes, files in our directories).  These must
# be unchanged; a change elsewhere (a loop device, a mount) is another
# session's on a shared machine, since no net probe touches those, and is
# only shown.
"$host_state" >"$tmp/after" 2>&1
ours='^(net|knobs|sysctl|uts|rlimit|proc|tmp) '
if diff -u <(grep -E "$ours" "$tmp/before") <(grep -E "$ours" "$tmp/after") >"$tmp/diff"; then
	report ok "the host's network, knobs, host name and limits are unchanged; nothing left behind"
else
	report bad "the host changed:"$'\n'"$(head -30 "$tmp/diff")"
fi
if ! diff -u "$tmp/before" "$tmp/after" >"$tmp/other"; then
	echo "# meanwhile, outside what the net family can reach (others on this machine):"
	grep '^[-+][a-z]' "$tmp/other" | grep -v '^[-+][-+]' | head -10 | sed 's/^/#   /'
fi
finish

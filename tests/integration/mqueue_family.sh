#!/usr/bin/env bash
# tests/run: sealed
# mqueue_family: the whole mqueue family in one run, as `abiwatch run
# mqueue` does it: exit status 0, well-formed KTAP, every item it declares
# (abiwatch list) in the snapshot with a result or a skip that gives a
# reason, no failure and no error.  How long the family takes is measured
# by `make bench` (tests/bench.d/run_mqueue.sh), not here.
# Exit 0 pass, 1 fail.
source "$(dirname "$0")/../lib/mqueue-snapshot.sh"
export ABIWATCH_HELPER_DIR=${ABIWATCH_HELPER_DIR:-$mq_root/build/m32}

mq_run mqueue
expect_status 0
expect_no_failures
missing=0 reasonless=0 n=0
while read -r kind name; do
	n=$((n + 1))
	if [[ $kind == check ]]; then
		v=${snap[check.$name]-}
		[[ -n $v ]] || { report bad "$name: no result"; missing=1; continue; }
	else
		v=${snap[obs.$name]-${snap[unobserved.$name]-}}
		[[ -n $v ]] || { report bad "$name: no observation"; missing=1; continue; }
	fi
	if [[ $v == skip* && ! $v =~ ^skip:\ .+ ]]; then
		report bad "$name: a skip without a reason"
		reasonless=1
	fi
done < <("$abiwatch" list mqueue | awk '$1 == "check" || $1 == "obs" { print $1, $2 }')
((missing || reasonless)) || report ok "all $n declared items have a result, every skip a reason"
mq_finish

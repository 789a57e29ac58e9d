#!/usr/bin/env bash
# load_host: every family on this machine twice, once idle (as idle as the
# suite leaves it) and once while two busy loops per CPU, this test's own,
# oversubscribe it: the two snapshots compare with no kernel change (diff
# exit 0), no probe timed out and none was starved.  Timeouts stretch by
# the machine's measured slowness and a probe out of time is tried again
# alone (docs/architecture.md, "Isolation"), so that a busy CI runner gets
# the answers of an idle one.  Asserts no time: only the results.
set -u
cd "$(dirname "$0")/../.." || exit 1
. tests/lib/dirent-common.sh
. tests/lib/cpu-hog.sh
tmp=$(mktemp -d "${TMPDIR:-/tmp}/abiwatch-load.XXXXXX") || exit 1
trap 'hog_stop; rm -rf "$tmp"' EXIT

"$abiwatch" run -o "$tmp/idle.snapshot" >"$tmp/idle.ktap" 2>&1
hog_start
"$abiwatch" run -o "$tmp/loaded.snapshot" >"$tmp/loaded.ktap" 2>&1
running=$(hog_running)
hog_stop
[[ $running == $((2 * $(nproc))) ]] && report ok "the hog ran throughout ($running busy loops)" ||
	report bad "only $running of $((2 * $(nproc))) busy loops lasted the loaded run"

for s in idle loaded; do
	[[ -s $tmp/$s.snapshot ]] || { report bad "no $s snapshot"; tail -n 5 "$tmp/$s.ktap"; continue; }
	timed=$(grep -cE '^(probe|check|obs|unobserved)\.[^ ]* = timeout' "$tmp/$s.snapshot")
	starved=$(grep -c 'needs load: starved' "$tmp/$s.snapshot")
	[[ $timed == 0 ]] && report ok "$s: no item timed out" ||
		{ report bad "$s: $timed items timed out"; grep -E '^probe\..* = timeout' "$tmp/$s.snapshot" | head; }
	[[ $starved == 0 ]] && report ok "$s: nothing starved" ||
		{ report bad "$s: $starved items starved"; grep '^env.load' "$tmp/$s.snapshot"; }
done
"$abiwatch" diff "$tmp/idle.snapshot" "$tmp/loaded.snapshot" >"$tmp/diff"
rc=$?
[[ $rc == 0 ]] && report ok "idle -> loaded: no kernel change ($(head -n 1 "$tmp/diff" | cut -c1-120))" ||
	{ report bad "idle -> loaded: diff exits $rc"; head -n 20 "$tmp/diff"; }
grep -q 'ran again alone' "$tmp/loaded.ktap" &&
	echo "# second tries under load: $(grep -c 'ran again alone' "$tmp/loaded.ktap")"
finish

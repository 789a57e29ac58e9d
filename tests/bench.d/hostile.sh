#!/usr/bin/env bash
# How long `abiwatch run dirent --path L=DIR --timeout T` takes over each
# cookiefs policy, good and hostile, against the good policy measured in
# the same run (the ratio), and against the bound abiwatch documents: T
# for the probe, 2 s to reap it after a kill and 3 s to remove its
# scratch directory (abiwatch(1), --timeout), plus the built-in probes'
# own time (their sum in the good run).
#   BENCH_TIMEOUT=20 BENCH_ENTRIES=1000
set -u
cd "$(dirname "$0")/../.." || exit 1
abiwatch=${ABIWATCH:-./abiwatch}
T=${BENCH_TIMEOUT:-20}
n=${BENCH_ENTRIES:-1000}
cookiefs=tools/cookiefs/cookiefs
[[ -x $cookiefs && -c /dev/fuse && $(id -u) == 0 ]] || { echo "needs tools/cookiefs/cookiefs, /dev/fuse and root"; exit 0; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/abiwatch-bench-hostile.XXXXXX") || exit 1
mkdir "$tmp/mnt"
"$cookiefs" -f "$tmp/mnt" 2>/dev/null &
daemon=$!
trap 'kill $daemon 2>/dev/null; wait $daemon 2>/dev/null; umount "$tmp/mnt" 2>/dev/null; rm -rf "$tmp"' EXIT
until mountpoint -q "$tmp/mnt"; do kill -0 $daemon 2>/dev/null || exit 1; sleep 0.05; done

run() { # policy -> seconds on stdout; exit status in $tmp/rc, snapshot in $tmp/snap
	local t0=$EPOCHREALTIME
	"$abiwatch" run dirent --entries "$n" --timeout "$T" --path "L=$tmp/mnt/$1" -o "$tmp/snap" \
		>"$tmp/ktap" 2>&1
	echo $? >"$tmp/rc"
	awk -v a="$t0" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.2f", b - a }'
}

base=$(run good)
printf '%-9s %8s %6s %6s %s\n' policy seconds ratio bound "probe.dirent.L"
for p in good wide signed dup cycle unstable skip repeat vanish eio slow truncate nodots hang; do
	s=$(run "$p")
	state=$(sed -n 's/^probe\.dirent\.L = //p' "$tmp/snap" 2>/dev/null | cut -c1-50)
	# The built-in probes ran in the good run too: their time plus T + 5.
	bound=$(awk -v b="$base" -v t="$T" 'BEGIN { printf "%.0f", b + t + 5 }')
	printf '%-9s %8s %6.2f %6s %s (exit %s)\n' "$p" "$s" "$(awk -v s="$s" -v b="$base" 'BEGIN { print s / b }')" \
		"$bound" "${state:-?}" "$(cat "$tmp/rc")"
	if [[ $p == hang ]]; then # free the stuck reader: restart the daemon
		kill $daemon; wait $daemon 2>/dev/null; umount "$tmp/mnt" 2>/dev/null
		"$cookiefs" -f "$tmp/mnt" 2>/dev/null &
		daemon=$!
	fi
done

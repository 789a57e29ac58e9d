#!/usr/bin/env bash
# abiwatch without privilege: as an unprivileged uid, and as root without
# each capability the probes care about.  Whatever cannot run is a skip
# with a reason; nothing fails or breaks for want of privilege, and the
# outputs agree.
set -u
abiwatch=$(realpath "${ABIWATCH:-./abiwatch}")
if [[ $(id -u) != 0 ]]; then
	echo "skip: needs root to become another uid and to drop capabilities"
	exit 4
fi
work=$(mktemp -d "${TMPDIR:-/tmp}/abiwatch-unpriv.XXXXXX")
trap 'rm -rf "$work"' EXIT
chmod 755 "$work"
status=0

check_run() { # label snapshot exit-status
	local label=$1 snap=$2 rc=$3
	local bad
	if [[ $rc != 0 && $rc != 4 ]]; then
		echo "FAIL $label: exit $rc"
		grep -E '^[a-z]+\..* = (fail|error|timeout|broken)' "$snap" | head -20
		tail -n 5 "${snap%/*}/err"
		status=1
		return
	fi
	bad=$(grep -E '^check\..* = (fail|error|timeout)|^probe\..* = (error|timeout)' "$snap")
	if [[ -n $bad ]]; then
		echo "FAIL $label:"$'\n'"$bad"
		status=1
		return
	fi
	# Every skip says why.
	if grep -E '^(check|unobserved|probe)\..* = skip(: ?)?$' "$snap"; then
		echo "FAIL $label: a skip without a reason"
		status=1
		return
	fi
	# The --path probe ran, and left nothing in its directory.
	if ! grep -q '^check\.dirent\.mine\.complete = pass$' "$snap" || [[ -n $(ls -A "${snap%/*}/dir") ]]; then
		echo "FAIL $label: the --path probe: $(grep '^check\.dirent\.mine\.complete' "$snap")," \
		     "left: $(ls -A "${snap%/*}/dir")"
		status=1
		return
	fi
	echo "ok   $label: exit $rc, $(grep -c ' = pass$' "$snap") passed, $(grep -c ' = skip: ' "$snap") skipped"
}

# A real unprivileged uid, with a directory it may write.
out=$work/nobody
mkdir "$out" "$out/dir" && chown 65534:65534 "$out" "$out/dir"
(cd "$out" && setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all \
	"$abiwatch" run --path "mine=$out/dir" -o "$out/snap" >"$out/ktap" 2>"$out/err")
rc=$?
if [[ ! -s $out/snap ]]; then
	echo "FAIL nobody: no snapshot (exit $rc)"; cat "$out/err"; exit 1
fi
grep -q '^env.caps = none$' "$out/snap" && echo "ok   nobody holds no capability" ||
	{ echo "FAIL nobody: env.caps is $(grep '^env.caps' "$out/snap")"; status=1; }
check_run "uid 65534" "$out/snap" "$rc"
tests/lib/ktap-check "$out/ktap" || { echo "FAIL nobody: KTAP"; status=1; }

# Root minus one capability at a time.
for cap in sys_admin sys_resource ipc_owner dac_override; do
	out=$work/no_$cap
	mkdir "$out" "$out/dir"
	setpriv --bounding-set=-"$cap" --inh-caps=-"$cap" \
		"$abiwatch" run --path "mine=$out/dir" -o "$out/snap" >"$out/ktap" 2>"$out/err"
	rc=$?
	if grep -q "^env.caps = .*cap_$cap\(,\|$\)" "$out/snap"; then
		echo "FAIL without $cap: env.caps still lists it"
		status=1
	fi
	check_run "root without CAP_${cap^^}" "$out/snap" "$rc"
	tests/lib/ktap-check "$out/ktap" || { echo "FAIL without $cap: KTAP"; status=1; }
done
exit $status

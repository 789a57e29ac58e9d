#!/usr/bin/env bash
# The job abiwatch renders runs unchanged on LAVA's own dispatcher: a
# Debian 6.1 cloud kernel and its ramdisk (lava/make-ramdisk), the job of
# lava/render-job for the mqueue family, run by lava-dispatcher's lava-run
# with the QEMU device lava-server's templates make (lava/run-job).  Then:
# the job completed; one test case a check, each with the result the
# snapshot gives, and the measurements (lava/check-results --run); the
# snapshot comes back from the log (lava/job-snapshot) and abiwatch diff
# finds no kernel change against `abiwatch vm` of the same package here.
#
# The long lane's (make check-long): a TCG boot under LAVA takes minutes.
# Installs lava-dispatcher and lava-server (for its device-type templates;
# no daemon is started) when missing; skips, saying why, where it cannot.
set -u
export LC_ALL=C
abiwatch=${ABIWATCH:-./abiwatch}
[[ ${ABIWATCH_TEST_LONG:-0} == 1 ]] || { echo "the long lane's (make check-long): a LAVA boot under TCG takes minutes"; exit 4; }
[[ $abiwatch == ./abiwatch ]] || { echo "runs against ./abiwatch only: the guest's abiwatch is the static build"; exit 4; }
if ! command -v lava-run >/dev/null || [[ ! -d /usr/share/lava-server/device-types ]]; then
	[[ $(id -u) == 0 ]] || { echo "lava-dispatcher and lava-server are not installed, and installing needs root"; exit 4; }
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends lava-dispatcher lava-server \
		busybox-static >/dev/null 2>&1 || { echo "lava-dispatcher and lava-server cannot be installed here (apt-get)"; exit 4; }
fi
deb=$(tests/lib/debian-kernel 6.1) || { echo "$deb"; exit 4; }
work=$(mktemp -d "${TMPDIR:-/tmp}/abiwatch-lavarun.XXXXXX")
trap 'rm -rf "$work"' EXIT
status=0
ok() { echo "ok   $*"; }
bad() { echo "FAIL $*"; status=1; }

release=$(dpkg-deb -f "$deb" Package | sed 's/^linux-image-//')
lava/make-ramdisk "$deb" "$work/images" >/dev/null || { bad "make-ramdisk"; exit 1; }
lava/render-job "$work/images" "$release" mqueue >"$work/job.yaml"
lava/run-job "$work/job.yaml" "$work/run" && ok "lava-run: the job completed" || bad "lava-run: exit $?"
"$abiwatch" list mqueue | awk '$1 == "check" { print $2 }' >"$work/checks"
if lava/check-results --run "$work/run/result.yaml" "$work/run/results.yaml" "$work/checks" "$work/run/output.yaml" >"$work/verdict"; then
	ok "every check a test case, as the snapshot says: $(sed -n 2p "$work/verdict")"
else
	bad "results:"; sed 's/^/  /' "$work/verdict"
fi
if lava/job-snapshot "$work/run/output.yaml" "$work/lava.snapshot"; then
	ok "the snapshot came back from the log"
	"$abiwatch" vm --deb "$deb" -o "$work/vm.snapshot" -- mqueue >/dev/null 2>&1
	"$abiwatch" diff "$work/vm.snapshot" "$work/lava.snapshot" >"$work/diff"
	case $? in
	0) ok "the same kernel here and under LAVA: $(head -n 1 "$work/diff")" ;;
	*) bad "abiwatch vm against LAVA:"; sed 's/^/  /' "$work/diff" ;;
	esac
else
	bad "no snapshot in the log"
fi
[[ -z $(ls -A /var/lib/lava/dispatcher/tmp 2>/dev/null) ]] && ok "lava-run left nothing in its job directory" ||
	bad "left in /var/lib/lava/dispatcher/tmp: $(ls /var/lib/lava/dispatcher/tmp)"
pgrep -f qemu-system.*"$work" >/dev/null && bad "a QEMU of the job still runs"
exit $status

# Sourced by tests/integration/dirent_*.sh: reading a snapshot and
# comparing its values, with one line of output per comparison.
#   load_snapshot FILE        fills snap[KEY]=VALUE; header_ok=1 when the
#                             header is "abiwatch-snapshot 1[.N]"
#   expect KEY VALUE          the value is VALUE
#   expect_match KEY REGEX    the value matches REGEX (bash =~)
#   expect_le KEY N           the value is a number <= N
#   expect_pass PROBE...      every check of each probe is "pass"
#   expect_pairs ARRAY        each KEY VALUE pair of the named array holds
#   expect_triples ARRAY old|new  each KEY OLD NEW triple: OLD or NEW holds
#   expect_no_failures FAMILY FILE  no item of FAMILY in the snapshot FILE
#                             failed, broke or timed out
#   expect_fs_here FS...      for each filesystem this machine lacks
#                             (tests/lib/machine), the probe must be a skip
#                             naming it; then the test ends as a skip
#   expect_same_runs N DIR CMD...  runs CMD... -o DIR/I for I = 1..N: each
#                             exits 0 (else its "not ok" KTAP lines are
#                             shown; the output of a run is DIR/ktap), and
#                             then expect_same_snapshots N DIR
#   expect_same_snapshots N DIR  each of DIR/2 .. DIR/N is identical to
#                             DIR/1 (else the first lines of the diff)
#   finish                    prints the counts; exit 0, or 1 after failures
#   expect_i386 KEY VALUE     from tests/lib/machine: VALUE where i386
#                             programs run, a skip saying why elsewhere
# ABIWATCH (default ./abiwatch) is the program; ABIWATCH_HELPER_DIR is set
# to build/m32 when unset, so that build/asan/abiwatch finds the 32-bit
# helper too.
set -u
export LC_ALL=C
abiwatch=${ABIWATCH:-./abiwatch}
export ABIWATCH_HELPER_DIR=${ABIWATCH_HELPER_DIR:-$PWD/build/m32}
declare -A snap
header_ok=0 compared=0 failures=0
. "$(dirname "${BASH_SOURCE[0]}")/machine"

skip() { echo "SKIP: $*"; exit 4; }

load_snapshot() {
	local first=1 line
	snap=()
	header_ok=0
	while IFS= read -r line; do
		if ((first)); then
			first=0
			[[ $line =~ ^abiwatch-snapshot\ 1(\.[0-9]+)?$ ]] && header_ok=1
			continue
		fi
		[[ $line == *" = "* ]] || continue
		snap[${line%% = *}]=${line#* = }
	done <"$1"
}

report() { # ok|bad what
	compared=$((compared + 1))
	if [[ $1 == ok ]]; then
		echo "ok   $2"
	else
		echo "FAIL $2"
		failures=$((failures + 1))
	fi
}

expect() {
	local got=${snap[$1]-<absent>}
	if [[ $got == "$2" ]]; then report ok "$1 = $got"
	else report bad "$1: expected '$2', got '$got'"; fi
}

expect_match() {
	local got=${snap[$1]-<absent>}
	if [[ $got =~ $2 ]]; then report ok "$1 = $got"
	else report bad "$1: expected a match of /$2/, got '$got'"; fi
}

expect_le() {
	local got=${snap[$1]-<absent>}
	if [[ $got =~ ^[0-9]+$ ]] && ((got <= $2)); then report ok "$1 = $got (<= $2)"
	else report bad "$1: expected a number <= $2, got '$got'"; fi
}

DIRENT_CHECKS="unique complete seek_resume telldir_matches_doff terminates terminates_rename unmodified_once survivors_once matches_record"
expect_pairs() { # array-name
	local -n pairs=$1
	local i
	for ((i = 0; i < ${#pairs[@]}; i += 2)); do
		expect "${pairs[i]}" "${pairs[i + 1]}"
	done
}

expect_triples() { # array-name old|new
	local -n triples=$1
	local i off=1
	[[ $2 == new ]] && off=2
	for ((i = 0; i < ${#triples[@]}; i += 3)); do
		expect "${triples[i]}" "${triples[i + off]}"
	done
}

expect_no_failures() { # family snapshot
	local bad
	bad=$(grep -E "^(check|obs|unobserved|probe)\.$1\..* = (fail|error|timeout)" "$2")
	[[ -z $bad ]] && report ok "no $1 item failed, broke or timed out" ||
		report bad "$1 items failed or broke:"$'\n'"$bad"
}


expect_pass() {
	local p c
	for p in "$@"; do
		for c in $DIRENT_CHECKS; do
			expect "check.dirent.$p.$c" pass
		done
	done
}

# For the cookiefs tests: skip unless it can be mounted here, and set
# $cookiefs, $tmp (removed by the caller's trap) and an empty $mnt in it.
cookiefs_scratch() { # tag
	cookiefs=tools/cookiefs/cookiefs
	[[ -x $cookiefs ]] || skip "no $cookiefs (make tools; needs libfuse3-dev)"
	[[ -c /dev/fuse ]] || skip "no /dev/fuse"
	[[ $(id -u) == 0 ]] || skip "mounting cookiefs here needs root"
	tmp=$(mktemp -d "${TMPDIR:-/tmp}/abiwatch-$1.XXXXXX") || exit 1
	mnt=$tmp/mnt
	mkdir "$mnt"
}

# The snapshot and the KTAP output tell the same story for each check of the
# probes named: pass is "ok", skip is "ok ... # SKIP", anything else "not ok".
expect_ktap_agrees() { # ktap-file probe...
	local ktap=$1 p c key want line
	shift
	for p in "$@"; do
		for c in $DIRENT_CHECKS; do
			key=check.dirent.$p.$c
			case ${snap[$key]-} in
			pass) want='^ *ok [0-9]+ ' ;;
			skip*) want='^ *ok [0-9]+ .*# SKIP' ;;
			*) want='^ *not ok [0-9]+ ' ;;
			esac
			line=$(grep -E "^ *(not )?ok [0-9]+ dirent\.$p\.$c( |$)" "$ktap")
			[[ $line =~ $want ]] && report ok "KTAP agrees on $key" ||
				report bad "KTAP says '$line' for $key = '${snap[$key]-<absent>}'"
		done
	done
}

expect_fs_here() { # fs...
	local fs missing=()
	for fs in "$@"; do
		machine_fs "$fs" && continue
		missing+=("$fs")
		expect_match "check.dirent.$fs.unique" "^skip: .*$fs"
	done
	((${#missing[@]} == 0)) && return
	((failures)) && finish
	skip "this machine has no ${missing[*]} (tests/lib/machine); the probes said so"
}

# The family tests' "no item depends on timing": N runs, identical
# snapshots.
expect_same_runs() { # runs dir cmd...
	local runs=$1 dir=$2 i rc
	shift 2
	for ((i = 1; i <= runs; i++)); do
		"$@" -o "$dir/$i" >"$dir/ktap" 2>&1
		rc=$?
		[[ $rc == 0 ]] && report ok "run $i exits 0" || { report bad "run $i exits $rc"; grep 'not ok' "$dir/ktap"; }
	done
	expect_same_snapshots "$runs" "$dir"
}

expect_same_snapshots() { # runs dir
	local i
	for ((i = 2; i <= $1; i++)); do
		if cmp -s "$2/1" "$2/$i"; then
			report ok "snapshot $i is identical to snapshot 1"
		else
			report bad "snapshot $i differs from snapshot 1:"
			diff "$2/1" "$2/$i" | head -20
		fi
	done
}

finish() {
	echo "$compared compared, $failures failed"
	((failures == 0)) || exit 1
	exit 0
}

# shellcheck shell=bash
# Shared by tests/integration/mqueue_*.sh: run some mqueue probes, load the
# snapshot, and compare its lines with what the kernel must (checks) or
# does (observations) answer.  Source it, then:
#
#   mq_run mqueue.names            # runs abiwatch, loads the snapshot
#   expect check.mqueue.names.einval_empty pass
#   mq_finish                      # prints the tally; exit 0, or 1
#
# $ABIWATCH is the binary (default ./abiwatch).  A skipped check is
# "check.X = skip: why", an observation that could not be made
# "unobserved.X = skip: why" (abiwatch-snapshot(5)).
set -u
export LC_ALL=C
abiwatch=${ABIWATCH:-./abiwatch}
mq_root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)

mq_tmp=$(mktemp -d "${TMPDIR:-/tmp}/abiwatch-mqtest.XXXXXX")
trap 'rm -rf "$mq_tmp"' EXIT

declare -A snap
failures=0
compared=0

report() { # ok|bad text
	compared=$((compared + 1))
	if [[ $1 == ok ]]; then
		echo "ok   $2"
	else
		echo "FAIL $2"
		failures=$((failures + 1))
	fi
}

# The kernel release as major*1000+minor, for answers that changed.
kver() {
	local major minor
	IFS=. read -r major minor _ <<<"$(uname -r)"
	echo $((major * 1000 + ${minor%%[!0-9]*}))
}
kver_ge() { (($(kver) >= $1 * 1000 + $2)); }

mq_run() { # glob...
	"$abiwatch" run -o "$mq_tmp/snap" "$@" >"$mq_tmp/ktap" 2>"$mq_tmp/err"
	mq_rc=$?
	if [[ ! -s $mq_tmp/snap ]]; then
		echo "FAIL: no snapshot written (exit $mq_rc)"
		cat "$mq_tmp/err"
		exit 1
	fi
	local first=1 line
	while IFS= read -r line; do
		if ((first)); then
			first=0
			[[ $line =~ ^abiwatch-snapshot\ 1(\.[0-9]+)?$ ]] ||
				report bad "header: '$line'"
			continue
		fi
		[[ $line == *" = "* ]] || continue
		snap[${line%% = *}]=${line#* = }
	done <"$mq_tmp/snap"
	if "$mq_root/tests/lib/ktap-check" "$mq_tmp/ktap" >"$mq_tmp/ktap-problems"; then
		report ok "KTAP output is well-formed"
	else
		report bad "KTAP output: $(head -n 3 "$mq_tmp/ktap-problems")"
	fi
}

expect_status() { # wanted exit status of the run
	[[ $mq_rc == "$1" ]] && report ok "abiwatch exit status $mq_rc" ||
		report bad "abiwatch exit status $mq_rc, expected $1"
}

value_of() { # key: the value, or whatever the snapshot has for the item instead
	local k=$1 item=${1#*.}
	if [[ -n ${snap[$k]+x} ]]; then echo "${snap[$k]}"; return; fi
	for alt in "check.$item" "obs.$item" "unobserved.$item"; do
		[[ -n ${snap[$alt]+x} ]] && { echo "$alt = ${snap[$alt]}"; return; }
	done
	echo "<absent>"
}

expect() { # key expected
	local got
	got=$(value_of "$1")
	if [[ $got == "$2" ]]; then report ok "$1 = $got"
	else report bad "$1: expected '$2', got '$got'"; fi
}

expect_one_of() { # key value...
	local k=$1 got v
	got=$(value_of "$k")
	shift
	for v in "$@"; do
		[[ $got == "$v" ]] && { report ok "$k = $got"; return; }
	done
	report bad "$k: expected one of '$*', got '$got'"
}

expect_match() { # key extended-regex
	local got
	got=$(value_of "$1")
	if [[ $got =~ $2 ]]; then report ok "$1 = $got"
	else report bad "$1: expected /$2/, got '$got'"; fi
}

expect_same() { # key1 key2: equal values, both present
	local a b
	a=$(value_of "$1")
	b=$(value_of "$2")
	if [[ $a == "$b" && $a != "<absent>" && -n ${snap[$1]+x} ]]; then
		report ok "$1 = $2 = $a"
	else
		report bad "$1 ('$a') differs from $2 ('$b')"
	fi
}

# A skipped item whose reason contains word: check or observation.
expect_skip_naming() { # item word
	local c=${snap[check.$1]-} u=${snap[unobserved.$1]-}
	if [[ $c == skip* && $c == *"$2"* ]]; then report ok "check.$1 = $c"
	elif [[ -z $c && $u == *"$2"* ]]; then report ok "unobserved.$1 = $u"
	else report bad "$1: expected a skip naming '$2', got '$(value_of "check.$1")'"; fi
}

# Whether the runner gives probes real uids to switch to: without
# CAP_SYS_ADMIN they run in a user namespace where only uid 0 is mapped.
have_uids() { [[ ",${snap[env.caps]-}," == *",cap_sys_admin,"* ]]; }

# An item that needs an unprivileged uid: expected where there is one,
# else a skip saying why.
expect_unpriv() { # key expected
	if have_uids; then expect "$1" "$2"
	else expect_skip_naming "${1#*.}" "not mapped"; fi
}

# Every item of the probes run has a result: passes, observations, and
# skips with a reason; no fail, no error.
expect_no_failures() {
	local k bad=0
	for k in "${!snap[@]}"; do
		case ${snap[$k]} in
		fail*|error*) report bad "$k = ${snap[$k]}"; bad=1 ;;
		esac
	done
	((bad)) || report ok "no check failed and no item had an error"
}

mq_finish() {
	echo "$compared compared, $failures failed"
	if ((failures)); then
		echo "--- KTAP"
		cat "$mq_tmp/ktap"
		exit 1
	fi
	exit 0
}

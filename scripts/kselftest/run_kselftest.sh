#!/bin/sh
# Run the tests of kselftest-list.txt as the kernel's kselftest runner does:
# a TAP header and plan, each test's output as "# " comment lines, its
# result as "ok N selftests: COLLECTION: TEST", with "# SKIP" for exit 4
# and "not ok ... # TIMEOUT N seconds" when it outlives the timeout in its
# collection's settings file (45 s without one).
#
#   run_kselftest.sh [-t COLLECTION:TEST]...   (default: every test)
here=$(cd "$(dirname "$0")" && pwd)
list=$here/kselftest-list.txt
chosen=
while getopts t: opt; do
	case $opt in
	t) chosen="$chosen $OPTARG" ;;
	*) echo "usage: $0 [-t COLLECTION:TEST]..." >&2; exit 2 ;;
	esac
done
tests=${chosen:-$(cat "$list")}

timeout_of() { # collection
	t=$(sed -n 's/^timeout=\([0-9][0-9]*\)$/\1/p' "$here/$1/settings" 2>/dev/null)
	echo "${t:-45}"
}

echo "TAP version 13"
echo "1..$(echo $tests | wc -w)"
n=0 failed=0
for entry in $tests; do
	n=$((n + 1))
	col=${entry%%:*} test=${entry#*:}
	limit=$(timeout_of "$col")
	echo "# selftests: $col: $test"
	out=$(mktemp) || exit 1
	(cd "$here/$col" && timeout --foreground "$limit" "./$test") >"$out" 2>&1
	rc=$?
	sed 's/^/# /' "$out"
	rm -f "$out"
	case $rc in
	0) echo "ok $n selftests: $col: $test" ;;
	4) echo "ok $n selftests: $col: $test # SKIP" ;;
	124) echo "not ok $n selftests: $col: $test # TIMEOUT $limit seconds"; failed=1 ;;
	*) echo "not ok $n selftests: $col: $test # exit=$rc"; failed=1 ;;
	esac
done
exit $failed

#!/usr/bin/env bash
# tests/run: sealed
# KCIDB output: a real run's document validates against the kcidb-io
# schema v5.3 (tests/data/kcidb/), says for every check what the snapshot
# says, carries the numbers with their units and the observations in misc,
# and is the same from `run --format kcidb` and `abiwatch kcidb`; documents
# broken on purpose are refused by the same validation; options and bad
# input.
set -u
export LC_ALL=C
abiwatch=${ABIWATCH:-./abiwatch}
schema=tests/data/kcidb/kcidb-io.schema.v5.3.json
work=$(mktemp -d "${TMPDIR:-/tmp}/abiwatch-kcidb.XXXXXX")
trap 'rm -rf "$work"' EXIT
status=0
ok() { echo "ok   $*"; }
bad() { echo "FAIL $*"; status=1; }
skip() { echo "SKIP: $*"; exit 4; }
python3 -c 'import jsonschema' 2>/dev/null || skip "python3-jsonschema not installed (scripts/install-deps)"
command -v jq >/dev/null || skip "jq not installed (scripts/install-deps)"
valid() { scripts/kcidb-validate "$schema" "$1" >"$work/why" 2>&1; }

# One run gives the snapshot and the document.
mkdir "$work/here"
"$abiwatch" run mqueue dirent --fs tmpfs --path "here=$work/here" --entries 1000 -f kcidb -o "$work/s.snapshot" \
	>"$work/run.json"
rc=$?
[[ $rc == 0 || $rc == 1 ]] && ok "run -f kcidb exits $rc" || bad "run -f kcidb exits $rc"
valid "$work/run.json" && ok "run -f kcidb validates against kcidb-io v5.3" || { bad "invalid:"; cat "$work/why"; }
"$abiwatch" kcidb "$work/s.snapshot" >"$work/conv.json" && ok "kcidb of the snapshot exits 0" || bad "kcidb failed"
cmp -s "$work/run.json" "$work/conv.json" && ok "run -f kcidb and kcidb SNAPSHOT give the same document" ||
	bad "the two documents differ"
doc=$work/conv.json
[[ $(jq -r '.version | "\(.major).\(.minor)"' "$doc") == 5.3 ]] && ok "version 5.3" || bad "version"

# Every check, one for one, with KCIDB's name for its status.
sed -n 's/^check\.\([^ ]*\) = \([a-z]*\).*/abiwatch.\1 \2/p' "$work/s.snapshot" |
	sed 's/ pass$/ PASS/; s/ fail$/ FAIL/; s/ skip$/ SKIP/; s/ error$/ ERROR/; s/ timeout$/ ERROR/' |
	sort >"$work/want"
jq -r '.tests[] | "\(.path) \(.status)"' "$doc" | sort >"$work/all"
join "$work/want" "$work/all" | awk '$2 == $3' | wc -l >"$work/n"
[[ $(cat "$work/n") == $(wc -l <"$work/want") && -s $work/want ]] &&
	ok "all $(wc -l <"$work/want") checks present with their status" ||
	{ bad "checks: $(cat "$work/n") of $(wc -l <"$work/want") match"; join -v1 "$work/want" "$work/all" | head; }
n=$(jq '[.tests[].id] | length' "$doc"); u=$(jq '[.tests[].id] | unique | length' "$doc")
[[ $n == "$u" ]] && ok "$n test ids, all distinct" || bad "$n test ids, $u distinct"
[[ $(jq '[.tests[] | select(.build_id != "'"$(jq -r '.builds[0].id' "$doc")"'")] | length' "$doc") == 0 &&
   $(jq '.builds | length' "$doc") == 1 && $(jq -r '.builds[0].checkout_id == .checkouts[0].id' "$doc") == true ]] &&
	ok "one checkout and one build, every test points at it" || bad "builds and checkouts"
[[ $(jq -r '.builds[0].architecture' "$doc") == "$(uname -m)" ]] && ok "build architecture $(uname -m)" ||
	bad "architecture $(jq -r '.builds[0].architecture' "$doc")"

# A number with its unit, as the snapshot has it; a non-number in misc only.
test_of() { jq -c --arg p "$1" '.tests[] | select(.path == $p)' "$doc"; }
maxmsg=$(sed -n 's/^obs\.mqueue\.noattr\.maxmsg = //p' "$work/s.snapshot")
[[ $(test_of abiwatch.mqueue.noattr.maxmsg | jq -c '[.status, .number]') == "[\"DONE\",{\"value\":$maxmsg,\"unit\":\"messages\"}]" ]] &&
	ok "mqueue.noattr.maxmsg: DONE, number $maxmsg messages" || bad "maxmsg: $(test_of abiwatch.mqueue.noattr.maxmsg)"
bits=$(sed -n 's/^obs\.dirent\.tmpfs\.cookie_bits = //p' "$work/s.snapshot")
[[ $(test_of abiwatch.dirent.tmpfs.cookie_bits | jq -c .number) == "{\"value\":$bits,\"unit\":\"bit\"}" ]] &&
	ok "dirent.tmpfs.cookie_bits: $bits bit" || bad "cookie_bits: $(test_of abiwatch.dirent.tmpfs.cookie_bits)"
# A SKIP the machine caused carries its cause in misc, as the snapshot
# names it ("skip: needs CAUSE: ..."); one the kernel caused has none.
caused=$(sed -n 's/^check\.\([^ ]*\) = skip: needs \([a-z0-9_:]*\): .*/abiwatch.\1 \2/p' "$work/s.snapshot" | sort)
got=$(jq -r '.tests[] | select(.misc.skip_cause != null) | "\(.path) \(.misc.skip_cause)"' "$doc" |
	grep -v '^abiwatch\.[^.]*\.[^.]* ' | grep -v '^abiwatch\.[^.]* ' | sort)
if [[ -z $caused ]]; then
	echo "SKIP: this machine caused no skip of a check (it runs i386 programs and holds every capability)"
elif [[ $caused == "$got" ]]; then
	ok "$(wc -l <<<"$caused") SKIPs the machine caused carry misc.skip_cause ($(cut -d' ' -f2 <<<"$caused" | sort -u | tr '\n' ' '))"
else
	bad "skip causes differ: $(diff <(echo "$caused") <(echo "$got") | head -5)"
fi
[[ $(jq '[.tests[] | select(.misc.skip_cause != null and .status != "SKIP")] | length' "$doc") == 0 ]] &&
	ok "only SKIPs carry a skip_cause" || bad "a test with skip_cause is not SKIP"
# A probe --path made is in no table, but its items are dirent's.
bits=$(sed -n 's/^obs\.dirent\.here\.cookie_bits = //p' "$work/s.snapshot")
[[ $(test_of abiwatch.dirent.here.cookie_bits | jq -c .number) == "{\"value\":$bits,\"unit\":\"bit\"}" ]] &&
	ok "dirent.here (--path): cookie_bits $bits bit" || bad "--path cookie_bits: $(test_of abiwatch.dirent.here.cookie_bits)"
eof=$(sed -n 's/^obs\.dirent\.tmpfs\.eof_cookie = //p' "$work/s.snapshot")
[[ -z $(test_of abiwatch.dirent.tmpfs.eof_cookie) &&
   $(test_of abiwatch.dirent.tmpfs | jq -r .misc.observations.eof_cookie) == "$eof" ]] &&
	ok "eof_cookie ($eof, hex) only in the probe's misc" || bad "eof_cookie: $(test_of abiwatch.dirent.tmpfs)"
nobs=$(grep -c '^obs\.' "$work/s.snapshot")
[[ $(jq '[.tests[].misc.observations // {} | length] | add' "$doc") == "$nobs" ]] &&
	ok "all $nobs observations in their probes' misc" || bad "observations in misc"
nnum=$(jq '[.tests[] | select(.number)] | length' "$doc")
[[ $nnum -ge 10 && $(jq '[.tests[] | select(.number) | select(.status != "DONE" or (.number.unit | length) == 0)] | length' "$doc") == 0 ]] &&
	ok "$nnum numbers, each DONE with a unit" || bad "numbers: $nnum"

# Without CAP_SYS_RESOURCE the privileged checks are skips with the reason.
if grep -q '^check\.mqueue\.privileged\.einval_above_hard = skip' "$work/s.snapshot"; then
	t=$(test_of abiwatch.mqueue.privileged.einval_above_hard)
	[[ $(jq -r .status <<<"$t") == SKIP && $(jq -r .log_excerpt <<<"$t") == needs\ cap_sys_resource:* && $(jq -r .misc.skip_cause <<<"$t") == cap_sys_resource ]] &&
		ok "a skipped check: SKIP, the reason as log_excerpt" || bad "skip: $t"
	[[ $(test_of abiwatch.mqueue.privileged | jq -r '.misc.unobserved.hard_msgmax') == skip:\ needs\ cap_sys_resource:* ]] &&
		ok "unobserved observations in the probe's misc" || bad "unobserved: $(test_of abiwatch.mqueue.privileged)"
fi
root=$(test_of abiwatch)
[[ $(jq -r '.environment.misc["kernel.release"]' <<<"$root") == "$(uname -r)" ]] &&
	ok "the root test's environment has env.*" || bad "root environment: $(jq -c .environment <<<"$root" | head -c 300)"

# Edited results: a failure and a timeout rise to the probe, family and root.
sed -e 's/^\(check\.mqueue\.noattr\.clamp\) = .*/\1 = fail: edited by the test/' \
    -e 's/^\(check\.mqueue\.attr\.accepted_at_max\) = .*/\1 = timeout: no result within 3 s/' \
    -e 's/^\(check\.mqueue\.sendrecv\.[a-z_]*\) = pass$/\1 = error: EBADF \xff raw byte/' \
    "$work/s.snapshot" >"$work/e.snapshot"
"$abiwatch" kcidb -o "$work/e.json" "$work/e.snapshot" && valid "$work/e.json" &&
	ok "an edited snapshot (a raw 0xff byte in a reason) gives a valid document" || { bad "edited:"; cat "$work/why"; }
doc=$work/e.json
st() { test_of "$1" | jq -r .status; }
[[ $(st abiwatch.mqueue.noattr.clamp) == FAIL && $(st abiwatch.mqueue.noattr) == FAIL && $(st abiwatch.mqueue) == FAIL &&
   $(st abiwatch) == FAIL ]] && ok "a FAIL rises to probe, family and root" || bad "FAIL propagation"
[[ $(st abiwatch.mqueue.attr.accepted_at_max) == ERROR && $(st abiwatch.mqueue.attr) == ERROR ]] &&
	ok "a timeout is an ERROR, and so is its probe" || bad "timeout: $(test_of abiwatch.mqueue.attr.accepted_at_max)"
[[ $(st abiwatch.dirent) == PASS || $(st abiwatch.dirent) == SKIP ]] && ok "the other family keeps its status" ||
	bad "dirent: $(st abiwatch.dirent)"

# Our own origin and build: no made-up objects.
"$abiwatch" kcidb --origin my_ci --build-id my_ci:build-42 "$work/s.snapshot" >"$work/o.json"
valid "$work/o.json" && [[ $(jq '[.tests[] | select(.build_id != "my_ci:build-42" or .origin != "my_ci" or (.id | startswith("my_ci:") | not))] | length' "$work/o.json") == 0 &&
   $(jq 'has("builds") or has("checkouts")' "$work/o.json") == false ]] &&
	ok "--origin and --build-id: every test is my_ci's, of build my_ci:build-42, nothing made up" || bad "--origin/--build-id"

# Two kernels (a matrix directory): a build each.
mkdir "$work/m"
cp "$work/s.snapshot" "$work/m/a.snapshot"
sed 's/^env\.kernel\.release = .*/env.kernel.release = 6.1.0-99-test/' "$work/s.snapshot" >"$work/m/b.snapshot"
"$abiwatch" kcidb "$work/m" >"$work/m.json" && valid "$work/m.json" &&
	[[ $(jq '.builds | length' "$work/m.json") == 2 && $(jq '[.tests[].build_id] | unique | length' "$work/m.json") == 2 ]] &&
	ok "a directory of two snapshots: two builds, each with its tests" || bad "directory"

# The validation catches what it should (so the passes above mean something).
broken() { # description jq-filter
	jq "$2" "$work/conv.json" >"$work/broken.json"
	scripts/kcidb-validate "$schema" "$work/broken.json" >"$work/why" 2>&1
	local rc=$?
	[[ $rc == 1 ]] && ok "broken document refused ($1): $(head -n 1 "$work/why")" || bad "broken ($1): exit $rc"
}
broken "unknown status" '.tests[0].status = "BOGUS"'
broken "space in a path" '.tests[0].path = "abiwatch.mqueue noattr"'
broken "no origin" 'del(.tests[0].origin)'
broken "schema major 4" '.version.major = 4'
broken "number without value" '(.tests[] | select(.number) | .number) |= {unit: "B"}'

# Bad usage and bad input: one line, exit 2, nothing written.
one_line() { # description expected-text command...
	local what=$1 want=$2
	shift 2
	"$@" >"$work/out" 2>"$work/err"
	local rc=$?
	[[ $rc == 2 && $(wc -l <"$work/err") == 1 && ! -s $work/out && $(cat "$work/err") == *"$want"* ]] &&
		ok "$what: $(cat "$work/err")" || { bad "$what: exit $rc"; cat "$work/err"; }
}
one_line "bad --origin" "--origin takes" "$abiwatch" kcidb --origin "My CI" "$work/s.snapshot"
one_line "bad --build-id" "--build-id takes" "$abiwatch" kcidb --build-id 42 "$work/s.snapshot"
one_line "--build-id with two" "one snapshot" "$abiwatch" kcidb --build-id x:1 "$work/m"
one_line "no snapshot" "no snapshot" "$abiwatch" kcidb
printf 'abiwatch-snapshot 1.0\nenv.arch = x86_64\nnot a line\n' >"$work/bad.snapshot"
one_line "bad snapshot" "bad.snapshot:3:" "$abiwatch" kcidb "$work/bad.snapshot"
"$abiwatch" kcidb -o "$work/nothing.json" "$work/bad.snapshot" 2>/dev/null
[[ ! -e $work/nothing.json && -z $(ls "$work" | grep '\.tmp\.') ]] && ok "-o: nothing written on bad input" ||
	bad "-o left a file"
"$abiwatch" kcidb --help | grep -q -- '--build-id' && ok "kcidb --help" || bad "kcidb --help"
exit $status

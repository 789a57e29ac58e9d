#!/usr/bin/env bash
# tests/run: sealed
# The LAVA job abiwatch renders is one LAVA takes, and the snapshot comes
# back from a job's log whole or not at all:
#  - lava/render-job's job passes lava-common's strict job schema (what
#    lava-run --validate and a strict lab apply) and, where lava-server is
#    installed, its submission schema, which is a different one; the run's
#    arguments reach the test shell as its first step;
#  - lava/job-snapshot turns a log of either form LAVA writes (a server's
#    YAML list, lava-run's record a line) back into the guest's snapshot
#    byte for byte, which abiwatch diff reads; a log whose snapshot lost or
#    changed a line, was cut off, or has no checksum gives no snapshot and
#    says why (exit 1); a file that is no LAVA log is named (exit 2).
set -u
export LC_ALL=C
abiwatch=${ABIWATCH:-./abiwatch}
py=/usr/bin/python3
work=$(mktemp -d "${TMPDIR:-/tmp}/abiwatch-lavajob.XXXXXX")
trap 'rm -rf "$work"' EXIT
status=0
ok() { echo "ok   $*"; }
bad() { echo "FAIL $*"; status=1; }

"$py" -c 'import lava_common.schemas' 2>/dev/null ||
	{ echo "lava-common is not installed (apt-get install lava-common)"; exit 4; }

# The test definition's description names every family abiwatch has, so
# that a lab's listing says what a job runs (one added is one to name).
desc=$(sed -n 's/^ *description: //p' lava/abiwatch.yaml | head -1)
missing=
for fam in $("$abiwatch" list | awk '/^[a-z]/ {print $1}'); do
	[[ $desc == *" $fam"[,\)]* ]] || missing+=" $fam"
done
[[ -n $desc && -z $missing ]] && ok "the definition's description names every family" ||
	bad "lava/abiwatch.yaml's description does not name:$missing"

# The images are only named by the job: empty files will do.
mkdir "$work/images" && : >"$work/images/vmlinuz" && : >"$work/images/ramdisk.cpio"
lava/render-job --job-minutes 7 "$work/images" 6.1.0-57-cloud-amd64 "mqueue dirent.tmpfs --path 'x=\"/tmp/a b'" >"$work/job.yaml" ||
	bad "render-job failed"
"$py" - "$work/job.yaml" <<'PY' && ok "strict job schema" || bad "strict job schema"
import sys, yaml
from lava_common.schemas import validate
job = yaml.safe_load(open(sys.argv[1]))
validate(job, strict=True)
assert job["timeouts"]["job"] == {"minutes": 7}, job["timeouts"]
PY
if "$py" -c 'import lava_scheduler_app' 2>/dev/null; then
	DJANGO_SETTINGS_MODULE=lava_server.settings.prod "$py" - "$work/job.yaml" <<'PY' &&
import sys, yaml
from lava_scheduler_app.schema import validate_submission
validate_submission(yaml.safe_load(open(sys.argv[1])))
PY
		ok "lava-server's submission schema" || bad "lava-server's submission schema"
else
	echo "note: lava-server is not installed; its submission schema not tried"
fi
# The first step sets the arguments; run as the test shell runs the steps.
first=$("$py" -c 'import sys, yaml; j = yaml.safe_load(open(sys.argv[1]))
print(j["actions"][2]["test"]["definitions"][0]["repository"]["run"]["steps"][0])' "$work/job.yaml")
got=$(sh -c "$first; printf %s \"\$ABIWATCH_ARGS\"")
[[ $got == "mqueue dirent.tmpfs --path 'x=\"/tmp/a b'" ]] && ok "arguments reach the test shell" ||
	bad "arguments reach the test shell as <$got>"

# A log as LAVA keeps it, around a real snapshot of this kernel.
"$abiwatch" run mqueue.attr mqueue.noattr -o "$work/real.snapshot" >/dev/null
case $? in 0 | 1 | 4) ;; *) bad "abiwatch run"; exit 1 ;; esac
make_log() { # SNAPSHOT FORM(list|lines) > LOG
	"$py" - "$1" "$2" <<'PY'
import hashlib, json, sys
text = open(sys.argv[1], encoding="utf-8").read()
lines = ["+ abiwatch run", "abiwatch-snapshot-sha256 " + hashlib.sha256(text.encode()).hexdigest(),
         "abiwatch-snapshot-begin"] + text.splitlines() + ["abiwatch-snapshot-end"]
records = [{"dt": "2026-01-01T00:00:00", "lvl": "info", "msg": "start: 0 validate"}]
records += [{"dt": "2026-01-01T00:00:01", "lvl": "target", "msg": l + "\r"} for l in lines]
for r in records:
    print(("- " if sys.argv[2] == "list" else "") + json.dumps(r))
PY
}
for form in list lines; do
	make_log "$work/real.snapshot" $form >"$work/$form.log"
	if lava/job-snapshot "$work/$form.log" "$work/$form.snapshot" && cmp -s "$work/real.snapshot" "$work/$form.snapshot"; then
		ok "$form log: the snapshot byte for byte"
	else
		bad "$form log: the snapshot is not the guest's"
	fi
done
"$abiwatch" diff "$work/real.snapshot" "$work/list.snapshot" >/dev/null && ok "abiwatch diff reads it" ||
	bad "abiwatch diff of the log's snapshot"

# What the lab knows of the run goes in as env keys in their sorted
# places, and the snapshot stays one abiwatch reads; a key the guest wrote
# is never replaced.
lava/job-snapshot --env "vm.package=linux-image-9.9.9-test 9.9.9-1" --env "vm.accel=tcg" --env "lava.job=7" \
	"$work/list.log" "$work/env.snapshot" 2>"$work/err"
LC_ALL=C sort -c <(tail -n +2 "$work/env.snapshot") 2>/dev/null &&
	grep -qxF "env.vm.package = linux-image-9.9.9-test 9.9.9-1" "$work/env.snapshot" &&
	grep -qxF "env.lava.job = 7" "$work/env.snapshot" &&
	[[ $(($(wc -l <"$work/env.snapshot") - $(wc -l <"$work/real.snapshot"))) == 3 ]] &&
	"$abiwatch" diff "$work/real.snapshot" "$work/env.snapshot" >/dev/null &&
	ok "--env: 3 keys added in their sorted places; abiwatch reads it, no change" ||
	bad "--env: $(cat "$work/err"); $(grep -n '^env.vm\|^env.lava' "$work/env.snapshot")"
key=$(grep -m 1 '^env\.' "$work/real.snapshot" | cut -d' ' -f1)
lava/job-snapshot --env "${key#env.}=x" "$work/list.log" "$work/env2.snapshot" 2>"$work/err"
rc=$?
((rc == 2)) && [[ ! -e $work/env2.snapshot ]] && grep -q "has $key already" "$work/err" &&
	ok "--env of a key the guest wrote: exit 2, nothing written" || bad "--env replacing $key: exit $rc, $(cat "$work/err")"
lava/job-snapshot --env "no spaces=x" "$work/list.log" "$work/env3.snapshot" 2>"$work/err"
rc=$?
((rc == 2)) && grep -q "expected NAME=VALUE" "$work/err" && ok "--env with a bad name: exit 2, says what is expected" ||
	bad "--env bad name: exit $rc, $(cat "$work/err")"

expect_refused() { # NAME LOG WORDS
	rm -f "$work/out.snapshot"
	lava/job-snapshot "$2" "$work/out.snapshot" 2>"$work/err"
	local rc=$?
	if ((rc == 1)) && [[ ! -e $work/out.snapshot ]] && grep -q "$3" "$work/err"; then
		ok "$1: no snapshot, says '$3'"
	else
		bad "$1: exit $rc, $(cat "$work/err")"
	fi
}
# One value changed on its way, one line lost, two lines joined.
sed '0,/ = pass/s// = fail/' "$work/lines.log" >"$work/changed.log"
expect_refused "a value changed" "$work/changed.log" "damaged"
awk '!(/obs\./ && !done++)' "$work/lines.log" >"$work/lost.log"
expect_refused "a line lost" "$work/lost.log" "damaged"
grep -v abiwatch-snapshot-end "$work/lines.log" >"$work/cut.log"
expect_refused "cut off" "$work/cut.log" "end marker"
grep -v abiwatch-snapshot-sha256 "$work/lines.log" >"$work/nosum.log"
expect_refused "no checksum" "$work/nosum.log" "no checksum"
grep -v 'snapshot-begin' "$work/lines.log" >"$work/none.log"
expect_refused "no snapshot" "$work/none.log" "no snapshot"
printf 'key: [unclosed\n  - x: {\n' >"$work/bad.log"
lava/job-snapshot "$work/bad.log" "$work/out.snapshot" 2>"$work/err"
rc=$?
((rc == 2)) && grep -q "bad.log" "$work/err" && ok "not a LAVA log: exit 2, named" || bad "not a log: exit $rc, $(cat "$work/err")"
exit $status
